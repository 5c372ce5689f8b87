//! The generation-0 classical chess evaluator: material plus piece-square tables, tapered
//! between middlegame and endgame by the remaining non-pawn material. Every number lives in
//! `ClassicalParams` so a tuner can fit them.

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

const fn pawn_mg() -> [i32; 64] {
    let mut t = by_rank_and_file([0, 0, 3, 10, 20, 35, 60, 0], [0, 0, 5, 10, 10, 5, 0, 0]);
    // Unmoved centre pawns block the bishops; first and last ranks never hold pawns.
    t[11] -= 20;
    t[12] -= 20;
    let mut f = 0;
    while f < 8 {
        t[f] = 0;
        t[56 + f] = 0;
        f += 1;
    }
    t
}

const fn pawn_eg() -> [i32; 64] {
    let mut t = by_rank_and_file([0, 0, 5, 15, 30, 55, 100, 0], [0; 8]);
    let mut f = 0;
    while f < 8 {
        t[f] = 0;
        t[56 + f] = 0;
        f += 1;
    }
    t
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

    /// Score in centipawns from the side to move's point of view.
    pub fn score(&self, pos: &Position) -> i32 {
        let p = &self.params;
        let (mut mg, mut eg, mut phase) = (0i32, 0i32, 0i32);
        for side in [Side::First, Side::Second] {
            let sign = if side == Side::First { 1 } else { -1 };
            let mirror = if side == Side::First { 0 } else { 56 };
            for kind in PieceKind::ALL {
                let k = kind.index();
                let mut b = pos.pieces(side, kind);
                while b != 0 {
                    let sq = (pop_lsb(&mut b) ^ mirror) as usize;
                    mg += sign * (p.mg_value[k] + p.mg_table[k][sq]);
                    eg += sign * (p.eg_value[k] + p.eg_table[k][sq]);
                    phase += p.phase_weight[k];
                }
            }
        }
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
}
