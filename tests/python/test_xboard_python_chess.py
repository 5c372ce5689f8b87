"""python-chess as an XBoard (CECP v2) client: features, options, whole games, clocks and
analysis."""

import random

import chess
import chess.engine
import pytest

from conftest import running_engine


@pytest.fixture
def engine(engine_path):
    yield from running_engine(chess.engine.SimpleEngine.popen_xboard, engine_path)


def test_identity_and_options(engine):
    assert engine.id["name"].startswith("Sente")
    assert "MultiPV" in engine.options
    assert "MoveOverhead" in engine.options
    engine.configure({"MoveOverhead": 20, "ClearHash": None, "UCI_LimitStrength": False})
    engine.ping()


def test_game_against_a_random_player_ends(engine):
    rng = random.Random(11)
    board = chess.Board()
    limit = chess.engine.Limit(nodes=2000)
    while not board.is_game_over(claim_draw=True) and board.ply() < 600:
        if board.turn == chess.BLACK:
            result = engine.play(board, limit)
            assert result.move in board.legal_moves, (board.fen(), result.move)
            board.push(result.move)
        else:
            board.push(rng.choice(list(board.legal_moves)))
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None
    assert outcome.winner in (chess.BLACK, None), outcome


def test_clocked_and_depth_limited_moves(engine):
    board = chess.Board()
    for limit in [
        chess.engine.Limit(time=0.1),
        chess.engine.Limit(depth=3),
        chess.engine.Limit(white_clock=3, black_clock=3, white_inc=0.1, black_inc=0.1),
        chess.engine.Limit(white_clock=3, black_clock=3, remaining_moves=20),
    ]:
        result = engine.play(board, limit)
        assert result.move in board.legal_moves
        board.push(result.move)


def test_setup_positions_and_castling_notation(engine):
    board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")
    result = engine.play(board, chess.engine.Limit(nodes=2000))
    assert result.move in board.legal_moves
    board.push(result.move)
    board.push(chess.Move.from_uci("e1g1") if board.is_legal(chess.Move.from_uci("e1g1")) else next(iter(board.legal_moves)))
    result = engine.play(board, chess.engine.Limit(nodes=2000))
    assert result.move in board.legal_moves


def test_analysis(engine):
    board = chess.Board()
    board.push_san("e4")
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    assert info["pv"][0] in board.legal_moves
    mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    info = engine.analyse(mate, chess.engine.Limit(depth=3))
    assert info["pv"][0] == chess.Move.from_uci("a1a8")
    assert info["score"].white().mate() == 1
