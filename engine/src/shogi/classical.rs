//! The gen-0 classical shogi evaluator: material on the board and in hand plus piece-square
//! values, all parameters in one table (`ClassicalParams`) a tuner can fit: the score is linear
//! in them (`ClassicalParams::to_vector` / `ClassicalEval::coefficients`).

use super::position::Position;
use super::types::{PieceKind, HAND_KINDS, KINDS, SQUARES};
use crate::chess::classical::merge_coefficients;
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

    /// Length of `to_vector`: board values, hand values, then the piece-square tables.
    pub const VECTOR_LEN: usize = KINDS + HAND_KINDS + KINDS * SQUARES;

    /// Index of `board[kind]` in `to_vector`.
    pub const fn board_index(kind: usize) -> usize {
        kind
    }

    /// Index of `hand[kind]` in `to_vector`.
    pub const fn hand_index(kind: usize) -> usize {
        KINDS + kind
    }

    /// Index of `pst[kind][sq]` in `to_vector`.
    pub const fn pst_index(kind: usize, sq: usize) -> usize {
        KINDS + HAND_KINDS + kind * SQUARES + sq
    }

    /// All parameters as one vector, laid out as the `*_index` functions say.
    pub fn to_vector(&self) -> Vec<f32> {
        let mut v = vec![0.0; Self::VECTOR_LEN];
        for k in 0..KINDS {
            v[Self::board_index(k)] = self.board[k] as f32;
            for sq in 0..SQUARES {
                v[Self::pst_index(k, sq)] = self.pst[k][sq] as f32;
            }
        }
        for k in 0..HAND_KINDS {
            v[Self::hand_index(k)] = self.hand[k] as f32;
        }
        v
    }

    /// Parameters from a `to_vector` layout, rounded to integers. Panics if `v` is not
    /// `VECTOR_LEN` long.
    pub fn from_vector(v: &[f32]) -> Self {
        assert_eq!(
            v.len(),
            Self::VECTOR_LEN,
            "classical shogi parameter vector"
        );
        let r = |x: f32| x.round() as i32;
        let mut p = Self::DEFAULT;
        for k in 0..KINDS {
            p.board[k] = r(v[Self::board_index(k)]);
            for sq in 0..SQUARES {
                p.pst[k][sq] = r(v[Self::pst_index(k, sq)]);
            }
        }
        for k in 0..HAND_KINDS {
            p.hand[k] = r(v[Self::hand_index(k)]);
        }
        p
    }

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

impl ClassicalEval {
    /// The score as a linear function of `to_vector()`: replaces `out` with the sparse
    /// coefficient of each parameter (sorted by index, no zeros) such that their dot product with
    /// the vector is `evaluate_black` (Black's point of view, before the evaluator's clamp).
    pub fn coefficients(&self, pos: &Position, out: &mut Vec<(u32, f32)>) {
        out.clear();
        for sq in pos.occupied() {
            let pc = pos.piece_on(sq);
            let kind = pc.kind() as usize;
            let (sign, table_sq) = match pc.side() {
                Side::First => (1.0, sq),
                Side::Second => (-1.0, SQUARES - 1 - sq),
            };
            out.push((ClassicalParams::board_index(kind) as u32, sign));
            out.push((ClassicalParams::pst_index(kind, table_sq) as u32, sign));
        }
        for kind in PieceKind::HAND {
            let k = kind as usize;
            let count = pos.hand(Side::First).count(kind) as f32
                - pos.hand(Side::Second).count(kind) as f32;
            out.push((ClassicalParams::hand_index(k) as u32, count));
        }
        merge_coefficients(out);
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

    #[test]
    fn coefficients_times_vector_is_the_score() {
        use crate::movelist::MoveList;
        use rand_xoshiro::rand_core::{RngCore, SeedableRng};
        let mut params = ClassicalParams::DEFAULT;
        params.hand[3] += 7;
        params.pst[13][40] -= 11;
        params.board[9] += 5;
        let eval = ClassicalEval::new(params.clone());
        let v = params.to_vector();
        assert_eq!(ClassicalParams::from_vector(&v), params);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(4);
        let mut coefficients = Vec::new();
        let mut checked = 0;
        for _ in 0..30 {
            let mut pos = Position::startpos();
            for _ in 0..200 {
                let mut moves = <Position as Game>::Moves::default();
                pos.generate_legal(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
                pos.make_move(m);
                eval.coefficients(&pos, &mut coefficients);
                assert!(coefficients.windows(2).all(|w| w[0].0 < w[1].0));
                let black: f32 = coefficients.iter().map(|&(i, c)| c * v[i as usize]).sum();
                assert_eq!(
                    black,
                    params.evaluate_black(&pos) as f32,
                    "{}",
                    pos.to_text()
                );
                checked += 1;
            }
        }
        assert!(checked > 3000);
    }
}
