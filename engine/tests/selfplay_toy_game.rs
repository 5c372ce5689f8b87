//! The self-play harness on tic-tac-toe: game ends by rule, colour-swapped pairs, counts that
//! add up, and a perfect player that never loses against a weak one.

mod selfplay_support;
#[allow(dead_code)] // Each test binary uses a different part of the shared toy game.
#[path = "search_support/tictactoe.rs"]
mod tictactoe;

use selfplay_support::match_config;
use sente::game::Game;
use sente::selfplay::{
    play_game, random_opening, run_match, Adjudication, GameEnd, MatchConfig, PairObserver,
    PlayerConfig, SearchPlayer, Sprt,
};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tictactoe::{LinesEval, TicTacToe};

fn player(name: &str, depth: u32) -> PlayerConfig<LinesEval> {
    PlayerConfig {
        depth_per_move: Some(depth),
        nodes_per_move: None,
        hash_mb: 1,
        ..PlayerConfig::with_nodes(name, LinesEval::default(), 0)
    }
}

/// The perfect player (depth 9) and a shallow one (depth 1).
fn perfect_and_shallow() -> [PlayerConfig<LinesEval>; 2] {
    [player("perfect", 9), player("shallow", 1)]
}

#[test]
fn random_openings_are_seeded_and_playable() {
    let start = TicTacToe::startpos();
    let a = random_opening(&start, 4, 7);
    let b = random_opening(&start, 4, 7);
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.moves.len(), 4);
    assert_eq!(a.history.len(), 4);
    let mut pos = start;
    for &m in &a.moves {
        assert!(pos.is_legal_move(m));
        pos.make_move(m);
    }
    assert_eq!(pos, a.position);
    let others: std::collections::HashSet<_> = (0..20)
        .map(|s| random_opening(&start, 3, s).moves)
        .collect();
    assert!(others.len() > 5, "seeds give varied openings");
}

#[test]
fn perfect_play_from_the_start_is_a_draw_by_rule() {
    let opening = random_opening(&TicTacToe::startpos(), 0, 1);
    let mut a = SearchPlayer::new(player("a", 9));
    let mut b = SearchPlayer::new(player("b", 9));
    let record = play_game(&opening, [&mut a, &mut b], &Adjudication::default());
    assert_eq!(record.winner, None);
    assert_eq!(record.moves.len(), 9);
    assert!(matches!(record.end, GameEnd::Rule(_)));
}

#[test]
fn perfect_player_never_loses_and_counts_add_up() {
    let games_seen = AtomicUsize::new(0);
    let config = match_config(20, 2, 1, 3);
    let [perfect, shallow] = perfect_and_shallow();
    let report = run_match(
        &TicTacToe::startpos(),
        &perfect,
        &shallow,
        &config,
        &|record| {
            assert!(record.moves.len() + record.opening.len() <= 9);
            games_seen.fetch_add(1, Ordering::Relaxed);
        },
    );
    assert_eq!(games_seen.load(Ordering::Relaxed), 40);
    assert_eq!(report.wdl.games(), 40);
    assert_eq!(report.pentanomial.pairs(), 20);
    assert_eq!(report.wdl.losses, 0, "{report}");
    assert!(report.wdl.wins > 0, "{report}");
    assert!(report.elo > 0.0);
    let text = report.to_string();
    assert!(
        text.contains("perfect vs shallow") && text.contains("Elo"),
        "{text}"
    );
}

#[test]
fn sprt_stops_a_decided_match_early() {
    perfect_against_shallow_until_decided(1, 11);
}

#[test]
fn a_match_stopped_by_the_sprt_reports_the_verdict_that_stopped_it() {
    // With several games in flight, pairs finishing after the decision are not counted, so a
    // match that stopped early never reports "continue".
    perfect_against_shallow_until_decided(4, 12);
}

/// The perfect player against the shallow one, up to 500 pairs with an SPRT [0, 20]: the match
/// stops early, accepting H1, and reports the verdict that stopped it.
fn perfect_against_shallow_until_decided(concurrency: usize, seed: u64) {
    let config = MatchConfig {
        sprt: Some(Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        }),
        ..match_config(500, concurrency, 1, seed)
    };
    let [perfect, shallow] = perfect_and_shallow();
    let report = run_match(&TicTacToe::startpos(), &perfect, &shallow, &config, &|_| {});
    let (_, llr, verdict) = report.sprt.expect("sprt evaluated");
    assert!(report.pentanomial.pairs() < 500, "{report}");
    assert_eq!(verdict, sente::selfplay::SprtVerdict::AcceptH1, "{report}");
    assert!(llr >= 2.94, "{report}");
}

#[test]
fn progress_sees_the_running_totals_after_every_pair() {
    // The observer is a closure: it keeps its own counts (as `datagen match` keeps its result
    // file current from one).
    let calls = Arc::new(AtomicUsize::new(0));
    let last_games = Arc::new(AtomicUsize::new(0));
    let observer = {
        let (calls, last_games) = (calls.clone(), last_games.clone());
        PairObserver::new(move |report| {
            let calls = calls.fetch_add(1, Ordering::SeqCst) + 1;
            assert_eq!(
                report.wdl.games(),
                2 * calls as u64,
                "{}",
                report.progress_line()
            );
            assert_eq!(report.first_name, "perfect");
            assert_eq!(report.time_forfeits, None, "no player is on a clock");
            last_games.store(report.wdl.games() as usize, Ordering::SeqCst);
        })
    };
    let config = MatchConfig {
        on_pair: Some(observer),
        ..match_config(6, 2, 2, 11)
    };
    let [perfect, shallow] = perfect_and_shallow();
    let report = run_match(&TicTacToe::startpos(), &perfect, &shallow, &config, &|_| {});
    assert_eq!(calls.load(Ordering::SeqCst), 6);
    assert_eq!(last_games.load(Ordering::SeqCst), 12);
    assert_eq!(report.wdl.games(), 12);
    assert!(
        report.progress_line().starts_with("12 games, W "),
        "{}",
        report.progress_line()
    );
}
