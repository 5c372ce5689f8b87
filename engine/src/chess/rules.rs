//! Game results by rule: checkmate and stalemate, the 50-move rule (a mate on the 100th ply
//! still wins), repetition (threefold, or a single earlier occurrence in search) and
//! insufficient material.

use super::bitboard::more_than_one;
use super::position::Position;
use super::types::PieceKind;
use crate::game::{EndReason, Game, GameResult, HistoryEntry, Outcome};
use crate::movelist::MoveList;

/// Light squares (b1, a2, ...).
const LIGHT_SQUARES: u64 = 0x55AA_55AA_55AA_55AA;

impl Position {
    /// The outcome when the side to move has no legal move.
    pub fn no_moves_outcome_impl(&self) -> Outcome {
        if self.checkers != 0 {
            Outcome::CHECKMATED
        } else {
            Outcome::STALEMATE
        }
    }

    /// Neither side can ever mate: no pawns, rooks or queens, and at most one minor piece, or
    /// only bishops that all stand on squares of one colour (covers KK, KBK, KNK, KB vs KB).
    pub fn insufficient_material(&self) -> bool {
        let k = &self.by_kind;
        if k[PieceKind::Pawn.index()] | k[PieceKind::Rook.index()] | k[PieceKind::Queen.index()]
            != 0
        {
            return false;
        }
        let knights = k[PieceKind::Knight.index()];
        let bishops = k[PieceKind::Bishop.index()];
        let minors = knights | bishops;
        if !more_than_one(minors) {
            return true;
        }
        knights == 0 && (bishops & LIGHT_SQUARES == 0 || bishops & !LIGHT_SQUARES == 0)
    }

    /// How many earlier positions in `history` (oldest first, last = parent) equal this one,
    /// looking back only as far as the last irreversible move; stops early at `enough`.
    fn repetitions(&self, history: &[HistoryEntry], enough: u32) -> u32 {
        let reach = (self.halfmove as usize).min(history.len());
        let mut count = 0;
        // Same side to move: two, four, ... plies back (index len - 2, len - 4, ...).
        let mut back = 2;
        while back <= reach {
            if history[history.len() - back].hash == self.hash {
                count += 1;
                if count >= enough {
                    break;
                }
            }
            back += 2;
        }
        count
    }

    /// Results by rule that need no move generation (except to tell mate on the 100th ply).
    pub fn rule_outcome_impl(&self, history: &[HistoryEntry], in_search: bool) -> Option<Outcome> {
        if self.halfmove >= 100 {
            if self.checkers != 0 {
                let mut moves = <Position as Game>::Moves::default();
                self.generate_legal(&mut moves);
                if moves.is_empty() {
                    return Some(self.no_moves_outcome_impl());
                }
            }
            return Some(Outcome {
                result: GameResult::Draw,
                reason: EndReason::FiftyMoveRule,
            });
        }
        let needed = if in_search { 1 } else { 2 };
        if self.repetitions(history, needed) >= needed {
            return Some(Outcome {
                result: GameResult::Draw,
                reason: EndReason::Repetition,
            });
        }
        if self.insufficient_material() {
            return Some(Outcome {
                result: GameResult::Draw,
                reason: EndReason::InsufficientMaterial,
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_text(fen).unwrap()
    }

    #[test]
    fn insufficient_material_cases() {
        assert!(pos("8/8/4k3/8/8/3K4/8/8 w - - 0 1").insufficient_material());
        assert!(pos("8/8/4k3/8/8/3KB3/8/8 w - - 0 1").insufficient_material());
        assert!(pos("8/8/4k3/8/8/3KN3/8/8 w - - 0 1").insufficient_material());
        // Bishops on e3 (dark) and c5 (dark): same colour.
        assert!(pos("8/8/4k3/2b5/8/3KB3/8/8 w - - 0 1").insufficient_material());
        // Bishops on e3 (dark) and d5 (light): mate is possible.
        assert!(!pos("8/8/4k3/3b4/8/3KB3/8/8 w - - 0 1").insufficient_material());
        assert!(!pos("8/8/4k3/8/8/3KNN2/8/8 w - - 0 1").insufficient_material());
        assert!(!pos("8/8/4k3/8/8/3KP3/8/8 w - - 0 1").insufficient_material());
        assert!(!pos("8/8/4k3/8/8/3K4/8/R7 w - - 0 1").insufficient_material());
        let outcome = pos("8/8/4k3/8/8/3K4/8/8 w - - 0 1").rule_outcome(&[], false);
        assert_eq!(
            outcome.map(|o| o.reason),
            Some(EndReason::InsufficientMaterial)
        );
    }

    #[test]
    fn fifty_move_rule_and_mate_on_the_last_ply() {
        let draw = pos("8/8/4k3/8/8/3K4/8/R7 w - - 100 80");
        assert_eq!(
            draw.rule_outcome(&[], false),
            Some(Outcome {
                result: GameResult::Draw,
                reason: EndReason::FiftyMoveRule
            })
        );
        assert_eq!(
            pos("8/8/4k3/8/8/3K4/8/R7 w - - 99 80").rule_outcome(&[], false),
            None
        );
        // Black is mated with the clock at 100: the mate stands.
        let mated = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80");
        assert_eq!(mated.rule_outcome(&[], false), Some(Outcome::CHECKMATED));
    }

    #[test]
    fn repetition_by_knight_shuffles() {
        let mut p = Position::startpos();
        let mut history = Vec::new();
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let mut outcomes = Vec::new();
        for round in 0..2 {
            for uci in shuffle {
                history.push(HistoryEntry {
                    hash: p.hash(),
                    in_check: p.in_check(),
                });
                let m = p.parse_move(uci).unwrap();
                p.make_move(m);
                outcomes.push((
                    round,
                    p.rule_outcome(&history, false),
                    p.rule_outcome(&history, true),
                ));
            }
        }
        // After the first cycle the start position occurs a second time: a repetition in
        // search, not yet threefold.
        assert_eq!(outcomes[3].1, None);
        assert_eq!(outcomes[3].2.map(|o| o.reason), Some(EndReason::Repetition));
        assert_eq!(outcomes[2].2, None);
        // After the second cycle it is the third occurrence.
        assert_eq!(outcomes[7].1.map(|o| o.reason), Some(EndReason::Repetition));
        assert_eq!(outcomes[6].1, None);
        // A pawn move resets the reach of the rule.
        history.push(HistoryEntry {
            hash: p.hash(),
            in_check: false,
        });
        p.make_move(p.parse_move("e2e4").unwrap());
        assert_eq!(p.rule_outcome(&history, true), None);
    }

    #[test]
    fn mate_and_stalemate() {
        let mated = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        assert_eq!(mated.no_moves_outcome().reason, EndReason::Checkmate);
        assert_eq!(mated.no_moves_outcome().result, GameResult::Loss);
        let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        let mut moves = <Position as Game>::Moves::default();
        stalemate.generate_legal(&mut moves);
        assert!(moves.is_empty());
        assert_eq!(stalemate.no_moves_outcome().reason, EndReason::Stalemate);
    }
}
