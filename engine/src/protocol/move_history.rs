//! The game as a protocol session knows it: the position it started from, the moves played and
//! every position in between, so that moves can be taken back and repetition rules see the
//! whole history. Also the legal-move helpers the sessions use (never the search).

use crate::game::{Game, HistoryEntry, Outcome};
use crate::movelist::MoveList;

/// A started game: positions[0] is the start, each move adds one position.
#[derive(Clone, Debug)]
pub struct MoveHistory<G: Game> {
    positions: Vec<G>,
    moves: Vec<G::Move>,
    history: Vec<HistoryEntry>,
}

impl<G: Game> MoveHistory<G> {
    pub fn new(start: G) -> Self {
        let entry = entry_of(&start);
        Self {
            positions: vec![start],
            moves: Vec::new(),
            history: vec![entry],
        }
    }

    /// `start` with as many of `moves` played as are legal in turn (after a rule change).
    pub fn replayed(start: G, moves: &[G::Move]) -> Self {
        let mut history = Self::new(start);
        for &m in moves {
            if !history.current().is_legal_move(m) {
                break;
            }
            history.push(m);
        }
        history
    }

    /// The position now on the board.
    pub fn current(&self) -> &G {
        self.positions
            .last()
            .expect("a record always has its start position")
    }

    pub fn start(&self) -> &G {
        &self.positions[0]
    }

    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// Earlier positions, oldest first, not including the current one (what `Searcher::search`
    /// and `Game::rule_outcome` take).
    pub fn history(&self) -> &[HistoryEntry] {
        &self.history[..self.history.len() - 1]
    }

    /// Plays `m`, which the caller has checked to be legal in `current()`.
    pub fn push(&mut self, m: G::Move) {
        let mut next = self.current().clone();
        next.make_move(m);
        self.history.push(entry_of(&next));
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Takes back the last move; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.is_empty() {
            return false;
        }
        self.moves.pop();
        self.positions.pop();
        self.history.pop();
        true
    }

    /// How the game has ended by rule in the current position, if it has (strict rules, as
    /// claimed in a real game: chess threefold, shogi fourfold).
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.current();
        let mut moves = G::Moves::default();
        pos.generate_legal(&mut moves);
        if moves.is_empty() {
            return Some(pos.no_moves_outcome());
        }
        pos.rule_outcome(self.history(), false)
    }
}

fn entry_of<G: Game>(pos: &G) -> HistoryEntry {
    HistoryEntry {
        hash: pos.hash(),
        in_check: pos.in_check(),
    }
}

/// Whether the side to move has at least one legal move.
pub fn has_legal_move<G: Game>(pos: &G) -> bool {
    let mut moves = G::Moves::default();
    pos.generate_legal(&mut moves);
    !moves.is_empty()
}

/// All legal moves of `pos` in a `Vec` (protocol-side use only, never in the search).
pub fn legal_moves<G: Game>(pos: &G) -> Vec<G::Move> {
    let mut moves = G::Moves::default();
    pos.generate_legal(&mut moves);
    moves.as_slice().to_vec()
}
