#!/usr/bin/env python3
"""Calibrate Sente's strength limit against a reference engine: one `scripts/match.py` match per
point (seeded openings, each played with colours swapped) and a table `setting, games, W-D-L,
score, Elo difference ± 95%, Elo on the anchor's scale`.

Chess: the scale is Stockfish 15.1's own `UCI_Elo` (Debian's `stockfish`). A point `E` plays
Sente at `UCI_Elo E` against Stockfish at `UCI_Elo E` (both with UCI_LimitStrength): a calibrated
setting scores about 50%. A point `sL@E` plays Sente's `Skill Level L` against Stockfish at
`UCI_Elo E`, to fit the `UCI_Elo` → skill table in engine/src/search/strength.rs (the level's
Elo on the scale is E plus the difference).

Shogi: a point `L@E` plays `SkillLevel L` against Fairy-Stockfish 11.1 at its own `UCI_Elo E`
(the level's Elo on that scale is E plus the difference); a point `L` plays it against the
anchor engine at full strength (Fairy-Stockfish 11.1 with byoyomi-only clocks, or gpsusi with a
time margin). `--nodes N` plays both sides at N nodes a move instead of a clock (immune to the
machine's load; a level's own node cap still applies below it). Fairy-Stockfish 11.1 picks its
move at iteration depth 1 + its level (level = ((UCI_Elo - 1346.6) / 143.4) ^ (1 / 0.806)); where
that depth is not reached, every higher UCI_Elo picks at the last depth and plays alike, so the
scale is flat there (shogi at 100,000 nodes: from about 2250). The script asks the anchor how deep
it gets and warns when a point's anchor is in that flat part.

Examples:
  scripts/calibrate_strength.py --game chess --points 1500,2000,2500 --games 100 --tc 10+0.1
  scripts/calibrate_strength.py --game chess --points s0@1350,s10@2000 --games 40 --tc 10+0.1
  scripts/calibrate_strength.py --game shogi --points 4@1500,10@2050,20@2100 --games 100 --nodes 100000
"""

import argparse
import math
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

SHOGI_ANCHORS = {
    "fairy-stockfish": ["--b", "usi:/usr/games/fairy-stockfish", "--swap-clocks", "b"],
    "gpsusi": ["--b", "usi:/usr/games/gpsusi", "--timemargin", "500"],
}
STOCKFISH = "uci:/usr/games/stockfish"
FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
RESULT = re.compile(r"games: \+(\d+) =(\d+) -(\d+), Elo of A ([-+\d.inf]+) ± ([\d.inf]+)")


def chess_point(point: str) -> tuple[list[str], int]:
    """Sente's options and the anchor's UCI_Elo for a chess point (`E` or `sL@E`)."""
    if point.startswith("s"):
        level, elo = point[1:].split("@")
        return [f"Skill Level={int(level)}"], int(elo)
    return ["UCI_LimitStrength=true", f"UCI_Elo={int(point)}"], int(point)


def fairy_stockfish_pick_depth(elo: int) -> int:
    """The deepest iteration at which Fairy-Stockfish 11.1 (Stockfish 11's skill code) picks its
    move at `UCI_Elo elo`: its level is ((elo - 1346.6) / 143.4) ^ (1 / 0.806), rounded down or up
    at random each game, and it picks at depth 1 + level (at its last depth if the search stops
    before)."""
    level = max(0.0, (elo - 1346.6) / 143.4) ** (1 / 0.806)
    return 1 + math.ceil(min(level, 20.0))


def fairy_stockfish_depth_at(elo: int, nodes: int) -> int:
    """The depth Fairy-Stockfish reaches in a `go nodes` search from the shogi start position
    with `UCI_Elo elo` (its MultiPV 4 search), asked of the engine itself."""
    script = (f"usi\nsetoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value {elo}\n"
              f"isready\nposition startpos moves 7g7f 3c3d 2g2f 8c8d\ngo nodes {nodes}\n")
    engine = subprocess.Popen([FAIRY_STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    engine.stdin.write(script)
    engine.stdin.flush()
    depth = 0
    for line in engine.stdout:
        found = re.match(r"info depth (\d+)", line)
        if found:
            depth = int(found.group(1))
        if line.startswith("bestmove"):
            break
    engine.stdin.write("quit\n")
    engine.stdin.close()
    engine.wait(timeout=10)
    return depth


def warn_if_flat(elo: int, nodes: int) -> None:
    """Fairy-Stockfish's `UCI_Elo` only weakens it where the pick depth is reached: above that,
    every setting picks at the search's last depth and plays alike (shogi at 100,000 nodes: about
    2250 and up), so a point measured against such an anchor reads high on the scale."""
    reached = fairy_stockfish_depth_at(elo, nodes)
    pick = fairy_stockfish_pick_depth(elo)
    if pick >= reached:
        print(f"warning: Fairy-Stockfish at UCI_Elo {elo} picks its move at depth {pick}, and reaches depth "
              f"{reached} at {nodes} nodes: it picks at its last depth and plays like any higher UCI_Elo, so "
              "the point reads high on the scale; use an anchor of about 2100 or lower, or more nodes", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["chess", "shogi"], required=True)
    parser.add_argument("--engine", default=str(ROOT / "target" / "release" / "sente"))
    parser.add_argument("--points", required=True, help="comma-separated points (see above)")
    parser.add_argument("--anchor", choices=sorted(SHOGI_ANCHORS), default="fairy-stockfish",
                        help="shogi: the reference engine")
    parser.add_argument("--games", type=int, default=100, help="games per point (even)")
    parser.add_argument("--tc", default="10+0.1", help="chess: BASE+INC in seconds")
    parser.add_argument("--byoyomi-ms", type=int, default=1000, help="shogi: byoyomi per move, no main time")
    parser.add_argument("--nodes", type=int, default=0, help="N nodes a move for both sides instead of a clock")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option-a", action="append", default=[], help="more Sente options NAME=VALUE")
    args = parser.parse_args()

    rows = []
    for point in args.points.split(","):
        command = [sys.executable, str(ROOT / "scripts" / "match.py"), "--game", args.game,
                   "--games", str(args.games), "--concurrency", str(args.concurrency),
                   "--seed", str(args.seed), "--resign", "3:1000", "--draw", "40:8:10"]
        if args.game == "chess":
            sente_options, anchor_elo = chess_point(point)
            command += ["--a", f"uci:{args.engine}", "--b", STOCKFISH, "--tc", args.tc, "--timemargin", "100",
                        "--option-b", "UCI_LimitStrength=true", "--option-b", f"UCI_Elo={anchor_elo}"]
        else:
            level, _, elo = point.partition("@")
            sente_options, anchor_elo = [f"SkillLevel={int(level)}"], int(elo) if elo else None
            command += ["--a", f"usi:{args.engine}", *SHOGI_ANCHORS["fairy-stockfish" if elo else args.anchor],
                        "--byoyomi", "--tc", f"0+{args.byoyomi_ms / 1000}"]
            if elo:
                command += ["--option-b", "UCI_LimitStrength=true", "--option-b", f"UCI_Elo={int(elo)}"]
                if args.nodes:
                    warn_if_flat(int(elo), args.nodes)
        if args.nodes:
            command += ["--nodes", str(args.nodes)]
        for option in sente_options + args.option_a:
            command += ["--option-a", option]
        print("$ " + " ".join(command), flush=True)
        done = subprocess.run(command, capture_output=True, text=True)
        found = RESULT.search(done.stdout)
        if done.returncode != 0 or not found:
            print(done.stdout[-2000:], done.stderr[-2000:], file=sys.stderr)
            return 1
        wins, draws, losses = (int(x) for x in found.groups()[:3])
        elo, err = found.group(4), found.group(5)
        games = wins + draws + losses
        score = (wins + draws / 2) / games
        on_scale = "" if anchor_elo is None or "inf" in elo else f"{anchor_elo + float(elo):.0f}"
        rows.append((point, games, f"{wins}-{draws}-{losses}", f"{100 * score:.1f}%", f"{elo} ± {err}", on_scale))
        terminations = re.search(r"terminations: .*", done.stdout)
        print(f"{point}: {rows[-1][2]} ({rows[-1][3]}), Elo {elo} ± {err}"
              + (f", {terminations.group(0)}" if terminations else ""), flush=True)

    if args.game == "chess":
        limit = f"{args.nodes} nodes a move" if args.nodes else f"tc {args.tc}"
        print(f"\nanchor: Stockfish 15.1 at the point's UCI_Elo; {limit}")
        header = "| point | games | W-D-L | score | Elo difference (95%) | Elo on the scale |"
    else:
        limit = f"{args.nodes} nodes a move" if args.nodes else f"byoyomi {args.byoyomi_ms} ms"
        print(f"\nanchor: Fairy-Stockfish 11.1 at the point's UCI_Elo (L@E), else {args.anchor}; {limit}")
        header = "| point | games | W-D-L | score | Elo difference (95%) | Elo on the scale |"
    print(header)
    print("|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(str(x) for x in row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
