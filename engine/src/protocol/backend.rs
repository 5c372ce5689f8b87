//! What the protocol layer needs of a search engine, so that the controller can run any of them
//! (the real `Searcher`, or a scripted one in tests) on its search thread.

use crate::eval::Evaluator;
use crate::game::{Game, HistoryEntry};
use crate::search::{Limits, SearchControl, SearchEvent, SearchOptions, SearchResult, Searcher};

/// A search engine for game `G` that the controller drives from its search thread.
pub trait SearchBackend<G: Game>: Send + 'static {
    /// Blocking search; see `Searcher::search`.
    fn search(
        &mut self,
        root: &G,
        history: &[HistoryEntry],
        limits: &Limits<G::Move>,
        options: &SearchOptions,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchEvent<G::Move>),
    ) -> SearchResult<G::Move>;
    /// Resizes the table; on failure a table stays usable and the error says its size.
    fn set_hash_mb(&mut self, mb: usize) -> Result<(), String>;
    /// Sets the thread count; on failure fewer threads are used and the error says how many.
    fn set_threads(&mut self, threads: usize) -> Result<(), String>;
    fn clear(&mut self);
}

impl<G: Game, E: Evaluator<G> + 'static> SearchBackend<G> for Searcher<G, E>
where
    Searcher<G, E>: Send,
{
    fn search(
        &mut self,
        root: &G,
        history: &[HistoryEntry],
        limits: &Limits<G::Move>,
        options: &SearchOptions,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchEvent<G::Move>),
    ) -> SearchResult<G::Move> {
        Searcher::search(self, root, history, limits, options, control, report)
    }

    fn set_hash_mb(&mut self, mb: usize) -> Result<(), String> {
        Searcher::try_set_hash_mb(self, mb)
    }

    fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        Searcher::try_set_threads(self, threads)
    }

    fn clear(&mut self) {
        Searcher::clear(self);
    }
}
