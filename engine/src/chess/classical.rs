//! The generation-0 classical chess evaluator: material plus piece-square tables, tapered
//! between middlegame and endgame by the remaining non-pawn material. Every number lives in
//! `ClassicalParams` so a tuner can fit them: the score is linear in the values and tables
//! (`ClassicalParams::to_vector` / `ClassicalEval::coefficients`), the phase weights stay fixed.

use super::bitboard::pop_lsb;
use super::position::Position;
use super::types::PieceKind;
use crate::eval::Evaluator;
use crate::game::{Game, Side};

/// All evaluation parameters. Tables are indexed `[kind][square]` from White's point of view
/// (a1 = 0); Black uses the vertically mirrored square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassicalParams {
    pub mg_value: [i32; 6],
    pub eg_value: [i32; 6],
    pub mg_table: [[i32; 64]; 6],
    pub eg_table: [[i32; 64]; 6],
    /// Game-phase weight of each kind; the full phase is the starting position's total.
    pub phase_weight: [i32; 6],
}

/// Ring of a square: 0 for the four centre squares up to 3 for the edge.
const fn ring(sq: usize) -> usize {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    (if df > dr { df } else { dr }) as usize
}

const fn by_ring(values: [i32; 4]) -> [i32; 64] {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = values[ring(sq)];
        sq += 1;
    }
    t
}

const fn by_rank_and_file(ranks: [i32; 8], files: [i32; 8]) -> [i32; 64] {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = ranks[sq / 8] + files[sq % 8];
        sq += 1;
    }
    t
}

/// A pawn table with its first and last ranks zeroed: pawns never stand there.
const fn without_back_ranks(mut t: [i32; 64]) -> [i32; 64] {
    let mut f = 0;
    while f < 8 {
        t[f] = 0;
        t[56 + f] = 0;
        f += 1;
    }
    t
}

const fn pawn_mg() -> [i32; 64] {
    let mut t = by_rank_and_file([0, 0, 3, 10, 20, 35, 60, 0], [0, 0, 5, 10, 10, 5, 0, 0]);
    // Unmoved centre pawns block the bishops.
    t[11] -= 20;
    t[12] -= 20;
    without_back_ranks(t)
}

const fn pawn_eg() -> [i32; 64] {
    without_back_ranks(by_rank_and_file([0, 0, 5, 15, 30, 55, 100, 0], [0; 8]))
}

const fn king_mg() -> [i32; 64] {
    let mut t = by_rank_and_file([0, -15, -35, -50, -60, -60, -60, -60], [0; 8]);
    let first = [20, 30, 10, -5, 0, 10, 30, 20];
    let second = [10, 10, -5, -15, -15, -5, 10, 10];
    let mut f = 0;
    while f < 8 {
        t[f] = first[f];
        t[8 + f] = second[f];
        f += 1;
    }
    t
}

impl ClassicalParams {
    /// Hand-set starting values (material close to common tuned engines).
    pub const DEFAULT: ClassicalParams = ClassicalParams {
        mg_value: [82, 337, 365, 477, 1025, 0],
        eg_value: [94, 281, 297, 512, 936, 0],
        mg_table: [
            pawn_mg(),
            by_ring([20, 10, -5, -35]),
            by_ring([10, 8, 0, -10]),
            by_rank_and_file([0, -5, -5, -5, -5, 0, 20, 5], [-3, 0, 3, 6, 6, 3, 0, -3]),
            by_ring([5, 3, 0, -5]),
            king_mg(),
        ],
        eg_table: [
            pawn_eg(),
            by_ring([15, 8, -5, -30]),
            by_ring([8, 5, 0, -10]),
            by_rank_and_file([0, 0, 0, 0, 0, 0, 10, 5], [0; 8]),
            by_ring([15, 10, 0, -15]),
            by_ring([30, 15, 0, -30]),
        ],
        phase_weight: [0, 1, 1, 2, 4, 0],
    };

    /// The phase of the starting position (all minor and major pieces on the board).
    pub fn full_phase(&self) -> i32 {
        let w = &self.phase_weight;
        2 * (2 * w[1] + 2 * w[2] + 2 * w[3] + w[4])
    }

    /// Length of `to_vector`: the middlegame and endgame values, then the two sets of tables.
    /// The phase weights are not part of it (the score is not linear in them).
    pub const VECTOR_LEN: usize = 2 * 6 + 2 * 6 * 64;

    /// Index of `mg_value[kind]` in `to_vector`.
    pub const fn mg_value_index(kind: usize) -> usize {
        kind
    }

    /// Index of `eg_value[kind]` in `to_vector`.
    pub const fn eg_value_index(kind: usize) -> usize {
        6 + kind
    }

    /// Index of `mg_table[kind][sq]` in `to_vector`.
    pub const fn mg_table_index(kind: usize, sq: usize) -> usize {
        12 + kind * 64 + sq
    }

    /// Index of `eg_table[kind][sq]` in `to_vector`.
    pub const fn eg_table_index(kind: usize, sq: usize) -> usize {
        12 + 6 * 64 + kind * 64 + sq
    }

    /// The linear parameters (values and tables) as one vector, laid out as the `*_index`
    /// functions say.
    pub fn to_vector(&self) -> Vec<f32> {
        let mut v = vec![0.0; Self::VECTOR_LEN];
        for k in 0..6 {
            v[Self::mg_value_index(k)] = self.mg_value[k] as f32;
            v[Self::eg_value_index(k)] = self.eg_value[k] as f32;
            for sq in 0..64 {
                v[Self::mg_table_index(k, sq)] = self.mg_table[k][sq] as f32;
                v[Self::eg_table_index(k, sq)] = self.eg_table[k][sq] as f32;
            }
        }
        v
    }

    /// Parameters from a `to_vector` layout, rounded to integers; the phase weights are the
    /// defaults. Panics if `v` is not `VECTOR_LEN` long.
    pub fn from_vector(v: &[f32]) -> Self {
        assert_eq!(
            v.len(),
            Self::VECTOR_LEN,
            "classical chess parameter vector"
        );
        let r = |x: f32| x.round() as i32;
        let mut p = Self::DEFAULT;
        for k in 0..6 {
            p.mg_value[k] = r(v[Self::mg_value_index(k)]);
            p.eg_value[k] = r(v[Self::eg_value_index(k)]);
            for sq in 0..64 {
                p.mg_table[k][sq] = r(v[Self::mg_table_index(k, sq)]);
                p.eg_table[k][sq] = r(v[Self::eg_table_index(k, sq)]);
            }
        }
        p
    }
}

impl Default for ClassicalParams {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Material + piece-square evaluation with tapered phases; stateless between positions.
#[derive(Clone, Debug, Default)]
pub struct ClassicalEval {
    pub params: ClassicalParams,
}

impl ClassicalEval {
    pub fn new(params: ClassicalParams) -> Self {
        Self { params }
    }

    /// The score as a linear function of `to_vector()`: replaces `out` with the sparse
    /// coefficient of each parameter (sorted by index, no zeros) such that their dot product with
    /// the vector is the score from White's point of view before `score`'s integer division
    /// (so within 1 of it, sign aside). Middlegame parameters carry the taper weight
    /// `phase / full`, endgame ones `(full - phase) / full`.
    pub fn coefficients(&self, pos: &Position, out: &mut Vec<(u32, f32)>) {
        let p = &self.params;
        out.clear();
        let mut phase = 0;
        for side in [Side::First, Side::Second] {
            for kind in PieceKind::ALL {
                phase += p.phase_weight[kind.index()] * pos.pieces(side, kind).count_ones() as i32;
            }
        }
        let full = p.full_phase().max(1);
        let mg_weight = phase.min(full) as f32 / full as f32;
        let eg_weight = 1.0 - mg_weight;
        for_each_piece_as_white(pos, |sign, k, sq| {
            for (index, weight) in [
                (ClassicalParams::mg_value_index(k), mg_weight),
                (ClassicalParams::mg_table_index(k, sq), mg_weight),
                (ClassicalParams::eg_value_index(k), eg_weight),
                (ClassicalParams::eg_table_index(k, sq), eg_weight),
            ] {
                out.push((index as u32, sign as f32 * weight));
            }
        });
        merge_coefficients(out);
    }

    /// Score in centipawns from the side to move's point of view.
    pub fn score(&self, pos: &Position) -> i32 {
        let p = &self.params;
        let (mut mg, mut eg, mut phase) = (0i32, 0i32, 0i32);
        for_each_piece_as_white(pos, |sign, k, sq| {
            mg += sign * (p.mg_value[k] + p.mg_table[k][sq]);
            eg += sign * (p.eg_value[k] + p.eg_table[k][sq]);
            phase += p.phase_weight[k];
        });
        let full = p.full_phase().max(1);
        let phase = phase.min(full);
        let white = (mg * phase + eg * (full - phase)) / full;
        if pos.side_to_move() == Side::First {
            white
        } else {
            -white
        }
    }
}

/// Calls `visit(sign, kind index, square)` for each piece on the board, as the tables see it
/// from White's side: `sign` 1 for White's pieces and -1 for Black's, whose squares are mirrored
/// rank-wise.
#[inline(always)]
fn for_each_piece_as_white(pos: &Position, mut visit: impl FnMut(i32, usize, usize)) {
    for side in [Side::First, Side::Second] {
        let sign = if side == Side::First { 1 } else { -1 };
        let mirror = if side == Side::First { 0 } else { 56 };
        for kind in PieceKind::ALL {
            let k = kind.index();
            let mut b = pos.pieces(side, kind);
            while b != 0 {
                visit(sign, k, (pop_lsb(&mut b) ^ mirror) as usize);
            }
        }
    }
}

/// Sorts sparse coefficients by index, sums duplicates and drops zeros.
pub(crate) fn merge_coefficients(out: &mut Vec<(u32, f32)>) {
    out.sort_unstable_by_key(|&(i, _)| i);
    let mut n = 0;
    for j in 0..out.len() {
        if n > 0 && out[n - 1].0 == out[j].0 {
            out[n - 1].1 += out[j].1;
        } else {
            out[n] = out[j];
            n += 1;
        }
    }
    out.truncate(n);
    out.retain(|&(_, c)| c.abs() > 1e-6);
}

impl Evaluator<Position> for ClassicalEval {
    fn reset(&mut self, _root: &Position) {}

    fn push(&mut self, _child: &Position) {}

    fn pop(&mut self) {}

    fn evaluate(&mut self, pos: &Position) -> i32 {
        self.score(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_and_side_relative() {
        let mut eval = ClassicalEval::default();
        let start = Position::startpos();
        assert_eq!(eval.evaluate(&start), 0);
        // White is a queen up: positive for White to move, negative for Black to move.
        let w = Position::from_text("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let b = Position::from_text("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(eval.evaluate(&w) > 800);
        assert_eq!(eval.evaluate(&w), -eval.evaluate(&b));
        // The mirrored position scores the same for the side to move.
        let m = Position::from_text("3qk3/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(eval.evaluate(&m), eval.evaluate(&w));
    }

    /// Positions along seeded random playouts from the start position.
    fn random_positions(games: usize, plies: usize, seed: u64) -> Vec<Position> {
        use crate::movelist::MoveList;
        use rand_xoshiro::rand_core::{RngCore, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = Position::startpos();
            for _ in 0..plies {
                let mut moves = <Position as Game>::Moves::default();
                pos.generate_legal(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
                pos.make_move(m);
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn coefficients_times_vector_is_the_score() {
        let mut params = ClassicalParams::DEFAULT;
        // Uneven numbers so that a wrong index or weight cannot cancel out.
        params.mg_value[2] += 7;
        params.eg_table[3][17] -= 11;
        params.mg_table[5][6] += 5;
        let eval = ClassicalEval::new(params.clone());
        let v = params.to_vector();
        assert_eq!(ClassicalParams::from_vector(&v), params);
        let mut coefficients = Vec::new();
        let positions = random_positions(40, 150, 3);
        assert!(positions.len() > 3000);
        for pos in &positions {
            eval.coefficients(pos, &mut coefficients);
            assert!(coefficients.windows(2).all(|w| w[0].0 < w[1].0));
            let white: f32 = coefficients.iter().map(|&(i, c)| c * v[i as usize]).sum();
            let score = eval.score(pos);
            let expected = if pos.side_to_move() == Side::First {
                score
            } else {
                -score
            };
            assert!(
                (white - expected as f32).abs() <= 1.0 + 1e-3,
                "{}: linear {white} vs score {expected}",
                pos.to_text()
            );
        }
    }
}
