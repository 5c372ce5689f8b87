#!/usr/bin/env python3
"""Search speed as a ratio to `stockfish bench`, for hosts whose speed drifts.

Usage: scripts/bench/nps_ratio.py ROUNDS SENTE [SENTE...] [--stockfish PATH] [--games chess,shogi]
                                   [--classical]

Each round runs `stockfish bench` once, then `SENTE bench GAME` for every binary and game, so a
slow or fast minute hits all of them alike. Printed per binary and game: the median nps, the
median ratio to the stockfish run of the same round, and the nps that ratio means at a stockfish
bench of 1.2M (the issue's reference figure). With --classical each game is also benched with the
classical evaluator (`bench GAME --classical`, listed as GAME-classical). With two or more binaries it also prints each one's
median per-round speed relative to the first binary (paired, which cancels most of the drift).
"""
import argparse
import re
import statistics
import subprocess


def nps(command):
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    text = out.stdout + out.stderr
    match = re.search(r"Nodes/second\s*:\s*(\d+)", text)
    if not match:
        raise SystemExit(f"no 'Nodes/second' line from {' '.join(command)}")
    return int(match.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=int)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--games", default="chess,shogi")
    parser.add_argument("--classical", action="store_true")
    args = parser.parse_args()
    games = args.games.split(",")
    if args.classical:
        games += [f"{g}-classical" for g in games]

    reference = []
    speed = {(b, g): [] for b in args.binaries for g in games}
    for r in range(args.rounds):
        reference.append(nps([args.stockfish, "bench"]))
        for b in args.binaries:
            for g in games:
                game, _, evaluator = g.partition("-")
                extra = ["--classical"] if evaluator else []
                speed[(b, g)].append(nps([b, "bench", game] + extra))
        print(f"round {r + 1}/{args.rounds}: stockfish {reference[-1]}", flush=True)

    print(f"stockfish bench: median {int(statistics.median(reference))} "
          f"(range {min(reference)}-{max(reference)})")
    for (b, g), values in speed.items():
        ratios = [v / s for v, s in zip(values, reference)]
        ratio = statistics.median(ratios)
        print(f"{b} {g}: median {int(statistics.median(values))} nps, ratio to stockfish "
              f"{ratio:.3f} (range {min(ratios):.3f}-{max(ratios):.3f}) -> {int(ratio * 1.2e6)} "
              f"at stockfish 1.2M")
    first = args.binaries[0]
    for b in args.binaries[1:]:
        for g in games:
            paired = [n / o for n, o in zip(speed[(b, g)], speed[(first, g)])]
            print(f"{b} {g}: {statistics.median(paired):.3f} x {first} per round "
                  f"(range {min(paired):.3f}-{max(paired):.3f})")


if __name__ == "__main__":
    main()
