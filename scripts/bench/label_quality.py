#!/usr/bin/env python3
"""How close self-play's cheap scores come to a deep search, for each way of seating searchers.

Usage: scripts/bench/label_quality.py SENTE TEXT [--game chess|shogi] [--games N] [--skip K]
                                      [--ref-nodes N] [--arm NAME:SEATS:NODES ...]

TEXT is self-play exported with every position (`datagen export --game G --format text
--min-ply 0 --keep-in-check --keep-noisy --max-score 100000 --out TEXT RUN`). Its games are found
again by replaying consecutive positions (chess with python-chess, Chess960 castling allowed;
shogi with cshogi), and games of at least 30 plies are kept. Each game is replayed through UCI /
USI (`position ... moves ...` from the game's first position, as `datagen run` passes the
history): a reference engine (`Hash` 64) searches every position to `--ref-nodes`, and every arm
searches it too, in game order, with `Hash` 8 as `datagen run`'s players. An arm's SEATS is
`shared` (one engine moves for both sides, its table warm from the other side's search, as
`datagen run --searchers shared`) or `per-side` (an engine for each side, as `--searchers
per-side`); every engine starts each game with `ucinewgame` / `usinewgame`. Printed per arm: the
mean squared error of its score against the reference's, both as win expectancies
(1 / (1 + exp(-cp / 400)), the trainer's scale; mates 0 or 1), and how often its best move is the
reference's; then each arm's error minus the first arm's with its 95% error, paired by position.
"""
import argparse
import math
import subprocess

SCALE = 400


class Engine:
    """A UCI or USI engine process, driven line by line."""

    def __init__(self, path, game, hash_mb):
        self.game = game
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci" if game == "chess" else "usi")
        self.wait_for("uciok" if game == "chess" else "usiok")
        prefix = "" if game == "chess" else "USI_"
        self.send(f"setoption name {prefix}Hash value {hash_mb}")
        if game == "chess":
            self.send("setoption name UCI_Chess960 value true")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, token):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine ended before '{token}'")
            lines.append(line.split())
            if lines[-1][:1] == [token]:
                return lines

    def new_game(self):
        self.send("ucinewgame" if self.game == "chess" else "usinewgame")
        self.send("isready")
        self.wait_for("readyok")

    def search(self, start, moves, nodes):
        """(win expectancy for the side to move, best move) of `go nodes` from the position."""
        kind = "fen" if self.game == "chess" else "sfen"
        self.send(f"position {kind} {start}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go nodes {nodes}")
        lines = self.wait_for("bestmove")
        expectancy = None
        for words in lines:
            if words[:1] == ["info"] and "score" in words:
                i = words.index("score")
                kind, value = words[i + 1], int(words[i + 2])
                if kind == "cp":
                    expectancy = 1 / (1 + math.exp(-value / SCALE))
                elif kind == "mate":
                    expectancy = 1.0 if value > 0 else 0.0
        return expectancy, lines[-1][1]

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


class ChessRules:
    def __init__(self):
        import chess
        self.chess = chess

    def board(self, text):
        return self.chess.Board(text, chess960=True)

    def connecting_move(self, board, target):
        for move in board.legal_moves:
            board.push(move)
            same = (board.board_fen(), board.turn, board.castling_rights) == (
                target.board_fen(), target.turn, target.castling_rights)
            board.pop()
            if same:
                return board.uci(move, chess960=True)
        return None

    def push(self, board, move):
        board.push(board.parse_uci(move))

    def white_to_move(self, board):
        return board.turn == self.chess.WHITE


class ShogiRules:
    def __init__(self):
        import cshogi
        self.cshogi = cshogi

    def board(self, text):
        return self.cshogi.Board(text)

    @staticmethod
    def key(board):
        return board.sfen().split()[:3]

    def connecting_move(self, board, target):
        wanted = self.key(target)
        for move in board.legal_moves:
            board.push(move)
            same = self.key(board) == wanted
            board.pop()
            if same:
                return self.cshogi.move_to_usi(move)
        return None

    def push(self, board, move):
        board.push_usi(move)

    def white_to_move(self, board):
        # Sente (black, the first player) moves first: "first side" plays like chess's White.
        return board.turn == self.cshogi.BLACK


def games_from(path, wanted, rules, min_plies=30):
    """(first position's text, moves) of the first `wanted` games of a text export."""
    games, moves, board, start = [], [], None, None
    with open(path) as lines:
        for line in lines:
            text = line.split(" | ")[0]
            position = rules.board(text)
            if board is not None:
                move = rules.connecting_move(board, position)
                if move is not None:
                    moves.append(move)
                    rules.push(board, move)
                    continue
                if len(moves) >= min_plies:
                    games.append((start, moves))
                    if len(games) == wanted:
                        break
            start, moves, board = text, [], rules.board(text)
        else:
            if board is not None and len(moves) >= min_plies:
                games.append((start, moves))
    return games[:wanted]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sente")
    parser.add_argument("text")
    parser.add_argument("--game", choices=["chess", "shogi"], default="chess")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--skip", type=int, default=0, help="games of TEXT to pass over first")
    parser.add_argument("--ref-nodes", type=int, default=100_000)
    parser.add_argument("--arm", action="append",
                        help="NAME:SEATS:NODES (default shared:shared:1250 and per-side:per-side:1250)")
    args = parser.parse_args()
    specs = []
    for spec in args.arm or ["shared:shared:1250", "per-side:per-side:1250"]:
        parts = spec.split(":")
        if len(parts) != 3 or parts[1] not in ("shared", "per-side") or not parts[2].isdigit():
            parser.error(f"--arm {spec}: give NAME:SEATS:NODES; SEATS is shared or per-side")
        specs.append((parts[0], parts[1], int(parts[2])))
    rules = ChessRules() if args.game == "chess" else ShogiRules()
    games = games_from(args.text, args.games + args.skip, rules)[args.skip:]

    arms = []
    for name, seats, nodes in specs:
        first = Engine(args.sente, args.game, 8)
        second = first if seats == "shared" else Engine(args.sente, args.game, 8)
        arms.append((name, first, second, nodes))
    reference = Engine(args.sente, args.game, 64)
    engines = [reference] + [e for _, a, b, _ in arms for e in {id(a): a, id(b): b}.values()]

    errors = {name: [] for name, *_ in arms}
    same = {name: 0 for name, *_ in arms}
    for start, moves in games:
        for engine in engines:
            engine.new_game()
        board = rules.board(start)
        for ply in range(len(moves)):
            played = moves[:ply]
            target, best = reference.search(start, played, args.ref_nodes)
            found = {}
            for name, first, second, nodes in arms:
                seat = first if rules.white_to_move(board) else second
                found[name] = seat.search(start, played, nodes)
            if target is not None and all(e is not None for e, _ in found.values()):
                for name, (expectancy, move) in found.items():
                    errors[name].append((expectancy - target) ** 2)
                    same[name] += move == best
            rules.push(board, moves[ply])
    for engine in engines:
        engine.quit()

    first_arm = arms[0][0]
    n = len(errors[first_arm])
    print(f"{len(games)} games, {n} positions, reference {args.ref_nodes} nodes")
    if n < 2:
        raise SystemExit("too few positions to compare")
    for name, *_ in arms:
        print(f"{name}: mse {sum(errors[name]) / n:.6f}, same best move {same[name] / n:.3f}")
    for name, *_ in arms[1:]:
        diffs = [a - b for a, b in zip(errors[name], errors[first_arm])]
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
        print(f"mse({name}) - mse({first_arm}) = {mean:+.6f} ± {1.96 * sd / math.sqrt(n):.6f} (95%)")


if __name__ == "__main__":
    main()
