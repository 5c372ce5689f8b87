"""scripts/bench/label_quality.py, the measure of self-play scores against a deep search: it finds
the games of a `datagen export --format text` file again (DFRC castling included), replays them
through UCI with each arm's seating, and prints each arm's error and the paired difference."""

import os
import re
import subprocess
import sys

import chess

from conftest import ROOT, load_script, release_binary

SCRIPT = ROOT / "scripts" / "bench" / "label_quality.py"
KEEP_ALL = ["--min-ply", "0", "--keep-in-check", "--keep-noisy", "--max-score", "100000"]


def self_play_text(tmp_path):
    datagen = release_binary("DATAGEN_BIN", "datagen", "datagen")
    run = tmp_path / "run"
    subprocess.run([datagen, "run", "--game", "chess", "--games", "8", "--nodes", "200", "--dfrc",
                    "--threads", "2", "--out", run], check=True, capture_output=True)
    text = tmp_path / "positions.txt"
    subprocess.run([datagen, "export", "--game", "chess", "--format", "text", "--out", text,
                    *KEEP_ALL, run], check=True, capture_output=True)
    return text


def test_games_are_found_again_and_both_seatings_are_measured(engine_path, tmp_path):
    text = self_play_text(tmp_path)
    fens = [line.split(" | ")[0] for line in text.read_text().splitlines()]
    module = load_script("bench/label_quality.py", "label_quality")
    games = module.games_from(text, 100, min_plies=0)
    assert len(games) >= 2
    # Each game replays to the exported positions, in order, and together they hold every one
    # of them (no game is cut in two or merged with the next).
    replayed = []
    for start, moves in games:
        board = chess.Board(start, chess960=True)
        replayed.append(board.fen())
        for move in moves:
            board.push(move)
            replayed.append(board.fen())
    assert replayed == [chess.Board(f, chess960=True).fen() for f in fens]

    done = subprocess.run(
        [sys.executable, str(SCRIPT), engine_path, str(text), "--games", "1", "--ref-nodes", "3000",
         "--arm", "shared:shared:300", "--arm", "split:per-side:300"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    head = re.search(r"^1 games, (\d+) positions, reference 3000 nodes$", done.stdout, re.M)
    assert head and int(head.group(1)) >= 30, done.stdout
    for arm in ("shared", "split"):
        row = re.search(rf"^{arm}: mse ([\d.]+), same best move ([\d.]+)$", done.stdout, re.M)
        assert row and 0 <= float(row.group(1)) <= 1 and 0 <= float(row.group(2)) <= 1, done.stdout
    assert re.search(r"^mse\(split\) - mse\(shared\) = [+-][\d.]+ ± [\d.]+ \(95%\)$", done.stdout,
                     re.M), done.stdout


def test_a_bad_arm_is_refused(engine_path, tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPT), engine_path, os.devnull, "--arm", "x:both:10"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "SEATS is shared or per-side" in done.stderr
