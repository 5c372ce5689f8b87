#!/usr/bin/env python3
"""Time for a UCI engine to reach a fixed depth with 1 and 2 threads (Lazy SMP scaling).

Usage: scripts/bench/time_to_depth.py ENGINE DEPTH [REPEATS]
Each position is searched by a fresh engine process with Hash 64; the totals per thread count are
printed, alternating 1 and 2 threads REPEATS times so machine noise hits both alike.
"""
import subprocess
import sys
import time

POSITIONS = [
    "startpos",
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "fen r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
    "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
]


def time_to_depth(engine, threads, depth):
    total = 0.0
    for position in POSITIONS:
        p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

        def send(line):
            p.stdin.write(line + "\n")
            p.stdin.flush()

        send("uci")
        send(f"setoption name Threads value {threads}")
        send("setoption name Hash value 64")
        send("isready")
        while p.stdout.readline().strip() != "readyok":
            pass
        send("position " + position)
        start = time.monotonic()
        send(f"go depth {depth}")
        while not p.stdout.readline().startswith("bestmove"):
            pass
        total += time.monotonic() - start
        send("quit")
        p.wait()
    return total


def main():
    engine, depth = sys.argv[1], int(sys.argv[2])
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    for _ in range(repeats):
        for threads in (1, 2):
            seconds = time_to_depth(engine, threads, depth)
            print(f"threads {threads}: {seconds:.2f} s to depth {depth} over {len(POSITIONS)} positions", flush=True)


if __name__ == "__main__":
    main()
