//! Matches on a real clock (`datagen match --tc`): games at a tiny time control complete with the
//! clocks kept by the runner and nobody oversteps by much; a player that cannot keep to its clock
//! loses on time and is counted.

mod common;

use common::{classical_match, with, DATAGEN};
use datagen::players::load_eval;
use sente::game::Game;
use sente::nnue::GameEval;
use sente::selfplay::{run_match, GameEnd, MatchConfig, PlayedGame, PlayerConfig, TimeControl};
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

/// Milliseconds both sides spent over `games` played at 1 s + 10 ms: main time plus the
/// increments earned, less what was left.
fn time_spent_ms(games: &[PlayedGame<Chess>]) -> i64 {
    games
        .iter()
        .map(|game| {
            let plies = game.moves.len() as i64;
            let earned = [1000 + 10 * ((plies + 1) / 2), 1000 + 10 * (plies / 2)];
            (0..2)
                .map(|side| earned[side] - game.clock_left_ms[side].unwrap())
                .sum::<i64>()
        })
        .sum()
}

#[test]
fn tiny_time_control_games_complete_on_the_clock() {
    let tc: TimeControl = "1+0.01".parse().unwrap();
    let eval = load_eval::<Chess>("classical").unwrap();
    let a = PlayerConfig::with_time_control("a", eval.clone(), tc);
    let b = PlayerConfig::with_time_control("b", eval, tc);
    let games = Mutex::new(Vec::new());
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
    let spent_ms = time_spent_ms(&games);
    assert!(spent_ms > 100, "only {spent_ms} ms spent in 4 games");
    // Clock use: every search is charged (a flagged one too, though its move is not played),
    // against the main time and one increment per move; the two configurations' totals add
    // up to the games'.
    let uses = report
        .clock_use
        .expect("a match on a clock reports its clock use");
    let searches: u64 = games
        .iter()
        .map(|g| g.moves.len() as u64 + u64::from(g.end == GameEnd::TimeForfeit))
        .sum();
    assert_eq!(uses[0].moves + uses[1].moves, searches);
    let used: u64 = games
        .iter()
        .flat_map(|g| g.clock_usage.map(|u| u.unwrap().used_ms))
        .sum();
    assert_eq!(uses[0].used_ms + uses[1].used_ms, used);
    for game in games.iter().filter(|g| g.end != GameEnd::TimeForfeit) {
        for side in 0..2 {
            let usage = game.clock_usage[side].unwrap();
            assert_eq!(usage.given_ms, 1000 + 10 * usage.moves);
            let left = game.clock_left_ms[side].unwrap();
            assert_eq!(
                usage.used_ms as i64,
                usage.given_ms as i64 - left,
                "{game:?}"
            );
        }
    }
    assert!(uses.iter().all(|u| u.percent() > 0.0));
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
                byoyomi_ms: 0,
            },
        )
    };
    // The other side has no clock at all.
    let fast = PlayerConfig::with_nodes("fast", eval, 200);
    let games = Mutex::new(Vec::new());
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
        assert_eq!(g.clock_usage, [None, None]);
        assert_ne!(g.end, GameEnd::TimeForfeit);
    });
    assert_eq!(report.time_forfeits, None);
    assert_eq!(report.clock_use, None);
    assert!(!report.to_string().contains("on time"));
    assert!(!report.to_string().contains("clock use"));
}

#[test]
fn the_command_line_plays_on_a_clock_and_rejects_bad_time_controls() {
    let one_pair = with(classical_match("chess"), "--pairs", "1");
    let stdout = DATAGEN.ok(&with(one_pair.clone(), "--tc", "1+0.01"));
    assert!(stdout.contains("2 games"), "{stdout}");
    assert!(stdout.contains("losses on time: classical"), "{stdout}");
    assert!(stdout.contains("clock use: classical"), "{stdout}");
    assert!(stdout.contains("% of the time it was given"), "{stdout}");
    for bad in ["1+x", "0+1", "-5"] {
        // `--tc=-5`, not `--tc -5`, which would read as an option.
        let mut args = one_pair.clone();
        args.push(format!("--tc={bad}"));
        let error = DATAGEN.failure(&args);
        assert!(error.contains("time control"), "{bad}: {error}");
    }
    let both = with(
        with(classical_match("chess"), "--tc", "1+0.01"),
        "--nodes",
        "100",
    );
    DATAGEN.failure(&both);
}

/// A node-clock player (`nodes_per_ms`): its budget and its clock count searched nodes.
fn node_clock_player(name: &str, nodes_per_ms: u64) -> PlayerConfig<GameEval<Chess>> {
    let tc: TimeControl = "1+0.01".parse().unwrap();
    let mut player =
        PlayerConfig::with_time_control(name, load_eval::<Chess>("classical").unwrap(), tc);
    player.options.nodes_per_ms = nodes_per_ms;
    player
}

#[test]
fn node_clock_games_repeat_exactly_and_charge_nodes() {
    let play = || {
        let a = node_clock_player("a", 200);
        let b = node_clock_player("b", 200);
        let games = Mutex::new(Vec::new());
        run_match(&Chess::startpos(), &a, &b, &config(2), &|g| {
            games.lock().unwrap().push(g.clone())
        });
        let mut games = games.into_inner().unwrap();
        games.sort_by_key(|g| format!("{:?}", g.opening));
        games
    };
    let first = play();
    let second = play();
    assert_eq!(first.len(), 4);
    for (x, y) in first.iter().zip(&second) {
        // Wall time never enters: the same moves and the same clock readings, to the ms.
        assert_eq!(x.moves, y.moves);
        assert_eq!(x.clock_left_ms, y.clock_left_ms);
        assert_ne!(x.end, GameEnd::TimeForfeit);
    }
    // The clocks ran: 200 nodes to the ms spends main time like a slow machine would.
    let spent = time_spent_ms(&first);
    assert!(spent > 100, "only {spent} ms of node time spent");
}

#[test]
fn the_command_line_takes_a_node_clock_only_with_a_time_control() {
    let one_pair = with(classical_match("chess"), "--pairs", "1");
    let stdout = DATAGEN.ok(&with(
        with(one_pair.clone(), "--tc", "1+0.01"),
        "--nodes-time",
        "300",
    ));
    assert!(stdout.contains("2 games"), "{stdout}");
    DATAGEN.failure(&with(one_pair.clone(), "--nodes-time", "300"));
    DATAGEN.failure(&with(with(one_pair, "--tc", "1+0.01"), "--nodes-time", "0"));
}

#[test]
fn a_byoyomi_node_clock_match_spends_its_periods_without_forfeits() {
    // 0.2 s of main time is 40,000 nodes at 200 to the ms: it is gone within a few moves,
    // and every later move lives on its 20 ms (4,000-node) byoyomi.
    let one_pair = with(classical_match("shogi"), "--pairs", "1");
    let mut args = with(
        with(one_pair.clone(), "--tc", "0.2+0.02"),
        "--nodes-time",
        "200",
    );
    args.push("--byoyomi".into());
    let stdout = DATAGEN.ok(&args);
    assert!(stdout.contains("2 games"), "{stdout}");
    assert!(
        stdout.contains("losses on time: classical 0, classical 0"),
        "{stdout}"
    );
    // --byoyomi needs a time control.
    let mut no_clock = one_pair;
    no_clock.push("--byoyomi".into());
    DATAGEN.failure(&no_clock);
}
