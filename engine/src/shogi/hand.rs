//! Pieces in hand: a count per hand kind (pawn .. gold).

use super::types::{PieceKind, HAND_KINDS};

/// One side's pieces in hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Hand(pub [u8; HAND_KINDS]);

impl Hand {
    #[inline]
    pub const fn count(&self, kind: PieceKind) -> u8 {
        self.0[kind as usize]
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// Total number of pieces held.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }
}

/// Most pieces of each hand kind in a full set (pawn, lance, knight, silver, bishop, rook, gold).
pub const MAX_PER_KIND: [u8; HAND_KINDS] = [18, 4, 4, 4, 2, 2, 4];
