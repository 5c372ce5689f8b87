"""The YaneuraOu `.db` book through cshogi: a book written here from cshogi's own boards
(positions, SFEN move numbers and legal moves as cshogi makes them, an independent writer), read
by Sente under `BookFile`, and every answer checked to be one of the book's moves for the
position cshogi set up. There is no independent `.db` reader to compare with (cshogi has none),
so the writer is the oracle."""

import random

import cshogi
import pytest
from cshogi.usi import Engine


def write_book(path, rng, games=12, plies=10):
    """Random openings played on cshogi boards; each position gets 1-3 legal moves."""
    book = {}
    lines_by_moves = []
    for _ in range(games):
        board = cshogi.Board()
        moves = []
        for _ in range(plies):
            legal = list(board.legal_moves)
            picks = rng.sample(legal, min(len(legal), rng.randint(1, 3)))
            sfen = board.sfen()
            entry = book.setdefault(sfen, {})
            for move in picks:
                entry[cshogi.move_to_usi(move)] = (rng.randint(-50, 50), rng.randint(1, 9))
            lines_by_moves.append((list(moves), sfen))
            move = picks[0]
            moves.append(cshogi.move_to_usi(move))
            board.push(move)
    with open(path, "w") as out:
        out.write("#YANEURAOU-DB2016 1.00\n")
        for sfen, entry in book.items():
            out.write(f"sfen {sfen}\n")
            for move, (value, count) in entry.items():
                out.write(f"{move} none {value} 32 {count}\n")
    return book, lines_by_moves


@pytest.fixture
def engine(engine_path):
    eng = Engine(engine_path)
    yield eng
    eng.quit()


def test_every_answer_is_a_book_move_of_the_position(engine, tmp_path):
    rng = random.Random(7)
    path = tmp_path / "book.db"
    book, positions = write_book(path, rng)
    messages = []
    engine.setoption("BookFile", str(path), listener=messages.append)
    for name, value in [
        ("BookEvalDiff", 99999),
        ("BookEvalBlackLimit", -99999),
        ("BookEvalWhiteLimit", -99999),
        ("BookDepthLimit", 0),
        ("BookMoves", 100),
    ]:
        engine.setoption(name, value)
    engine.isready(listener=messages.append)
    assert any(f"{len(book)} positions" in m for m in messages), messages
    hits = 0
    for moves, sfen in positions:
        engine.position(moves)
        info = []
        best, _ = engine.go(btime=0, wtime=0, byoyomi=2000, listener=info.append)
        assert best in book[sfen], (sfen, best, sorted(book[sfen]))
        assert any(line.startswith("info string book move") for line in info), info
        board = cshogi.Board()
        for m in moves:
            board.push_usi(m)
        assert board.sfen() == sfen
        assert board.is_legal(board.move_from_usi(best))
        hits += 1
    assert hits == len(positions)


def test_a_damaged_book_names_its_line_and_play_goes_on(engine, tmp_path):
    path = tmp_path / "broken.db"
    board = cshogi.Board()
    path.write_text(f"#YANEURAOU-DB2016 1.00\nsfen {board.sfen()}\n7g7f none 0 32 1\n7g7f 3c3d oops 32 1\n")
    messages = []
    engine.setoption("BookFile", str(path), listener=messages.append)
    engine.isready(listener=messages.append)
    assert any(f"'{path}' line 4" in m and "playing without a book" in m for m in messages), messages
    engine.position([])
    best, _ = engine.go(btime=0, wtime=0, byoyomi=200)
    assert board.is_legal(board.move_from_usi(best))
