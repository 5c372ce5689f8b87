//! Self-play on shogi: a short match plays legal games (drops, promotions) to a result by the
//! rules or by adjudication, and the counts add up. Ignored measurements compare search
//! features (SPRT [-10, 0]: the default must not be worse).

use sente::game::{Game, HistoryEntry};
use sente::movelist::MoveList;
use sente::search::SearchFeatures;
use sente::selfplay::{run_match, Adjudication, GameEnd, MatchConfig, PlayerConfig, Sprt};
use sente::shogi::{ClassicalEval, Position};
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn a_short_shogi_match_plays_legal_games_to_a_result() {
    let games = AtomicUsize::new(0);
    let config = MatchConfig {
        pairs: 2,
        concurrency: 2,
        opening_plies: 4,
        seed: 9,
        adjudication: Adjudication {
            max_plies: 300,
            ..Adjudication::default()
        },
        sprt: None,
    };
    let a = PlayerConfig::with_nodes("a", ClassicalEval::default(), 600);
    let b = PlayerConfig::with_nodes("b", ClassicalEval::default(), 300);
    let report = run_match(&Position::startpos(), &a, &b, &config, &|record| {
        let mut p = Position::startpos();
        let mut history = Vec::new();
        for &m in record.opening.iter().chain(&record.moves) {
            assert!(p.is_legal_move(m), "illegal move in {}", p.to_text());
            history.push(HistoryEntry {
                hash: p.hash(),
                in_check: p.in_check(),
            });
            p.make_move(m);
        }
        if record.end == GameEnd::MaxPlies {
            assert_eq!(record.moves.len(), 300);
        }
        if matches!(record.end, GameEnd::Rule(_)) {
            // Ended by the rules: the final position has no move or a rule outcome.
            let mut moves = <Position as Game>::Moves::default();
            p.generate_legal(&mut moves);
            assert!(moves.is_empty() || p.rule_outcome(&history, false).is_some());
        }
        games.fetch_add(1, Ordering::Relaxed);
    });
    assert_eq!(games.load(Ordering::Relaxed), 4);
    assert_eq!(report.wdl.games(), 4);
    assert_eq!(report.pentanomial.pairs(), 2);
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The default search against one with a feature changed, at SELFPLAY_NODES per move or, with
/// SELFPLAY_TC (e.g. `4+0.05`), on a real clock, so that a change that only buys speed is
/// measured by what the speed is worth.
fn measure(label: &str, change: impl Fn(&mut SearchFeatures)) {
    let pairs = env_or("SELFPLAY_PAIRS", 100) as usize;
    let nodes = env_or("SELFPLAY_NODES", 5000);
    let full = match std::env::var("SELFPLAY_TC") {
        Ok(tc) => PlayerConfig::with_time_control(
            "default search",
            ClassicalEval::default(),
            tc.parse().expect("SELFPLAY_TC is BASE+INC"),
        ),
        Err(_) => PlayerConfig::with_nodes("default search", ClassicalEval::default(), nodes),
    };
    let mut changed = full.clone();
    changed.name = label.to_string();
    change(&mut changed.features);
    let config = MatchConfig {
        pairs,
        concurrency: env_or("SELFPLAY_THREADS", 2) as usize,
        opening_plies: 8,
        seed: env_or("SELFPLAY_SEED", 2026),
        adjudication: Adjudication::default(),
        sprt: Some(Sprt {
            elo0: -10.0,
            elo1: 0.0,
            alpha: 0.05,
            beta: 0.05,
        }),
    };
    let started = std::time::Instant::now();
    let report = run_match(&Position::startpos(), &full, &changed, &config, &|_| {});
    println!("{:.0} s\n{report}\n", started.elapsed().as_secs_f64());
}

/// Run with `cargo test --release -p sente --test selfplay_shogi -- --ignored --nocapture`.
#[test]
#[ignore]
fn measure_lazy_quiet_scoring() {
    measure("quiets scored up front", |f| f.lazy_quiet_scoring = false);
}
