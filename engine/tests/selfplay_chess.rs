//! Self-play on chess: a short smoke match (games end by the rules or adjudication, counts add
//! up), and the measurements that justify the search techniques (ignored by default; run with
//! `cargo test --release -p sente --test selfplay_chess -- --ignored --nocapture`, sized by
//! SELFPLAY_PAIRS, SELFPLAY_NODES, SELFPLAY_THREADS and SELFPLAY_SEED).

use sente::chess::{ClassicalEval, Position};
use sente::game::Game;
use sente::search::SearchFeatures;
use sente::selfplay::{run_match, Adjudication, MatchConfig, PlayerConfig, Sprt};
use std::sync::atomic::{AtomicUsize, Ordering};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn a_short_match_plays_legal_games_to_a_result() {
    let games = AtomicUsize::new(0);
    let config = MatchConfig {
        pairs: 3,
        concurrency: 2,
        opening_plies: 6,
        seed: 5,
        adjudication: Adjudication::default(),
        sprt: None,
    };
    let a = PlayerConfig::with_nodes("a", ClassicalEval::default(), 400);
    let b = PlayerConfig::with_nodes("b", ClassicalEval::default(), 200);
    let report = run_match(&Position::startpos(), &a, &b, &config, &|record| {
        let mut p = Position::startpos();
        for &m in record.opening.iter().chain(&record.moves) {
            assert!(p.is_legal_move(m));
            p.make_move(m);
        }
        assert_eq!(record.scores.len(), record.moves.len());
        games.fetch_add(1, Ordering::Relaxed);
    });
    assert_eq!(games.load(Ordering::Relaxed), 6);
    assert_eq!(report.wdl.games(), 6);
    assert_eq!(report.pentanomial.pairs(), 3);
}

fn measure(label: &str, change: impl Fn(&mut SearchFeatures)) {
    measure_with(label, change, (0.0, 10.0));
}

/// `measure` with other SPRT bounds (`(-10, 0)`: the default must not be worse).
fn measure_with(label: &str, change: impl Fn(&mut SearchFeatures), (elo0, elo1): (f64, f64)) {
    let pairs = env_or("SELFPLAY_PAIRS", 100) as usize;
    let nodes = env_or("SELFPLAY_NODES", 3000);
    let full = PlayerConfig::with_nodes("full search", ClassicalEval::default(), nodes);
    let mut reduced = full.clone();
    reduced.name = label.to_string();
    change(&mut reduced.features);
    let config = MatchConfig {
        pairs,
        concurrency: env_or("SELFPLAY_THREADS", 2) as usize,
        opening_plies: 8,
        seed: env_or("SELFPLAY_SEED", 2024),
        adjudication: Adjudication::default(),
        sprt: Some(Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }),
    };
    let started = std::time::Instant::now();
    let report = run_match(&Position::startpos(), &full, &reduced, &config, &|_| {});
    println!(
        "{nodes} nodes/move, {:.0} s\n{report}\n",
        started.elapsed().as_secs_f64()
    );
}

#[test]
#[ignore]
fn measure_null_move() {
    measure("without null move", |f| f.null_move = false);
}

#[test]
#[ignore]
fn measure_late_move_reductions() {
    measure("without LMR", |f| f.late_move_reductions = false);
}

#[test]
#[ignore]
fn measure_forward_pruning() {
    measure("without forward pruning", |f| f.forward_pruning = false);
}

#[test]
#[ignore]
fn measure_singular_extensions() {
    measure("without singular extensions", |f| {
        f.singular_extensions = false
    });
}

#[test]
#[ignore]
fn measure_pruning_family_together() {
    measure("without null move, LMR and forward pruning", |f| {
        f.null_move = false;
        f.late_move_reductions = false;
        f.forward_pruning = false;
    });
}

#[test]
#[ignore]
fn measure_lazy_quiet_scoring() {
    measure_with(
        "quiets scored up front",
        |f| f.lazy_quiet_scoring = false,
        (-10.0, 0.0),
    );
}
