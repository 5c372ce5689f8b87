#!/usr/bin/env bash
# Copies the nets that scripts/loop/run.sh promoted (rows of $SENTE_DATA/$GAME/promotions.tsv
# not yet in nets/history.tsv) into nets/ under their content hash, makes the newest the game's
# embedded default, appends each one's provenance to nets/README.md and nets/history.tsv, and
# redraws nets/elo.{png,svg}. Then rebuild (the default net is embedded) and commit nets/.
#   GAME=chess scripts/loop/publish.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SENTE_DATA="${SENTE_DATA:-$HOME/sente-data}"
GAME="${GAME:?set GAME=chess or GAME=shogi}"
PROMOTIONS="$SENTE_DATA/$GAME/promotions.tsv"
[ -f "$PROMOTIONS" ] || { echo "publish: no promotions in $PROMOTIONS"; exit 0; }
published=0
while IFS=$'\t' read -r game name parent games positions nodes runs training result date; do
    if grep -q "	$name	" "$ROOT/nets/history.tsv"; then
        continue
    fi
    # Copied beside and renamed over: a program that has the old default net memory-mapped keeps
    # its (unlinked) file instead of dying of SIGBUS when the file under its mapping is rewritten.
    for target in "$ROOT/nets/$name" "$ROOT/nets/$GAME-default.nnue"; do
        cp "$SENTE_DATA/$GAME/nets/$name" "$target.tmp" && mv "$target.tmp" "$target"
    done
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$game" "$name" "$parent" "$games" "$positions" \
        "$nodes" "$runs" "$training" "$result" >> "$ROOT/nets/history.tsv"
    echo "| $game | $name | $parent | $games games, $positions positions, $nodes nodes/move, $runs | $training | $result | $date |" >> "$ROOT/nets/README.md"
    echo "publish: $name is now nets/$GAME-default.nnue"
    published=$((published + 1))
done < "$PROMOTIONS"
if [ "$published" -gt 0 ]; then
    (cd "$ROOT" && cargo build --release -q -p tuner)
    "$ROOT/target/release/tuner" elo-plot --history "$ROOT/nets/history.tsv" --out "$ROOT/nets"
fi
