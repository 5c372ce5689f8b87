"""scripts/bench/label_quality.py, the measure of self-play scores against a deep search: it finds
the games of a `datagen export --format text` file again (chess DFRC castling with python-chess,
shogi with cshogi), replays them through UCI / USI with each arm's seating, and prints each arm's
error and the paired difference."""

import os
import re
import subprocess
import sys

import chess
import cshogi
import pytest

from conftest import ROOT, load_script, release_binary

SCRIPT = ROOT / "scripts" / "bench" / "label_quality.py"
KEEP_ALL = ["--min-ply", "0", "--keep-in-check", "--keep-noisy", "--max-score", "100000"]


def self_play_text(tmp_path, game):
    datagen = release_binary("DATAGEN_BIN", "datagen", "datagen")
    run = tmp_path / "run"
    extra = ["--dfrc"] if game == "chess" else []
    subprocess.run([datagen, "run", "--game", game, "--games", "6", "--nodes", "200", *extra,
                    "--threads", "2", "--out", run], check=True, capture_output=True)
    text = tmp_path / "positions.txt"
    subprocess.run([datagen, "export", "--game", game, "--format", "text", "--out", text,
                    *KEEP_ALL, run], check=True, capture_output=True)
    return text


def replayed_positions(module, game, games):
    """Every position of `games` as the game's own library writes it."""
    out = []
    for start, moves in games:
        if game == "chess":
            board = chess.Board(start, chess960=True)
            out.append(board.fen())
            for move in moves:
                board.push(board.parse_uci(move))
                out.append(board.fen())
        else:
            board = cshogi.Board(start)
            out.append(board.sfen().split()[:3])
            for move in moves:
                board.push_usi(move)
                out.append(board.sfen().split()[:3])
    return out


@pytest.mark.parametrize("game", ["chess", "shogi"])
def test_games_are_found_again_and_both_seatings_are_measured(engine_path, tmp_path, game):
    text = self_play_text(tmp_path, game)
    lines = [line.split(" | ")[0] for line in text.read_text().splitlines()]
    module = load_script("bench/label_quality.py", "label_quality")
    rules = module.ChessRules() if game == "chess" else module.ShogiRules()
    games = module.games_from(text, 100, rules, min_plies=0)
    assert len(games) >= 2
    # The games replay to the exported positions, in order, every one of them: no game is cut
    # in two or merged with the next.
    if game == "chess":
        exported = [chess.Board(f, chess960=True).fen() for f in lines]
    else:
        exported = [cshogi.Board(s).sfen().split()[:3] for s in lines]
    assert replayed_positions(module, game, games) == exported

    done = subprocess.run(
        [sys.executable, str(SCRIPT), engine_path, str(text), "--game", game, "--games", "1",
         "--ref-nodes", "3000", "--arm", "shared:shared:300", "--arm", "split:per-side:300"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    head = re.search(r"^1 games, (\d+) positions, reference 3000 nodes$", done.stdout, re.M)
    assert head and int(head.group(1)) >= 30, done.stdout
    for arm in ("shared", "split"):
        row = re.search(rf"^{arm}: mse ([\d.]+), same best move ([\d.]+)$", done.stdout, re.M)
        assert row and 0 <= float(row.group(1)) <= 1 and 0 <= float(row.group(2)) <= 1, done.stdout
    assert re.search(r"^mse\(split\) - mse\(shared\) = [+-][\d.]+ ± [\d.]+ \(95%\)$", done.stdout,
                     re.M), done.stdout


def test_a_bad_arm_is_refused(engine_path):
    done = subprocess.run([sys.executable, str(SCRIPT), engine_path, os.devnull, "--arm", "x:both:10"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "SEATS is shared or per-side" in done.stderr
