#!/usr/bin/env bash
# A burst of self-play on a borrowed many-core machine (a cloud VM, a GPU box's idle CPUs, a
# cluster node for an hour): the runs named on the command line play side by side for SECONDS,
# stop cleanly at a chunk boundary (`datagen run --max-time`), and are packed into one archive to
# carry home and add to the pools. Each run is an ordinary, resumable `datagen run`: the same
# burst started again in the same WORK directory continues every run where it stopped.
#
#   scripts/burst.sh SECONDS WORK ARCHIVE RUN...
#   RUN = game:nodes:threads:seed:net[:gen]   (net relative to WORK, e.g. chess/nets/chess-….nnue)
#
# e.g. scripts/burst.sh 600 /tmp/w /tmp/burst.tar.xz \
#        chess:1250:8:1521:chess/nets/chess-9341840f84e2.nnue:15 \
#        shogi:1250:8:1721:shogi/nets/shogi-045c0dbbc408.nnue:17
# Run directories are WORK/GAME/runs/genG-nNODES-sSEED, as `datagen loop` names them, with
# G = the run's gen field, else POOL_GEN (default 0): the generation the data will join. At home:
#   tar xJf burst.tar.xz -C ~/sente-data && datagen pool add --pool ~/sente-data/GAME/pool \
#       --game GAME --generation G --net NET ~/sente-data/GAME/runs/genG-nNODES-sSEED
# Settings (environment): DATAGEN (default: target/release/datagen beside this script's repo),
# POSITIONS (cap per run, default 100000000), POOL_GEN, SPLIT (e.g. 15M: the archive is cut into
# ARCHIVE.part0, .part1, … of at most that size, for a transfer that limits file sizes; `cat
# ARCHIVE.part* > ARCHIVE` joins them). ARCHIVE.sha256 holds the whole archive's checksum.
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
SECONDS_BUDGET="$1" WORK="$2" ARCHIVE="$3"; shift 3
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATAGEN="${DATAGEN:-$ROOT/target/release/datagen}"
ARCHIVE="$(cd "$(dirname "$ARCHIVE")" && pwd)/$(basename "$ARCHIVE")"
mkdir -p "$WORK" && cd "$WORK"
RUNS=()
for spec in "$@"; do
    IFS=: read -r game nodes threads seed net gen <<< "$spec"
    [ -n "${net:-}" ] || { echo "burst: '$spec' is not game:nodes:threads:seed:net[:gen]" >&2; exit 2; }
    out="$game/runs/gen${gen:-${POOL_GEN:-0}}-n$nodes-s$seed"
    mkdir -p "$out"
    RUNS+=("$out")
    "$DATAGEN" run --game "$game" --positions "${POSITIONS:-100000000}" --nodes "$nodes" \
        --threads "$threads" --seed "$seed" --net "$net" --out "$out" \
        --max-time "$SECONDS_BUDGET" > "$out/burst.log" 2>&1 &
done
STATUS=0
for job in $(jobs -p); do wait "$job" || STATUS=$?; done
for out in "${RUNS[@]}"; do
    echo "$out: $(tr '\r' '\n' < "$out/burst.log" | grep -E 'positions/s' | tail -1)"
done
[ "$STATUS" = 0 ] || { echo "burst: a datagen run failed (see its burst.log)" >&2; exit "$STATUS"; }
tar cf - "${RUNS[@]}" | xz -T0 -6 > "$ARCHIVE.tmp" && mv "$ARCHIVE.tmp" "$ARCHIVE"
(cd "$(dirname "$ARCHIVE")" && sha256sum "$(basename "$ARCHIVE")") > "$ARCHIVE.sha256"
echo "burst: $(du -h "$ARCHIVE" | cut -f1) in $ARCHIVE"
rm -f "$ARCHIVE".part*  # parts of an earlier archive
if [ -n "${SPLIT:-}" ]; then
    split -b "$SPLIT" -d -a 2 "$ARCHIVE" "$ARCHIVE.part"
    echo "burst: split into $(ls "$ARCHIVE".part* | wc -l) parts of at most $SPLIT"
fi
