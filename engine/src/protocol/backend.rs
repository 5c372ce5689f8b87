//! What the protocol layer needs of a search engine, so that the controller can run any of them
//! (the real `Searcher` with the game's evaluator, or a scripted one in tests) on its job thread.

use crate::game::{Game, HistoryEntry};
use crate::nnue::{EvalChoice, GameEval, NnueGame};
use crate::search::{Limits, SearchControl, SearchEvent, SearchOptions, SearchResult, Searcher};

/// A search engine for game `G` that the controller drives from its job thread.
pub trait SearchBackend<G: Game>: Send + 'static {
    /// A fresh engine: 16 MB table, one thread, the game's default evaluator.
    fn fresh() -> Self;
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
    /// Switches to the evaluator `EvalFile` names (`EvalChoice::from_name`: a net file,
    /// `classical`, or the default evaluation when empty). Returns a description of the
    /// evaluation in use, or the error (the previous evaluator stays).
    fn load_evaluator(&mut self, eval_file: &str) -> Result<String, String>;
    /// Opens the endgame tables under `paths` (`SyzygyPath`; empty: none). Returns their
    /// description and piece count (`None` when removed), or the error (the previous tables
    /// stay).
    fn set_tablebases(&mut self, paths: &str) -> Result<Option<(String, u32)>, String> {
        if paths.trim().is_empty() {
            Ok(None)
        } else {
            Err("this engine has no endgame tablebases".to_string())
        }
    }
}

impl<G: NnueGame> SearchBackend<G> for Searcher<G, GameEval<G>>
where
    Searcher<G, GameEval<G>>: Send,
{
    fn fresh() -> Self {
        Searcher::new(GameEval::default())
    }

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

    fn load_evaluator(&mut self, eval_file: &str) -> Result<String, String> {
        let eval =
            GameEval::<G>::select(EvalChoice::from_name(eval_file)).map_err(|e| e.to_string())?;
        let description = eval.describe();
        self.set_evaluator(eval);
        Ok(description)
    }

    fn set_tablebases(&mut self, paths: &str) -> Result<Option<(String, u32)>, String> {
        if paths.trim().is_empty() {
            Searcher::set_tablebases(self, None);
            return Ok(None);
        }
        let tables = G::open_tablebases(paths)?;
        let loaded = (tables.describe(), tables.max_pieces());
        Searcher::set_tablebases(self, Some(tables));
        Ok(Some(loaded))
    }
}
