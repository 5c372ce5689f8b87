"""python-chess as a UCI client: handshake, options, whole games at low node counts, analysis,
MultiPV, pondering and Chess960."""

import random

import chess
import chess.engine
import pytest

from conftest import running_engine


@pytest.fixture
def engine(engine_path):
    yield from running_engine(chess.engine.SimpleEngine.popen_uci, engine_path)


def test_identity_and_options(engine):
    assert engine.id["name"].startswith("Sente")
    for name in ["Hash", "Threads", "MultiPV", "Move Overhead", "UCI_Chess960", "UCI_Elo", "Clear Hash"]:
        assert name in engine.options, name
    engine.configure({"Hash": 8, "Threads": 1, "Move Overhead": 20, "UCI_ShowWDL": True})
    engine.ping()


def play_to_the_end(engine, board, engine_sides, limit, rng, max_plies=600, ponder=False):
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        if board.turn in engine_sides:
            result = engine.play(board, limit, ponder=ponder)
            assert result.move in board.legal_moves, (board.fen(), result.move)
            board.push(result.move)
        else:
            board.push(rng.choice(list(board.legal_moves)))
    return board


def test_game_against_a_random_player_ends(engine):
    rng = random.Random(7)
    board = play_to_the_end(engine, chess.Board(), {chess.WHITE}, chess.engine.Limit(nodes=2000), rng)
    assert board.is_game_over(claim_draw=True), board.fen()
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None
    # The engine does not lose to a random mover.
    assert outcome.winner in (chess.WHITE, None), outcome


def test_self_play_from_an_endgame_ends(engine):
    board = chess.Board("8/8/4k3/8/8/3QK3/8/8 w - - 0 1")
    board = play_to_the_end(
        engine, board, {chess.WHITE, chess.BLACK}, chess.engine.Limit(nodes=4000), random.Random(1)
    )
    assert board.is_game_over(claim_draw=True)


def test_clocked_game_with_ponder(engine):
    board = chess.Board()
    limit = chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.05, black_inc=0.05)
    for _ in range(16):
        if board.is_game_over():
            break
        result = engine.play(board, limit, ponder=True)
        assert result.move in board.legal_moves
        board.push(result.move)


def test_analysis_multipv_and_mate_scores(engine):
    board = chess.Board()
    info = engine.analyse(board, chess.engine.Limit(depth=5))
    assert info["depth"] >= 5
    assert info["pv"][0] in board.legal_moves
    infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=3)
    assert len(infos) == 3
    assert len({i["pv"][0] for i in infos}) == 3
    mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    info = engine.analyse(mate, chess.engine.Limit(depth=4))
    assert info["score"].white() == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("a1a8")


def test_infinite_analysis_stops_cleanly(engine):
    with engine.analysis(chess.Board()) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 3:
                break
    engine.ping()


def test_chess960_castling(engine):
    board = chess.Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
    for _ in range(6):
        result = engine.play(board, chess.engine.Limit(nodes=1500))
        assert result.move in board.legal_moves
        board.push(result.move)


def test_mated_root_gives_no_move(engine):
    board = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert board.is_checkmate()
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert "pv" not in info or not info["pv"]
