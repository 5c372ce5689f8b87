//! Self-play on chess: a short smoke match plays legal games to a result (by the rules or by
//! adjudication), and the counts add up. What a search technique is worth is measured by
//! `scripts/bench/search_feature_sprt.sh` (see `docs/measurements.md`).

mod selfplay_support;

use selfplay_support::match_config;
use sente::chess::{ClassicalEval, Position};
use sente::game::Game;
use sente::selfplay::{run_match, PlayerConfig};
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn a_short_match_plays_legal_games_to_a_result() {
    let games = AtomicUsize::new(0);
    let config = match_config(3, 2, 6, 5);
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
