#!/usr/bin/env python3
"""Where Sente's chess search tree differs from a reference engine's, counter by counter.

Both engines must answer the UCI command `treestats` (`treestat NAME VALUE` lines, then
`treestat end`; `treestats reset` zeroes them):
- Sente built with the `tree-stats` feature:
    cargo build --release -p sente --features tree-stats --target-dir target/tree-stats
- Stockfish 15.1 with scripts/bench/tree_stats/stockfish-15.1.patch, which counts the same things
  under the same names (see that directory's README for the build).

On the positions of `sente bench chess`, each engine searches each position for a fixed number
of nodes from an empty hash (`ucinewgame`, Hash 64, one thread), and the counters of all the
searches are summed. Equal nodes make the shares comparable; the counters say where the nodes
went: how many were quiescence nodes, how many main-search nodes each pruning returned from, how
many moves a node searched before it failed high or low, how many were reduced, and the same by
the node's depth.

Usage:
  scripts/bench/tree_stats.py [--sente target/tree-stats/release/sente] --reference PATH
                              [--nodes 1000000] [--limit 45] [--json OUT]
"""

import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from search_shape import bench_positions  # noqa: E402

DEPTHS = range(1, 11)


class UciEngine:
    """A UCI engine as a child process, read line by line."""

    def __init__(self, path: str):
        self.path = path
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix: str) -> list[str]:
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit(f"tree_stats: {self.path} exited (after: {lines[-3:]})")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def ready(self) -> list[str]:
        self.send("isready")
        return self.until("readyok")

    def quit(self) -> None:
        try:
            self.send("quit")
            self.process.wait(timeout=10)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.process.kill()


def parse_counters(lines: list[str]) -> dict[str, int]:
    """The `treestat NAME VALUE` lines as a dictionary (the `treestat end` line ends them)."""
    counters = {}
    for line in lines:
        words = line.split()
        if len(words) == 3 and words[0] == "treestat":
            counters[words[1]] = int(words[2])
    return counters


def collect(path: str, fens: list[str], nodes: int) -> dict[str, int]:
    """The engine's counters summed over `go nodes` searches of `fens`."""
    engine = UciEngine(path)
    try:
        engine.send("uci")
        engine.until("uciok")
        engine.send("setoption name Hash value 64")
        engine.send("setoption name Threads value 1")
        engine.send("treestats")
        engine.send("isready")
        probe = engine.until("readyok")
        if not any(line.startswith("treestat ") for line in probe):
            said = next((line for line in probe if "treestats" in line), "no treestat lines")
            sys.exit(f"tree_stats: {path} does not count ({said}); build it as this script's "
                     "docstring says")
        engine.send("treestats reset")
        for fen in fens:
            engine.send("ucinewgame")
            engine.send(f"position fen {fen}")
            engine.ready()
            engine.send(f"go nodes {nodes}")
            engine.until("bestmove")
        engine.send("treestats")
        return parse_counters(engine.until("treestat end"))
    finally:
        engine.quit()


def shares(c: dict[str, int]) -> dict[str, float]:
    """The comparisons the report prints, from one engine's counters (absent counters are 0:
    an engine without razoring or ProbCut never prints them)."""
    get = lambda name: c.get(name, 0)  # noqa: E731
    main = max(1, get("main_nodes"))
    loops = max(1, get("move_loops"))
    row = {
        "quiescence share of all nodes": get("qsearch_nodes") / max(1, main + get("qsearch_nodes")),
        "table cutoffs / main node": get("tt_cutoffs") / main,
        "reverse futility / main node": get("reverse_futility") / main,
        "razoring / main node": get("razoring") / main,
        "null-move cutoffs / main node": get("null_move_cutoffs") / main,
        "ProbCut / main node": get("probcut") / main,
        "multi-cuts / main node": get("multi_cuts") / main,
        "move loops / main node": get("move_loops") / main,
        "fail-highs / move loop": get("fail_highs") / loops,
        "first-move share of fail-highs": get("fail_high_first") / max(1, get("fail_highs")),
        "moves searched at a fail-high": get("fail_high_moves") / max(1, get("fail_highs")),
        "fail-lows / move loop": get("fail_lows") / loops,
        "moves searched at a fail-low": get("fail_low_moves") / max(1, get("fail_lows")),
        "reduced share of moves searched": get("reduced") / max(1, get("moves_searched")),
        "re-searched share of reduced moves": get("reduced_researched") / max(1, get("reduced")),
    }
    for depth in DEPTHS:
        at = max(1, get(f"main_nodes@{depth}"))
        label = f"{depth}+" if depth == DEPTHS[-1] else str(depth)
        row[f"depth {label}: share of main nodes"] = get(f"main_nodes@{depth}") / main
        row[f"depth {label}: reverse futility / node"] = get(f"reverse_futility@{depth}") / at
        row[f"depth {label}: null-move cutoffs / node"] = get(f"null_move_cutoffs@{depth}") / at
        row[f"depth {label}: reduced moves / node"] = get(f"reduced@{depth}") / at
    return row


def report(sente: dict[str, int], reference: dict[str, int]) -> str:
    a, b = shares(sente), shares(reference)
    lines = [f"{'':44} {'Sente':>9} {'reference':>10}"]
    lines.append(f"{'main-search nodes':44} {sente.get('main_nodes', 0):>9} {reference.get('main_nodes', 0):>10}")
    lines.append(f"{'quiescence nodes':44} {sente.get('qsearch_nodes', 0):>9} {reference.get('qsearch_nodes', 0):>10}")
    for key in a:
        lines.append(f"{key:44} {a[key]:>9.3f} {b[key]:>10.3f}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sente", default=str(ROOT / "target" / "tree-stats" / "release" / "sente"))
    parser.add_argument("--reference", required=True, help="a reference engine that answers treestats")
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--limit", type=int, default=45, help="at most this many positions")
    parser.add_argument("--json", help="also write both engines' raw counters to this file")
    args = parser.parse_args()

    fens = bench_positions(args.sente)[: args.limit]
    sente = collect(args.sente, fens, args.nodes)
    reference = collect(args.reference, fens, args.nodes)
    print(f"{len(fens)} positions (sente bench chess), {args.nodes} nodes each, Hash 64, one thread")
    print(report(sente, reference))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps({"sente": sente, "reference": reference}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
