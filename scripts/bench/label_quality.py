#!/usr/bin/env python3
"""How close self-play's cheap scores come to a deep search, for each way of seating searchers.

Usage: scripts/bench/label_quality.py SENTE TEXT [--games N] [--skip K] [--nodes N]
                                      [--ref-nodes N] [--arm NAME:SEATS:NODES ...]

TEXT is chess self-play exported with every position (`datagen export --game chess --format
text --min-ply 0 --keep-in-check --keep-noisy --max-score 100000 --out TEXT RUN`); its games are
found again by replaying consecutive positions (python-chess, Chess960 castling allowed), and
games of at least 30 plies are kept. Each game is replayed through UCI: a reference engine
(`Hash` 64) searches every position to `--ref-nodes`, and every arm searches it too, in game
order, with `Hash` 8 as `datagen run`'s players. An arm's SEATS is `shared` (one engine moves
for both sides, its table warm from the other side's search, as `datagen run --searchers
shared`) or `per-side` (an engine for each side, as `--searchers per-side`); every engine gets
`ucinewgame` at the start of each game. Printed per arm: the mean squared error of its score
against the reference's, both as win expectancies (1 / (1 + exp(-cp / 400)), mates 0 or 1), and
how often its best move is the reference's; then each arm's error minus the first arm's with
its 95% error, paired by position.
"""
import argparse
import math

import chess
import chess.engine


def connecting_move(board, target):
    for move in board.legal_moves:
        board.push(move)
        same = (board.board_fen(), board.turn, board.castling_rights) == (
            target.board_fen(), target.turn, target.castling_rights)
        board.pop()
        if same:
            return move
    return None


def games_from(path, wanted, min_plies=30):
    """(start FEN, moves) of the first `wanted` games of a text export."""
    games, moves, board, start = [], [], None, None
    with open(path) as lines:
        for line in lines:
            fen = line.split(" | ")[0]
            position = chess.Board(fen, chess960=True)
            if board is not None:
                move = connecting_move(board, position)
                if move is not None:
                    moves.append(move)
                    board.push(move)
                    continue
                if len(moves) >= min_plies:
                    games.append((start, moves))
                    if len(games) == wanted:
                        break
            start, moves, board = fen, [], chess.Board(fen, chess960=True)
        else:
            if board is not None and len(moves) >= min_plies:
                games.append((start, moves))
    return games[:wanted]


def expectancy(score):
    white = score.pov(chess.WHITE)
    if white.is_mate():
        return 1.0 if white.mate() > 0 else 0.0
    return 1 / (1 + math.exp(-white.score() / 400))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sente")
    parser.add_argument("text")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--skip", type=int, default=0, help="games of TEXT to pass over first")
    parser.add_argument("--ref-nodes", type=int, default=100_000)
    parser.add_argument("--arm", action="append",
                        help="NAME:SEATS:NODES (default shared:shared:1250 and per-side:per-side:1250)")
    args = parser.parse_args()
    arm_specs = args.arm or ["shared:shared:1250", "per-side:per-side:1250"]

    def engine(hash_mb):
        e = chess.engine.SimpleEngine.popen_uci(args.sente)
        e.configure({"Hash": hash_mb, "Threads": 1})
        return e

    arms = []
    for spec in arm_specs:
        name, seats, nodes = spec.split(":")
        if seats not in ("shared", "per-side"):
            parser.error(f"--arm {spec}: SEATS is shared or per-side")
        white = engine(8)
        black = white if seats == "shared" else engine(8)
        arms.append((name, white, black, int(nodes)))
    reference = engine(64)
    games = games_from(args.text, args.games + args.skip)[args.skip:]
    errors = {name: [] for name, *_ in arms}
    same = {name: 0 for name, *_ in arms}
    for start, moves in games:
        board = chess.Board(start, chess960=True)
        game = object()  # a new game object: python-chess sends ucinewgame
        for move in moves:
            ref = reference.analyse(board, chess.engine.Limit(nodes=args.ref_nodes), game=game)
            infos = {}
            for name, white, black, nodes in arms:
                seat = white if board.turn == chess.WHITE else black
                infos[name] = seat.analyse(board, chess.engine.Limit(nodes=nodes), game=game)
            if all("score" in i and "pv" in i for i in [ref, *infos.values()]):
                target = expectancy(ref["score"])
                for name, info in infos.items():
                    errors[name].append((expectancy(info["score"]) - target) ** 2)
                    same[name] += info["pv"][0] == ref["pv"][0]
            board.push(move)
    first = arms[0][0]
    n = len(errors[first])
    print(f"{len(games)} games, {n} positions, reference {args.ref_nodes} nodes")
    for name, *_ in arms:
        print(f"{name}: mse {sum(errors[name]) / n:.6f}, same best move {same[name] / n:.3f}")
    for name, *_ in arms[1:]:
        diffs = [a - b for a, b in zip(errors[name], errors[first])]
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
        print(f"mse({name}) - mse({first}) = {mean:+.6f} ± {1.96 * sd / math.sqrt(n):.6f} (95%)")
    for _, white, black, _ in arms:
        white.quit()
        if black is not white:
            black.quit()
    reference.quit()


if __name__ == "__main__":
    main()
