//! Issue 59, item 2b: `stop` (and so `isready` and `quit` behind it) ends a search within
//! milliseconds even while the first root move of depth 1 is still being searched, and a node
//! limit ends it too once far exceeded; the move played is legal either way.

mod search_support;

use search_support::search_changed_after;
use sente::game::Game;
use sente::search::{Limits, SearchControl, Searcher};
use sente::shogi::{ClassicalEval, Position};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// From self-play: depth 1 alone runs about 600,000 nodes of quiescence (checking drops and
/// captures around the king), some 180 ms with the classical evaluation.
const EXPLOSIVE: &str =
    "1n6k/4R1+B1g/2s6/l8/5PP1K/5Sb2/+p+p+p+p+p+pN2/3G5/LN3r2+p b 2GLP2snl8p 147";

fn searcher(threads: usize) -> Searcher<Position, ClassicalEval> {
    let mut s = Searcher::new(ClassicalEval::default());
    s.set_threads(threads);
    s
}

#[test]
fn stop_ends_even_the_first_root_move_of_depth_one() {
    let root = Position::from_text(EXPLOSIVE).unwrap();
    for threads in [1, 2] {
        let mut s = searcher(threads);
        let control = SearchControl::default();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let (result, took) = search_changed_after(
            &mut s,
            &root,
            &limits,
            &control,
            Duration::from_millis(30),
            |c| c.stop.store(true, Ordering::SeqCst),
        );
        let best = result.best.expect("a move is always ready");
        assert!(root.is_legal_move(best));
        // Before, the search ran the whole first root move (about 600,000 nodes).
        assert!(
            result.nodes < 400_000,
            "{threads} threads: {} nodes after a stop at 30 ms ({took:?})",
            result.nodes
        );
        assert!(took < Duration::from_secs(2), "{threads} threads: {took:?}");
    }
}

#[test]
fn a_node_limit_ends_the_first_root_move_once_far_exceeded() {
    let root = Position::from_text(EXPLOSIVE).unwrap();
    let mut s = searcher(1);
    let limits = Limits {
        nodes: Some(1),
        ..Limits::default()
    };
    let control = SearchControl::default();
    let result = s.search(
        &root,
        &[],
        &limits,
        &Default::default(),
        &control,
        &mut |_| {},
    );
    assert!(result.best.is_some_and(|m| root.is_legal_move(m)));
    assert!(
        result.nodes <= 1 + (1 << 20) + 256,
        "{} nodes on a 1-node limit",
        result.nodes
    );
}
