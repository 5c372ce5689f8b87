#!/usr/bin/env bash
# Builds Stockfish 15.1 with the tree counters of scripts/bench/tree_stats.py: the reference side
# of that comparison.
#   scripts/bench/tree_stats/build-stockfish-15.1.sh SRC [ARCH]
# SRC is a Stockfish checkout at the sf_15.1 tag (git clone https://github.com/official-stockfish/Stockfish
# SRC && git -C SRC checkout sf_15.1). The net it needs (nn-ad9b42354671.nnue) is taken from
# Debian's stockfish 15.1 package (/usr/games/stockfish embeds it) when SRC/src lacks it, and
# checked by its SHA-256 prefix, so nothing is downloaded. Prints the built binary's path.
set -euo pipefail
SRC="${1:?usage: build-stockfish-15.1.sh SRC [ARCH]}"
ARCH="${2:-x86-64-avx2}"
HERE="$(cd "$(dirname "$0")" && pwd)"
NET="$SRC/src/nn-ad9b42354671.nnue"
[ "$(git -C "$SRC" describe --tags --exact-match 2>/dev/null)" = sf_15.1 ] \
    || { echo "build-stockfish-15.1: $SRC is not a checkout of the sf_15.1 tag" >&2; exit 1; }
if [ ! -f "$NET" ]; then
    python3 - /usr/games/stockfish "$NET" <<'PY'
import hashlib, struct, sys
binary, out = sys.argv[1], sys.argv[2]
data = open(binary, "rb").read()
description = b"Network trained with the https://github.com/glinscott/nnue-pytorch trainer."
header = struct.pack("<I", 0x7AF32F20)
# The net's size: header, feature transformer (1024 biases, 22528 x 1024 weights, 22528 x 8 PSQT
# weights), 8 layer stacks of 17,640 bytes.
size = 12 + len(description) + 4 + 1024 * 2 + 22528 * 1024 * 2 + 22528 * 8 * 4 + 8 * 17640
at = data.find(description)
start = at - 12
net = data[start:start + size] if at >= 12 and data[start:start + 4] == header else b""
if hashlib.sha256(net).hexdigest()[:12] != "ad9b42354671":
    sys.exit(f"build-stockfish-15.1: no nn-ad9b42354671.nnue inside {binary} (install Debian's stockfish 15.1)")
open(out, "wb").write(net)
PY
fi
git -C "$SRC" apply --check "$HERE/stockfish-15.1.patch" 2>/dev/null && git -C "$SRC" apply "$HERE/stockfish-15.1.patch"
grep -q "namespace TreeStats" "$SRC/src/search.cpp" \
    || { echo "build-stockfish-15.1: the patch does not apply to $SRC" >&2; exit 1; }
make -C "$SRC/src" -j"$(nproc)" build ARCH="$ARCH" COMP=gcc >/dev/null
echo "$SRC/src/stockfish"
