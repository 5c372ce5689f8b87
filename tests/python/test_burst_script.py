"""scripts/burst.sh, the self-play burst for a borrowed many-core machine: two runs side by
side for a few seconds (each named by its own generation, or POOL_GEN), packed into one archive
that SPLIT cuts into parts; the joined parts match the archive's checksum, unpack into another
data directory, and each run joins a pool with `datagen pool add`. Started again in the same WORK
directory, the runs resume and grow, and parts of the earlier archive are removed."""

import hashlib
import os
from pathlib import Path
import shutil
import subprocess
import tarfile

from conftest import ROOT

BURST = ROOT / "scripts" / "burst.sh"
DATAGEN = ROOT / "target" / "release" / "datagen"


def burst(work: Path, archive: Path, *runs: str, **settings) -> str:
    env = {**os.environ, "DATAGEN": str(DATAGEN), **settings}
    done = subprocess.run(["bash", str(BURST), "3", str(work), str(archive), *runs], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def games_of(run: Path) -> int:
    out = subprocess.run([str(DATAGEN), "stats", "--game", run.parent.parent.name, str(run / "data.bin")],
                         capture_output=True, text=True, check=True).stdout
    return int(out.split(" data: ")[1].split(" games")[0])


def test_a_burst_packs_split_runs_that_join_a_pool_and_resume(tmp_path):
    work = tmp_path / "work"
    for game in ("chess", "shogi"):
        (work / game / "nets").mkdir(parents=True)
        shutil.copy(ROOT / "nets" / f"{game}-default.nnue", work / game / "nets")
    archive = tmp_path / "out" / "burst.tar.xz"
    archive.parent.mkdir()
    runs = ("chess:60:1:9:chess/nets/chess-default.nnue:15", "shogi:60:1:8:shogi/nets/shogi-default.nnue")
    out = burst(work, archive, *runs, POOL_GEN="4", SPLIT="64k")

    # The first run is named by its own generation, the second by POOL_GEN.
    chess_run, shogi_run = work / "chess/runs/gen15-n60-s9", work / "shogi/runs/gen4-n60-s8"
    first = {run: games_of(run) for run in (chess_run, shogi_run)}
    assert all(n > 0 for n in first.values()), (first, out)
    parts = sorted(archive.parent.glob("burst.tar.xz.part*"))
    assert len(parts) >= 2, out
    assert all(p.stat().st_size <= 65536 for p in parts)
    joined = b"".join(p.read_bytes() for p in parts)
    assert joined == archive.read_bytes()
    digest, name = (archive.parent / "burst.tar.xz.sha256").read_text().split()
    assert (digest, name) == (hashlib.sha256(joined).hexdigest(), "burst.tar.xz")

    home = tmp_path / "home"
    with tarfile.open(archive) as tar:
        tar.extractall(home, filter="data")
    for game, run, generation, net in (("chess", chess_run, "15", "chess-default.nnue"),
                                       ("shogi", shogi_run, "4", "shogi-default.nnue")):
        added = subprocess.run(
            [str(DATAGEN), "pool", "add", "--pool", str(home / game / "pool"), "--game", game,
             "--generation", generation, "--net", str(ROOT / "nets" / net),
             str(home / game / "runs" / run.name)],
            capture_output=True, text=True)
        assert added.returncode == 0, added.stdout + added.stderr
        assert f"verified {first[run]} games" in added.stdout + added.stderr
        listing = (home / game / "pool" / "pool.tsv").read_text()
        assert f"g{generation}-" in listing, listing

    # The same burst again resumes both runs: more games in the same directories.
    burst(work, archive, *runs, POOL_GEN="4")
    assert all(games_of(run) > first[run] for run in first), first
    assert not list(archive.parent.glob("burst.tar.xz.part*")), "an earlier archive's parts stay"
