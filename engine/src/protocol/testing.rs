//! Test doubles for the protocol layer: tic-tac-toe (the toy game the search tests use, from
//! `engine/tests/search_support/tictactoe.rs`) as a `ProtocolGame` with a scripted search
//! backend, so sessions and the controller can be tested without the real games or search.

use super::backend::SearchBackend;
use super::options::RuleSettings;
use super::protocol_game::ProtocolGame;
use crate::game::{Game, HistoryEntry, Side};
use crate::movelist::MoveList;
use crate::search::{
    Limits, Score, ScoreBound, SearchControl, SearchEvent, SearchInfo, SearchOptions, SearchResult,
};
use std::sync::atomic::Ordering;
use std::time::Duration;

#[allow(dead_code)] // The search tests' solver and evaluator are not used here.
#[path = "../../tests/search_support/tictactoe.rs"]
mod tictactoe;

pub use tictactoe::{Cell, TicTacToe};

/// Whether playing `m` completes a line (the opponent is then mated).
fn wins_at_once(pos: &TicTacToe, m: Cell) -> bool {
    let mut child = *pos;
    child.make_move(m);
    let mut replies = <TicTacToe as Game>::Moves::default();
    child.generate_legal(&mut replies);
    replies.is_empty() && child.rule_outcome(&[], false).is_some()
}

/// The first legal move of `pos`, if any.
fn first_move(pos: &TicTacToe) -> Option<Cell> {
    let mut moves = <TicTacToe as Game>::Moves::default();
    pos.generate_legal(&mut moves);
    moves.as_slice().first().copied()
}

/// Plays a move that wins at once, else the first legal one (both among `searchmoves` when
/// given), expecting the opponent's first legal reply; waits for `stop` in infinite or ponder
/// searches, as a real search does.
pub struct ScriptedSearch;

impl SearchBackend<TicTacToe> for ScriptedSearch {
    fn fresh() -> Self {
        ScriptedSearch
    }
    fn search(
        &mut self,
        root: &TicTacToe,
        _history: &[HistoryEntry],
        limits: &Limits<Cell>,
        _options: &SearchOptions,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchEvent<Cell>),
    ) -> SearchResult<Cell> {
        let mut legal = <TicTacToe as Game>::Moves::default();
        root.generate_legal(&mut legal);
        let candidates: Vec<Cell> = legal
            .as_slice()
            .iter()
            .copied()
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .collect();
        let winning = candidates.iter().copied().find(|&m| wins_at_once(root, m));
        let best = winning.or(candidates.first().copied());
        let ponder = best.and_then(|m| {
            let mut child = *root;
            child.make_move(m);
            first_move(&child)
        });
        let score = Score::Cp(if winning.is_some() { 100 } else { 0 });
        report(SearchEvent::Pv(SearchInfo {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score,
            bound: ScoreBound::Exact,
            wdl: None,
            nodes: 1,
            time_ms: 0,
            nps: 0,
            hashfull: 0,
            tb_hits: None,
            pv: best.into_iter().collect(),
        }));
        while (limits.infinite || control.pondering.load(Ordering::SeqCst))
            && !control.stop.load(Ordering::SeqCst)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        SearchResult {
            best,
            ponder,
            score,
            depth: 1,
            nodes: 1,
            declare_win: false,
        }
    }
    /// Sizes above 60000 MB fail, as on a machine without that much memory.
    fn set_hash_mb(&mut self, mb: usize) -> Result<(), String> {
        if mb > 60_000 {
            return Err(format!(
                "cannot allocate a {mb} MB hash table; keeping 16 MB"
            ));
        }
        Ok(())
    }
    fn set_threads(&mut self, _: usize) -> Result<(), String> {
        Ok(())
    }
    fn clear(&mut self) {}
    fn load_evaluator(&mut self, eval_file: &str) -> Result<String, String> {
        if eval_file.contains("missing") {
            Err(format!("cannot read net file '{eval_file}'"))
        } else {
            Ok("scripted evaluation".to_string())
        }
    }
}

impl ProtocolGame for TicTacToe {
    type Backend = ScriptedSearch;
    const SIDE_NAMES: [&'static str; 2] = ["X", "O"];
    fn apply_rules(&mut self, _: &RuleSettings) {}
    /// Which side is to move follows from the marks on the board: only that side.
    fn with_side_to_move(&self, side: Side) -> Option<Self> {
        (side == self.side_to_move()).then_some(*self)
    }
}
