"""Game records from `datagen match --records` read back by independent parsers: python-chess
reads every PGN game and replays it to the final position datagen reports in `index.tsv`;
cshogi's KIF and CSA parsers read every shogi record and replay it to the same final SFEN, with
the same winner."""

import subprocess

import chess
import chess.pgn
import cshogi
import cshogi.CSA
import cshogi.KIF
import pytest

from conftest import release_binary


@pytest.fixture(scope="session")
def datagen_path() -> str:
    return release_binary("DATAGEN_BIN", "datagen", "datagen")


def run_match(datagen_path, game, out, extra=()):
    subprocess.run(
        [datagen_path, "match", "--game", game, "--a", "classical", "--b", "classical",
         "--pairs", "3", "--nodes", "400", "--records", str(out), *extra],
        check=True, capture_output=True, timeout=170,
    )
    rows = (out / "index.tsv").read_text().splitlines()
    assert rows[0].split("\t") == ["game", "files", "result", "reason", "final_position"]
    return [row.split("\t") for row in rows[1:]]


@pytest.mark.parametrize("extra", [
    ["--max-plies", "60"],
    ["--resign", "off", "--draw", "off", "--max-plies", "400", "--random-plies", "10"],
])
def test_python_chess_replays_every_pgn_game(datagen_path, tmp_path, extra):
    rows = run_match(datagen_path, "chess", tmp_path, extra)
    assert len(rows) == 6
    with open(tmp_path / "games.pgn") as pgn:
        games = []
        while (game := chess.pgn.read_game(pgn)) is not None:
            assert not game.errors, game.errors
            games.append(game)
    assert len(games) == len(rows)
    by_round = {int(g.headers["Round"]): g for g in games}
    for number, _, result, reason, final in rows:
        game = by_round[int(number)]
        board = game.board()
        for move in game.mainline_moves():
            assert board.is_legal(move)
            board.push(move)
        ours = final.split()
        theirs = board.fen(en_passant="fen").split()
        assert ours[:4] == theirs[:4] or ours[:3] == theirs[:3] and ours[3] == board.fen().split()[3], (ours, theirs)
        assert ours[4:] == theirs[4:], (ours, theirs)
        expected = {"draw": "1/2-1/2", "first": "1-0", "second": "0-1"}[result]
        assert game.headers["Result"] == expected
        assert game.headers["SenteEnd"] == reason
        assert game.headers["White"] == "classical" and game.headers["Termination"]
        if reason == "checkmate":
            assert board.is_checkmate()
        if reason == "stalemate":
            assert board.is_stalemate()
        if reason == "repetition":
            assert board.can_claim_threefold_repetition() or board.is_fivefold_repetition()


@pytest.mark.parametrize("extra", [
    ["--max-plies", "120"],
    ["--resign", "off", "--draw", "off", "--max-plies", "300", "--random-plies", "12"],
    ["--resign", "off", "--draw", "off", "--max-plies", "20"],
])
def test_cshogi_replays_every_kif_and_csa_record(datagen_path, tmp_path, extra):
    rows = run_match(datagen_path, "shogi", tmp_path, extra)
    assert len(rows) == 6
    for number, files, result, reason, final in rows:
        kif_name, csa_name = files.split(",")
        kif = cshogi.KIF.Parser.parse_file(str(tmp_path / kif_name))
        csa_games = cshogi.CSA.Parser.parse_file(str(tmp_path / csa_name))
        assert len(csa_games) == 1
        csa = csa_games[0]
        assert kif.names == ["classical", "classical"] and csa.names == ["classical", "classical"]
        for parsed in (kif, csa):
            board = cshogi.Board(parsed.sfen)
            for move in parsed.moves:
                assert board.is_legal(move), (number, cshogi.move_to_usi(move))
                board.push(move)
            assert board.sfen() == final, (number, board.sfen(), final)
        assert kif.moves == csa.moves
        # The start is the initial position, so the first mover is black (sente).
        winner = {"first": cshogi.BLACK_WIN, "second": cshogi.WHITE_WIN, "draw": cshogi.DRAW}[result]
        assert kif.win == winner, (number, kif.win, kif.endgame)
        to_move = cshogi.BLACK_WIN if final.split()[1] == "b" else cshogi.WHITE_WIN
        if reason == "resign adjudication" and winner == to_move:
            # CSA's special moves are the side to move's: recorded as interrupted.
            assert csa.endgame == "%CHUDAN", (number, csa.endgame)
        else:
            assert csa.win == winner, (number, csa.win, csa.endgame)


def stored_records(datagen_path, game, tmp_path):
    run = tmp_path / "run"
    out = tmp_path / "records"
    subprocess.run(
        [datagen_path, "run", "--game", game, "--games", "6", "--nodes", "300", "--out", str(run)],
        check=True, capture_output=True, timeout=170,
    )
    done = subprocess.run(
        [datagen_path, "records", "--game", game, "--out", str(out), str(run)],
        check=True, capture_output=True, text=True, timeout=170,
    )
    assert "6 records written" in done.stdout, done.stdout
    rows = [row.split("\t") for row in (out / "index.tsv").read_text().splitlines()[1:]]
    assert len(rows) == 6
    return out, rows


def test_stored_chess_games_become_pgn_that_python_chess_replays(datagen_path, tmp_path):
    out, rows = stored_records(datagen_path, "chess", tmp_path)
    with open(out / "games.pgn") as pgn:
        games = []
        while (game := chess.pgn.read_game(pgn)) is not None:
            assert not game.errors, game.errors
            games.append(game)
    assert len(games) == 6
    for game, (number, _, result, _, final) in zip(games, rows):
        assert game.headers["Round"] == number
        board = game.board()
        for move in game.mainline_moves():
            assert board.is_legal(move)
            board.push(move)
        assert board.fen().split()[:3] == final.split()[:3]
        assert board.fen().split()[4:] == final.split()[4:]


def test_stored_shogi_games_become_csa_that_cshogi_replays(datagen_path, tmp_path):
    # Stored games start after the random opening: the KIF files carry a board diagram, which
    # cshogi's KIF reader does not read, so the CSA files (P1..P9 start) are the check.
    out, rows = stored_records(datagen_path, "shogi", tmp_path)
    for number, files, result, reason, final in rows:
        kif_name, csa_name = files.split(",")
        kif_text = (out / kif_name).read_text()
        assert "後手の持駒：" in kif_text and "先手の持駒：" in kif_text
        csa = cshogi.CSA.Parser.parse_file(str(out / csa_name))[0]
        board = cshogi.Board(csa.sfen)
        for move in csa.moves:
            assert board.is_legal(move), (number, cshogi.move_to_usi(move))
            board.push(move)
        # Move numbers differ: the CSA start carries none.
        assert board.sfen().split()[:3] == final.split()[:3], (number, board.sfen(), final)
