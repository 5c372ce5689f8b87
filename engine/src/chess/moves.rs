//! The 16-bit chess move: from square, to square and a 4-bit kind. Castling is stored as
//! "king takes own rook" (to = the rook's square), which covers Chess960 uniformly.

use super::types::{PieceKind, Square};
use crate::game::GameMove;

/// Move kinds in the top four bits.
const NORMAL: u16 = 0;
const CASTLE: u16 = 1;
const EN_PASSANT: u16 = 2;
/// Promotions are 4 + (kind - Knight): 4 = N, 5 = B, 6 = R, 7 = Q.
const PROMOTION: u16 = 4;

/// A chess move in 16 bits: bits 0-5 from, 6-11 to, 12-15 kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// A normal move (also pawn pushes, captures and double pushes).
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from as u16 | (to as u16) << 6)
    }

    /// Castling, written as the king capturing its own rook.
    #[inline(always)]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move(king as u16 | (rook as u16) << 6 | CASTLE << 12)
    }

    /// En-passant capture, `to` being the empty square the pawn moves to.
    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from as u16 | (to as u16) << 6 | EN_PASSANT << 12)
    }

    /// Promotion to `kind` (knight .. queen).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, kind: PieceKind) -> Move {
        let k = (kind as u16).wrapping_sub(1) & 3;
        Move(from as u16 | (to as u16) << 6 | (PROMOTION + k) << 12)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        (self.0 & 63) as Square
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        ((self.0 >> 6) & 63) as Square
    }

    #[inline(always)]
    const fn kind_bits(self) -> u16 {
        self.0 >> 12
    }

    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.kind_bits() == CASTLE
    }

    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.kind_bits() == EN_PASSANT
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.kind_bits() & !3 == PROMOTION
    }

    /// Neither castling, en passant nor promotion.
    #[inline(always)]
    pub const fn is_normal(self) -> bool {
        self.kind_bits() == NORMAL
    }

    /// Kind bits no constructor produces (3, and 8 and above): such a move is never legal.
    #[inline(always)]
    pub const fn is_malformed(self) -> bool {
        self.kind_bits() == 3 || self.kind_bits() > 7
    }

    /// The piece a promotion creates (`None` for other moves).
    #[inline(always)]
    pub const fn promoted(self) -> Option<PieceKind> {
        if self.is_promotion() {
            Some(PieceKind::from_index(
                (self.kind_bits() - PROMOTION) as u8 + 1,
            ))
        } else {
            None
        }
    }
}

impl GameMove for Move {
    const NONE: Move = Move(0);

    #[inline(always)]
    fn to_bits(self) -> u16 {
        self.0
    }

    #[inline(always)]
    fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    #[inline(always)]
    fn is_promotion(self) -> bool {
        Move::is_promotion(self)
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use super::types::square_name;
        let [a, b] = square_name(self.from());
        let [c, d] = square_name(self.to());
        write!(f, "{a}{b}{c}{d}")?;
        if let Some(k) = self.promoted() {
            write!(f, "={}", k.letter())?;
        }
        if self.is_castle() {
            write!(f, "(castle)")?;
        }
        if self.is_en_passant() {
            write!(f, "(ep)")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for kind in [
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ] {
            let m = Move::promotion(52, 60, kind);
            assert_eq!(m.promoted(), Some(kind));
            assert_eq!(Move::from_bits(m.to_bits()), m);
            assert_eq!((m.from(), m.to()), (52, 60));
        }
        assert!(Move::castle(4, 7).is_castle());
        assert!(Move::en_passant(36, 43).is_en_passant());
        assert_eq!(Move::default(), Move::NONE);
    }

    /// The search reads promotions through the generic move trait (quiescence's late-move cut
    /// keeps them), which must agree with the move's own flag.
    #[test]
    fn the_generic_promotion_flag_is_the_moves_own() {
        let promotes = |m: Move| <Move as GameMove>::is_promotion(m);
        assert!(promotes(Move::promotion(52, 60, PieceKind::Queen)));
        assert!(promotes(Move::promotion(52, 61, PieceKind::Knight)));
        assert!(!promotes(Move::normal(12, 28)));
        assert!(!promotes(Move::castle(4, 7)));
        assert!(!promotes(Move::en_passant(36, 43)));
    }
}
