#!/usr/bin/env python3
"""Where Sente's chess search tree differs from a reference engine's (Stockfish 15.1 by default).

On the positions of `sente bench chess` (read from its output), each engine searches each
position from an empty hash (`ucinewgame`, Hash 64, one thread) three times:

- to a fixed depth D: the nodes it needs (tree size; the ratio of the geometric means is the
  load-immune answer to "how much bigger is Sente's tree");
- for a fixed node count N: the depth and selective depth reached;
- for a fixed time T: nodes, depth and best move (the engines alternate position by position, so
  machine load hits both alike; nps is a ratio within one run).

Usage:
  scripts/bench/search_shape.py [--sente target/release/sente] [--reference /usr/games/stockfish]
                                [--depth 12] [--nodes 1000000] [--movetime 1000] [--limit 45]
Prints one row per position and the summary.
"""

import argparse
import math
import pathlib
import re
import statistics
import subprocess
import sys

import chess
import chess.engine

ROOT = pathlib.Path(__file__).resolve().parents[2]
BENCH_LINE = re.compile(r"^\s*\d+/\d+\s+\S+\s+nodes\s+\d+\s+\d+ ms\s+(.+)$")


def bench_positions(sente: str) -> list[str]:
    """The FENs `sente bench chess` searches, in its order."""
    out = subprocess.run([sente, "bench", "chess", "1"], capture_output=True, text=True, check=True).stdout
    fens = [m.group(1).strip() for m in map(BENCH_LINE.match, out.splitlines()) if m]
    if not fens:
        sys.exit(f"search_shape: no positions in the output of '{sente} bench chess 1'")
    return fens


def search(engine: chess.engine.SimpleEngine, board: chess.Board, limit: chess.engine.Limit, game: object) -> dict:
    info = engine.analyse(board, limit, game=game)
    pv = info.get("pv") or [None]
    return {"depth": info.get("depth", 0), "seldepth": info.get("seldepth", 0),
            "nodes": info.get("nodes", 0), "time": info.get("time", 0.0), "move": pv[0]}


def geometric_mean(values: list[float]) -> float:
    values = [v for v in values if v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sente", default=str(ROOT / "target" / "release" / "sente"))
    parser.add_argument("--reference", default="/usr/games/stockfish")
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--movetime", type=int, default=1000, help="milliseconds")
    parser.add_argument("--limit", type=int, default=45, help="at most this many positions")
    args = parser.parse_args()

    fens = bench_positions(args.sente)[: args.limit]
    engines = {}
    for name, path in (("sente", args.sente), ("reference", args.reference)):
        engines[name] = chess.engine.SimpleEngine.popen_uci(path)
        engines[name].configure({"Hash": 64, "Threads": 1})
    rows = []
    try:
        print("pos | to depth: Sente nodes, ref nodes | at nodes: Sente depth/sel, ref depth/sel | "
              "at time: Sente nodes depth, ref nodes depth, same move", flush=True)
        for index, fen in enumerate(fens):
            board = chess.Board(fen)
            row = {}
            for kind, limit in (("depth", chess.engine.Limit(depth=args.depth)),
                                ("nodes", chess.engine.Limit(nodes=args.nodes)),
                                ("time", chess.engine.Limit(time=args.movetime / 1000))):
                # Alternate which engine goes first so that drifting load favours neither.
                order = ("sente", "reference") if index % 2 == 0 else ("reference", "sente")
                for name in order:
                    row[(name, kind)] = search(engines[name], board, limit, game=(index, kind))
            rows.append(row)
            s, r = (lambda k: row[("sente", k)]), (lambda k: row[("reference", k)])
            print(f"{index + 1:3} | {s('depth')['nodes']:>10} {r('depth')['nodes']:>10} | "
                  f"{s('nodes')['depth']:>2}/{s('nodes')['seldepth']:<2} {r('nodes')['depth']:>2}/{r('nodes')['seldepth']:<2} | "
                  f"{s('time')['nodes']:>9} {s('time')['depth']:>2}  {r('time')['nodes']:>9} {r('time')['depth']:>2}  "
                  f"{'yes' if s('time')['move'] == r('time')['move'] else 'no'}", flush=True)
    finally:
        for engine in engines.values():
            engine.quit()

    def column(name, kind, field):
        return [row[(name, kind)][field] for row in rows]

    n = len(rows)
    tree = geometric_mean(column("sente", "depth", "nodes")) / geometric_mean(column("reference", "depth", "nodes"))
    nps = [sum(column(name, "time", "nodes")) / max(1e-9, sum(column(name, "time", "time"))) for name in ("sente", "reference")]
    agree = sum(row[("sente", "time")]["move"] == row[("reference", "time")]["move"] for row in rows)
    print(f"\n{n} positions (sente bench chess), Hash 64, one thread")
    print(f"nodes to depth {args.depth}, geometric mean: Sente {geometric_mean(column('sente', 'depth', 'nodes')):.0f}, "
          f"reference {geometric_mean(column('reference', 'depth', 'nodes')):.0f} (Sente's tree x{tree:.2f})")
    # Medians: a few endgames reach the engines' depth caps (127, 245) and would swamp a mean.
    for name in ("sente", "reference"):
        print(f"{name}: at {args.nodes} nodes median depth {statistics.median(column(name, 'nodes', 'depth'))}, "
              f"seldepth {statistics.median(column(name, 'nodes', 'seldepth'))}; at {args.movetime} ms median depth "
              f"{statistics.median(column(name, 'time', 'depth'))}")
    print(f"nps at {args.movetime} ms: Sente {nps[0]:.0f}, reference {nps[1]:.0f} (ratio {nps[0] / max(1.0, nps[1]):.2f})")
    print(f"same best move at {args.movetime} ms: {agree}/{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
