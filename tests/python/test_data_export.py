"""`datagen export` read by independent readers: cshogi reads the psv and hcpe files
(`PackedSfenValue` / `HuffmanCodedPosAndEval` dtypes, `Board.set_psfen` / `set_hcp`) and
python-chess the chess text and bulletformat files, and they give the positions Sente recorded
(`datagen positions`), with the same scores and results in every format. Self-play data is made
by the built `datagen` at 1 node a move; SENTE_EXPORT_POSITIONS sets how many positions
(default 4000, for CI; the report's run used 100000)."""

import os
import pathlib
import subprocess

import chess
import cshogi
import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATAGEN = os.environ.get("DATAGEN_BIN", str(ROOT / "target" / "release" / "datagen"))
POSITIONS = int(os.environ.get("SENTE_EXPORT_POSITIONS", "4000"))
KEEP_ALL = ["--min-ply", "0", "--keep-in-check", "--keep-noisy", "--max-score", "32767"]


def datagen(*args) -> str:
    if not os.access(DATAGEN, os.X_OK):
        pytest.fail(f"datagen not found at {DATAGEN}: cargo build --release -p datagen")
    return subprocess.run([DATAGEN, *map(str, args)], check=True, capture_output=True, text=True).stdout


def self_play(game: str, out: pathlib.Path) -> list[str]:
    datagen("run", "--game", game, "--positions", POSITIONS, "--nodes", "1", "--verify-nodes", "0",
            "--threads", "2", "--out", out)
    return datagen("positions", "--game", game, "--every", "1", out).split("\n")[:-1]


def export(game: str, fmt: str, run: pathlib.Path, out: pathlib.Path, *extra) -> pathlib.Path:
    datagen("export", "--game", game, "--format", fmt, "--out", out, *KEEP_ALL, *extra, run)
    return out


def text_records(path: pathlib.Path):
    for line in path.read_text().splitlines():
        position, score, result = (field.strip() for field in line.split("|"))
        yield position, int(score), float(result)


def without_move_number(sfen: str) -> str:
    return sfen.rsplit(" ", 1)[0]


def test_psv_and_hcpe_read_by_cshogi(tmp_path):
    recorded = self_play("shogi", tmp_path / "run")
    text = list(text_records(export("shogi", "text", tmp_path / "run", tmp_path / "a.txt")))
    psv = np.fromfile(export("shogi", "psv", tmp_path / "run", tmp_path / "a.psv"), dtype=cshogi.PackedSfenValue)
    hcpe = np.fromfile(export("shogi", "hcpe", tmp_path / "run", tmp_path / "a.hcpe"),
                       dtype=cshogi.HuffmanCodedPosAndEval)
    assert len(psv) == len(hcpe) == len(text) >= POSITIONS
    # The exported positions are Sente's recorded positions, in order.
    it = iter(recorded)
    assert all(any(r == sfen for r in it) for sfen, _, _ in text)
    board, other = cshogi.Board(), cshogi.Board()
    followed = 0
    for i, (sfen, score, result) in enumerate(text):
        board.set_psfen(psv[i]["sfen"])
        assert without_move_number(board.sfen()) == without_move_number(sfen)
        assert psv[i]["gamePly"] == int(sfen.rsplit(" ", 1)[1])
        other.set_hcp(hcpe[i]["hcp"])
        assert other.sfen() == board.sfen()
        black = board.turn == cshogi.BLACK
        # Scores: the mover's in psv and hcpe, Black's in text.
        assert psv[i]["score"] == hcpe[i]["eval"] == (score if black else -score)
        mover_result = {1.0: 1, 0.5: 0, 0.0: -1}[result] * (1 if black else -1)
        assert psv[i]["game_result"] == mover_result
        assert hcpe[i]["gameResult"] == {1.0: cshogi.BLACK_WIN, 0.5: cshogi.DRAW, 0.0: cshogi.WHITE_WIN}[result]
        move = board.move_from_psv(int(psv[i]["move"]))
        assert board.is_legal(move), (sfen, psv[i]["move"])
        assert cshogi.move_to_usi(other.move_from_move16(int(hcpe[i]["bestMove16"]))) == cshogi.move_to_usi(move)
        # Within a game, the move leads to the next record's position.
        if i + 1 < len(text):
            board.push(move)
            followed += without_move_number(board.sfen()) == without_move_number(text[i + 1][0])
    games = int(datagen("stats", "--game", "shogi", tmp_path / "run").split()[2])
    assert followed >= len(text) - games


def bulletformat_board(record: bytes) -> tuple[chess.Board, int, int]:
    occ = int.from_bytes(record[0:8], "little")
    board = chess.Board(None)
    i = 0
    for sq in range(64):
        if occ >> sq & 1:
            code = record[8 + i // 2] >> (4 * (i & 1)) & 15
            board.set_piece_at(sq, chess.Piece((code & 7) + 1, not code & 8))
            i += 1
    return board, int.from_bytes(record[24:26], "little", signed=True), record[26]


def test_chess_text_and_bulletformat_read_by_python_chess(tmp_path):
    recorded = self_play("chess", tmp_path / "run")
    text = list(text_records(export("chess", "text", tmp_path / "run", tmp_path / "a.txt")))
    raw = export("chess", "bulletformat", tmp_path / "run", tmp_path / "a.bullet").read_bytes()
    assert len(raw) == 32 * len(text) and len(text) >= POSITIONS
    it = iter(recorded)
    assert all(any(r == fen for r in it) for fen, _, _ in text)
    for i, (fen, score, result) in enumerate(text):
        board = chess.Board(fen)
        assert board.is_valid(), fen
        mover_view = board if board.turn == chess.WHITE else board.mirror()
        got, stm_score, stm_result = bulletformat_board(raw[32 * i:32 * i + 32])
        assert got.board_fen() == mover_view.board_fen()
        white = board.turn == chess.WHITE
        assert stm_score == (score if white else -score)
        assert stm_result == round(2 * (result if white else 1 - result))


def test_shuffle_keeps_the_records(tmp_path):
    self_play("shogi", tmp_path / "run")
    plain = np.fromfile(export("shogi", "psv", tmp_path / "run", tmp_path / "a.psv"), dtype=cshogi.PackedSfenValue)
    mixed = np.fromfile(export("shogi", "psv", tmp_path / "run", tmp_path / "b.psv", "--shuffle", "1000",
                               "--seed", "3"), dtype=cshogi.PackedSfenValue)
    again = np.fromfile(export("shogi", "psv", tmp_path / "run", tmp_path / "c.psv", "--shuffle", "1000",
                               "--seed", "3"), dtype=cshogi.PackedSfenValue)
    assert sorted(r.tobytes() for r in plain) == sorted(r.tobytes() for r in mixed)
    assert mixed.tobytes() == again.tobytes() and mixed.tobytes() != plain.tobytes()
