"""The Polyglot opening book through the protocols, checked against python-chess's reader
(`chess.polyglot`) on the test book of python-chess's source archive
(scripts/fetch-test-data.sh caches it outside the repository)."""

import random
import subprocess

import chess
import chess.engine
import chess.polyglot
import pytest

from conftest import engine_dialogue


@pytest.fixture(scope="session")
def book(test_data_dir) -> str:
    return str(test_data_dir / "polyglot" / "performance.bin")


def positions(rng, reader, count):
    """Positions of random games (castling rights, en passant) and of games along the book."""
    out = []
    while len(out) < count:
        board = chess.Board()
        in_book = rng.random() < 0.5
        for _ in range(rng.randrange(0, 40)):
            moves = list(board.legal_moves)
            if not moves:
                break
            entries = list(reader.find_all(board)) if in_book else []
            board.push(rng.choice(entries).move if entries else rng.choice(moves))
            out.append(board.fen())
    return out[:count]


def test_keys_moves_and_weights_agree_with_python_chess(engine_path, book):
    rng = random.Random(56)
    with chess.polyglot.open_reader(book) as reader:
        fens = positions(rng, reader, 3000)
        run = subprocess.run([engine_path, "polyglot", book], input="".join(f + "\n" for f in fens),
                             capture_output=True, text=True, check=True)
        answers = run.stdout.splitlines()
        assert len(answers) == len(fens)
        in_book = 0
        for fen, answer in zip(fens, answers):
            board = chess.Board(fen)
            entries = [e for e in reader.find_all(board, minimum_weight=0)]
            expected = f"key {chess.polyglot.zobrist_hash(board):016x} moves " + " ".join(
                f"{board.uci(e.move)}:{e.weight}" for e in entries
            )
            assert answer == expected.strip(), (fen, answer, expected)
            in_book += bool(entries)
    print(f"{len(fens)} positions agree, {in_book} with book moves")
    assert in_book > 500


def test_uci_own_book_plays_book_moves(engine_path, book):
    engine = chess.engine.SimpleEngine.popen_uci(engine_path, timeout=20)
    try:
        for name in ["OwnBook", "BookFile", "BookBestMove", "BookDepth"]:
            assert name in engine.options, name
        assert engine.options["OwnBook"].default is False
        engine.configure({"OwnBook": True, "BookFile": book, "BookBestMove": True})
        board = chess.Board()
        with chess.polyglot.open_reader(book) as reader:
            for _ in range(6):
                best = max(reader.find_all(board), key=lambda e: e.weight)
                played = engine.play(board, chess.engine.Limit(depth=30)).move
                assert played == best.move, (board.fen(), played, best.move)
                board.push(played)
            # Weighted picks stay within the book's moves.
            engine.configure({"BookBestMove": False, "BookDepth": 20})
            board = chess.Board()
            for _ in range(4):
                played = engine.play(board, chess.engine.Limit(depth=30)).move
                assert played in [e.move for e in reader.find_all(board)]
                board.push(played)
            # Beyond BookDepth the engine searches (a depth-1 search answers at once).
            engine.configure({"BookDepth": 2})
            info = engine.analyse(board, chess.engine.Limit(depth=1))
            assert info.get("depth") == 1
    finally:
        engine.quit()


def test_damaged_and_missing_books_are_reported_and_the_engine_searches(engine_path, book, tmp_path):
    damaged = tmp_path / "damaged.bin"
    damaged.write_bytes(open(book, "rb").read()[:1000])  # 1000 is not a multiple of 16
    for path, words in [(damaged, ["1000 bytes", "damaged.bin"]), (tmp_path / "missing.bin", ["cannot read", "missing.bin"])]:
        out = engine_dialogue(engine_path, ["uci", "setoption name OwnBook value true",
                                            f"setoption name BookFile value {path}", "isready", "position startpos",
                                            "go depth 2"], "bestmove")
        notes = [line for line in out if line.startswith("info string")]
        assert any(all(w in n for w in words) and "playing without a book" in n for n in notes), notes
        assert any(line.startswith("info depth 2") for line in out), out


def test_cecp_bk_lists_the_book_moves_and_plays_them(engine_path, book):
    out = engine_dialogue(engine_path, ["xboard", "protover 2", "option OwnBook=1", f"option BookFile={book}", "bk", "ping 1"], "pong 1")
    board = chess.Board()
    with chess.polyglot.open_reader(book) as reader:
        entries = list(reader.find_all(board, minimum_weight=0))
    listed = [line for line in out if line.startswith(" ") and "%" in line]
    assert [line.split()[0] for line in listed] == [board.uci(e.move) for e in entries], out
    assert [int(line.split("weight ")[1].rstrip(")")) for line in listed] == [e.weight for e in entries]
    out = engine_dialogue(engine_path, ["xboard", "protover 2", "option OwnBook=1", f"option BookFile={book}", "new", "white", "go"], "move ")
    assert chess.Move.from_uci(out[-1].split()[1]) in [e.move for e in entries], out
