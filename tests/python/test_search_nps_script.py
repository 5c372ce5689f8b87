"""scripts/bench/search_nps.py, the protocol-level speed measure: it drives the engine through
UCI and USI with an option set, reads the searches' own node and time counts, and pairs each
engine's rounds with the first engine's."""

import re
import subprocess
import sys

from conftest import ROOT

SUMMARY = re.compile(r"^(.+): median (\d+) nodes/s, ([\d.]+) x (.+) per round \(range ([\d.]+)-([\d.]+)\)$")


def run(args):
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench" / "search_nps.py"), *args],
        capture_output=True, text=True, timeout=170,
    )


def summaries(out):
    return [m.groups() for m in map(SUMMARY.match, out.splitlines()) if m]


def test_chess_and_shogi_searches_are_measured_and_paired(engine_path):
    for game, extra in [("chess", ["--option", "EvalFile=classical"]), ("shogi", [])]:
        done = run(["2", engine_path, engine_path, "--game", game, "--nodes", "20000",
                    "--hash", "8", *extra])
        assert done.returncode == 0, done.stderr
        rows = summaries(done.stdout)
        assert [r[0] for r in rows] == [engine_path, engine_path], done.stdout
        for name, nps, ratio, first, low, high in rows:
            assert int(nps) > 0 and first == engine_path
            assert float(low) <= float(ratio) <= float(high)
        # The first engine is its own reference: exactly 1 in every round.
        assert rows[0][2:] == ("1.000", engine_path, "1.000", "1.000")
        assert len(re.findall(r"^round \d/2: \d+, \d+$", done.stdout, re.M)) == 2, done.stdout


def test_a_bad_option_or_engine_is_an_error_not_a_hang(engine_path):
    done = run(["1", engine_path, "--option", "Hash"])
    assert done.returncode != 0 and "NAME=VALUE" in done.stderr
    done = run(["1", "/bin/true", "--nodes", "1000"])
    assert done.returncode != 0 and "ended before" in done.stderr
