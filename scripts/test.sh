#!/usr/bin/env bash
# Runs every test Sente has, installing what the tests need first (a fresh Debian machine with
# rustup's cargo and python3 is enough). Used by the README and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== installing test dependencies"
python3 -m pip install --quiet --disable-pip-version-check chess cshogi pytest || {
    echo "pip install failed" >&2
    exit 1
}

echo "== test data (Syzygy tables, Polyglot book; cached outside the repository)"
SENTE_TESTDATA=$(scripts/fetch-test-data.sh)
export SENTE_TESTDATA

echo "== formatting and lints"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --release -- -D warnings

echo "== Rust tests (optimised; perft rows above 50M nodes are in the ignored tier)"
cargo test --workspace --release

echo "== the search tree's counters (a build with the tree-stats feature, in its own target directory)"
cargo clippy --release -p sente --all-targets --features tree-stats --target-dir target/tree-stats -- -D warnings
cargo test --release -p sente --features tree-stats --target-dir target/tree-stats --test search_tree_stats

echo "== scale-out on a real one-node Slurm cluster (installs slurm-wlm and munge as root)"
if [ "$(id -u)" = 0 ] || command -v slurmctld >/dev/null; then
    scripts/slurm/local-cluster.sh
else
    echo "SKIPPED: needs root (to install slurm-wlm and munge) or Slurm already installed"
fi

if [ -x scripts/test-clients.sh ]; then
    echo "== third-party client tests"
    scripts/test-clients.sh
fi
echo "== all tests passed"
