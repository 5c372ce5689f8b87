//! Self-play on shogi: a short match plays legal games (drops, promotions) to a result by the
//! rules or by adjudication, and the counts add up. What a search technique is worth is measured
//! by `scripts/bench/search_feature_sprt.sh` (see `docs/measurements.md`).

mod selfplay_support;

use selfplay_support::match_config;
use sente::game::{Game, HistoryEntry};
use sente::movelist::MoveList;
use sente::selfplay::{run_match, Adjudication, GameEnd, MatchConfig, PlayerConfig};
use sente::shogi::{ClassicalEval, Position};
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn a_short_shogi_match_plays_legal_games_to_a_result() {
    let games = AtomicUsize::new(0);
    let config = MatchConfig {
        adjudication: Adjudication {
            max_plies: 300,
            ..Adjudication::default()
        },
        ..match_config(2, 2, 4, 9)
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
