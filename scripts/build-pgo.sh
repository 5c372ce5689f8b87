#!/usr/bin/env bash
# Profile-guided build of `sente` and `datagen` (Stockfish's `make profile-build`): an instrumented
# build plays a fixed workload (both games' bench, self-play, perft and a protocol session), LLVM
# merges the counts, and the release build is redone with them, so the hot paths of the search,
# move generation and NNUE updates are laid out together and fit the instruction cache. The
# binaries behave exactly as the plain release build (same bench signatures, same self-play
# bytes; this script checks the signatures) and search faster (docs/measurements.md).
#
#   scripts/build-pgo.sh            # binaries in target/pgo/release/{sente,datagen}
#   PGO_NETS="nets/chess-27fc6585f208.nnue" scripts/build-pgo.sh   # also profile these nets
#
# The workload profiles the default nets; a binary meant to play other nets (another width takes
# other kernels) should have them profiled too: each file in PGO_NETS adds a `bench` with it
# (chess or shogi by its name).
#
# Needs `llvm-profdata` of the LLVM that rustc uses: rustup's `llvm-tools` component (installed
# here with `rustup component add llvm-tools` when missing). The plain `cargo build --release`
# needs none of this; the loop uses the profiled binaries with `PGO=1 scripts/loop.sh install`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
GENERATE_DIR="$ROOT/target/pgo-generate"
PROFILE_DIR="$ROOT/target/pgo-profiles"
USE_DIR="$ROOT/target/pgo"

host="$(rustc -vV | sed -n 's/^host: //p')"
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
    echo "build-pgo: installing rustup's llvm-tools (for llvm-profdata)" >&2
    rustup component add llvm-tools >&2 || true
fi
if [ ! -x "$profdata" ]; then
    echo "build-pgo: no $profdata; install it with 'rustup component add llvm-tools'" >&2
    exit 1
fi

# Any RUSTFLAGS of the caller apply to all three builds (the profile must match the code).
base_flags="${RUSTFLAGS:-}"
echo "build-pgo: instrumented build" >&2
rm -rf "$PROFILE_DIR"
RUSTFLAGS="$base_flags -Cprofile-generate=$PROFILE_DIR" CARGO_TARGET_DIR="$GENERATE_DIR" \
    cargo build --release -q -p sente -p datagen

echo "build-pgo: profiling workload" >&2
bin="$GENERATE_DIR/release"
work="$(mktemp -d "${TMPDIR:-/tmp}/sente-pgo.XXXXXX")"
trap 'rm -rf "$work"' EXIT
for game in chess shogi; do
    "$bin/sente" bench "$game" > /dev/null
    "$bin/datagen" run --game "$game" --positions 4000 --nodes 1250 --seed 1 \
        --net "nets/$game-default.nnue" --out "$work/$game" > /dev/null 2>&1
done
# The loop trains inside datagen (the tuner's library): a short fine-tune of each game's default
# net on the self-play just written puts the trainer in the profile. Left out, the profile calls
# it cold and it is optimised as cold code (the loop trained 2.5x slower than the plain build).
for game in chess shogi; do
    loop="$work/loop-$game"
    mkdir -p "$loop/$game/nets"
    cp "nets/$game-default.nnue" "$loop/$game/nets/best.nnue"
    mirror=false
    [ "$game" = shogi ] && mirror=true
    printf '%s\n' "game = \"$game\"" "data = \"$loop\"" "repository = \"$ROOT\"" "[train]" \
        "superbatches = 2" "batches = 20" "batch = 1024" "val_every = 20" "threads = 2" \
        "init = \"best\"" "mirror = $mirror" > "$loop/loop.toml"
    printf '%s\n' "best_generation = 1" "best_net = \"$game/nets/best.nnue\"" "generation = 2" \
        "attempt = 1" 'step = "train"' "train_data = [\"$work/$game\"]" "rescore_files = []" \
        "rescore_done = 0" "a_nodes = 0" "speed_ratio = 1.0" "round = 0" \
        > "$loop/$game/loop-state.toml"
    "$bin/datagen" loop --config "$loop/loop.toml" --max-steps 1 > "$loop/log" 2>&1 \
        || { cat "$loop/log" >&2; echo "build-pgo: the $game training workload failed" >&2; exit 1; }
done
for net in ${PGO_NETS:-}; do
    case "$(basename "$net")" in
        chess*) "$bin/sente" bench chess --net "$net" > /dev/null ;;
        shogi*) "$bin/sente" bench shogi --net "$net" > /dev/null ;;
        *) echo "build-pgo: $net: the name must start with chess or shogi" >&2; exit 1 ;;
    esac
done
"$bin/sente" perft 5 > /dev/null
"$bin/sente" perft 4 shogi > /dev/null
printf 'uci\nposition startpos moves e2e4 e7e5\ngo nodes 300000\nisready\nquit\n' \
    | "$bin/sente" > /dev/null
printf 'usi\nposition startpos moves 7g7f 3c3d\ngo nodes 200000\nisready\nquit\n' \
    | "$bin/sente" > /dev/null
"$profdata" merge -o "$PROFILE_DIR/merged.profdata" "$PROFILE_DIR"/*.profraw

echo "build-pgo: optimised build with the profile" >&2
RUSTFLAGS="$base_flags -Cprofile-use=$PROFILE_DIR/merged.profdata" CARGO_TARGET_DIR="$USE_DIR" \
    cargo build --release -q -p sente -p datagen

# The profile changes code layout, never behaviour: the bench signatures must be the plain
# build's.
RUSTFLAGS="$base_flags" cargo build --release -q -p sente
signature() { "$1" bench "$2" 2>&1 | sed -n 's/^Nodes searched *: *//p'; }
for game in chess shogi; do
    plain="$(signature target/release/sente "$game")"
    profiled="$(signature "$USE_DIR/release/sente" "$game")"
    if [ -z "$plain" ] || [ "$plain" != "$profiled" ]; then
        echo "build-pgo: $game bench signature $profiled differs from the plain build's $plain" >&2
        exit 1
    fi
    echo "build-pgo: $game bench signature $profiled (as the plain build)" >&2
done
echo "$USE_DIR/release/sente"
echo "$USE_DIR/release/datagen"
