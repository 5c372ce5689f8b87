//! Bitboard helpers and the fixed attack tables that need no magic: leapers (knight, king,
//! pawn), empty-board slider rays, and the between/line tables. All are evaluated at compile time.

use super::types::Square;
use crate::game::Side;

/// Bit of one square.
#[inline(always)]
pub const fn bb(sq: Square) -> u64 {
    1u64 << sq
}

/// Index of the lowest set bit (the board must be non-empty).
#[inline(always)]
pub const fn lsb(b: u64) -> Square {
    b.trailing_zeros() as Square
}

/// Removes and returns the lowest set square.
#[inline(always)]
pub fn pop_lsb(b: &mut u64) -> Square {
    let sq = lsb(*b);
    *b &= b.wrapping_sub(1);
    sq
}

/// Whether more than one bit is set.
#[inline(always)]
pub const fn more_than_one(b: u64) -> bool {
    b & b.wrapping_sub(1) != 0
}

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;
pub const RANK_1: u64 = 0xFF;
pub const RANK_8: u64 = RANK_1 << 56;
pub const RANK_3: u64 = RANK_1 << 16;
pub const RANK_6: u64 = RANK_1 << 40;
/// Squares on which a pawn stands or lands only by promoting: the first and last ranks.
pub const BACK_RANKS: u64 = RANK_1 | RANK_8;

/// Shifts all bits one rank forward for `side` (towards rank 8 for White).
#[inline(always)]
pub const fn forward(side: Side, b: u64) -> u64 {
    match side {
        Side::First => b << 8,
        Side::Second => b >> 8,
    }
}

/// Squares attacked by pawns of `side` standing on `pawns`.
#[inline(always)]
pub const fn pawn_attacks_bb(side: Side, pawns: u64) -> u64 {
    let west = pawns & !FILE_A;
    let east = pawns & !FILE_H;
    match side {
        Side::First => (west << 7) | (east << 9),
        Side::Second => (west >> 9) | (east >> 7),
    }
}

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The square `(df, dr)` away from `sq`, if on the board.
const fn offset(sq: Square, df: i8, dr: i8) -> Option<Square> {
    let f = (sq & 7) as i8 + df;
    let r = (sq >> 3) as i8 + dr;
    if f >= 0 && f < 8 && r >= 0 && r < 8 {
        Some((r * 8 + f) as Square)
    } else {
        None
    }
}

/// Slider attacks from `sq` along `dirs`, stopping at (and including) the first occupied square.
/// The slow reference the magic and PEXT tables are built from and tested against.
pub const fn slide(sq: Square, occupied: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut cur = sq;
        while let Some(next) = offset(cur, df, dr) {
            attacks |= 1u64 << next;
            if occupied & (1u64 << next) != 0 {
                break;
            }
            cur = next;
        }
        d += 1;
    }
    attacks
}

/// Reference rook attacks by ray walking.
pub const fn rook_attacks_slow(sq: Square, occupied: u64) -> u64 {
    slide(sq, occupied, &ROOK_DIRS)
}

/// Reference bishop attacks by ray walking.
pub const fn bishop_attacks_slow(sq: Square, occupied: u64) -> u64 {
    slide(sq, occupied, &BISHOP_DIRS)
}

const fn leaper_table(steps: &[(i8, i8); 8]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 8 {
            if let Some(to) = offset(sq as Square, steps[i].0, steps[i].1) {
                table[sq] |= 1u64 << to;
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn pawn_table() -> [[u64; 64]; 2] {
    let mut table = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        table[0][sq] = pawn_attacks_bb(Side::First, 1u64 << sq);
        table[1][sq] = pawn_attacks_bb(Side::Second, 1u64 << sq);
        sq += 1;
    }
    table
}

const fn empty_slider_table(dirs: &[(i8, i8); 4]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = slide(sq as Square, 0, dirs);
        sq += 1;
    }
    table
}

/// Knight attacks from each square.
pub static KNIGHT_ATTACKS: [u64; 64] = leaper_table(&KNIGHT_STEPS);
/// King attacks from each square.
pub static KING_ATTACKS: [u64; 64] = leaper_table(&KING_STEPS);
/// Pawn capture targets, `[side][square]`.
pub static PAWN_ATTACKS: [[u64; 64]; 2] = pawn_table();
/// Rook attacks on an empty board.
pub static ROOK_RAYS: [u64; 64] = empty_slider_table(&ROOK_DIRS);
/// Bishop attacks on an empty board.
pub static BISHOP_RAYS: [u64; 64] = empty_slider_table(&BISHOP_DIRS);

const fn line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let rook = empty_slider_table(&ROOK_DIRS);
    let bishop = empty_slider_table(&BISHOP_DIRS);
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (ba, bb_) = (1u64 << a, 1u64 << b);
            if a != b {
                if rook[a] & bb_ != 0 {
                    line[a][b] = (rook[a] & rook[b]) | ba | bb_;
                    between[a][b] =
                        slide(a as Square, bb_, &ROOK_DIRS) & slide(b as Square, ba, &ROOK_DIRS);
                } else if bishop[a] & bb_ != 0 {
                    line[a][b] = (bishop[a] & bishop[b]) | ba | bb_;
                    between[a][b] = slide(a as Square, bb_, &BISHOP_DIRS)
                        & slide(b as Square, ba, &BISHOP_DIRS);
                }
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINE_TABLES: ([[u64; 64]; 64], [[u64; 64]; 64]) = line_tables();

/// Squares strictly between two aligned squares (empty if not aligned).
#[inline(always)]
pub fn between(a: Square, b: Square) -> u64 {
    LINE_TABLES.0[a as usize & 63][b as usize & 63]
}

/// The whole line (edge to edge) through two aligned squares, both included (empty if not
/// aligned).
#[inline(always)]
pub fn line(a: Square, b: Square) -> u64 {
    LINE_TABLES.1[a as usize & 63][b as usize & 63]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leapers_and_lines() {
        assert_eq!(KNIGHT_ATTACKS[0], bb(10) | bb(17));
        assert_eq!(KING_ATTACKS[0], bb(1) | bb(8) | bb(9));
        assert_eq!(PAWN_ATTACKS[0][8], bb(17));
        assert_eq!(PAWN_ATTACKS[1][15], bb(6));
        assert_eq!(between(0, 63).count_ones(), 6);
        assert_eq!(between(0, 7), 0x7E);
        assert_eq!(line(0, 9).count_ones(), 8);
        assert_eq!(between(0, 17), 0);
        assert_eq!(line(0, 17), 0);
    }
}
