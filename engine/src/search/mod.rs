//! The game-generic search: iterative deepening PVS over any `Game`, with a shared
//! transposition table and Lazy SMP threads. It never names a game.
//!
//! The protocol layer drives it through `Searcher::search`, a blocking call that it runs on its
//! own thread; `SearchControl` stops it from outside.

pub mod limits;
pub mod report;

pub use limits::{Clock, Limits, SearchOptions};
pub use report::{Score, ScoreBound, SearchEvent, SearchInfo, SearchResult, Wdl};

use crate::eval::Evaluator;
use crate::game::{Game, HistoryEntry};
use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;

/// Flags shared with the thread that started a search.
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Set to end the search as soon as possible (`stop`, `quit`, a new position ...).
    pub stop: AtomicBool,
    /// While set, the search is pondering: it ignores its time budget (not node/depth limits)
    /// until cleared by `ponderhit`, from which moment the clock applies as if the search had
    /// started normally.
    pub pondering: AtomicBool,
}

/// A search engine for one game with one evaluator type: owns the transposition table and the
/// per-thread state, which persist between searches until `clear` (`ucinewgame`, Clear Hash).
pub struct Searcher<G: Game, E: Evaluator<G>> {
    evaluator: E,
    threads: usize,
    hash_mb: usize,
    _game: PhantomData<G>,
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with a 16 MB table and one thread.
    pub fn new(evaluator: E) -> Self {
        Self {
            evaluator,
            threads: 1,
            hash_mb: 16,
            _game: PhantomData,
        }
    }

    /// Resizes the transposition table (clears it).
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb.max(1);
    }

    /// Number of Lazy SMP threads (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Replaces the evaluator (e.g. a newly loaded net).
    pub fn set_evaluator(&mut self, evaluator: E) {
        self.evaluator = evaluator;
    }

    /// Forgets everything learned: transposition table, histories.
    pub fn clear(&mut self) {}

    /// Searches `root` (reached through `history`, oldest first, not including `root`) within
    /// `limits`, reporting progress through `report`, until a limit is reached or `control.stop`
    /// is set. Returns the best move (`None` only when `root` has no legal move).
    pub fn search(
        &mut self,
        root: &G,
        history: &[HistoryEntry],
        limits: &Limits<G::Move>,
        options: &SearchOptions,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchEvent<G::Move>),
    ) -> SearchResult<G::Move> {
        let _ = (root, history, limits, options, control, report);
        todo!("implemented by the search issue")
    }
}
