#!/usr/bin/env python3
"""Calibrate Sente's shogi `SkillLevel` against a reference engine: for each level, a match of
`scripts/match.py` (byoyomi clock, seeded openings, colours swapped) and the Elo of that level
relative to the reference, printed as a table `level, games, W-D-L, Elo ± 95%`.

Anchors installed here: Fairy-Stockfish 11.1 (`usi:/usr/games/fairy-stockfish`, byoyomi-only
controls, `--swap-clocks b` because it reads btime/wtime the wrong way round) and gpsusi
(`usi:/usr/games/gpsusi`, give it a time margin: it overshoots short byoyomi). The issue asks
for at least 100 games per level; that is hours of CPU per level, so run it on an idle machine.

Example (the full table, Fairy-Stockfish anchor):
  scripts/calibrate_shogi_skill.py --levels 0,4,8,12,16,20 --games 100 --byoyomi-ms 1000
"""

import argparse
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

ANCHORS = {
    "fairy-stockfish": ["--b", "usi:/usr/games/fairy-stockfish", "--swap-clocks", "b"],
    "gpsusi": ["--b", "usi:/usr/games/gpsusi", "--timemargin", "500"],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default=str(ROOT / "target" / "release" / "sente"))
    parser.add_argument("--anchor", choices=sorted(ANCHORS), default="fairy-stockfish")
    parser.add_argument("--levels", default="0,4,8,12,16,20", help="comma-separated SkillLevel values")
    parser.add_argument("--games", type=int, default=100, help="games per level (even)")
    parser.add_argument("--byoyomi-ms", type=int, default=1000, help="byoyomi per move, no main time")
    parser.add_argument("--nodes", type=int, default=0,
                        help="both engines search N nodes a move instead of a clock (immune to load; "
                             "the strength limit's own node cap still applies below it)")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option-a", action="append", default=[], help="more Sente options NAME=VALUE")
    args = parser.parse_args()

    rows = []
    for level in [int(x) for x in args.levels.split(",")]:
        command = [
            sys.executable, str(ROOT / "scripts" / "match.py"), "--game", "shogi",
            "--a", f"usi:{args.engine}", *ANCHORS[args.anchor],
            *(["--nodes", str(args.nodes)] if args.nodes else
              ["--byoyomi", "--tc", f"0+{args.byoyomi_ms / 1000}"]),
            "--games", str(args.games),
            "--concurrency", str(args.concurrency), "--seed", str(args.seed),
            "--option-a", f"SkillLevel={level}", "--resign", "3:1000",
        ]
        for option in args.option_a:
            command += ["--option-a", option]
        print("$ " + " ".join(command), flush=True)
        done = subprocess.run(command, capture_output=True, text=True)
        found = re.search(r"games: \+(\d+) =(\d+) -(\d+), Elo of A ([-+\d.inf]+) ± ([\d.inf]+)", done.stdout)
        if done.returncode != 0 or not found:
            print(done.stdout[-2000:], done.stderr[-2000:], file=sys.stderr)
            return 1
        wins, draws, losses, elo, err = found.groups()
        rows.append((level, int(wins) + int(draws) + int(losses), f"{wins}-{draws}-{losses}", elo, err))
        print(f"SkillLevel {level}: {rows[-1][2]}, Elo {elo} ± {err}", flush=True)

    limit = f"{args.nodes} nodes a move" if args.nodes else f"byoyomi {args.byoyomi_ms} ms"
    print(f"\nanchor: {args.anchor}, {limit}")
    print("| SkillLevel | games | W-D-L | Elo vs anchor (95%) |")
    print("|---|---|---|---|")
    for level, games, wdl, elo, err in rows:
        print(f"| {level} | {games} | {wdl} | {elo} ± {err} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
