"""cshogi as a USI client: handshake, options, whole games to the end at low node counts,
pondering and go mate."""

import random

import cshogi
import pytest
from cshogi.usi import Engine


@pytest.fixture
def engine(engine_path):
    eng = Engine(engine_path)
    yield eng
    eng.quit()


def test_identity_and_options(engine):
    assert engine.name.startswith("Sente")
    lines = engine.usi()
    for name in ["USI_Hash", "USI_Ponder", "Threads", "MultiPV", "EnteringKingRule", "MaxMovesToDraw"]:
        assert any(line.startswith(f"option name {name} ") for line in lines), name
    engine.setoption("USI_Hash", 16)
    engine.setoption("USI_Ponder", "false")
    engine.setoption("EnteringKingRule", "CSARule27")
    engine.isready()


def play_against_random(engine, engine_color, seed, nodes=2000, max_plies=400):
    rng = random.Random(seed)
    board = cshogi.Board()
    moves = []
    engine.usinewgame()
    result = None
    while len(moves) < max_plies:
        if board.is_game_over():
            result = "mated"
            break
        if board.is_draw() in (cshogi.REPETITION_WIN, cshogi.REPETITION_LOSE, cshogi.REPETITION_DRAW):
            result = "repetition"
            break
        if board.turn == engine_color:
            engine.position(moves)
            best, _ = engine.go(nodes=nodes)
            if best in ("resign", "win"):
                result = best
                break
            move = board.move_from_usi(best)
            assert board.is_legal(move), (board.sfen(), best)
        else:
            move = rng.choice(list(board.legal_moves))
        moves.append(cshogi.move_to_usi(move))
        board.push(move)
    engine.gameover("win" if result == "mated" and board.turn != engine_color else "lose")
    return board, result


def test_game_against_a_random_player_ends(engine):
    engine.isready()
    board, result = play_against_random(engine, cshogi.BLACK, seed=3)
    assert result is not None, f"no result after {board.move_number} moves: {board.sfen()}"
    assert result != "resign"
    if result == "mated":
        # The side to move in the final position is mated: it must be the random player.
        assert board.turn == cshogi.WHITE


def test_game_as_second_player_ends(engine):
    engine.isready()
    board, result = play_against_random(engine, cshogi.WHITE, seed=5)
    assert result is not None
    if result == "mated":
        assert board.turn == cshogi.BLACK


def test_byoyomi_and_ponder(engine):
    engine.setoption("USI_Ponder", "true")
    engine.isready()
    engine.usinewgame()
    engine.position(["7g7f", "3c3d"])
    best, ponder = engine.go(btime=1000, wtime=1000, byoyomi=100)
    board = cshogi.Board()
    board.push_usi("7g7f")
    board.push_usi("3c3d")
    assert board.is_legal(board.move_from_usi(best))
    if ponder is not None:
        board.push_usi(best)
        engine.position(["7g7f", "3c3d", best, ponder])
        # cshogi's go() waits for bestmove, which a ponder search only sends after stop or
        # ponderhit: send the commands directly.
        send(engine, "go ponder btime 1000 wtime 1000 byoyomi 100")
        send(engine, "ponderhit")
        assert read_until(engine, "bestmove").startswith("bestmove ")
        send(engine, "go ponder btime 1000 wtime 1000 byoyomi 100")
        send(engine, "stop")
        assert read_until(engine, "bestmove").startswith("bestmove ")
        engine.isready()


def send(engine, line):
    engine.proc.stdin.write(line.encode("ascii") + b"\n")
    engine.proc.stdin.flush()


def read_until(engine, prefix):
    while True:
        line = engine.proc.stdout.readline()
        if not line:
            raise EOFError("engine closed its output")
        text = line.decode("ascii").strip()
        if text.startswith(prefix):
            return text


def test_go_mate_finds_a_drop_mate(engine):
    engine.isready()
    engine.position(sfen="sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    assert engine.go_mate(byoyomi=5000) == "G*5b"
    engine.position()
    assert engine.go_mate(byoyomi=300) in ("nomate", "timeout")


def test_go_with_byoyomi_only_answers(engine):
    """cshogi's go(byoyomi=100) sends `go byoyomi 100` without btime/wtime: no main time, so the
    engine must answer within the byoyomi (it used to search until `stop`)."""
    import signal
    import time

    engine.isready()
    engine.usinewgame()
    board = cshogi.Board()
    moves = []
    signal.alarm(20)  # a hang fails here instead of after the suite's 180 s
    for _ in range(4):
        engine.position(moves)
        started = time.monotonic()
        best, _ = engine.go(byoyomi=100)
        elapsed = time.monotonic() - started
        assert board.is_legal(board.move_from_usi(best)), (board.sfen(), best)
        assert elapsed < 5.0, elapsed
        board.push_usi(best)
        moves.append(best)
