#!/usr/bin/env bash
# Step 1: self-play data for generation $GEN with the current best evaluator.
# Resumable: rerun the same command after a kill. Log: $WORK/datagen.log
source "$(dirname "$0")/common.sh"
build
PLAYER="$(current_best)"
echo "generate: $GAME gen $GEN, $GAMES games at $NODES nodes, evaluator $PLAYER -> $WORK/data"
"$BIN/datagen" run --game "$GAME" --games "$GAMES" --nodes "$NODES" --threads "$THREADS" \
    --seed "$SEED" --net "$PLAYER" --out "$WORK/data" 2>&1 | tee -a "$WORK/datagen.log"
"$BIN/datagen" stats --game "$GAME" "$WORK/data/data.bin" | tee "$WORK/data-stats.txt"
