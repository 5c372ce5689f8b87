//! Game-ending rules that need no move generation: sennichite (fourfold repetition, with the
//! perpetual-check exception), the entering-king declaration (CSA 27-point and 24-point rules)
//! and the configurable game-length limit.

use super::movegen::zone;
use super::position::Position;
use super::types::PieceKind;
use crate::game::{EndReason, GameResult, HistoryEntry, Outcome, Side};

/// Which entering-king declaration rule applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EnteringKingRule {
    /// Declarations are not allowed.
    #[default]
    None,
    /// CSA 24-point rule: at least 31 points wins, 24 to 30 points draws.
    Points24,
    /// CSA 27-point rule: Black needs 28 points, White 27, to win.
    Points27,
}

/// Rule settings carried by every position (copies keep them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ShogiRules {
    pub entering_king: EnteringKingRule,
    /// Game length limit in plies (`MaxMovesToDraw`); 0 means none. Reaching it is a draw unless
    /// the side to move is checkmated.
    pub max_plies: u32,
}

/// Points for the entering-king count: rook, bishop (promoted or not) 5, others 1, king 0.
#[inline]
pub fn declaration_points(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::King => 0,
        PieceKind::Bishop | PieceKind::Rook | PieceKind::Horse | PieceKind::Dragon => 5,
        _ => 1,
    }
}

/// Facts for an entering-king declaration by the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclarationCount {
    /// The king stands in the enemy camp.
    pub king_in_camp: bool,
    /// Own pieces other than the king in the enemy camp.
    pub pieces_in_camp: u32,
    /// Points of the pieces in the camp (king excluded) plus the pieces in hand.
    pub points: u32,
    pub in_check: bool,
}

impl Position {
    /// Counts what an entering-king declaration by the side to move is judged on.
    pub fn declaration_count(&self) -> DeclarationCount {
        let us = self.side_to_move_now();
        let camp = zone(us);
        let ours_in_camp = self.pieces_of(us) & camp;
        let king_in_camp = self.has_king(us) && camp.has(self.king_square(us));
        let mut pieces = 0;
        let mut points = 0;
        for sq in ours_in_camp {
            let kind = self.piece_on(sq).kind();
            if kind != PieceKind::King {
                pieces += 1;
                points += declaration_points(kind);
            }
        }
        for kind in PieceKind::HAND {
            points += self.hand(us).count(kind) as u32 * declaration_points(kind);
        }
        DeclarationCount {
            king_in_camp,
            pieces_in_camp: pieces,
            points,
            in_check: self.checkers().any(),
        }
    }

    /// The result of an entering-king declaration by the side to move under this position's
    /// rule: `Some(Win)` or `Some(Draw)` (24-point rule, 24..=30 points) when the declaration is
    /// valid, `None` when it is not (or declarations are off); an invalid declaration loses.
    pub fn declaration_result(&self) -> Option<GameResult> {
        let rule = self.rules().entering_king;
        if rule == EnteringKingRule::None {
            return None;
        }
        let us = self.side_to_move_now();
        if !self.has_king(us)
            || !zone(us).has(self.king_square(us))
            || (self.pieces_of(us) & zone(us)).count() < 11
        {
            return None;
        }
        let count = self.declaration_count();
        if !count.king_in_camp || count.in_check || count.pieces_in_camp < 10 {
            return None;
        }
        match rule {
            EnteringKingRule::None => None,
            EnteringKingRule::Points27 => {
                let needed = match self.side_to_move_now() {
                    Side::First => 28,
                    Side::Second => 27,
                };
                (count.points >= needed).then_some(GameResult::Win)
            }
            EnteringKingRule::Points24 => match count.points {
                31.. => Some(GameResult::Win),
                24..=30 => Some(GameResult::Draw),
                _ => None,
            },
        }
    }

    /// Sennichite, a winning entering-king declaration available to the side to move, and the
    /// game-length limit (see `Game::rule_outcome`).
    pub(crate) fn rule_outcome_impl(
        &self,
        history: &[HistoryEntry],
        in_search: bool,
    ) -> Option<Outcome> {
        if let Some(outcome) = self.repetition_outcome(history, in_search) {
            return Some(outcome);
        }
        if self.declaration_result() == Some(GameResult::Win) {
            return Some(Outcome {
                result: GameResult::Win,
                reason: EndReason::EnteringKing,
            });
        }
        let max = self.rules().max_plies;
        if max > 0 && self.ply() >= max {
            // A mate on the last ply still counts: leave it to `no_moves_outcome`.
            if self.checkers().any() && !self.has_legal_move() {
                return None;
            }
            return Some(Outcome {
                result: GameResult::Draw,
                reason: EndReason::MaxPlies,
            });
        }
        None
    }

    /// Repetition of (board, hands, side to move): the fourth occurrence (in search: the second)
    /// ends the game. A side that gave check with every one of its moves since the first
    /// counted occurrence loses; otherwise it is a draw.
    fn repetition_outcome(&self, history: &[HistoryEntry], in_search: bool) -> Option<Outcome> {
        let needed = if in_search { 1 } else { 3 };
        let first_distance = occurrence_distance(history, self.hash_key(), needed)?;
        let len = history.len();
        // Moves in the span: the one into `self` (by the opponent, "them"), and the ones into
        // history[len - d] for d in 1..first_distance (odd d: by us, even d: by them).
        let mut them_always_checked = self.checkers().any();
        let mut us_always_checked = true;
        for d in 1..first_distance {
            let gave_check = history[len - d].in_check;
            if d % 2 == 1 {
                us_always_checked &= gave_check;
            } else {
                them_always_checked &= gave_check;
            }
        }
        let (result, reason) = match (them_always_checked, us_always_checked) {
            (true, false) => (GameResult::Win, EndReason::PerpetualCheck),
            (false, true) => (GameResult::Loss, EndReason::PerpetualCheck),
            _ => (GameResult::Draw, EndReason::Repetition),
        };
        Some(Outcome { result, reason })
    }
}

/// How many plies back (an even number) the `needed`-th earlier occurrence of `key` lies, among
/// the positions of `history` (oldest first) with the same side to move as the position after
/// it, nearest first; `None` when there are fewer.
///
/// Most positions of a search repeat none, so the scan tests four candidates (eight plies) per
/// branch and looks at them one by one only when the block holds a match.
fn occurrence_distance(history: &[HistoryEntry], key: u64, needed: usize) -> Option<usize> {
    // The candidates are history[len - 2], history[len - 4], …: the last entry of each pair of
    // `history[..len - 1]` counted from its end.
    let before = &history[..history.len().saturating_sub(1)];
    let mut found = 0;
    let mut count = |distance: usize| {
        found += 1;
        (found == needed).then_some(distance)
    };
    let blocks = before.rchunks_exact(8);
    let rest = blocks.remainder();
    for (block_index, block) in blocks.enumerate() {
        let hit = (block[7].hash == key)
            | (block[5].hash == key)
            | (block[3].hash == key)
            | (block[1].hash == key);
        if hit {
            for (offset, slot) in [7, 5, 3, 1].into_iter().enumerate() {
                if block[slot].hash == key {
                    if let Some(distance) = count(8 * block_index + 2 * offset + 2) {
                        return Some(distance);
                    }
                }
            }
        }
    }
    for slot in (0..rest.len()).rev().step_by(2) {
        if rest[slot].hash == key {
            // rest[slot] is history[slot], history.len() - slot plies back.
            if let Some(distance) = count(before.len() + 1 - slot) {
                return Some(distance);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan one candidate at a time, as the rules state it.
    fn occurrence_distance_plain(
        history: &[HistoryEntry],
        key: u64,
        needed: usize,
    ) -> Option<usize> {
        let mut found = 0;
        (2..=history.len()).step_by(2).find(|&distance| {
            found += usize::from(history[history.len() - distance].hash == key);
            found == needed
        })
    }

    #[test]
    fn the_blocked_scan_finds_what_the_plain_scan_finds() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for len in 0..40 {
            for _ in 0..200 {
                // Keys from a small alphabet so that repeats are common, at every parity.
                let history: Vec<HistoryEntry> = (0..len)
                    .map(|_| HistoryEntry {
                        hash: next() % 5,
                        in_check: false,
                    })
                    .collect();
                for key in 0..5 {
                    for needed in 1..=3 {
                        assert_eq!(
                            occurrence_distance(&history, key, needed),
                            occurrence_distance_plain(&history, key, needed),
                            "len {len} key {key} needed {needed}"
                        );
                    }
                }
            }
        }
    }
}
