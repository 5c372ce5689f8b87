#!/usr/bin/env bash
# Third-party client tests: python-chess drives Sente over UCI and XBoard, cshogi over USI.
# Builds the release binary, installs the clients, runs tests/python with pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check chess cshogi pytest
cargo build --release -p sente -p datagen
# The search-tree counters' build, for scripts/bench/tree_stats.py's test (built already when
# scripts/test.sh ran the counters' own tests).
cargo build --release -p sente --features tree-stats --target-dir target/tree-stats
SENTE_BIN="$PWD/target/release/sente" python3 -m pytest -q tests/python "$@"
