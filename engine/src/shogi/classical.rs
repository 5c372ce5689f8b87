//! The gen-0 classical shogi evaluator: material on the board and in hand plus piece-square
//! values, all parameters in one table (`ClassicalParams`) a tuner can fit.

use super::position::Position;
use super::types::{PieceKind, HAND_KINDS, KINDS, SQUARES};
use crate::eval::Evaluator;
use crate::game::Side;

/// Every parameter of the classical evaluation, in centipawns, from Black's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassicalParams {
    /// Value of a piece on the board, by `PieceKind` index.
    pub board: [i32; KINDS],
    /// Value of a piece in hand, by hand kind (pawn, lance, knight, silver, bishop, rook, gold).
    pub hand: [i32; HAND_KINDS],
    /// Piece-square bonus by kind and square for a Black piece; White uses the square rotated
    /// by 180 degrees (`80 - sq`).
    pub pst: [[i32; SQUARES]; KINDS],
}

/// Distance of a 0-based file from the centre file.
const fn centre_distance(sq: usize) -> i32 {
    let file = (sq / 9) as i32;
    if file > 4 {
        file - 4
    } else {
        4 - file
    }
}

/// Ranks advanced from Black's back rank (rank i = 0, rank a = 8).
const fn advance(sq: usize) -> i32 {
    8 - (sq % 9) as i32
}

const fn default_pst() -> [[i32; SQUARES]; KINDS] {
    let mut pst = [[0i32; SQUARES]; KINDS];
    let mut kind = 0;
    while kind < KINDS {
        let mut sq = 0;
        while sq < SQUARES {
            let adv = advance(sq);
            let centre = 4 - centre_distance(sq);
            pst[kind][sq] = match kind {
                // Pawns: a little for advancing.
                0 => adv * 3,
                // Lance, knight: modest advance bonus.
                1 | 2 => adv * 2,
                // Silver: forward and central.
                3 => adv * 3 + centre * 2,
                // Bishop, rook: mobility-ish central bonus.
                4 | 5 => centre * 3,
                // Gold: stays near home, central.
                6 => centre * 3 - adv * 2,
                // King: home ranks, away from the centre file.
                7 => -adv * 15 + centre_distance(sq) * 4,
                // Promoted minors and big pieces: deeper is better.
                _ => adv * 3 + centre * 2,
            };
            sq += 1;
        }
        kind += 1;
    }
    pst
}

impl ClassicalParams {
    pub const DEFAULT: ClassicalParams = ClassicalParams {
        board: [
            90, 315, 405, 495, 855, 990, 540, 0, 540, 540, 540, 540, 945, 1395,
        ],
        hand: [100, 350, 450, 550, 950, 1100, 600],
        pst: default_pst(),
    };

    /// Black-relative evaluation of a position.
    pub fn evaluate_black(&self, pos: &Position) -> i32 {
        let mut score = 0;
        for sq in pos.occupied() {
            let pc = pos.piece_on(sq);
            let kind = pc.kind() as usize;
            match pc.side() {
                Side::First => score += self.board[kind] + self.pst[kind][sq],
                Side::Second => score -= self.board[kind] + self.pst[kind][SQUARES - 1 - sq],
            }
        }
        for kind in PieceKind::HAND {
            let k = kind as usize;
            score += self.hand[k] * pos.hand(Side::First).count(kind) as i32;
            score -= self.hand[k] * pos.hand(Side::Second).count(kind) as i32;
        }
        score
    }
}

impl Default for ClassicalParams {
    fn default() -> Self {
        ClassicalParams::DEFAULT
    }
}

/// Material + piece-square evaluator, side-to-move relative. Stateless between calls (the
/// evaluation is a single pass over ~40 pieces and 14 hand counts).
#[derive(Clone, Debug, Default)]
pub struct ClassicalEval {
    pub params: ClassicalParams,
}

impl ClassicalEval {
    pub fn new(params: ClassicalParams) -> Self {
        Self { params }
    }
}

impl Evaluator<Position> for ClassicalEval {
    fn reset(&mut self, _root: &Position) {}

    fn push(&mut self, _child: &Position) {}

    fn pop(&mut self) {}

    fn evaluate(&mut self, pos: &Position) -> i32 {
        let black = self.params.evaluate_black(pos);
        let score = match pos.side_to_move_now() {
            Side::First => black,
            Side::Second => -black,
        };
        score.clamp(-15000, 15000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn startpos_is_balanced_and_side_relative() {
        let mut eval = ClassicalEval::default();
        let pos = Position::startpos();
        assert_eq!(eval.evaluate(&pos), 0);
        let white =
            Position::from_text("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
                .unwrap();
        assert_eq!(eval.evaluate(&white), 0);
        // Black a pawn up in hand: good for Black, bad for White to move.
        let up =
            Position::from_text("lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w P 1")
                .unwrap();
        assert!(eval.evaluate(&up) < -100);
    }
}
