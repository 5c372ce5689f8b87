//! What a chess move changed on the board, for incremental (NNUE) evaluation: at most two pieces
//! removed from squares and at most two placed (castling moves two, a capture removes two).

use super::types::{Piece, Square};

/// A coloured piece on a square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceOnSquare {
    pub piece: Piece,
    pub square: Square,
}

/// The board change of the last move. A null move (or a fresh position) changes nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    pub removed: [PieceOnSquare; 2],
    pub added: [PieceOnSquare; 2],
    pub removed_len: u8,
    pub added_len: u8,
}

impl Delta {
    /// Pieces taken off the board.
    pub fn removed(&self) -> &[PieceOnSquare] {
        &self.removed[..self.removed_len as usize]
    }

    /// Pieces put on the board.
    pub fn added(&self) -> &[PieceOnSquare] {
        &self.added[..self.added_len as usize]
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, piece: Piece, square: Square) {
        self.removed[self.removed_len as usize & 1] = PieceOnSquare { piece, square };
        self.removed_len += 1;
    }

    #[inline(always)]
    pub(crate) fn add(&mut self, piece: Piece, square: Square) {
        self.added[self.added_len as usize & 1] = PieceOnSquare { piece, square };
        self.added_len += 1;
    }
}
