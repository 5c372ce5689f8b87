"""scripts/bench/tree_stats.py, the search-tree comparison: it drives two engines that answer
`treestats` over the bench positions and reports where their nodes went. Sente against itself
must report the same counts in both columns (one thread, fixed nodes, empty hash: the searches
repeat exactly), and a build without the counters is refused with the way to build one."""

import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT, load_script

SCRIPT = ROOT / "scripts" / "bench" / "tree_stats.py"


@pytest.fixture(scope="module")
def counting_engine() -> str:
    path = os.environ.get("SENTE_TREE_STATS_BIN", str(ROOT / "target" / "tree-stats" / "release" / "sente"))
    if not os.access(path, os.X_OK):
        pytest.fail(f"no tree-stats build at {path}: cargo build --release -p sente --features tree-stats "
                    "--target-dir target/tree-stats")
    return path


def run(args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120)


def test_an_engine_against_itself_reports_equal_columns(counting_engine):
    done = run(["--sente", counting_engine, "--reference", counting_engine, "--nodes", "20000", "--limit", "3"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("3 positions (sente bench chess), 20000 nodes each"), done.stdout
    rows = [line for line in done.stdout.splitlines()[2:] if line.strip()]
    assert len(rows) > 50, done.stdout
    for line in rows:
        *_, a, b = line.split()
        assert a == b, line
    main = re.search(r"^main-search nodes\s+(\d+)\s+(\d+)$", done.stdout, re.M)
    quiescence = re.search(r"^quiescence nodes\s+(\d+)\s+(\d+)$", done.stdout, re.M)
    # Every node of the three 20,000-node searches is counted once.
    assert int(main.group(1)) + int(quiescence.group(1)) == 3 * 20000, done.stdout


def test_a_build_without_the_counters_is_refused(engine_path):
    done = run(["--sente", engine_path, "--reference", engine_path, "--nodes", "1000", "--limit", "1"])
    assert done.returncode != 0
    assert "does not count" in done.stderr and "--features tree-stats" in done.stderr, done.stderr


def test_shares_are_ratios_of_the_counters():
    module = load_script("bench/tree_stats.py", "tree_stats_script")
    counters = {"main_nodes": 1000, "qsearch_nodes": 1000, "null_move_cutoffs": 50, "move_loops": 400,
                "fail_highs": 200, "fail_high_first": 150, "fail_high_moves": 300, "fail_lows": 100,
                "fail_low_moves": 500, "moves_searched": 2000, "reduced": 500, "reduced_researched": 25,
                "main_nodes@3": 100, "null_move_cutoffs@3": 20}
    shares = module.shares(counters)
    assert shares["quiescence share of all nodes"] == 0.5
    assert shares["null-move cutoffs / main node"] == 0.05
    assert shares["first-move share of fail-highs"] == 0.75
    assert shares["moves searched at a fail-high"] == 1.5
    assert shares["moves searched at a fail-low"] == 5.0
    assert shares["reduced share of moves searched"] == 0.25
    assert shares["re-searched share of reduced moves"] == 0.05
    assert shares["depth 3: null-move cutoffs / node"] == 0.2
    # An engine without razoring or ProbCut prints neither: they count as none.
    assert shares["razoring / main node"] == 0.0 and shares["ProbCut / main node"] == 0.0
