"""A seeded protocol fuzzer for UCI, USI and CECP: random reachable positions (made with
python-chess and cshogi), refused positions, garbage lines, random search limits, Threads 1 or 2,
MultiPV, stops at random moments; `isready` / `ping` must be answered within SYNC_BOUND seconds
whatever the engine is doing, and every `bestmove` / `move` is replayed through python-chess or
cshogi, which must find it legal in the position the engine was last given (a refused position
leaves the previous one in UCI and USI; in CECP the engine plays nothing until a legal board).

CI runs a short fixed budget (ROUNDS searches per protocol). A long run on demand:
SENTE_FUZZ_ROUNDS=2000 SENTE_FUZZ_SEED=7 pytest tests/python/test_protocol_fuzz.py
"""

import os
import queue
import random
import subprocess
import threading
import time

import chess
import cshogi
import pytest

ROUNDS = int(os.environ.get("SENTE_FUZZ_ROUNDS", "30"))
SEED = int(os.environ.get("SENTE_FUZZ_SEED", "59"))
# Answering `isready` / `ping` takes milliseconds; the bound leaves room for a loaded 2-core CI.
SYNC_BOUND = float(os.environ.get("SENTE_FUZZ_SYNC_BOUND", "3.0"))
SEARCH_BOUND = 30.0

BAD_FENS = [
    "4k3/8/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/8/4K3 w - - 0 1",
    "4k3/8/8/8/1b6/3n4/8/r3K3 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKQNR w KQkq - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
]
BAD_SFENS = [
    "4k4/9/5N3/9/4R3B/9/9/9/4K4 w - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 3G 1",
    "4k4/9/9/9/9/9/9/9/4K4 b 19P 1",
    "9/9/9/9/9/9/9/9/9 b - 1",
]
GARBAGE = [
    "",
    "   ",
    "setoption name MultiPV value 0",
    "setoption name Hash value -1",
    "setoption name Threads value abc",
    "position",
    "position fen",
    "position sfen",
    "\x00\x01\x7f",
    "x" * 5000,
    "ponderhit",
    "stop",
]


class Session:
    """The engine as a child process, read line by line with deadlines."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            errors="replace",
        )
        self.lines = queue.Queue()
        self.transcript = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.transcript.append("> " + line[:200])
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, done, bound, what):
        """Lines up to the first that satisfies `done`, which must come within `bound` seconds."""
        deadline = time.monotonic() + bound
        got = []
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.001))
            except queue.Empty:
                line = ""
                if time.monotonic() >= deadline:
                    self.fail(f"no {what} within {bound} s")
                continue
            if line is None:
                self.fail(f"the engine exited (code {self.proc.poll()}) waiting for {what}")
            self.transcript.append("< " + line[:200])
            got.append(line)
            if done(line):
                return got

    def fail(self, why):
        tail = "\n".join(self.transcript[-60:])
        pytest.fail(f"{why}; transcript:\n{tail}")

    def sync(self, command, answer):
        """Sends `command`, which `answer` must answer within SYNC_BOUND; returns the seconds
        it took and the lines before it."""
        started = time.monotonic()
        self.send(command)
        lines = self.until(lambda l: l == answer, SYNC_BOUND, answer)
        return time.monotonic() - started, lines[:-1]

    def close(self, command):
        try:
            self.send(command)
            self.proc.wait(timeout=10)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        return self.proc.returncode


def random_chess_board(rng):
    board = chess.Board()
    for _ in range(rng.randrange(0, 80)):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over(claim_draw=False):
            break
        board.push(rng.choice(moves))
    return board


def random_shogi_board(rng):
    board = cshogi.Board()
    for _ in range(rng.randrange(0, 120)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def random_limits(rng, dialect):
    kind = rng.randrange(7)
    if kind == 0:
        return f"nodes {rng.choice([1, 10, 500, 5000, 20000])}"
    if kind == 1:
        return f"depth {rng.randrange(1, 6)}"
    if kind == 2:
        return f"movetime {rng.randrange(1, 60)}"
    if kind == 3:
        if dialect == "usi":
            return f"btime {rng.randrange(0, 2000)} wtime {rng.randrange(0, 2000)} byoyomi {rng.randrange(0, 100)}"
        return f"wtime {rng.randrange(1, 3000)} btime {rng.randrange(1, 3000)} winc {rng.randrange(0, 50)}"
    if kind == 4:
        return "infinite"
    if kind == 5:
        # Bad values are skipped with a warning; the rest of the line still limits the search.
        return rng.choice(["nodes -3 depth 2", "depth abc nodes 800", "movetime x depth 3", "nodes 1"])
    return f"nodes {rng.randrange(1, 3000)} depth {rng.randrange(1, 30)}"


def setoptions(session, rng, dialect):
    threads = rng.choice([1, 1, 2])
    multipv = rng.choice([1, 1, 1, 3])
    session.send(f"setoption name Threads value {threads}")
    session.send(f"setoption name MultiPV value {multipv}")
    if dialect == "usi":
        session.send("setoption name USI_Hash value 16")
    else:
        session.send("setoption name Hash value 16")


def check_chess_move(session, board, text):
    if text == "(none)":
        if any(board.legal_moves):
            session.fail(f"bestmove (none) with legal moves in {board.fen()}")
        return
    try:
        move = board.parse_uci(text)
    except ValueError:
        session.fail(f"illegal bestmove {text} in {board.fen()}")
    assert move in board.legal_moves


def check_shogi_move(session, board, text):
    if text == "resign":
        return
    if text == "win":
        if not board.is_nyugyoku():
            session.fail(f"bestmove win without an entering-king win in {board.sfen()}")
        return
    move = board.move_from_usi(text)
    if not move or not board.is_legal(move):
        session.fail(f"illegal bestmove {text} in {board.sfen()}")


def fuzz_uci_usi(engine_path, dialect, seed):
    rng = random.Random(seed)
    session = Session(engine_path)
    session.send(dialect)
    session.until(lambda l: l == f"{dialect}ok", SEARCH_BOUND, f"{dialect}ok")
    setoptions(session, rng, dialect)
    session.sync("isready", "readyok")
    current = chess.Board() if dialect == "uci" else cshogi.Board()
    slowest = 0.0
    for round_index in range(ROUNDS):
        if rng.randrange(8) == 0:
            setoptions(session, rng, dialect)
            slowest = max(slowest, session.sync("isready", "readyok")[0])
        for _ in range(rng.randrange(3)):
            session.send(rng.choice(GARBAGE))
        if rng.randrange(4) == 0:
            # A position no game reaches: refused, the previous one stays.
            bad = rng.choice(BAD_FENS if dialect == "uci" else BAD_SFENS)
            session.send(f"position {'fen' if dialect == 'uci' else 'sfen'} {bad}")
        else:
            if dialect == "uci":
                current = random_chess_board(rng)
                session.send(f"position fen {current.fen()}")
            else:
                current = random_shogi_board(rng)
                session.send(f"position sfen {current.sfen()}")
        if dialect == "usi" and rng.randrange(8) == 0:
            # The mate solver, with good and bad times: `checkmate ...` within the bound.
            session.send(f"go mate {rng.choice(['-5', 'abc', '100', 'infinite'])}")
            time.sleep(rng.random() * 0.05)
            took, lines = session.sync("isready", "readyok")
            slowest = max(slowest, took)
            session.send("stop")
            if not any(l.startswith("checkmate") for l in lines):
                session.until(lambda l: l.startswith("checkmate"), SYNC_BOUND, "checkmate after stop")
            continue
        limits = random_limits(rng, dialect)
        session.send(f"go {limits}")
        if limits == "infinite" or rng.randrange(3) == 0:
            time.sleep(rng.random() * 0.05)
            # A search answers `isready` at once, and `stop` within milliseconds.
            took, lines = session.sync("isready", "readyok")
            slowest = max(slowest, took)
            session.send("stop")
            if not any(l.startswith("bestmove") for l in lines):
                lines = session.until(lambda l: l.startswith("bestmove"), SYNC_BOUND, "bestmove after stop")
            lines = [l for l in lines if l.startswith("bestmove")]
        else:
            lines = session.until(lambda l: l.startswith("bestmove"), SEARCH_BOUND, "bestmove")
        best = lines[-1].split()[1]
        if dialect == "uci":
            check_chess_move(session, current, best)
        else:
            check_shogi_move(session, current, best)
        slowest = max(slowest, session.sync("isready", "readyok")[0])
    code = session.close("quit")
    assert code == 0, f"exit code {code}"
    return slowest


def test_uci_fuzz(engine_path):
    fuzz_uci_usi(engine_path, "uci", SEED)


def test_usi_fuzz(engine_path):
    fuzz_uci_usi(engine_path, "usi", SEED + 1)


def test_cecp_fuzz(engine_path):
    rng = random.Random(SEED + 2)
    session = Session(engine_path)
    session.send("xboard")
    session.send("protover 2")
    session.until(lambda l: "done=1" in l, SEARCH_BOUND, "feature done=1")
    session.send("post")
    current = chess.Board()
    for round_index in range(ROUNDS):
        session.send("force")
        for _ in range(rng.randrange(3)):
            session.send(rng.choice(GARBAGE))
        if rng.randrange(4) == 0:
            # Refused (`tellusererror`): the engine plays nothing until it has a legal board.
            session.send(f"setboard {rng.choice(BAD_FENS)}")
            session.send("go")
            _, lines = session.sync(f"ping {round_index}", f"pong {round_index}")
            if any(l.startswith("move ") for l in lines):
                session.fail("a move after a refused setboard")
            continue
        current = random_chess_board(rng)
        session.send(f"setboard {current.fen()}")
        session.sync(f"ping {round_index}", f"pong {round_index}")
        if current.is_game_over(claim_draw=False):
            continue
        if rng.randrange(3) == 0:
            # Analysis: answers ping while searching, and `exit` ends it.
            session.send("analyze")
            time.sleep(rng.random() * 0.05)
            session.sync(f"ping {round_index}a", f"pong {round_index}a")
            session.send("exit")
            session.sync(f"ping {round_index}b", f"pong {round_index}b")
            continue
        session.send(rng.choice(["sd 3", "st 0.05", "sd 2"]))
        session.send("go")
        lines = session.until(
            lambda l: l.startswith("move ") or l.startswith("resign") or " {" in l and l[0] in "01*",
            SEARCH_BOUND,
            "move",
        )
        last = lines[-1]
        if last.startswith("move "):
            text = last.split()[1]
            try:
                move = current.parse_uci(text)
            except ValueError:
                try:
                    move = current.parse_san(text)
                except ValueError:
                    session.fail(f"illegal move {text} in {current.fen()}")
            assert move in current.legal_moves
            current.push(move)
        session.sync(f"ping {round_index}c", f"pong {round_index}c")
    code = session.close("quit")
    assert code == 0, f"exit code {code}"
