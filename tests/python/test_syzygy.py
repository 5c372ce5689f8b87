"""Syzygy tablebases through the protocols, checked against python-chess's own prober
(`chess.syzygy`) on the 3- and 4-piece tables of python-chess's source archive
(scripts/fetch-test-data.sh caches them outside the repository)."""

import os
import random
import shutil
import subprocess

import chess
import chess.engine
import chess.syzygy
import pytest

from conftest import engine_dialogue, load_script


@pytest.fixture(scope="session")
def tables(test_data_dir) -> str:
    """The directory of the 35 WDL and 35 DTZ test tables (fetched once, cached)."""
    path = str(test_data_dir / "syzygy")
    assert len([f for f in os.listdir(path) if f.endswith((".rtbw", ".rtbz"))]) == 70
    return path


# The conversion script's material placement, shared so that both draw positions alike.
random_board = load_script("syzygy-conversion.py", "syzygy_conversion").random_board


def random_position(rng, names):
    """A valid position with the material of one of the tables, pieces placed at random."""
    while True:
        board = random_board(rng.choice(names), rng)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            return board


def en_passant_position(rng):
    """A KPvKP position with a legal en passant capture, either side to move."""
    while True:
        turn = rng.choice([chess.WHITE, chess.BLACK])
        file = rng.randrange(8)
        side_file = file + rng.choice([-1, 1])
        if not 0 <= side_file < 8:
            continue
        rank = 4 if turn == chess.WHITE else 3  # the capturer's rank (0-based)
        board = chess.Board(None)
        board.set_piece_at(chess.square(file, rank), chess.Piece(chess.PAWN, turn))
        board.set_piece_at(chess.square(side_file, rank), chess.Piece(chess.PAWN, not turn))
        for color in (chess.WHITE, chess.BLACK):
            while True:
                sq = rng.randrange(64)
                if board.piece_at(sq) is None:
                    board.set_piece_at(sq, chess.Piece(chess.KING, color))
                    break
        board.turn = turn
        board.ep_square = chess.square(side_file, 5 if turn == chess.WHITE else 2)
        if board.is_valid() and board.has_legal_en_passant():
            return chess.Board(board.fen())


def test_wdl_and_dtz_agree_with_python_chess(engine_path, tables):
    rng = random.Random(56)
    names = sorted({f.split(".")[0] for f in os.listdir(tables)})
    boards = [random_position(rng, names) for _ in range(2200)]
    # En passant positions (KPvKP): a pawn has just stepped two squares past an enemy pawn.
    while len(boards) < 2400:
        boards.append(en_passant_position(rng))
    fens = "".join(b.fen() + "\n" for b in boards)
    run = subprocess.run([engine_path, "syzygy", tables], input=fens, capture_output=True, text=True, check=True)
    answers = run.stdout.splitlines()
    assert len(answers) == len(boards)
    oracle = chess.syzygy.open_tablebase(tables)
    disagree = []
    for board, answer in zip(boards, answers):
        expected = f"wdl {oracle.probe_wdl(board)} dtz {oracle.probe_dtz(board)}"
        if answer != expected:
            disagree.append((board.fen(), answer, expected))
    oracle.close()
    print(f"{len(boards) - len(disagree)} of {len(boards)} positions agree; {run.stderr.strip()}")
    assert not disagree, disagree[:5]


# Won 4-piece positions (White to move) the engine must keep winning.
WON = [
    "8/8/8/4k3/8/8/2Q5/K6r w - - 0 1",
    "8/8/3k4/8/8/6p1/1KR5/8 w - - 0 1",
    "8/8/8/3k4/8/8/1Q3r2/K7 w - - 0 1",
]


def test_uci_moves_keep_the_win_within_the_fifty_move_rule(engine_path, tables):
    oracle = chess.syzygy.open_tablebase(tables)
    engine = chess.engine.SimpleEngine.popen_uci(engine_path, timeout=20)
    try:
        for name in ["SyzygyPath", "SyzygyProbeDepth", "Syzygy50MoveRule", "SyzygyProbeLimit"]:
            assert name in engine.options, name
        engine.configure({"SyzygyPath": tables})
        for fen in WON:
            board = chess.Board(fen)
            assert oracle.probe_wdl(board) == 2
            for _ in range(6):
                info = engine.analyse(board, chess.engine.Limit(nodes=3000))
                assert "tbhits" in info, info
                result = engine.play(board, chess.engine.Limit(nodes=3000))
                board.push(result.move)
                # The opponent is lost, and a zeroing move comes before the rule's 100 plies.
                assert oracle.probe_wdl(board) == -2 or board.is_checkmate(), (fen, board.fen())
                if not board.is_checkmate():
                    assert abs(oracle.probe_dtz(board)) + board.halfmove_clock <= 100
                    board.push(next(iter(board.legal_moves)))
                if board.is_game_over():
                    break
    finally:
        engine.quit()
        oracle.close()


def info_strings(out):
    return [line for line in out if line.startswith("info string")]


def last_info(out):
    return [line for line in out if line.startswith("info depth")][-1]


def test_in_search_probes_count_tbhits(engine_path, tables):
    # Five pieces (no table): captures lead into the 4-piece tables.
    out = engine_dialogue(
        engine_path,
        ["uci", f"setoption name SyzygyPath value {tables}", "position fen 8/8/4k3/3r4/8/3R4/3RK3/8 w - - 0 1", "go depth 8"],
        "bestmove",
    )
    hits = int(last_info(out).split(" tbhits ")[1].split()[0])
    assert hits > 0, last_info(out)


def test_bad_paths_keep_the_previous_tables(engine_path, tables, tmp_path):
    truncated = tmp_path / "truncated"
    renamed = tmp_path / "renamed"
    for folder in (truncated, renamed):
        shutil.copytree(tables, folder)
    with open(truncated / "KQvKR.rtbw", "r+b") as f:
        f.truncate(os.path.getsize(truncated / "KQvKR.rtbw") - 10)
    shutil.copy(renamed / "KQvK.rtbw", renamed / "KRvK.rtbw")
    out = engine_dialogue(
        engine_path,
        [
            "uci",
            f"setoption name SyzygyPath value {tables}",
            "isready",
            f"setoption name SyzygyPath value {tmp_path}/missing",
            "isready",
            f"setoption name SyzygyPath value {truncated}",
            "isready",
            f"setoption name SyzygyPath value {renamed}",
            "isready",
            "position fen 8/8/8/4k3/8/8/2Q5/K6r w - - 0 1",
            "go depth 4",
        ],
        "bestmove",
    )
    notes = info_strings(out)
    assert notes[0].startswith("info string Syzygy tables: 35 WDL and 35 DTZ files, up to 4 pieces"), notes
    assert "missing" in notes[1] and "cannot read directory" in notes[1] and f"keeping '{tables}'" in notes[1], notes
    assert "KQvKR.rtbw" in notes[2] and "unexpected file size" in notes[2] and "keeping" in notes[2], notes
    assert "KRvK.rtbw" in notes[3] and "damaged" in notes[3] and "keeping" in notes[3], notes
    # The first tables still answer: the root is ranked (the rook is taken).
    assert int(last_info(out).split(" tbhits ")[1].split()[0]) > 0


def test_probe_limit_below_the_tables_is_told_and_respected(engine_path, tables):
    out = engine_dialogue(
        engine_path,
        [
            "uci",
            "setoption name SyzygyProbeLimit value 3",
            f"setoption name SyzygyPath value {tables}",
            "isready",
            "position fen 8/8/8/4k3/8/8/2Q5/K6r w - - 0 1",
            "go depth 6",
        ],
        "bestmove",
    )
    assert any("SyzygyProbeLimit 3: tables of 4 to 4 pieces are not probed" in n for n in info_strings(out)), out
    # The 4-piece root is not ranked (no table score), but 3-piece positions after a capture
    # are probed in the search.
    assert "score cp 30743" not in last_info(out), last_info(out)
    assert int(last_info(out).split(" tbhits ")[1].split()[0]) > 0


def test_cecp_egtpath(engine_path, tables):
    out = engine_dialogue(
        engine_path,
        ["xboard", "protover 2", f"egtpath syzygy {tables}", "ping 1"],
        "pong 1",
    )
    assert any('egt="syzygy"' in line for line in out), out
    assert any(line.startswith("# Syzygy tables: 35 WDL and 35 DTZ files") for line in out), out
