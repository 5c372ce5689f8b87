"""scripts/match.py, the real-clock match runner, driving the engine through python-chess (UCI)
and its own USI client: the games finish, the W/D/L adds up, and each side's clock use is
reported as a share of the time it was given."""

import re
import subprocess
import sys

from conftest import ROOT, load_script

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
    # The two games share an opening with colours swapped: one pair, A's half-points 2W + D.
    pairs = re.search(r"pairs \(0, ½, 1, 1½, 2 points of A\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]", out)
    assert pairs, out
    wins, draws, _ = (int(n) for n in totals.groups())
    assert [int(n) for n in pairs.groups()] == [int(k == 2 * wins + draws) for k in range(5)], out
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


def test_time_margin_forgives_small_overshoots_and_only_those(engine_path):
    """An engine 60 ms late on every move loses on time at once without a margin, and plays whole
    games under a 150 ms margin (cutechess timemargin)."""
    late = f"usi:{sys.executable} {ROOT / 'tests' / 'python' / 'late_usi_engine.py'} 60"

    def match(extra):
        return subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "match.py"), "--game", "shogi",
             "--a", f"usi:{engine_path}", "--b", late, "--games", "2", "--tc", "0+0.1",
             "--byoyomi", *extra],
            capture_output=True, text=True, timeout=170, check=True,
        ).stdout

    strict = match([])
    assert "terminations: time forfeit by B 2" in strict, strict
    forgiving = match(["--timemargin", "150"])
    assert "time forfeit" not in forgiving, forgiving
    assert "(time margin 150 ms)" in forgiving, forgiving
    assert "2 games: +2 =0 -0" in forgiving, forgiving


def test_fixed_node_games_ignore_the_clock_and_repeat_exactly(engine_path, tmp_path):
    """With --nodes each move is `go nodes N`: a clock far too short for any search loses nothing,
    and a single-threaded engine at fixed nodes plays the same games again (chess and shogi)."""
    for game, protocol in (("chess", "uci"), ("shogi", "usi")):
        records = []
        for run in range(2):
            pgn = tmp_path / f"{game}-{run}.txt"
            out = subprocess.run(
                [sys.executable, str(ROOT / "scripts" / "match.py"), "--game", game,
                 "--a", f"{protocol}:{engine_path}", "--b", f"{protocol}:{engine_path}",
                 "--games", "2", "--tc", "0.001+0", "--nodes", "1500", "--seed", "5",
                 "--resign", "3:600", "--pgn", str(pgn)],
                capture_output=True, text=True, timeout=170, check=True,
            ).stdout
            assert "1500 nodes per move, 2 games" in out, out
            assert "time forfeit" not in out, out
            assert re.search(r"time use: A: \d+ ms per move over \d+ moves; B: \d+ ms", out), out
            text = pgn.read_text()
            if game == "chess":
                # Each engine move carries cutechess's comment: score / depth and thinking time.
                assert re.search(r"\{\s*[+-](\d+\.\d\d|M\d+)/\d+ \d+\.\d{3}s\s*\}", text), text
            # The thinking times differ from run to run; the moves must not.
            records.append(re.sub(r"\s*\{[^}]*\}", "", text))
        assert records[0] == records[1], game


def test_move_time_games_ignore_the_clock_and_think_for_the_move_time(engine_path):
    """With --movetime each move is `go movetime MS` (chess and shogi): a clock far too short for any
    search loses nothing, and each engine thinks about the move time, not the clock's share."""
    for game, protocol in (("chess", "uci"), ("shogi", "usi")):
        out = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "match.py"), "--game", game,
             "--a", f"{protocol}:{engine_path}", "--b", f"{protocol}:{engine_path}",
             "--games", "2", "--tc", "0.001+0", "--movetime", "40", "--seed", "5",
             "--resign", "3:600", "--draw", "20:4:10"],
            capture_output=True, text=True, timeout=170, check=True,
        ).stdout
        assert "40 ms per move, 2 games" in out, out
        assert "time forfeit" not in out, out
        used = re.search(r"time use: A: (\d+) ms per move over \d+ moves; B: (\d+) ms", out)
        assert used, out
        # The engine keeps its move overhead back and the runner adds process latency.
        for ms in used.groups():
            assert 15 <= int(ms) <= 200, out


def load_match_module():
    return load_script("match.py", "match_script")


def test_pentanomial_error_counts_pairs_not_games():
    """A pair's two games share an opening, so the error comes from the spread of pair scores:
    pairs that each split 1–1 carry no uncertainty, while pairs won or lost whole carry √2 times
    the error of as many independent games."""
    match = load_match_module()
    trinomial_elo, trinomial_err = match.elo_with_error(2000, 0, 2000)
    assert abs(trinomial_elo) < 1e-9 and trinomial_err > 0
    split_elo, split_err = match.elo_from_pairs([0, 0, 2000, 0, 0])
    assert abs(split_elo) < 1e-9 and split_err == 0.0
    whole_elo, whole_err = match.elo_from_pairs([1000, 0, 0, 0, 1000])
    assert abs(whole_elo) < 1e-9
    assert abs(whole_err / trinomial_err - 2 ** 0.5) < 0.02, (whole_err, trinomial_err)
    # 3 pairs won whole, 1 split: score 7/8, the same Elo as 7 wins and 1 loss.
    elo, _ = match.elo_from_pairs([0, 0, 1, 0, 3])
    assert abs(elo - match.elo_with_error(7, 0, 1)[0]) < 1e-9
    assert match.elo_from_pairs([0, 0, 0, 0, 0]) == (0.0, 0.0)
