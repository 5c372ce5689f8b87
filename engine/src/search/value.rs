//! Internal search values: centipawns, mate scores relative to the root ply, their conversion
//! to and from node-relative form for the transposition table, and to reported `Score`s.

use super::events::{Score, Wdl};
use crate::game::{GameResult, Outcome};

/// Deepest ply the search reaches (stacks are sized from it).
pub const MAX_PLY: usize = 128;
/// Larger than any value.
pub const INFINITE: i32 = 32_000;
/// Mate at the root (no search value reaches it).
pub const MATE: i32 = 31_000;
/// Values at or beyond this are mates found within `MAX_PLY`.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// The side to move is mated (or has lost by rule) at `ply`.
pub const fn mated_at(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The side to move has won (by rule) at `ply`.
pub const fn winning_at(ply: usize) -> i32 {
    MATE - ply as i32
}

pub const fn is_mate_value(v: i32) -> bool {
    v >= MATE_BOUND || v <= -MATE_BOUND
}

/// Value of a finished game at `ply`, from the side to move's point of view.
pub fn outcome_value(outcome: Outcome, ply: usize) -> i32 {
    match outcome.result {
        GameResult::Win => winning_at(ply),
        GameResult::Loss => mated_at(ply),
        GameResult::Draw => 0,
    }
}

/// Root-relative to node-relative (for storing at `ply`).
pub fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// Node-relative (from the table, at `ply`) to root-relative.
pub fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// The reported form of a root value.
pub fn to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::MatePlies(MATE - v)
    } else if v <= -MATE_BOUND {
        Score::MatePlies(-(MATE + v))
    } else {
        Score::Cp(v)
    }
}

/// A rough win/draw/loss split of a score (logistic in centipawns).
pub fn wdl_of(score: Score) -> Wdl {
    match score {
        Score::MatePlies(p) if p > 0 => Wdl {
            win: 1000,
            draw: 0,
            loss: 0,
        },
        Score::MatePlies(_) => Wdl {
            win: 0,
            draw: 0,
            loss: 1000,
        },
        Score::Cp(cp) => {
            let logistic = |x: f64| 1.0 / (1.0 + (-x).exp());
            let cp = cp as f64;
            let win = (1000.0 * logistic((cp - 200.0) / 90.0)).round() as u32;
            let loss = (1000.0 * logistic((-cp - 200.0) / 90.0)).round() as u32;
            Wdl {
                win,
                loss,
                draw: 1000 - win - loss,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert_both_ways() {
        assert_eq!(to_score(MATE - 3), Score::MatePlies(3));
        assert_eq!(to_score(mated_at(4)), Score::MatePlies(-4));
        assert_eq!(to_score(123), Score::Cp(123));
        for ply in [0, 5, 60] {
            for v in [MATE - 70, mated_at(90), 250, -17] {
                assert_eq!(from_tt(to_tt(v, ply), ply), v);
            }
        }
    }

    #[test]
    fn wdl_sums_to_a_thousand_and_is_symmetric() {
        for cp in [-900, -100, 0, 35, 400] {
            let w = wdl_of(Score::Cp(cp));
            assert_eq!(w.win + w.draw + w.loss, 1000);
            let m = wdl_of(Score::Cp(-cp));
            assert_eq!((w.win, w.loss), (m.loss, m.win));
        }
    }
}
