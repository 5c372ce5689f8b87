//! Matches on a real clock (`datagen match --tc`): games at a tiny time control complete with the
//! clocks kept by the runner and nobody oversteps by much; a player that cannot keep to its clock
//! loses on time and is counted.

use datagen::players::load_eval;
use sente::game::Game;
use sente::selfplay::{run_match, GameEnd, MatchConfig, PlayedGame, PlayerConfig, TimeControl};
use std::process::Command;
use std::sync::Mutex;

type Chess = sente::chess::Position;

/// More overstep than this (ms) would be a clock that is not respected, not scheduling noise.
const LARGE_OVERSTEP_MS: i64 = 500;

fn config(pairs: usize) -> MatchConfig {
    MatchConfig {
        pairs,
        seed: 7,
        ..MatchConfig::default()
    }
}

#[test]
fn tiny_time_control_games_complete_on_the_clock() {
    let tc: TimeControl = "1+0.01".parse().unwrap();
    let eval = load_eval::<Chess>("classical").unwrap();
    let a = PlayerConfig::with_time_control("a", eval.clone(), tc);
    let b = PlayerConfig::with_time_control("b", eval, tc);
    let games: Mutex<Vec<PlayedGame<Chess>>> = Mutex::new(Vec::new());
    let report = run_match(&Chess::startpos(), &a, &b, &config(2), &|g| {
        games.lock().unwrap().push(g.clone())
    });
    let games = games.into_inner().unwrap();
    assert_eq!(games.len(), 4);
    assert_eq!(report.wdl.games(), 4);
    let forfeits = report
        .time_forfeits
        .expect("a match on a clock counts forfeits");
    let flagged = games
        .iter()
        .filter(|g| g.end == GameEnd::TimeForfeit)
        .count() as u64;
    assert_eq!(forfeits[0] + forfeits[1], flagged);
    for game in &games {
        let plies = game.moves.len() as i64;
        for (side, left) in game.clock_left_ms.iter().enumerate() {
            let left = left.expect("both sides play on a clock");
            assert!(
                left > -LARGE_OVERSTEP_MS,
                "side {side} overstepped by {} ms: {game:?}",
                -left
            );
            // The clock really ran: never more than main time plus the increments earned.
            let moves = (plies + 1 - side as i64) / 2;
            assert!(left <= 1000 + 10 * moves, "side {side}: {left} ms left");
        }
        if game.end != GameEnd::TimeForfeit {
            assert!(game.clock_left_ms.iter().all(|l| l.unwrap() >= 0));
        }
    }
    // The clocks really ran: over the match, the players spent time thinking (a game may end
    // at once, e.g. a mate in one found instantly, so this is not asked of every game).
    let spent_ms: i64 = games
        .iter()
        .map(|game| {
            let plies = game.moves.len() as i64;
            let earned = [1000 + 10 * ((plies + 1) / 2), 1000 + 10 * (plies / 2)];
            (0..2)
                .map(|side| earned[side] - game.clock_left_ms[side].unwrap())
                .sum::<i64>()
        })
        .sum();
    assert!(spent_ms > 100, "only {spent_ms} ms spent in 4 games");
}

#[test]
fn a_player_that_ignores_its_clock_loses_on_time() {
    let eval = load_eval::<Chess>("classical").unwrap();
    // A 1 ms clock, but told to think 50 ms per move: it oversteps on its first move.
    let slow = PlayerConfig {
        time_per_move_ms: Some(50),
        ..PlayerConfig::with_time_control(
            "slow",
            eval.clone(),
            TimeControl {
                base_ms: 1,
                increment_ms: 0,
            },
        )
    };
    // The other side has no clock at all.
    let fast = PlayerConfig::with_nodes("fast", eval, 200);
    let games: Mutex<Vec<PlayedGame<Chess>>> = Mutex::new(Vec::new());
    // From the start position (no random plies), so no game can end before the slow side moves.
    let from_start = MatchConfig {
        opening_plies: 0,
        ..config(2)
    };
    let report = run_match(&Chess::startpos(), &slow, &fast, &from_start, &|g| {
        games.lock().unwrap().push(g.clone())
    });
    assert_eq!(report.time_forfeits, Some([4, 0]), "{report}");
    assert_eq!(report.wdl.losses, 4);
    assert!(report
        .to_string()
        .contains("losses on time: slow 4, fast 0"));
    for game in games.into_inner().unwrap() {
        assert_eq!(game.end, GameEnd::TimeForfeit);
        // The slow side flagged on its first move; the other side had no clock.
        assert!(game.moves.len() <= 1);
        let slow_side = game.moves.len();
        assert!(game.clock_left_ms[slow_side].unwrap() <= -20);
        assert_eq!(game.clock_left_ms[1 - slow_side], None);
    }
}

#[test]
fn a_match_without_clocks_reports_no_forfeits() {
    let eval = load_eval::<Chess>("classical").unwrap();
    let a = PlayerConfig::with_nodes("a", eval.clone(), 100);
    let b = PlayerConfig::with_nodes("b", eval, 100);
    let report = run_match(&Chess::startpos(), &a, &b, &config(1), &|g| {
        assert_eq!(g.clock_left_ms, [None, None]);
        assert_ne!(g.end, GameEnd::TimeForfeit);
    });
    assert_eq!(report.time_forfeits, None);
    assert!(!report.to_string().contains("on time"));
}

#[test]
fn the_command_line_plays_on_a_clock_and_rejects_bad_time_controls() {
    let bin = env!("CARGO_BIN_EXE_datagen");
    let base = [
        "match",
        "--game",
        "chess",
        "--a",
        "classical",
        "--b",
        "classical",
    ];
    let output = Command::new(bin)
        .args(base)
        .args(["--pairs", "1", "--tc", "1+0.01"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout.contains("2 games"), "{stdout}");
    assert!(stdout.contains("losses on time: classical"), "{stdout}");
    for bad in ["1+x", "0+1", "-5"] {
        let output = Command::new(bin)
            .args(base)
            .args(["--pairs", "1", &format!("--tc={bad}")])
            .output()
            .unwrap();
        assert!(!output.status.success(), "{bad}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("time control"));
    }
    let both = Command::new(bin)
        .args(base)
        .args(["--tc", "1+0.01", "--nodes", "100"])
        .output()
        .unwrap();
    assert!(!both.status.success());
}
