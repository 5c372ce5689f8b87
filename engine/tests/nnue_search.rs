//! The NNUE evaluator driven by the real search: every evaluation the search asks for during
//! depth-limited searches of both games (one and two threads) equals the from-scratch
//! evaluation of that position, so the search's reset/push/pop pattern (null moves, quiescence,
//! re-searches) keeps the incremental accumulators exact, at the default hidden width and a wider
//! one, also when the threads keep their evaluators from one search to the next; a new evaluator
//! reaches every thread; and a search with NNUE returns a legal move.

mod nnue_support;

use nnue_support::*;
use sente::eval::Evaluator;
use sente::game::Game;
use sente::nnue::{evaluate_from_scratch, Network, NnueEval, NnueGame, SimdLevel};
use sente::search::{Limits, SearchControl, SearchOptions, Searcher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// NNUE evaluation that checks itself against the from-scratch reference on every call.
#[derive(Clone)]
struct CheckedNnue<G: NnueGame> {
    inner: NnueEval<G>,
    net: Arc<Network>,
    checked: Arc<AtomicUsize>,
}

impl<G: NnueGame> Evaluator<G> for CheckedNnue<G> {
    fn reset(&mut self, root: &G) {
        self.inner.reset(root);
    }

    fn push(&mut self, child: &G) {
        self.inner.push(child);
    }

    fn pop(&mut self) {
        self.inner.pop();
    }

    fn evaluate(&mut self, pos: &G) -> i32 {
        let score = self.inner.evaluate(pos);
        let reference = evaluate_from_scratch(&self.net, SimdLevel::Scalar, pos);
        assert_eq!(
            score,
            reference,
            "incremental != scratch at {}",
            pos.to_text()
        );
        self.checked.fetch_add(1, Ordering::Relaxed);
        score
    }
}

/// A self-checking evaluator of `net` and its count of checked evaluations.
fn checked_eval<G: NnueGame>(net: Arc<Network>) -> (CheckedNnue<G>, Arc<AtomicUsize>) {
    let checked = Arc::new(AtomicUsize::new(0));
    let eval = CheckedNnue {
        inner: NnueEval::<G>::new(Arc::clone(&net)).unwrap(),
        net,
        checked: Arc::clone(&checked),
    };
    (eval, checked)
}

/// Searches `root` to `depth` and checks that the move found is legal.
fn search_to_depth<G: NnueGame>(searcher: &mut Searcher<G, CheckedNnue<G>>, root: &G, depth: u32) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = searcher.search(
        root,
        &[],
        &limits,
        &SearchOptions::default(),
        &SearchControl::default(),
        &mut |_| {},
    );
    let best = result.best.expect("a legal move exists");
    assert!(root.is_legal_move(best), "{}: {best:?}", root.to_text());
}

fn search_checked<G: NnueGame>(net: Arc<Network>, starts: &[&str], depth: u32, threads: usize) {
    let (eval, checked) = checked_eval::<G>(net);
    let mut searcher = Searcher::new(eval);
    searcher.set_threads(threads);
    for text in starts {
        let root = G::from_text(text).unwrap();
        if legal(&root).is_empty() {
            continue;
        }
        search_to_depth(&mut searcher, &root, depth);
    }
    let n = checked.load(Ordering::Relaxed);
    println!(
        "{} depth {depth}, {threads} thread(s): {n} evaluations checked",
        G::NAME
    );
    assert!(n > 1000, "only {n} evaluations checked");
}

#[test]
fn chess_search_evaluations_equal_the_from_scratch_evaluation() {
    search_checked::<sente::chess::Position>(chess_net(), CHESS_STARTS, 9, 1);
    search_checked::<sente::chess::Position>(chess_net(), &CHESS_STARTS[..2], 8, 2);
    // A wider net: the evaluator sizes itself from the net, the search is unchanged.
    search_checked::<sente::chess::Position>(chess_net_of_width(256), &CHESS_STARTS[..3], 8, 1);
}

#[test]
fn shogi_search_evaluations_equal_the_from_scratch_evaluation() {
    search_checked::<sente::shogi::Position>(shogi_net(), SHOGI_STARTS, 6, 1);
    search_checked::<sente::shogi::Position>(shogi_net(), &SHOGI_STARTS[..2], 8, 2);
    search_checked::<sente::shogi::Position>(shogi_net_of_width(256), &SHOGI_STARTS[..2], 7, 1);
}

/// One searcher, one search, then `set_evaluator` with another net (of another width): every
/// thread's evaluations of the next searches are the new net's (each checked against it from
/// scratch), none the old one's.
#[test]
fn a_new_evaluator_reaches_every_search_thread() {
    type Chess = sente::chess::Position;
    let (first, first_count) = checked_eval::<Chess>(chess_net());
    let (second, second_count) = checked_eval::<Chess>(chess_net_of_width(256));
    let mut searcher = Searcher::new(first);
    searcher.set_threads(2);
    let search = |searcher: &mut Searcher<Chess, CheckedNnue<Chess>>, text: &str| {
        search_to_depth(searcher, &Chess::from_text(text).unwrap(), 7);
    };
    search(&mut searcher, CHESS_STARTS[0]);
    let before = first_count.load(Ordering::Relaxed);
    assert!(before > 100, "the first net evaluated {before} positions");
    searcher.set_evaluator(second);
    for text in &CHESS_STARTS[..3] {
        search(&mut searcher, text);
    }
    assert_eq!(
        first_count.load(Ordering::Relaxed),
        before,
        "a thread still used the old net"
    );
    let after = second_count.load(Ordering::Relaxed);
    assert!(after > 300, "the new net evaluated {after} positions");
}
