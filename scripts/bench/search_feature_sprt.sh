#!/usr/bin/env bash
# What a search technique is worth: the classical evaluator's default search plays the same
# search with CHANGES (`name=on|off,...`; the names are `SearchFeatures::NAMES`, e.g.
# `material_scaling=off`) in paired games with random openings, through `datagen match --b-search`, and
# the match report is printed: W/D/L, Elo ± error, pentanomial counts and the SPRT verdict.
#
# Usage: scripts/bench/search_feature_sprt.sh GAME CHANGES [ELO0,ELO1]
#   GAME       chess or shogi
#   CHANGES    e.g. `material_scaling=off`
#   ELO0,ELO1  SPRT bounds for the default search's advantage: `0,10` (default: the technique
#              gains) or `-10,0` (a speed-only change must not lose)
# Environment: PAIRS (100), NODES per move (chess 3000, shogi 5000), TC (`BASE+INC` seconds: a
# real clock instead of NODES, so that a change that only buys speed is measured by what the
# speed is worth), THREADS (games at once, 2), SEED (chess 2024, shogi 2026), VERIFY_NODES (search
# that rejects lopsided openings; 0, the old measurement tests' setting), DATAGEN (a datagen
# binary; default: a release build of this checkout).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ $# -lt 2 || $# -gt 3 ]]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
fi
game=$1
changes=$2
sprt=${3:-0,10}
case $game in
    chess) nodes=${NODES:-3000} seed=${SEED:-2024} ;;
    shogi) nodes=${NODES:-5000} seed=${SEED:-2026} ;;
    *) echo "unknown game '$game' (chess or shogi)" >&2; exit 2 ;;
esac
if [[ -n ${DATAGEN:-} ]]; then
    datagen=$DATAGEN
else
    cargo build --release --quiet -p datagen >&2
    datagen=${CARGO_TARGET_DIR:-target}/release/datagen
fi
limit=(--nodes "$nodes")
[[ -n ${TC:-} ]] && limit=(--tc="$TC")
started=$SECONDS
"$datagen" match --game "$game" --a-net classical --b-net classical --b-search "$changes" \
    --sprt="$sprt" --pairs "${PAIRS:-100}" "${limit[@]}" --threads "${THREADS:-2}" \
    --seed "$seed" --random-plies 8 --verify-nodes "${VERIFY_NODES:-0}"
echo "$game, ${limit[*]}, $((SECONDS - started)) s"
