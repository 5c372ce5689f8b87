#!/usr/bin/env python3
"""Play a match between two engines at a real time control and report W/D/L and Elo, also from the
pentanomial counts of the game pairs.

Chess engines speak UCI or CECP (python-chess drives them); shogi engines speak USI (driven
directly, with cshogi as the referee). Openings are seeded random plies, each played twice with
colours swapped. Clocks are kept here: a side whose clock runs out loses.

Examples:
  scripts/match.py --game chess --a "uci:target/release/sente" --b "xboard:/usr/games/phalanx" \
      --games 200 --tc 10+0.1 --concurrency 2 --pgn /tmp/phalanx.pgn
  scripts/match.py --game shogi --a "usi:target/release/sente" --b "usi:/usr/games/fairy-stockfish" \
      --games 200 --tc 10+0.1
"""

import argparse
import concurrent.futures
import math
import random
import shlex
import subprocess
import sys
import threading
import time


def elo_from_score(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_with_error(wins, draws, losses):
    n = wins + draws + losses
    if n == 0:
        return 0.0, 0.0
    score = (wins + 0.5 * draws) / n
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n
    return elo_interval(score, math.sqrt(var / n))


def elo_interval(score, stderr):
    """Elo of a mean score and the half-width of its 95% interval, from the score's standard error."""
    lo, hi = score - 1.96 * stderr, score + 1.96 * stderr
    return elo_from_score(score), (elo_from_score(hi) - elo_from_score(lo)) / 2


def elo_from_pairs(pairs):
    """Elo and 95% half-width from pentanomial pair counts: pairs[k] is the number of game pairs
    (one opening, colours swapped) in which A scored k half-points of 2. A pair's two games share
    their opening, so pairs, not games, are the independent samples (as OpenBench and fishtest)."""
    n = sum(pairs)
    if n == 0:
        return 0.0, 0.0
    score = sum(k / 4 * c for k, c in enumerate(pairs)) / n
    var = sum((k / 4 - score) ** 2 * c for k, c in enumerate(pairs)) / n
    return elo_interval(score, math.sqrt(var / n))


def parse_tc(text):
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


MATE_SCORE = 100000


class Adjudicator:
    """cutechess-style adjudication from the scores both engines report (first player's view).

    resign (MOVES, CP): one side has been ahead by at least CP in both engines' last MOVES
    reports each. draw (MOVENUMBER, MOVES, CP): from MOVENUMBER on, both engines' last MOVES
    reports each are within CP of zero. A ply without a score breaks both runs.
    """

    def __init__(self, resign=None, draw=None):
        self.resign, self.draw = resign, draw
        self.scores = []  # one per ply, from the first player's (White's / Black's) side, or None

    def record(self, first_player_score):
        self.scores.append(first_player_score)

    def verdict(self, move_number):
        """'1-0', '0-1' or '1/2-1/2' with a reason, or None."""
        if self.resign:
            moves, cp = self.resign
            last = self.scores[-2 * moves:]
            if len(last) == 2 * moves and None not in last:
                if all(s >= cp for s in last):
                    return "1-0", "adjudicated win"
                if all(s <= -cp for s in last):
                    return "0-1", "adjudicated win"
        if self.draw:
            start, moves, cp = self.draw
            last = self.scores[-2 * moves:]
            if move_number >= start and len(last) == 2 * moves and None not in last \
                    and all(abs(s) <= cp for s in last):
                return "1/2-1/2", "adjudicated draw"
        return None


def parse_ints(text, count, name):
    parts = text.split(":")
    if len(parts) != count:
        raise SystemExit(f"--{name} wants {count} numbers separated by ':'")
    return tuple(int(x) for x in parts)


# ----------------------------------------------------------------------------------- chess

def chess_opening(seed, plies):
    import chess
    rng = random.Random(seed)
    while True:
        board = chess.Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over() and board.legal_moves.count() > 0:
            return board.move_stack


def open_chess_engine(spec, options):
    import chess.engine
    proto, _, cmd = spec.partition(":")
    argv = shlex.split(cmd)
    if proto == "uci":
        engine = chess.engine.SimpleEngine.popen_uci(argv, stderr=subprocess.DEVNULL)
    elif proto == "xboard":
        engine = chess.engine.SimpleEngine.popen_xboard(argv, stderr=subprocess.DEVNULL)
    else:
        raise SystemExit(f"engine spec '{spec}': use uci:CMD or xboard:CMD")
    if options:
        engine.configure(options)
    return engine


def charge_clock(clock, side, elapsed, inc, margin):
    """Charges one move's `elapsed` seconds to `side`'s increment clock. False when the clock ran
    out by more than `margin` (a loss on time); otherwise a clock within the margin stands at zero
    and the increment is added."""
    clock[side] -= elapsed
    if clock[side] < -margin:
        return False
    clock[side] = max(0.0, clock[side]) + inc
    return True


def play_chess_game(a_spec, b_spec, a_white, opening, tc, game_id, adjudicator, options, margin=0.0,
                    per_move=None):
    import chess
    import chess.engine
    import chess.pgn
    base, inc = tc
    engines = {True: None, False: None}
    white_spec, black_spec = (a_spec, b_spec) if a_white else (b_spec, a_spec)
    engines[True] = open_chess_engine(white_spec, options[white_spec])
    engines[False] = open_chess_engine(black_spec, options[black_spec])
    board = chess.Board()
    for m in opening:
        board.push(m)
    clock = {True: base, False: base}
    use = {True: ClockUse(), False: ClockUse()}
    # One cutechess-style comment per engine move: the mover's score in pawns / depth, and the
    # thinking time (`move_comment`).
    comments = []
    result, reason = None, ""
    try:
        while not board.is_game_over(claim_draw=True):
            side = board.turn
            if per_move and per_move[0] == "nodes":
                limit = chess.engine.Limit(nodes=per_move[1])
            elif per_move:
                limit = chess.engine.Limit(time=per_move[1] / 1000.0)
            else:
                limit = chess.engine.Limit(white_clock=clock[True], black_clock=clock[False],
                                           white_inc=inc, black_inc=inc)
            start = time.monotonic()
            try:
                played = engines[side].play(board, limit,
                                            info=chess.engine.INFO_SCORE | chess.engine.INFO_BASIC)
            except chess.engine.EngineError as e:
                result, reason = ("0-1" if side else "1-0"), f"engine error: {e}"
                break
            elapsed = time.monotonic() - start
            use[side].add(elapsed, inc)
            if not per_move and not charge_clock(clock, side, elapsed, inc, margin):
                result, reason = ("0-1" if side else "1-0"), "time forfeit"
                break
            if played.move is None or played.move not in board.legal_moves:
                result, reason = ("0-1" if side else "1-0"), f"illegal move {played.move}"
                break
            score = played.info.get("score")
            adjudicator.record(None if score is None else score.white().score(mate_score=MATE_SCORE))
            comments.append(move_comment(score, played.info.get("depth"), elapsed))
            board.push(played.move)
            if board.ply() > 600:
                result, reason = "1/2-1/2", "move limit"
                break
            if not board.is_game_over(claim_draw=True):
                verdict = adjudicator.verdict(board.fullmove_number)
                if verdict:
                    result, reason = verdict
                    break
        if result is None:
            outcome = board.outcome(claim_draw=True)
            result, reason = outcome.result(), outcome.termination.name.lower()
    finally:
        for e in engines.values():
            try:
                e.quit()
            except Exception:
                pass
    game = chess.pgn.Game.from_board(board)
    engine_moves = list(game.mainline())[len(opening):]
    for node, comment in zip(engine_moves, comments):
        node.comment = comment
    game.headers["White"] = white_spec
    game.headers["Black"] = black_spec
    game.headers["Result"] = result
    game.headers["Termination"] = reason
    game.headers["Round"] = str(game_id)
    uses = (use[a_white].finish(base), use[not a_white].finish(base))
    return result, reason, str(game), uses


def move_comment(score, depth, elapsed):
    """cutechess's move comment: the mover's score in pawns (or #N for a mate) / depth, and the
    seconds it thought, e.g. `+0.25/12 0.231s`."""
    if score is None:
        text = "?"
    elif score.relative.is_mate():
        text = f"{'+' if score.relative.mate() > 0 else '-'}M{abs(score.relative.mate())}"
    else:
        text = f"{score.relative.score() / 100:+.2f}"
    return f"{text}/{depth if depth is not None else '?'} {elapsed:.3f}s"


# ----------------------------------------------------------------------------------- clocks

class ClockUse:
    """One player's thinking time in one game, against the time it was given: the main time
    plus one increment (or byoyomi period) per move."""

    def __init__(self):
        self.used = 0.0
        self.moves = 0
        self.per_move = 0.0

    def add(self, elapsed, per_move):
        self.used += elapsed
        self.moves += 1
        self.per_move += per_move

    def finish(self, base):
        """(seconds used, moves, seconds given)."""
        return self.used, self.moves, base + self.per_move


def clock_use_line(name, totals):
    used, moves, given = totals
    if moves == 0:
        return f"{name}: no moves"
    return (f"{name}: {1000 * used / moves:.0f} ms per move over {moves} moves, "
            f"{100 * used / max(given, 1e-9):.1f}% of the time it was given")


def time_per_move_line(name, totals):
    """Thinking time per move where no clock was given (fixed nodes or move time)."""
    used, moves, _ = totals
    if moves == 0:
        return f"{name}: no moves"
    return f"{name}: {1000 * used / moves:.0f} ms per move over {moves} moves"


# ----------------------------------------------------------------------------------- shogi

class UsiEngine:
    def __init__(self, spec, options, swap_clocks=False):
        # Fairy-Stockfish 11.1 reads USI's btime as gote's clock and wtime as sente's: with
        # swap_clocks the two fields are exchanged so it sees its own time.
        self.swap_clocks = swap_clocks
        proto, _, cmd = spec.partition(":")
        if proto != "usi":
            raise SystemExit(f"shogi engine spec '{spec}': use usi:CMD")
        self.proc = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        self.wait_for("usiok")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok")
        self.send("usinewgame")
        self.last_score = None

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.strip().startswith(prefix):
                return line.strip()

    def go(self, moves, btime, wtime, inc_ms, byoyomi, per_move=None):
        if self.swap_clocks:
            btime, wtime = wtime, btime
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        if per_move:
            self.send(f"go {per_move[0]} {per_move[1]}")
        elif byoyomi:
            self.send(f"go btime {btime} wtime {wtime} byoyomi {inc_ms}")
        else:
            self.send(f"go btime {btime} wtime {wtime} binc {inc_ms} winc {inc_ms}")
        self.last_score = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            words = line.split()
            if words and words[0] == "bestmove":
                return words[1]
            if words and words[0] == "info" and "score" in words:
                self.last_score = usi_score(words)

    def quit(self):
        try:
            self.send("gameover draw")
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def usi_score(words):
    """The side-to-move score of a USI info line ('score cp X' or 'score mate N'), or None."""
    i = words.index("score")
    try:
        kind, value = words[i + 1], words[i + 2]
        if kind == "cp":
            return int(value)
        if kind == "mate":
            return -MATE_SCORE if value.startswith("-") else MATE_SCORE
    except (IndexError, ValueError):
        pass
    return None


def shogi_opening(seed, plies):
    import cshogi
    rng = random.Random(seed)
    while True:
        board = cshogi.Board()
        moves = []
        for _ in range(plies):
            legal = list(board.legal_moves)
            if not legal:
                break
            m = rng.choice(legal)
            moves.append(cshogi.move_to_usi(m))
            board.push(m)
        if not board.is_game_over():
            return moves


def play_shogi_game(a_spec, b_spec, a_black, opening, tc, game_id, adjudicator, options, byoyomi=False,
                    swap=(), margin=0.0, per_move=None):
    import cshogi
    base, inc = tc
    black_spec, white_spec = (a_spec, b_spec) if a_black else (b_spec, a_spec)
    engines = [UsiEngine(black_spec, options[black_spec], black_spec in swap),
               UsiEngine(white_spec, options[white_spec], white_spec in swap)]
    board = cshogi.Board()
    moves = list(opening)
    for m in moves:
        board.push_usi(m)
    clock = [base, base]
    use = [ClockUse(), ClockUse()]
    result, reason = None, ""
    try:
        while True:
            if board.is_game_over():
                result, reason = ("0-1" if board.turn == cshogi.BLACK else "1-0"), "checkmate"
                break
            draw = board.is_draw()
            if draw == cshogi.REPETITION_DRAW:
                result, reason = "1/2-1/2", "repetition"
                break
            if draw == cshogi.REPETITION_WIN:
                result, reason = ("1-0" if board.turn == cshogi.BLACK else "0-1"), "perpetual check"
                break
            if draw == cshogi.REPETITION_LOSE:
                result, reason = ("0-1" if board.turn == cshogi.BLACK else "1-0"), "perpetual check"
                break
            if board.move_number > 512:
                result, reason = "1/2-1/2", "move limit"
                break
            side = 0 if board.turn == cshogi.BLACK else 1
            start = time.monotonic()
            best = engines[side].go(moves, int(clock[0] * 1000), int(clock[1] * 1000), int(inc * 1000),
                                    byoyomi, per_move)
            elapsed = time.monotonic() - start
            use[side].add(elapsed, inc)
            loser = "0-1" if side == 0 else "1-0"
            if per_move:
                pass
            elif byoyomi:
                # Main time first, then up to one byoyomi period per move; leftover byoyomi is lost.
                over = elapsed - clock[side]
                clock[side] = max(0.0, clock[side] - elapsed)
                if over > inc + margin:
                    result, reason = loser, "time forfeit"
                    break
            else:
                if not charge_clock(clock, side, elapsed, inc, margin):
                    result, reason = loser, "time forfeit"
                    break
            if best == "resign":
                result, reason = loser, "resign"
                break
            if best == "win":
                if board.is_nyugyoku():
                    result, reason = ("1-0" if side == 0 else "0-1"), "entering king"
                else:
                    result, reason = loser, "false declaration"
                break
            move = board.move_from_usi(best)
            if move == 0 or not board.is_legal(move):
                result, reason = loser, f"illegal move {best}"
                break
            score = engines[side].last_score
            adjudicator.record(None if score is None else (score if side == 0 else -score))
            board.push(move)
            moves.append(best)
            if not board.is_game_over():
                verdict = adjudicator.verdict(board.move_number // 2)
                if verdict:
                    result, reason = verdict
                    break
    finally:
        for e in engines:
            e.quit()
    record = f"[{game_id}] black={black_spec} white={white_spec} {result} ({reason}) moves: {' '.join(moves)}"
    uses = (use[0 if a_black else 1].finish(base), use[1 if a_black else 0].finish(base))
    return result, reason, record, uses


# ----------------------------------------------------------------------------------- driver

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", choices=["chess", "shogi"], required=True)
    p.add_argument("--a", required=True, help="first engine: uci:CMD, xboard:CMD or usi:CMD")
    p.add_argument("--b", required=True, help="second engine")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--tc", default="10+0.1", help="BASE+INC in seconds")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--opening-plies", type=int, default=6)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pgn", help="write games here")
    p.add_argument("--swap-clocks", choices=["a", "b"], action="append", default=[],
                   help="shogi: send this engine btime/wtime exchanged (Fairy-Stockfish 11.1 reads them "
                        "the wrong way round)")
    p.add_argument("--byoyomi", action="store_true",
                   help="shogi: INC of --tc is a byoyomi period, not an increment")
    p.add_argument("--resign", metavar="MOVES:CP",
                   help="adjudicate a win when both engines' last MOVES scores each give the same "
                        "side at least CP (cutechess -resign twosided); off by default")
    p.add_argument("--draw", metavar="MOVENUMBER:MOVES:CP",
                   help="adjudicate a draw from MOVENUMBER on when both engines' last MOVES scores "
                        "each are within CP of zero (cutechess -draw); off by default")
    p.add_argument("--timemargin", type=int, default=0, metavar="MS",
                   help="let an engine exceed its time by up to MS milliseconds without losing on time "
                        "(cutechess timemargin); the clock then stands at zero. Default 0")
    p.add_argument("--option-a", action="append", default=[], metavar="NAME=VALUE",
                   help="set an engine option of A (repeatable), e.g. EvalFile=classical")
    p.add_argument("--option-b", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--nodes", type=int, metavar="N",
                   help="search N nodes per move (UCI / USI `go nodes N`) instead of playing on a clock: "
                        "results immune to the machine's load; --tc and --timemargin are then unused")
    p.add_argument("--movetime", type=int, metavar="MS",
                   help="think MS milliseconds per move (UCI / USI `go movetime MS`, cutechess st=) "
                        "instead of playing on a clock: the same time for both sides without time "
                        "management; nothing is charged, --tc and --timemargin are then unused")
    args = p.parse_args()
    if args.a == args.b and args.option_a != args.option_b:
        raise SystemExit("--a and --b are the same command: options cannot tell them apart")
    options = {args.a: dict(o.split("=", 1) for o in args.option_a),
               args.b: dict(o.split("=", 1) for o in args.option_b)}
    resign = parse_ints(args.resign, 2, "resign") if args.resign else None
    draw = parse_ints(args.draw, 3, "draw") if args.draw else None
    tc = parse_tc(args.tc)
    if args.timemargin < 0:
        raise SystemExit("--timemargin must be 0 or more milliseconds")
    margin = args.timemargin / 1000.0
    if args.nodes is not None and args.nodes < 1:
        raise SystemExit("--nodes must be at least 1")
    if args.movetime is not None and args.movetime < 1:
        raise SystemExit("--movetime must be at least 1 millisecond")
    if args.nodes is not None and args.movetime is not None:
        raise SystemExit("--nodes and --movetime cannot both limit a move")
    per_move = (("nodes", args.nodes) if args.nodes is not None
                else ("movetime", args.movetime) if args.movetime is not None else None)
    pairs = (args.games + 1) // 2
    wins = draws = losses = 0
    reasons = {}
    clock_totals = [[0.0, 0, 0.0], [0.0, 0, 0.0]]
    pair_points = {}  # pair -> A's half-points so far, until both of its games are in
    pentanomial = [0] * 5
    lock = threading.Lock()
    out = open(args.pgn, "w") if args.pgn else None

    def play(i):
        pair, second = divmod(i, 2)
        a_first = second == 0
        if args.game == "chess":
            opening = chess_opening(args.seed * 100003 + pair, args.opening_plies)
            return pair, a_first, play_chess_game(args.a, args.b, a_first, opening, tc, i + 1,
                                                  Adjudicator(resign, draw), options, margin, per_move)
        opening = shogi_opening(args.seed * 100003 + pair, args.opening_plies)
        swap = tuple(args.a if e == "a" else args.b for e in args.swap_clocks)
        return pair, a_first, play_shogi_game(args.a, args.b, a_first, opening, tc, i + 1,
                                              Adjudicator(resign, draw), options, args.byoyomi, swap,
                                              margin, per_move)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        futures = [pool.submit(play, i) for i in range(2 * pairs)]
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            pair, a_first, (result, reason, record, uses) = future.result()
            with lock:
                for totals, game_use in zip(clock_totals, uses):
                    for k in range(3):
                        totals[k] += game_use[k]
                if result == "1/2-1/2":
                    draws += 1
                    half_points = 1
                elif (result == "1-0") == a_first:
                    wins += 1
                    half_points = 2
                else:
                    losses += 1
                    half_points = 0
                if pair in pair_points:
                    pentanomial[pair_points.pop(pair) + half_points] += 1
                else:
                    pair_points[pair] = half_points
                if result != "1/2-1/2" and reason.split(" ")[0] in ("time", "illegal", "engine"):
                    # Faults are counted per engine: who lost on time, moved illegally or failed.
                    a_lost = (result == "1-0") != a_first
                    reason = f"{reason.split(':')[0]} by {'A' if a_lost else 'B'}"
                reasons[reason] = reasons.get(reason, 0) + 1
                if out:
                    out.write(record + "\n\n")
                    out.flush()
                elo, err = elo_with_error(wins, draws, losses)
                print(f"game {done}/{2 * pairs}: {result} ({reason}); A: +{wins} ={draws} -{losses} "
                      f"Elo {elo:+.1f} ± {err:.1f}", flush=True)
    elo, err = elo_with_error(wins, draws, losses)
    margin_note = f" (time margin {args.timemargin} ms)" if args.timemargin else ""
    limit_text = (f"{per_move[1]} {'nodes' if per_move[0] == 'nodes' else 'ms'} per move" if per_move
                  else f"tc {args.tc}{margin_note}")
    print(f"\nA = {args.a} {args.option_a}\nB = {args.b} {args.option_b}\n{limit_text}, {wins + draws + losses} games: "
          f"+{wins} ={draws} -{losses}, Elo of A {elo:+.1f} ± {err:.1f} (95%)")
    if sum(pentanomial):
        pair_elo, pair_err = elo_from_pairs(pentanomial)
        print(f"pairs (0, ½, 1, 1½, 2 points of A): {pentanomial}, Elo of A {pair_elo:+.1f} ± {pair_err:.1f} "
              f"(95%, pentanomial)")
    print("terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    if per_move:
        print("time use: " + "; ".join(time_per_move_line(name, totals)
                                       for name, totals in zip("AB", clock_totals)))
    else:
        print("clock use: " + clock_use_line("A", clock_totals[0]) + "; " + clock_use_line("B", clock_totals[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
