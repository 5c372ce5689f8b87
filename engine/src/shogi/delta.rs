//! What one shogi move changed, for incremental evaluators (NNUE): pieces removed from and placed
//! on squares, and the hand count that changed.

use super::types::{Piece, PieceKind, Square};
use crate::game::Side;

/// A piece on a square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlacedPiece {
    pub square: u8,
    pub piece: Piece,
}

impl PlacedPiece {
    #[inline]
    pub fn new(square: Square, piece: Piece) -> Self {
        Self {
            square: square as u8,
            piece,
        }
    }
}

/// A hand count change: `side`'s count of `kind` went from `old` to `new`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandChange {
    pub side: Side,
    pub kind: PieceKind,
    pub old: u8,
    pub new: u8,
}

/// Everything the last move changed. A null move (and a fresh position) changes nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShogiDelta {
    /// Pieces taken off the board: the mover (board moves) and the captured piece.
    pub removed: [PlacedPiece; 2],
    pub removed_len: u8,
    /// The piece put on the destination (promoted if the move promoted).
    pub added: Option<PlacedPiece>,
    /// The hand count that changed (drop: the mover's kind -1; capture: the mover's kind +1).
    pub hand: Option<HandChange>,
}

impl ShogiDelta {
    /// The removed pieces as a slice.
    pub fn removed(&self) -> &[PlacedPiece] {
        &self.removed[..self.removed_len as usize]
    }
}
