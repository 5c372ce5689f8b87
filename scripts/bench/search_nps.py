#!/usr/bin/env python3
"""Search speed of engine binaries in real searches through their protocol, as paired ratios.

Usage: scripts/bench/search_nps.py ROUNDS ENGINE [ENGINE...] [--game chess|shogi] [--nodes N]
                                   [--hash MB] [--option NAME=VALUE ...]

`sente bench` measures fixed-depth searches from 45 positions with a 16 MB table and clears
everything between them: most of its nodes are shallow. A game searches deeper into a bigger
table. This plays what a GUI would: each engine is started, set up (`Hash`, the `--option`s, e.g.
`EvalFile=nets/chess-27fc6585f208.nnue`), and searches `go nodes N` from a few positions (a
`ucinewgame` / `usinewgame` before each). Its speed in a round is the positions' nodes over their
time, both from the last `info` line of each search. The engines take turns, in an order that
flips every round, so a slow minute of a shared host hits them alike. Printed: each engine's
median speed and its median per-round ratio to the first engine's (paired, which cancels most
of the host's drift).

Any UCI (chess) or USI (shogi) engine works, so an old build or another engine can be the
reference: the thirty-second session measured the reference b9a3081 13% faster than 38e5847.
"""
import argparse
import re
import statistics
import subprocess

POSITIONS = {
    "chess": [
        "startpos",
        "fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "fen 2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/R5K1 w - - 0 20",
        "fen 8/5pk1/6p1/3R4/7P/6P1/r4PK1/8 b - - 3 40",
    ],
    "shogi": [
        "startpos",
        "startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 3a4b 5i6h 5a6b",
        "sfen ln1g3nl/1r1s1kg2/p1pppp1pp/1p4p2/7P1/2P1P4/PP1P1PP1P/1BK1G2R1/LNSG3NL b Sb 23",
    ],
}
PROTOCOL = {"chess": ("uci", "uciok", "ucinewgame"), "shogi": ("usi", "usiok", "usinewgame")}


def last_number(line, name):
    match = re.search(rf"\b{name} (\d+)", line)
    if not match:
        raise SystemExit(f"no '{name}' in the last info line: {line.strip()}")
    return int(match.group(1))


def measure(engine, game, nodes, hash_mb, options):
    """Total nodes and milliseconds of one search per position, from the engine's info lines."""
    hello, ready_word, new_game = PROTOCOL[game]
    process = subprocess.Popen(engine.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)

    def send(line):
        try:
            process.stdin.write(line + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise SystemExit(f"{engine} ended before '{line}' could be sent") from None

    def wait_for(prefix):
        info = None
        for line in process.stdout:
            if line.startswith("info") and " nodes " in line and " time " in line:
                info = line
            if line.startswith(prefix):
                return info
        raise SystemExit(f"{engine} ended before '{prefix}'")

    send(hello)
    wait_for(ready_word)
    for name, value in [("Hash" if game == "chess" else "USI_Hash", str(hash_mb))] + options:
        send(f"setoption name {name} value {value}")
    total_nodes = total_ms = 0
    for position in POSITIONS[game]:
        send(new_game)
        send("isready")
        wait_for("readyok")
        send(f"position {position}")
        send(f"go nodes {nodes}")
        info = wait_for("bestmove")
        if info is None:
            raise SystemExit(f"{engine} gave no info line with nodes and time")
        total_nodes += last_number(info, "nodes")
        total_ms += last_number(info, "time")
    send("quit")
    process.stdin.close()
    process.wait(timeout=30)
    return total_nodes, total_ms


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=int)
    parser.add_argument("engines", nargs="+", help="commands (split on spaces)")
    parser.add_argument("--game", choices=sorted(POSITIONS), default="chess")
    parser.add_argument("--nodes", type=int, default=1_500_000, help="per search (1500000)")
    parser.add_argument("--hash", type=int, default=64, help="table size in MB (64)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option for every engine (repeatable)")
    args = parser.parse_args()
    options = []
    for text in args.option:
        name, sep, value = text.partition("=")
        if not sep:
            parser.error(f"--option {text}: expected NAME=VALUE")
        options.append((name, value))

    speeds = {engine: [] for engine in args.engines}
    for r in range(args.rounds):
        order = args.engines if r % 2 == 0 else args.engines[::-1]
        for engine in order:
            nodes, ms = measure(engine, args.game, args.nodes, args.hash, options)
            speeds[engine].append(nodes * 1000 // max(ms, 1))
        print(f"round {r + 1}/{args.rounds}: "
              + ", ".join(f"{speeds[e][-1]}" for e in args.engines), flush=True)
    first = args.engines[0]
    for engine in args.engines:
        values = speeds[engine]
        paired = [v / f for v, f in zip(values, speeds[first])]
        print(f"{engine}: median {int(statistics.median(values))} nodes/s, "
              f"{statistics.median(paired):.3f} x {first} per round "
              f"(range {min(paired):.3f}-{max(paired):.3f})")


if __name__ == "__main__":
    main()
