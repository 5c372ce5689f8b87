//! Attack sets: step-piece tables built at compile time, and sliding attacks computed from
//! per-square line masks by the obstruction-difference method (no large lookup tables).

use super::bitboard::Bitboard;
use super::types::{PieceKind, Square, SQUARES};
use crate::game::Side;

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < 9 && rank >= 0 && rank < 9
}

/// Steps (file delta, rank delta) of a step mover for Black; White's are mirrored in rank.
const PAWN_STEPS: &[(i32, i32)] = &[(0, -1)];
const KNIGHT_STEPS: &[(i32, i32)] = &[(-1, -2), (1, -2)];
const SILVER_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_STEPS: &[(i32, i32)] = &[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

const fn step_table(steps: &[(i32, i32)]) -> [[u128; SQUARES]; 2] {
    let mut table = [[0u128; SQUARES]; 2];
    let mut side = 0;
    while side < 2 {
        let mut sq = 0;
        while sq < SQUARES {
            let file = (sq / 9) as i32;
            let rank = (sq % 9) as i32;
            let mut i = 0;
            while i < steps.len() {
                let (df, dr) = steps[i];
                let dr = if side == 0 { dr } else { -dr };
                if on_board(file + df, rank + dr) {
                    table[side][sq] |= 1u128 << ((file + df) * 9 + rank + dr);
                }
                i += 1;
            }
            sq += 1;
        }
        side += 1;
    }
    table
}

static PAWN: [[u128; SQUARES]; 2] = step_table(PAWN_STEPS);
static KNIGHT: [[u128; SQUARES]; 2] = step_table(KNIGHT_STEPS);
static SILVER: [[u128; SQUARES]; 2] = step_table(SILVER_STEPS);
static GOLD: [[u128; SQUARES]; 2] = step_table(GOLD_STEPS);
static KING: [[u128; SQUARES]; 2] = step_table(KING_STEPS);

/// The four lines through a square: file, rank, diagonal (+10) and anti-diagonal (+8).
const LINE_DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// `[sq][line] = [lower ray, upper ray]`: the squares of the line with smaller / larger index.
/// A `const` so the other tables' initialisers can read it; `RAYS` is its runtime copy.
const RAYS_TABLE: [[[u128; 2]; 4]; SQUARES] = {
    let mut rays = [[[0u128; 2]; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut line = 0;
        while line < 4 {
            let (df, dr) = LINE_DIRS[line];
            let mut half = 0;
            while half < 2 {
                let sign = if half == 0 { -1 } else { 1 };
                let mut f = (sq / 9) as i32 + sign * df;
                let mut r = (sq % 9) as i32 + sign * dr;
                while on_board(f, r) {
                    rays[sq][line][half] |= 1u128 << (f * 9 + r);
                    f += sign * df;
                    r += sign * dr;
                }
                half += 1;
            }
            line += 1;
        }
        sq += 1;
    }
    rays
};

static RAYS: [[[u128; 2]; 4]; SQUARES] = RAYS_TABLE;

/// Attacks along one line from a square: the nearest occupied square on each side, and the
/// empty squares up to it.
#[inline(always)]
fn line_attacks(occ: u128, rays: &[u128; 2]) -> u128 {
    let lower = occ & rays[0];
    let upper = occ & rays[1];
    // All bits from the highest blocker below upward (everything when there is none).
    let from_lower_blocker = u128::MAX << (127 - (lower | 1).leading_zeros());
    let lowest_upper = upper & upper.wrapping_neg();
    (rays[0] | rays[1]) & (lowest_upper << 1).wrapping_add(from_lower_blocker)
}

/// `[sq_a][sq_b]`: squares strictly between two squares on a common line, else empty.
static BETWEEN: [[u128; SQUARES]; SQUARES] = {
    let mut table = [[0u128; SQUARES]; SQUARES];
    let mut a = 0;
    while a < SQUARES {
        let mut dir = 0;
        while dir < 8 {
            let (df, dr) = KING_STEPS[dir];
            let mut f = (a / 9) as i32 + df;
            let mut r = (a % 9) as i32 + dr;
            let mut acc = 0u128;
            while on_board(f, r) {
                let b = (f * 9 + r) as usize;
                table[a][b] = acc;
                acc |= 1u128 << b;
                f += df;
                r += dr;
            }
            dir += 1;
        }
        a += 1;
    }
    table
};

/// `[sq_a][sq_b]`: the whole line through two aligned squares (edge to edge), else empty.
static LINE: [[u128; SQUARES]; SQUARES] = {
    let mut table = [[0u128; SQUARES]; SQUARES];
    let mut a = 0;
    while a < SQUARES {
        let mut line = 0;
        while line < 4 {
            let full = RAYS_TABLE[a][line][0] | RAYS_TABLE[a][line][1] | (1u128 << a);
            let mut bits = RAYS_TABLE[a][line][0] | RAYS_TABLE[a][line][1];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                table[a][b] = full;
                bits &= bits - 1;
            }
            line += 1;
        }
        a += 1;
    }
    table
};

/// Defines, for each `name => TABLE` pair, `pub fn name(side, sq) -> Bitboard`: the squares a
/// stepping piece of that kind and `side` on `sq` attacks, read from its `[side][sq]` table.
macro_rules! step_attack_fns {
    ($($name:ident => $table:ident),* $(,)?) => {$(
        #[doc = concat!("The squares a piece of `side` on `sq` attacks, from `", stringify!($table), "`.")]
        #[inline]
        pub fn $name(side: Side, sq: Square) -> Bitboard {
            Bitboard($table[side as usize][sq])
        }
    )*};
}

step_attack_fns! {
    pawn_attacks => PAWN,
    knight_attacks => KNIGHT,
    silver_attacks => SILVER,
    gold_attacks => GOLD,
}

/// `[side][sq]`: the squares from which a stepping piece (anything but a lance, bishop or rook
/// moving along a line) of `side` could attack `sq`: the eight neighbours and the two knight
/// squares.
static STEP_REACH: [[u128; SQUARES]; 2] = {
    let mut table = [[0u128; SQUARES]; 2];
    let mut side = 0;
    while side < 2 {
        let mut sq = 0;
        while sq < SQUARES {
            // A knight of `side` attacks `sq` from where the other side's knight on `sq` would.
            table[side][sq] = KING[0][sq] | KNIGHT[1 - side][sq];
            sq += 1;
        }
        side += 1;
    }
    table
};

/// `[sq]`: the squares at most `files` files and `ranks` ranks away from `sq` (itself included).
const fn box_table(files: i32, ranks: i32) -> [u128; SQUARES] {
    let mut table = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = ((sq / 9) as i32, (sq % 9) as i32);
        let mut other = 0;
        while other < SQUARES {
            let (f, r) = ((other / 9) as i32, (other % 9) as i32);
            if (f - file).abs() <= files && (r - rank).abs() <= ranks {
                table[sq] |= 1u128 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    table
}

static NEAR_BOX: [u128; SQUARES] = box_table(2, 2);
static KNIGHT_BOX: [u128; SQUARES] = box_table(2, 4);

/// Squares within two files and two ranks of `sq`: where a one-step piece must stand to move
/// next to `sq`.
#[inline]
pub fn near_box(sq: Square) -> Bitboard {
    Bitboard(NEAR_BOX[sq])
}

/// Squares within two files and four ranks of `sq`: where a knight must stand to move to a
/// square from which it (or, promoted, a gold) attacks `sq`.
#[inline]
pub fn knight_box(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_BOX[sq])
}

/// The squares from which a stepping piece of `side` could attack `sq` (see `STEP_REACH`).
#[inline]
pub fn step_reach(side: Side, sq: Square) -> Bitboard {
    Bitboard(STEP_REACH[side as usize][sq])
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[0][sq])
}

/// The squares a lance of `side` on `sq` would reach on an empty board.
#[inline]
pub fn lance_ray(side: Side, sq: Square) -> Bitboard {
    // Black moves toward rank a (smaller index): the lower half of the file.
    Bitboard(RAYS[sq][0][side as usize])
}

#[inline]
pub fn lance_attacks(side: Side, sq: Square, occ: Bitboard) -> Bitboard {
    let rays = &RAYS[sq][0];
    match side {
        Side::First => {
            let lower = occ.0 & rays[0];
            Bitboard(rays[0] & (u128::MAX << (127 - (lower | 1).leading_zeros())))
        }
        Side::Second => {
            let upper = occ.0 & rays[1];
            let lowest = upper & upper.wrapping_neg();
            Bitboard(rays[1] & (lowest << 1).wrapping_sub(1))
        }
    }
}

#[inline]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let rays = &RAYS[sq];
    Bitboard(line_attacks(occ.0, &rays[0]) | line_attacks(occ.0, &rays[1]))
}

#[inline]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let rays = &RAYS[sq];
    Bitboard(line_attacks(occ.0, &rays[2]) | line_attacks(occ.0, &rays[3]))
}

/// `[sq] = [rook lines, bishop lines]` through a square on an empty board.
static PSEUDO: [[u128; 2]; SQUARES] = {
    let mut table = [[0u128; 2]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let r = &RAYS_TABLE[sq];
        table[sq][0] = r[0][0] | r[0][1] | r[1][0] | r[1][1];
        table[sq][1] = r[2][0] | r[2][1] | r[3][0] | r[3][1];
        sq += 1;
    }
    table
};

/// Rook lines through a square on an empty board.
#[inline]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(PSEUDO[sq][0])
}

/// Bishop lines through a square on an empty board.
#[inline]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(PSEUDO[sq][1])
}

#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a][b])
}

#[inline]
pub fn line_through(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a][b])
}

/// Attacks of a piece of `kind` owned by `side` standing on `sq`, with occupancy `occ`.
#[inline(always)]
pub fn piece_attacks(side: Side, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn_attacks(side, sq),
        PieceKind::Lance => lance_attacks(side, sq, occ),
        PieceKind::Knight => knight_attacks(side, sq),
        PieceKind::Silver => silver_attacks(side, sq),
        PieceKind::Bishop => bishop_attacks(sq, occ),
        PieceKind::Rook => rook_attacks(sq, occ),
        PieceKind::King => king_attacks(sq),
        PieceKind::Horse => bishop_attacks(sq, occ) | king_attacks(sq),
        PieceKind::Dragon => rook_attacks(sq, occ) | king_attacks(sq),
        _ => gold_attacks(side, sq),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slow reference: walk each direction until a blocker.
    fn walk(sq: Square, occ: Bitboard, dirs: &[(i32, i32)]) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let (mut f, mut r) = ((sq / 9) as i32 + df, (sq % 9) as i32 + dr);
            while on_board(f, r) {
                let s = (f * 9 + r) as usize;
                out |= Bitboard::from_square(s);
                if occ.has(s) {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        out
    }

    #[test]
    fn sliders_match_walking_reference() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        for _ in 0..3000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let a = seed;
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ = Bitboard((((seed as u128) << 64) | a as u128) & Bitboard::ALL.0);
            let occ = occ & Bitboard((seed as u128).wrapping_mul(0x9E37_79B9) | occ.0 >> 3);
            for sq in 0..SQUARES {
                assert_eq!(
                    rook_attacks(sq, occ),
                    walk(sq, occ, &[(0, 1), (0, -1), (1, 0), (-1, 0)])
                );
                assert_eq!(
                    bishop_attacks(sq, occ),
                    walk(sq, occ, &[(1, 1), (-1, -1), (1, -1), (-1, 1)])
                );
                assert_eq!(
                    lance_attacks(Side::First, sq, occ),
                    walk(sq, occ, &[(0, -1)])
                );
                assert_eq!(
                    lance_attacks(Side::Second, sq, occ),
                    walk(sq, occ, &[(0, 1)])
                );
            }
        }
    }

    #[test]
    fn between_and_line() {
        let a = 0; // 1a
        let b = 80; // 9i
        assert_eq!(between(a, b).count(), 7);
        assert_eq!(line_through(a, b).count(), 9);
        assert!(between(0, 11).is_empty()); // knight-distance: not aligned
        assert!(line_through(0, 11).is_empty());
    }
}
