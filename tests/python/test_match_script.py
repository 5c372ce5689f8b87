"""scripts/match.py, the real-clock match runner, driving the engine through python-chess (UCI)
and its own USI client: the games finish, the W/D/L adds up, and each side's clock use is
reported as a share of the time it was given."""

import re
import subprocess
import sys

from conftest import ROOT

CLOCK_USE = re.compile(r"(A|B): (\d+) ms per move over (\d+) moves, ([\d.]+)% of the time it was given")


def run_match(engine_path, game, protocol, extra):
    spec = f"{protocol}:{engine_path}"
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "match.py"), "--game", game, "--a", spec, "--b", spec,
         "--games", "2", *extra],
        capture_output=True, text=True, timeout=170, check=True,
    ).stdout
    totals = re.search(r"2 games: \+(\d+) =(\d+) -(\d+)", out)
    assert totals, out
    assert sum(int(n) for n in totals.groups()) == 2, out
    uses = CLOCK_USE.findall(out)
    assert [u[0] for u in uses] == ["A", "B"], out
    for _, ms, moves, share in uses:
        assert int(moves) > 0, out
        # Nobody may use more than it was given (a flag fall would end the game on time).
        assert 0 < float(share) <= 100.0, out
    return out, uses


def test_chess_match_reports_results_and_clock_use(engine_path):
    out, _ = run_match(engine_path, "chess", "uci", ["--tc", "1+0.05"])
    assert "time forfeit" not in out, out


def test_shogi_byoyomi_match_reports_results_and_clock_use(engine_path):
    out, uses = run_match(engine_path, "shogi", "usi", ["--tc", "0.5+0.1", "--byoyomi"])
    assert "time forfeit" not in out, out
    for _, ms, _, _ in uses:
        # Once the main time is gone each move gets at most its 100 ms byoyomi period.
        assert int(ms) < 200, out
