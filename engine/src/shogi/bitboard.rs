//! The 81-square bitboard: one `u128` with bit `file * 9 + rank` (files are contiguous 9-bit
//! groups, so a file is a shift and a mask, and every line of the board has strictly increasing
//! bit indices in one direction).

use super::types::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

static SQUARE_BITS: [u128; 81] = {
    let mut bits = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        bits[sq] = 1u128 << sq;
        sq += 1;
    }
    bits
};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const ALL: Bitboard = Bitboard((1u128 << 81) - 1);

    /// The single square `sq` (a table load: cheaper than a variable 128-bit shift).
    #[inline]
    pub fn from_square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BITS[sq])
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        (self.0 >> sq) & 1 != 0
    }

    /// Number of squares (counted on the 64-bit halves: cheaper than `u128::count_ones`).
    #[inline]
    pub const fn count(self) -> u32 {
        (self.0 as u64).count_ones() + ((self.0 >> 64) as u64).count_ones()
    }

    /// More than one square.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Lowest square (the set must not be empty).
    #[inline]
    pub const fn lsb(self) -> Square {
        self.0.trailing_zeros() as Square
    }

    /// Removes and returns the lowest square (the set must not be empty). Works on the 64-bit
    /// halves: cheaper than 128-bit trailing-zero count and borrow chains.
    #[inline]
    pub fn pop(&mut self) -> Square {
        let lo = self.0 as u64;
        if lo != 0 {
            self.0 ^= (lo & lo.wrapping_neg()) as u128;
            lo.trailing_zeros() as Square
        } else {
            let hi = (self.0 >> 64) as u64;
            self.0 ^= ((hi & hi.wrapping_neg()) as u128) << 64;
            64 + hi.trailing_zeros() as Square
        }
    }

    #[inline]
    pub const fn and(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    #[inline]
    pub const fn or(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    #[inline]
    pub const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// The 9-bit occupancy of a 0-based file, rank a in bit 0.
    #[inline]
    pub const fn file_bits(self, file: usize) -> u32 {
        ((self.0 >> (file * 9)) & 0x1FF) as u32
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(self.pop())
        }
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}
impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}
impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}
/// Complement within the 81 board squares.
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}
impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}
impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}
impl BitXorAssign for Bitboard {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in 0..9 {
            for file in (0..9).rev() {
                let sq = file * 9 + rank;
                write!(f, "{}", if self.has(sq) { 'x' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
