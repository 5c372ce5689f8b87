"""scripts/loop/run.sh, the unattended network loop, end to end on a tiny scale: it installs its
binaries, seeds the current best from the repo's default net, generates a run into the game's
pool, trains on the pool, plays the SPRT against the best, rejects the undecided net, stops at
MAX_ATTEMPTS, and a second start goes on with attempt 2 where the first stopped, with the pool
grown to two runs and the best net unchanged. The second start's SPRT bounds are negative, which
must reach `datagen match` as one value (not be taken for an option)."""

import os
import re
import subprocess

from conftest import ROOT

RUN = ROOT / "scripts" / "loop" / "run.sh"
# Small enough for seconds: a few hundred positions at 50 nodes, one superbatch of two 256-position
# batches, a two-pair match (which cannot reach a verdict, so the attempt is rejected).
TINY = {
    "GAME": "shogi", "POSITIONS": "300", "NODES": "50", "SUPERBATCHES": "1", "BATCHES": "2",
    "BATCH": "256", "VAL_EVERY": "4", "MATCH_PAIRS": "2", "MATCH_NODES": "100", "THREADS": "1",
}


def loop(data, **settings):
    env = {**os.environ, "SENTE_DATA": str(data), **TINY, **settings}
    done = subprocess.run(["bash", str(RUN)], env=env, capture_output=True, text=True, timeout=150)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def pool_runs(data):
    rows = (data / "shogi" / "pool" / "pool.tsv").read_text().splitlines()[2:]
    return [row.split("\t") for row in rows]


def test_loop_generates_pools_trains_matches_rejects_and_resumes(tmp_path):
    install = subprocess.run(["bash", str(RUN), "install"], env={**os.environ, "SENTE_DATA": str(tmp_path)},
                             capture_output=True, text=True, timeout=170)
    assert install.returncode == 0, install.stdout + install.stderr
    for tool in ("sente", "datagen", "tuner"):
        assert os.access(tmp_path / "bin" / tool, os.X_OK)

    # The best net is seeded from nets/shogi-default.nnue, its generation counted in history.tsv.
    promotions = sum(1 for line in (ROOT / "nets" / "history.tsv").read_text().splitlines()
                     if line.startswith("shogi\t"))
    gen = promotions + 1
    log = loop(tmp_path, MAX_ATTEMPTS="1")
    best = (tmp_path / "shogi" / "best.txt").read_text().split()
    assert best[0] == str(promotions), best
    assert (tmp_path / best[1]).read_bytes() == (ROOT / "nets" / "shogi-default.nnue").read_bytes()

    assert f"gen {gen} attempt 1: generating 300 positions at 50 nodes" in log, log
    assert f"gen {gen} attempt 1: training on 1 data files" in log, log
    result = re.search(rf"gen {gen} attempt 1: Elo \S+ ± \S+ \(95%\), 4 games, SPRT \[0,10\] LLR -?[0-9.]+\n", log)
    assert result, log
    assert f"gen {gen} attempt 1 rejected" in log, log
    assert log.rstrip().endswith(f"gen {gen}: MAX_ATTEMPTS 1 rejected"), log
    runs = pool_runs(tmp_path)
    assert len(runs) == 1 and runs[0][1] == str(gen) and runs[0][3] == "50", runs
    assert int(runs[0][7]) >= 300, runs
    attempt = tmp_path / "shogi" / f"gen{gen}" / "a1"
    assert (attempt / "train" / f"shogi-gen{gen}.nnue").stat().st_size > 0
    assert "AcceptH1" not in (attempt / "match.txt").read_text()

    # Started again with room for a second attempt: attempt 1 is not redone; attempt 2 adds a run
    # with its own seed and trains on both.
    log = loop(tmp_path, MAX_ATTEMPTS="2", SPRT="-600,-400")
    assert "attempt 1" not in log, log
    assert f"gen {gen} attempt 2: training on 2 data files" in log, log
    assert re.search(rf"gen {gen} attempt 2: Elo \S+ ± \S+ \(95%\), 4 games, SPRT \[-600,-400\] LLR -?[0-9.]+\n", log), log
    assert "SPRT [-600, -400]" in (tmp_path / "shogi" / f"gen{gen}" / "a2" / "match.txt").read_text()
    assert log.rstrip().endswith(f"gen {gen}: MAX_ATTEMPTS 2 rejected"), log
    runs = pool_runs(tmp_path)
    assert [run[4] for run in runs] == [str(gen * 10 + 1), str(gen * 10 + 2)], runs
    assert (tmp_path / "shogi" / "best.txt").read_text().split()[0] == str(promotions)
    assert not (tmp_path / "shogi" / "promotions.tsv").exists()
