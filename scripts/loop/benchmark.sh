#!/usr/bin/env bash
# Step 3: SPRT of the new net against the current best (classical for generation 1).
# Writes $WORK/match.txt. Log: $WORK/match.log
source "$(dirname "$0")/common.sh"
build
NEW="$WORK/train/$GAME-gen$GEN.nnue"
OLD="$(current_best)"
echo "benchmark: $NEW vs $OLD, up to $MATCH_PAIRS pairs at $MATCH_NODES nodes, SPRT [$SPRT]"
"$BIN/datagen" match --game "$GAME" --a "$NEW" --b "$OLD" --pairs "$MATCH_PAIRS" \
    --nodes "$MATCH_NODES" --threads "$THREADS" --seed "$((SEED + 1000))" --sprt="$SPRT" \
    2>&1 | tee "$WORK/match.txt" | tee -a "$WORK/match.log"
