"""scripts/loop/run.sh, the unattended network loop, end to end on a tiny scale: it installs its
binaries, seeds the current best from the repo's default net, generates a run into the game's
pool, trains on the pool, plays the SPRT against the best, rejects the undecided net, stops at
MAX_ATTEMPTS, and a second start goes on with attempt 2 where the first stopped, with the pool
grown to two runs and the best net unchanged. The second start's SPRT bounds are negative, which
must reach `datagen match` as one value (not be taken for an option). A second test runs it with
RESCORE_POSITIONS through a promotion into the next generation, which starts by rescoring the
pool's stale files."""

import os
from pathlib import Path
import fcntl
import re
import subprocess
import time

from conftest import ROOT

RUN = ROOT / "scripts" / "loop" / "run.sh"
# Small enough for seconds: a few hundred positions at 50 nodes, one superbatch of two 256-position
# batches, a two-pair match (which cannot reach a verdict, so the attempt is rejected).
TINY = {
    "GAME": "shogi", "POSITIONS": "300", "NODES": "50", "SUPERBATCHES": "1", "BATCHES": "2",
    "BATCH": "256", "VAL_EVERY": "4", "MATCH_PAIRS": "2", "MATCH_NODES": "100", "THREADS": "1",
    "MATCH_EXTRA_ROUNDS": "0",
}


def loop(data, **settings):
    env = {**os.environ, "SENTE_DATA": str(data), **TINY, **settings}
    done = subprocess.run(["bash", str(RUN)], env=env, capture_output=True, text=True, timeout=150)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def pool_runs(data, game="shogi"):
    rows = (data / game / "pool" / "pool.tsv").read_text().splitlines()[2:]
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


def test_an_undecided_sprt_goes_on_in_merged_rounds_and_resumes_a_round(tmp_path):
    """An SPRT undecided after MATCH_PAIRS goes on in rounds of MATCH_EXTRA_PAIRS pairs with seeds
    of their own, each merged with the rounds before, until MATCH_EXTRA_ROUNDS rounds are added or
    the merged SPRT decides. A loop killed inside a round replays only that round."""
    install = subprocess.run(["bash", str(RUN), "install"], env={**os.environ, "SENTE_DATA": str(tmp_path)},
                             capture_output=True, text=True, timeout=170)
    assert install.returncode == 0, install.stdout + install.stderr
    gen = sum(1 for line in (ROOT / "nets" / "history.tsv").read_text().splitlines()
              if line.startswith("chess\t")) + 1
    rounds = {"GAME": "chess", "MATCH_PAIRS": "1", "MATCH_EXTRA_ROUNDS": "2", "MATCH_EXTRA_PAIRS": "1",
              "MATCH_EXTRA_MIN_LLR": "-3"}

    # Six games cannot decide [0, 10]: both extra rounds are played and the attempt is rejected.
    log = loop(tmp_path, MAX_ATTEMPTS="1", **rounds)
    attempt = tmp_path / "chess" / f"gen{gen}" / "a1"
    assert f"gen {gen} attempt 1: SPRT [0,10] of" in log, log
    for k in (2, 3):
        assert re.search(rf"gen {gen} attempt 1: SPRT undecided \(.*\); round {k}: 1 more pairs\n", log), log
    assert "round 4" not in log, log
    assert re.search(rf"gen {gen} attempt 1: Elo \S+ ± \S+ \(95%\), 6 games, SPRT \[0,10\] LLR -?[0-9.]+\n", log), log
    assert f"gen {gen} attempt 1 rejected" in log, log
    seeds = [re.search(r"^seed=(\d+)$", (attempt / f"match-r{k}.result").read_text(), re.M).group(1)
             for k in (1, 2, 3)]
    assert len(set(seeds)) == 3, seeds
    assert "6 games" in (attempt / "match.txt").read_text()

    # A kill inside round 3: that round is played again, rounds 1 and 2 are not.
    for name in ("rejected", "match.txt", "match-r3.txt", "match-r3.result"):
        (attempt / name).unlink()
    log = loop(tmp_path, MAX_ATTEMPTS="1", **rounds)
    assert "SPRT [0,10] of" not in log and "round 2" not in log, log
    assert "round 3: 1 more pairs" in log, log
    assert re.search(rf"gen {gen} attempt 1: Elo \S+ ± \S+ \(95%\), 6 games, SPRT \[0,10\] LLR -?[0-9.]+\n", log), log

    # A kill inside round 3 that left the round's result file with the pairs it had finished
    # (`ended=no`): the round keeps them as a piece and plays only the pairs left, on a new seed.
    for name in ("rejected", "match.txt", "match-r3.txt"):
        (attempt / name).unlink()
    partial = attempt / "match-r3.result"
    partial.write_text(partial.read_text().replace("ended=yes", "ended=no"))
    first_seed = re.search(r"^seed=(\d+)$", partial.read_text(), re.M).group(1)
    log = loop(tmp_path, MAX_ATTEMPTS="1", **{**rounds, "MATCH_EXTRA_PAIRS": "2"})
    assert "round 3: 2 more pairs" in log, log
    assert "round 3 goes on from 1 pairs an interrupted run left; 1 to play" in log, log
    assert re.search(rf"gen {gen} attempt 1: Elo \S+ ± \S+ \(95%\), 8 games, SPRT \[0,10\] LLR -?[0-9.]+\n", log), log
    piece = (attempt / "match-r3-p1.result").read_text()
    assert f"seed={first_seed}\n" in piece and "ended=no" in piece, piece
    rest = (attempt / "match-r3.result").read_text()
    assert f"seed={first_seed}\n" not in rest and "pentanomial=" in rest, rest
    assert "8 games" in (attempt / "match.txt").read_text()

    # Attempt 2 against a best net held to one node decides in its first extra round: no more
    # rounds are played and the net is promoted on the merged result.
    log = loop(tmp_path, MAX_GEN=str(gen), MAX_ATTEMPTS="2", SPRT="-1500,-500", MATCH_NODES="1",
               MATCH_A_NODES="1000", **{**rounds, "MATCH_EXTRA_ROUNDS": "4", "MATCH_EXTRA_PAIRS": "16"})
    assert "round 2: 16 more pairs" in log and "round 3" not in log, log
    assert re.search(rf"gen {gen} attempt 2: Elo \S+ ± \S+ \(95%\), 34 games, SPRT \[-1500,-500\] LLR [0-9.]+ H1, 1000 against 1 nodes\n", log), log
    assert f"gen {gen} promoted" in log, log


def test_an_sprt_leaning_toward_h0_gets_no_extra_rounds(tmp_path):
    """Extra rounds are only for an undecided SPRT whose LLR is at least MATCH_EXTRA_MIN_LLR: a
    net near equal strength would stay undecided for thousands of games."""
    install = subprocess.run(["bash", str(RUN), "install"], env={**os.environ, "SENTE_DATA": str(tmp_path)},
                             capture_output=True, text=True, timeout=170)
    assert install.returncode == 0, install.stdout + install.stderr
    gen = sum(1 for line in (ROOT / "nets" / "history.tsv").read_text().splitlines()
              if line.startswith("chess\t")) + 1
    # Two games never reach an LLR of 3 (the SPRT would have decided at 2.94).
    log = loop(tmp_path, MAX_ATTEMPTS="1", GAME="chess", MATCH_PAIRS="1", MATCH_EXTRA_ROUNDS="2",
               MATCH_EXTRA_PAIRS="1", MATCH_EXTRA_MIN_LLR="3")
    assert "round 2" not in log, log
    assert re.search(rf"gen {gen} attempt 1: SPRT undecided and leaning toward H0 \(.*2 games.*\): no more rounds\n", log), log
    assert re.search(rf"gen {gen} attempt 1: Elo \S+ ± \S+ \(95%\), 2 games, SPRT \[0,10\] LLR -?[0-9.]+\n", log), log
    assert f"gen {gen} attempt 1 rejected" in log, log


def test_loop_rescores_stale_pool_files_after_a_promotion_and_resumes(tmp_path):
    """RESCORE_POSITIONS: generation `gen` is rejected once, then an older (classical, generation
    gen - 1) run joins the pool by hand, attempt 2 is promoted (an SPRT that any mixed result
    passes), and generation gen + 1 starts by rescoring the stale files with the new best net:
    oldest generation first, then manifest order, until their positions reach the budget. The
    rescored copies join the pool as generation gen + 1, their sources are retired, and a resumed
    loop neither rescores again nor fails, even after a kill between a command and its marker.
    Chess: the promoted net of so tiny a training is nearly flat, and shogi searches with such a
    net take about 100,000 nodes a position whatever the node limit (depth 1 always finishes its
    first root move), which makes rescoring shogi data minutes long."""
    install = subprocess.run(["bash", str(RUN), "install"], env={**os.environ, "SENTE_DATA": str(tmp_path)},
                             capture_output=True, text=True, timeout=170)
    assert install.returncode == 0, install.stdout + install.stderr
    gen = sum(1 for line in (ROOT / "nets" / "history.tsv").read_text().splitlines()
              if line.startswith("chess\t")) + 1
    chess = tmp_path / "chess"
    pool = chess / "pool"

    # Generation gen, attempt 1: nothing in the pool is stale, so nothing is rescored.
    log = loop(tmp_path, GAME="chess", MAX_ATTEMPTS="1", RESCORE_POSITIONS="1", RESCORE_NODES="50")
    assert "rescor" not in log, log
    assert not (chess / f"gen{gen}" / "rescore").exists()

    # An older run (the classical evaluator's) joins the pool after gen's first run.
    datagen = str(tmp_path / "bin" / "datagen")
    subprocess.run([datagen, "run", "--game", "chess", "--positions", "200", "--nodes", "50", "--seed", "7",
                    "--out", str(tmp_path / "old-run")], check=True, capture_output=True, timeout=60)
    subprocess.run([datagen, "pool", "add", "--pool", str(pool), "--game", "chess", "--generation", str(gen - 1),
                    str(tmp_path / "old-run")], check=True, capture_output=True, timeout=60)
    first, old = pool_runs(tmp_path, "chess")
    assert first[1] == str(gen) and old[1] == str(gen - 1) and old[2] == "classical", (first, old)
    # The budget reaches past the old file: the oldest file and then gen's first file are chosen.
    budget = int(old[7]) + 1
    rescore = {"RESCORE_POSITIONS": str(budget), "RESCORE_NODES": "50"}

    # Attempt 2 of gen is promoted; rescoring is for the start of a generation, not of attempt 2.
    log = loop(tmp_path, GAME="chess", MAX_GEN=str(gen), MAX_ATTEMPTS="2", SPRT="-1500,-500", MATCH_PAIRS="16",
               MATCH_NODES="1", MATCH_A_NODES="1000", **rescore)
    assert "rescor" not in log, log
    assert f"gen {gen} promoted" in log, log
    assert (chess / "best.txt").read_text().split()[0] == str(gen)
    before = pool_runs(tmp_path, "chess")
    assert [run[0] for run in before[:2]] == [first[0], old[0]], before
    second = before[2]
    assert second[1] == str(gen) and second[4] == str(gen * 10 + 2), before

    # Generation gen + 1 starts by rescoring, then generates, trains and is rejected.
    log = loop(tmp_path, GAME="chess", MAX_GEN=str(gen + 1), MAX_ATTEMPTS="1", **rescore)
    work = chess / f"gen{gen + 1}" / "rescore"
    assert (work / "files.txt").read_text().split() == [old[0], first[0]]
    assert f"gen {gen + 1}: chose 2 stale pool files of generations {gen - 1},{gen}, " \
           f"{int(old[7]) + int(first[7])} positions" in log, log
    steps = [f"rescoring {old[0]} at 50 nodes", f"rescoring {first[0]} at 50 nodes",
             f"gen {gen + 1} attempt 1: generating"]
    assert all(step in log for step in steps), log
    assert [log.index(step) for step in steps] == sorted(log.index(step) for step in steps), log
    assert log.count("added the rescored copy") == 2 and log.count("retired g") == 2, log
    for source in (old, first):
        assert not (pool / source[0]).exists()
        assert (pool / "retired" / source[0]).is_file()
        assert (pool / "retired" / f"{source[0]}.run.txt").is_file()
    retired_rows = (pool / "retired" / "retired.tsv").read_text().splitlines()
    assert sorted(retired_rows) == sorted("\t".join(row) for row in (old, first)), retired_rows
    after = pool_runs(tmp_path, "chess")
    names = [run[0] for run in after]
    assert old[0] not in names and first[0] not in names and second[0] in names, after
    own = [run for run in after if run[4] == str((gen + 1) * 10 + 1)]
    rescored = [run for run in after if run[1] == str(gen + 1) and run not in own]
    assert len(own) == 1 and len(rescored) == 2 and len(after) == 4, after
    for copy, source in zip(rescored, (old, first)):
        # The best net's labels (the evaluator of gen + 1's own run), the same games and positions.
        assert copy[2] == own[0][2] and copy[2] != source[2] and copy[3] == "50", (copy, source)
        assert copy[6:8] == source[6:8] and copy[9] != source[9], (copy, source)
    positions = lambda runs: sum(int(run[7]) for run in runs)
    assert positions(after) - int(own[0][7]) == positions(before), (before, after)
    data = (chess / f"gen{gen + 1}" / "a1" / "data.txt").read_text().split()
    assert sorted(data) == sorted(f"chess/pool/{name}" for name in names), data
    assert f"gen {gen + 1} attempt 1: training on 4 data files" in log, log
    assert log.rstrip().endswith(f"gen {gen + 1}: MAX_ATTEMPTS 1 rejected"), log

    # A second start does nothing more.
    log = loop(tmp_path, GAME="chess", MAX_GEN=str(gen + 1), MAX_ATTEMPTS="1", **rescore)
    assert "rescor" not in log and "retire" not in log, log
    assert pool_runs(tmp_path, "chess") == after

    # Killed after the last `pool add` and `pool retire` but before their markers, and inside the
    # retire between the manifest's rewrite and the move of the file: the next start finds the
    # copies in the manifest, the sources out of it, finishes the move and goes on to attempt 2.
    for marker in ["done", *(f"{name[:-len('.bin')]}.{step}" for name in (old[0], first[0])
                             for step in ("added", "retired"))]:
        (work / marker).unlink()
    (pool / "retired" / first[0]).rename(pool / first[0])
    log = loop(tmp_path, GAME="chess", MAX_GEN=str(gen + 1), MAX_ATTEMPTS="2", **rescore)
    assert "rescoring g" not in log and "added the rescored copy" not in log, log
    assert log.count("is already in the pool") == 2 and log.count("is already retired") == 2, log
    assert f"gen {gen + 1}: rescoring done" in log, log
    assert (pool / "retired" / first[0]).is_file() and not (pool / first[0]).exists()
    assert (pool / "retired" / "retired.tsv").read_text().splitlines() == retired_rows
    assert pool_runs(tmp_path, "chess")[:4] == after and len(pool_runs(tmp_path, "chess")) == 5
    assert f"gen {gen + 1} attempt 2: training on 5 data files" in log, log


NODE_ODDS = ROOT / "scripts" / "loop" / "node_odds.sh"


def node_odds(*args, speeds=None):
    """Runs node_odds; with `speeds` ({net path: [nodes per second, ...]}) a stand-in for
    node_odds_speed hands out those speeds, one per call, instead of running the bench."""
    fake = ""
    if speeds:
        for net, values in speeds.items():
            Path(f"{net}.speeds").write_text("".join(f"{v}\n" for v in values))
        fake = 'node_odds_speed() { head -1 "$3.speeds"; sed -i 1d "$3.speeds"; }; '
    script = f'source "{NODE_ODDS}"; {fake}node_odds "$@"'
    done = subprocess.run(["bash", "-c", script, "node_odds", *map(str, args)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    nodes, ratio = done.stdout.split()
    return int(nodes), float(ratio)


def test_node_odds_scale_the_new_nets_nodes_by_its_measured_speed(tmp_path):
    """MATCH_A_NODES=auto (scripts/loop/node_odds.sh): nets of one size play at equal nodes without
    a measurement; otherwise the median of the alternated per-round speed ratios scales the
    nodes, within a quarter to four times them. Stand-in speeds check the arithmetic; the real
    binary on two shipped chess nets of different widths checks that a real measurement (nodes per
    CPU second of `sente bench`) yields a usable count."""
    small, wide, same = tmp_path / "small.nnue", tmp_path / "wide.nnue", tmp_path / "same.nnue"
    small.write_bytes(b"s" * 100)
    wide.write_bytes(b"w" * 200)
    same.write_bytes(b"x" * 100)
    assert node_odds(tmp_path / "no-such-sente", "chess", same, small, 5000) == (5000, 1.0)
    # Ratios 0.5, 0.1, 0.6: the median 0.5 halves the nodes.
    speeds = {wide: [500_000, 100_000, 600_000], small: [1_000_000] * 3}
    assert node_odds("sente", "chess", wide, small, 5000, 3, speeds=speeds) == (2500, 0.5)
    # Two rounds: the mean of the middle pair.
    speeds = {wide: [500_000, 700_000], small: [1_000_000] * 2}
    assert node_odds("sente", "chess", wide, small, 5000, 2, speeds=speeds) == (3000, 0.6)
    speeds = {wide: [900_000], small: [100_000]}
    assert node_odds("sente", "chess", wide, small, 5000, 1, speeds=speeds) == (20000, 4.0), "capped"

    subprocess.run(["bash", str(RUN), "install"], env={**os.environ, "SENTE_DATA": str(tmp_path)},
                   check=True, capture_output=True, timeout=170)
    nets = ROOT / "nets"
    wide_net, narrow_net = nets / "chess-42885e0d53c3.nnue", nets / "chess-27fc6585f208.nnue"
    assert wide_net.stat().st_size > narrow_net.stat().st_size
    nodes, ratio = node_odds(tmp_path / "bin" / "sente", "chess", wide_net, narrow_net, 5000, 1)
    assert 0.25 <= ratio <= 4 and abs(nodes - 5000 * ratio) <= 3, (nodes, ratio)


def test_loop_fine_tunes_the_best_net_with_init_best(tmp_path):
    """INIT=best: the attempt's training starts from the best net's weights (`tuner train --init`)
    at the best net's width, and the loop says so; any other INIT is refused before anything runs."""
    subprocess.run(["bash", str(RUN), "install"], env={**os.environ, "SENTE_DATA": str(tmp_path)},
                   check=True, capture_output=True, timeout=170)
    env = {**os.environ, "SENTE_DATA": str(tmp_path), **TINY, "INIT": "latest"}
    refused = subprocess.run(["bash", str(RUN)], env=env, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0 and "INIT=latest" in refused.stderr, refused.stderr
    assert not (tmp_path / "shogi").exists()

    log = loop(tmp_path, MAX_ATTEMPTS="1", INIT="best")
    gen_best, best = (tmp_path / "shogi" / "best.txt").read_text().split()
    gen = int(gen_best) + 1
    assert f"gen {gen} attempt 1: training on 1 data files from {best}" in log, log
    train_log = (tmp_path / "shogi" / f"gen{gen}" / "a1" / "train.log").read_text()
    assert f"starting from {best}" in train_log, train_log
    width = next(int(w) for w in re.findall(r"l1 (\d+)", train_log))
    assert width == 256, train_log  # the shipped shogi net's width; the loop's own default is 128
    assert log.rstrip().endswith(f"gen {gen}: MAX_ATTEMPTS 1 rejected"), log


def test_a_second_loop_of_the_same_game_stops_at_once(tmp_path):
    # Binaries that would fail if ever run: the second loop must stop before using them.
    (tmp_path / "bin").mkdir()
    for tool in ("sente", "datagen", "tuner"):
        path = tmp_path / "bin" / tool
        path.write_text("#!/bin/sh\necho ran >&2\nexit 3\n")
        path.chmod(0o755)
    (tmp_path / "shogi").mkdir()
    with open(tmp_path / "shogi" / "loop.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        env = {**os.environ, "SENTE_DATA": str(tmp_path), **TINY}
        done = subprocess.run(["bash", str(RUN)], env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "another loop of shogi is running" in done.stderr, done.stderr
    assert "ran" not in done.stderr, done.stderr


def running(pid):
    """Whether process `pid` exists and is not a zombie left for its reaper."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_stop_ends_the_loop_and_the_step_it_runs_and_frees_the_lock(tmp_path):
    # Binaries that note their process id and hang: the loop is stopped in its first step.
    started = tmp_path / "started"
    (tmp_path / "bin").mkdir()
    for tool in ("sente", "datagen", "tuner"):
        path = tmp_path / "bin" / tool
        path.write_text(f"#!/bin/sh\necho $$ >> {started}\nexec sleep 120\n")
        path.chmod(0o755)
    env = {**os.environ, "SENTE_DATA": str(tmp_path), **TINY}
    stop = ROOT / "scripts" / "loop" / "stop.sh"
    idle = subprocess.run(["bash", str(stop)], env=env, capture_output=True, text=True, timeout=30)
    assert idle.returncode == 0 and "no loop of shogi has run" in idle.stdout, idle.stdout + idle.stderr

    loop = subprocess.Popen(["bash", str(RUN)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.time() + 60
        while not started.exists() and time.time() < deadline:
            time.sleep(0.05)
        assert started.exists(), "the loop never ran a step"
        step = int(started.read_text().split()[0])
        assert (tmp_path / "shogi" / "loop.lock").read_text().strip() == str(loop.pid)
        done = subprocess.run(["bash", str(stop)], env=env, capture_output=True, text=True, timeout=90)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "the loop of shogi has stopped" in done.stdout, done.stdout
        assert loop.wait(timeout=30) != 0
        assert not running(step), "the step the loop ran is gone"
        # The lock is free: stopping again finds nothing, and a new loop could start.
        again = subprocess.run(["bash", str(stop)], env=env, capture_output=True, text=True, timeout=30)
        assert "no loop of shogi is running" in again.stdout, again.stdout + again.stderr
    finally:
        if loop.poll() is None:
            os.killpg(loop.pid, 9)
