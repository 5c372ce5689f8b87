#!/usr/bin/env bash
# Fetches the test data that ships in python-chess's source archive on PyPI (chess==1.11.2):
# the 35 three- and four-piece Syzygy tables (WDL and DTZ, data/syzygy/regular/, 4.4 MB) and
# the Polyglot test book (data/polyglot/performance.bin). They are cached outside the
# repository, in ${SENTE_TESTDATA:-${XDG_CACHE_HOME:-~/.cache}/sente-testdata}; a second run
# finds them there and downloads nothing. Prints the cache directory.
#
# Tests find the files through SENTE_TESTDATA (or that default path): syzygy/ holds the
# tables, polyglot/ the books.
set -euo pipefail
version=1.11.2
cache=${SENTE_TESTDATA:-${XDG_CACHE_HOME:-$HOME/.cache}/sente-testdata}
if [[ -f $cache/syzygy/KQvKR.rtbz && -f $cache/polyglot/performance.bin && -f $cache/.complete ]]; then
    echo "$cache"
    exit 0
fi
mkdir -p "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
    "chess==$version" -d "$work" >&2
archive=$(ls "$work"/chess-"$version".tar.gz)
tar -xzf "$archive" -C "$work" \
    "chess-$version/data/syzygy/regular" "chess-$version/data/polyglot"
rm -rf "$cache/syzygy" "$cache/polyglot"
mkdir -p "$cache/syzygy" "$cache/polyglot"
cp "$work/chess-$version"/data/syzygy/regular/*.rtb[wz] "$cache/syzygy/"
cp "$work/chess-$version"/data/polyglot/*.bin "$cache/polyglot/"
count=$(ls "$cache/syzygy" | wc -l)
if [[ $count -ne 70 ]]; then
    echo "expected 70 table files (35 WDL + 35 DTZ), found $count" >&2
    exit 1
fi
touch "$cache/.complete"
echo "$cache"
