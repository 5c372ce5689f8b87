#!/usr/bin/env python3
"""Converting won endings: from won 4-piece positions (KQvKR, KRvKP, KBNvK, KQvKP, KRvKN, drawn
out at random, the winner to move, the halfmove clock at zero), Sente plays the winning side
against Stockfish (no tables) until the game ends, once with the Syzygy tables and once
without. A game counts as converted when Sente mates before the 50-move rule (or a
threefold repetition) draws it. Slow (minutes): a script, not a CI test.

Usage: scripts/syzygy-conversion.py [--sente target/release/sente] [--stockfish stockfish]
       [--positions 24] [--nodes 20000] [--sf-nodes 100000] [--tables DIR]
"""

import argparse
import os
import random
import shutil
import subprocess
import sys

import chess
import chess.engine
import chess.syzygy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MATERIALS = ["KQvKR", "KRvKP", "KBNvK", "KQvKP", "KRvKN", "KQvKR", "KRvKP", "KBNvK"]
LETTERS = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}


def random_board(material, rng):
    """A board with the pieces of `material` (a table name such as "KQvKR": White's letters, "v",
    Black's) each on a random empty square, no pawn on the first or last rank; White to move, and
    not checked for validity. tests/python/test_syzygy.py draws its positions with it too."""
    white, black = material.split("v")
    board = chess.Board(None)
    for color, side in ((chess.WHITE, white), (chess.BLACK, black)):
        for letter in side:
            kind = LETTERS[letter]
            while True:
                sq = rng.randrange(64)
                if board.piece_at(sq) is None and not (kind == chess.PAWN and chess.square_rank(sq) in (0, 7)):
                    board.set_piece_at(sq, chess.Piece(kind, color))
                    break
    return board


def won_positions(count, tables, rng):
    """`count` positions the side to move wins (WDL +2) in at least 20 plies to zeroing."""
    out = []
    i = 0
    while len(out) < count:
        board = random_board(MATERIALS[i % len(MATERIALS)], rng)
        board.turn = chess.WHITE
        if not board.is_valid() or board.is_game_over():
            continue
        if tables.probe_wdl(board) == 2 and tables.probe_dtz(board) >= 20:
            out.append(board.fen())
            i += 1
    return out


def over(board):
    """Game end by rule, or a draw the side to move could claim when that is the defender."""
    if board.is_game_over() or board.is_repetition(3) or board.can_claim_fifty_moves():
        return True
    return board.turn == chess.BLACK and board.can_claim_threefold_repetition()


def play(fen, sente_path, stockfish_path, table_dir, nodes, sf_nodes):
    """Sente (White) against Stockfish from `fen`; returns the result and the plies played."""
    board = chess.Board(fen)
    sente = chess.engine.SimpleEngine.popen_uci(sente_path)
    stockfish = chess.engine.SimpleEngine.popen_uci(stockfish_path)
    try:
        if table_dir:
            sente.configure({"SyzygyPath": table_dir})
        # Over by rule, or by a draw Stockfish (the defender) can claim.
        while not over(board) and board.ply() < 400:
            if board.turn == chess.WHITE:
                move = sente.play(board, chess.engine.Limit(nodes=nodes)).move
            else:
                move = stockfish.play(board, chess.engine.Limit(nodes=sf_nodes)).move
            board.push(move)
    finally:
        sente.quit()
        stockfish.quit()
    return ("1-0" if board.is_checkmate() else "1/2-1/2"), board.ply()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sente", default=os.path.join(ROOT, "target", "release", "sente"))
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--nodes", type=int, default=20000, help="Sente's nodes per move")
    parser.add_argument("--sf-nodes", type=int, default=100000, help="Stockfish's nodes per move")
    parser.add_argument("--tables", help="Syzygy directory (default: scripts/fetch-test-data.sh's)")
    parser.add_argument("--seed", type=int, default=56)
    parser.add_argument("--fen", action="append", help="play this position instead (repeatable)")
    parser.add_argument("--only-tables", action="store_true", help="skip the games without tables")
    args = parser.parse_args()
    table_dir = args.tables
    if not table_dir:
        cache = subprocess.run([os.path.join(ROOT, "scripts", "fetch-test-data.sh")], check=True,
                               capture_output=True, text=True).stdout.strip()
        table_dir = os.path.join(cache, "syzygy")
    with chess.syzygy.open_tablebase(table_dir) as tables:
        fens = args.fen or won_positions(args.positions, tables, random.Random(args.seed))
    converted = {"with tables": 0, "without tables": 0}
    for fen in fens:
        line = [fen]
        runs = [("with tables", table_dir), ("without tables", None)][: 1 if args.only_tables else 2]
        for label, directory in runs:
            result, plies = play(fen, args.sente, args.stockfish, directory, args.nodes, args.sf_nodes)
            won = result == "1-0"
            converted[label] += won
            line.append(f"{label}: {result} in {plies} plies")
        print(" | ".join(line), flush=True)
    total = len(fens)
    for label, count in converted.items():
        print(f"{label}: converted {count} of {total}")
    return 0 if converted["with tables"] == total else 1


if __name__ == "__main__":
    sys.exit(main())
