//! The evaluator interface the search calls, implemented by each game's classical evaluator and
//! by the NNUE evaluator (`nnue::NnueEval`).

use crate::game::Game;

/// A static evaluation function, possibly with incremental state that follows the search.
///
/// The search calls `reset` at its root, `push` after each `make_move` (with the new position,
/// whose `delta()` says what changed), `pop` when it returns to the parent, and `evaluate` on the
/// current (most recently pushed) position.
pub trait Evaluator<G: Game>: Clone + Send {
    fn reset(&mut self, root: &G);
    fn push(&mut self, child: &G);
    fn pop(&mut self);
    /// Centipawns from the side to move's point of view, well inside ±20000.
    fn evaluate(&mut self, pos: &G) -> i32;
}
