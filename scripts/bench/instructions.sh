#!/usr/bin/env bash
# Deterministic speed measure for noisy hosts: the instructions `sente bench` executes, counted by
# valgrind's callgrind (which runs the AVX2 kernels: it has no AVX-512). Same binary, same count,
# whatever the machine is doing; fewer instructions for the same bench node count is a speedup
# of the search itself (memory stalls aside).
#
# Usage: scripts/bench/instructions.sh [SENTE] [OUT_DIR]
#   SENTE defaults to a release build with line tables in /tmp/sente-callgrind-target (built here),
#   OUT_DIR (default /tmp) receives callgrind.GAME.out for `callgrind_annotate`.
# Prints, per game, the bench's node count (its signature) and the instruction total. The bench
# depths are small (chess 8, shogi 7) so a run takes about a minute under valgrind; both games run
# at once.
set -euo pipefail
cd "$(dirname "$0")/../.."
out_dir=${2:-/tmp}
if [[ $# -ge 1 ]]; then
    sente=$1
else
    target=/tmp/sente-callgrind-target
    CARGO_PROFILE_RELEASE_DEBUG=line-tables-only CARGO_TARGET_DIR=$target \
        cargo build --release -p sente >&2
    sente=$target/release/sente
fi
command -v valgrind >/dev/null || { echo "valgrind is needed (apt install valgrind)" >&2; exit 1; }
[[ -x $sente ]] || { echo "no executable $sente" >&2; exit 1; }
mkdir -p "$out_dir"
for game in chess shogi; do
    depth=8
    [[ $game == shogi ]] && depth=7
    valgrind --tool=callgrind --callgrind-out-file="$out_dir/callgrind.$game.out" \
        "$sente" bench "$game" "$depth" >"$out_dir/callgrind.$game.log" 2>&1 &
done
wait
for game in chess shogi; do
    nodes=$(grep -o 'Nodes searched *: *[0-9]*' "$out_dir/callgrind.$game.log" | grep -o '[0-9]*$')
    instructions=$(grep -o 'refs: *[0-9,]*' "$out_dir/callgrind.$game.log" | grep -o '[0-9,]*$')
    echo "$game: bench nodes $nodes, instructions $instructions"
done
