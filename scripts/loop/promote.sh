#!/usr/bin/env bash
# Step 4: if the SPRT passed (H1 accepted), copy the net into nets/ under its content hash, make it
# the game's embedded default, and append its provenance to nets/README.md and nets/history.tsv.
source "$(dirname "$0")/common.sh"
# shellcheck source=match_summary.sh
source "$(dirname "$0")/match_summary.sh"
NEW="$WORK/train/$GAME-gen$GEN.nnue"
if ! grep -q "AcceptH1" "$WORK/match.txt"; then
    echo "promote: the SPRT did not accept the new net (see $WORK/match.txt); nothing promoted"
    exit 1
fi
HASH="$(sha256sum "$NEW" | cut -c1-12)"
NAME="$GAME-$HASH.nnue"
PARENT="$(current_best)"
[ "$PARENT" = classical ] || PARENT="$(basename "$(readlink -f "$PARENT")")"
cp "$NEW" "$ROOT/nets/$NAME"
cp "$NEW" "$ROOT/nets/$GAME-default.nnue"
RESULT="$(match_summary "$WORK/match.txt" "$SPRT")"
# The provenance counts every file the net was trained on (train.sh: data.bin + EXTRA_DATA).
DATA=("$WORK/data/data.bin")
for extra in ${EXTRA_DATA:-}; do DATA+=("$extra"); done
"$BIN/datagen" stats --game "$GAME" "${DATA[@]}" > "$WORK/train-data-stats.txt"
POSITIONS="$(grep -oE "[0-9]+ scored positions" "$WORK/train-data-stats.txt" | cut -d' ' -f1)"
GAMES_DONE="$(grep -oE "data: [0-9]+ games" "$WORK/train-data-stats.txt" | cut -d' ' -f2)"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$GAME" "$NAME" "$PARENT" "$GAMES_DONE" "$POSITIONS" \
    "$NODES" "$SEED" "sb=$SUPERBATCHES x $BATCHES x $BATCH lr=$LR wdl=$WDL" "$RESULT" >> "$ROOT/nets/history.tsv"
echo "| $GAME | $NAME | $PARENT | $GAMES_DONE games, $POSITIONS positions, $NODES nodes/move, seed $SEED | sb=$SUPERBATCHES×$BATCHES×$BATCH, lr $LR, λ $WDL | $RESULT | $(date -u +%F) |" >> "$ROOT/nets/README.md"
(cd "$ROOT" && cargo build --release -q -p tuner)
"$BIN/tuner" elo-plot --history "$ROOT/nets/history.tsv" --out "$ROOT/nets"
echo "promote: $NAME is now nets/$GAME-default.nnue (rebuild to embed it)"
