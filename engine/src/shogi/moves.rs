//! The 16-bit shogi move: bits 0-6 destination square, bits 7-13 origin square (0..81) or
//! `81 + hand kind` for a drop, bit 14 promotion.

use super::types::{PieceKind, Square, HAND_KINDS, SQUARES};
use crate::game::GameMove;

/// A board move or a drop. `Move::NONE` (all zero) is never legal (origin equals destination).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const PROMOTE: u16 = 1 << 14;

impl Move {
    /// A board move from `from` to `to`, promoting when `promote`.
    #[inline]
    pub const fn board(from: Square, to: Square, promote: bool) -> Move {
        Move(to as u16 | (from as u16) << 7 | if promote { PROMOTE } else { 0 })
    }

    /// A drop of a hand kind (pawn .. gold) on `to`.
    #[inline]
    pub const fn drop(kind: PieceKind, to: Square) -> Move {
        Move(to as u16 | ((SQUARES + kind as usize) as u16) << 7)
    }

    #[inline]
    pub const fn to(self) -> Square {
        (self.0 & 0x7F) as Square
    }

    /// Origin square, or `81 + hand kind` for a drop (the move's "from slot").
    #[inline]
    pub const fn from_slot(self) -> usize {
        ((self.0 >> 7) & 0x7F) as usize
    }

    /// Origin square of a board move.
    #[inline]
    pub const fn from(self) -> Square {
        self.from_slot()
    }

    #[inline]
    pub const fn is_drop(self) -> bool {
        self.from_slot() >= SQUARES
    }

    /// Dropped kind of a drop.
    #[inline]
    pub const fn drop_kind(self) -> PieceKind {
        PieceKind::HAND[self.from_slot() - SQUARES]
    }

    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }

    /// Whether the fields are in range (destination < 81, origin < 88, bit 15 clear, drops
    /// without the promotion bit); says nothing about legality.
    #[inline]
    pub const fn is_well_formed(self) -> bool {
        self.0 & 0x8000 == 0
            && self.to() < SQUARES
            && self.from_slot() < SQUARES + HAND_KINDS
            && !(self.is_drop() && self.is_promotion())
            && self.from_slot() != self.to()
    }
}

impl GameMove for Move {
    const NONE: Move = Move(0);

    #[inline]
    fn to_bits(self) -> u16 {
        self.0
    }

    #[inline]
    fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    #[inline]
    fn is_promotion(self) -> bool {
        Move::is_promotion(self)
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if *self == Move::NONE {
            return write!(f, "none");
        }
        if !self.is_well_formed() {
            return write!(f, "bad({:#06x})", self.0);
        }
        let to = super::types::usi_square(self.to());
        if self.is_drop() {
            write!(f, "{}*{}", self.drop_kind().letter(), to)
        } else {
            let from = super::types::usi_square(self.from());
            write!(
                f,
                "{from}{to}{}",
                if self.is_promotion() { "+" } else { "" }
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search reads promotions through the generic move trait (quiescence's late-move cut
    /// keeps them), which must agree with the move's own flag.
    #[test]
    fn the_generic_promotion_flag_is_the_moves_own() {
        let promotes = |m: Move| <Move as GameMove>::is_promotion(m);
        assert!(promotes(Move::board(20, 11, true)));
        assert!(!promotes(Move::board(20, 11, false)));
        assert!(!promotes(Move::drop(PieceKind::Pawn, 40)));
    }
}
