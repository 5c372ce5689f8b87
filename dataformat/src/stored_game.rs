//! One stored game: the record `datagen` writes for each self-play game (start position, moves,
//! scores, result, end), its score and result codes, and its replay through a game's rules.

use bincode::{Decode, Encode};
use sente::game::{Game, GameMove};
use thiserror::Error;

/// Score stored for plies that were not searched (random opening moves).
pub const SCORE_NONE: i16 = i16::MIN;
/// Scores are clamped into ±this; mate scores map to the ends.
pub const SCORE_LIMIT: i16 = 32_000;

/// The result of a game, from the first player's point of view.
pub const RESULT_FIRST_WINS: u8 = 0;
pub const RESULT_DRAW: u8 = 1;
pub const RESULT_SECOND_WINS: u8 = 2;

/// One self-play game as a data file stores it.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
pub struct StoredGame {
    /// FEN / SFEN of the first recorded position.
    pub start: String,
    /// Moves from `start`, as `GameMove::to_bits`.
    pub moves: Vec<u16>,
    /// For each move, the mover's search score in centipawns (clamped to ±`SCORE_LIMIT`), or
    /// `SCORE_NONE` for an unsearched move.
    pub scores: Vec<i16>,
    /// `RESULT_*`.
    pub result: u8,
    /// Why the game ended (a small code; see `docs/data-format.md`).
    pub end: u8,
}

impl StoredGame {
    /// Replays the game through the rules, calling `visit(position_before_move, move, score)`
    /// for each ply. Fails on an unparsable start or an illegal move.
    pub fn replay<G: Game>(
        &self,
        mut visit: impl FnMut(&G, G::Move, i16),
    ) -> Result<G, RecordError> {
        let mut pos = G::from_text(&self.start)
            .map_err(|e| RecordError::BadStart(format!("{}: {e}", self.start)))?;
        if self.moves.len() != self.scores.len() {
            return Err(RecordError::LengthMismatch);
        }
        for (ply, (&bits, &score)) in self.moves.iter().zip(&self.scores).enumerate() {
            let m = G::Move::from_bits(bits);
            if !m.is_some() || !pos.is_legal_move(m) {
                return Err(RecordError::IllegalMove { ply });
            }
            visit(&pos, m, score);
            pos.make_move(m);
        }
        if self.result > RESULT_SECOND_WINS {
            return Err(RecordError::BadResult(self.result));
        }
        Ok(pos)
    }

    /// How many of its plies carry a search score (the positions training can use).
    pub fn scored_plies(&self) -> u64 {
        self.scores.iter().filter(|&&s| s != SCORE_NONE).count() as u64
    }
}

/// A stored game that does not replay.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RecordError {
    #[error("bad start position {0}")]
    BadStart(String),
    #[error("illegal move at ply {ply}")]
    IllegalMove { ply: usize },
    #[error("moves and scores differ in length")]
    LengthMismatch,
    #[error("bad result code {0}")]
    BadResult(u8),
}

/// A game for tests of the file format (it does not replay): start text `start {i}`, moves
/// `i`, `i + 1` and 700, one of them unsearched.
#[cfg(test)]
pub(crate) fn sample_game(i: u16) -> StoredGame {
    StoredGame {
        start: format!("start {i}"),
        moves: vec![i, i + 1, 700],
        scores: vec![10, SCORE_NONE, -5000],
        result: RESULT_DRAW,
        end: 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente::chess::Position;

    fn opening() -> StoredGame {
        let start = Position::startpos();
        let mut pos = start;
        let mut moves = Vec::new();
        for text in ["e2e4", "e7e5", "g1f3"] {
            let m = pos.parse_move(text).unwrap();
            moves.push(m.to_bits());
            pos.make_move(m);
        }
        StoredGame {
            start: start.to_text(),
            moves,
            scores: vec![SCORE_NONE, 30, -20],
            result: RESULT_DRAW,
            end: 3,
        }
    }

    #[test]
    fn a_game_replays_ply_by_ply_and_counts_its_scored_plies() {
        let game = opening();
        let mut seen = Vec::new();
        let end: Position = game
            .replay(|pos: &Position, m, score| seen.push((pos.to_text(), m.to_bits(), score)))
            .unwrap();
        assert_eq!(seen.len(), 3);
        assert_eq!(seen[0].0, Position::startpos().to_text());
        assert_eq!(seen[2].2, -20);
        assert!(end
            .to_text()
            .starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/"));
        assert_eq!(game.scored_plies(), 2);
    }

    #[test]
    fn games_that_do_not_replay_say_why() {
        let mut illegal = opening();
        illegal.moves[1] = illegal.moves[0];
        assert_eq!(
            illegal.replay::<Position>(|_, _, _| {}).unwrap_err(),
            RecordError::IllegalMove { ply: 1 }
        );
        let mut short = opening();
        short.scores.pop();
        assert_eq!(
            short.replay::<Position>(|_, _, _| {}).unwrap_err(),
            RecordError::LengthMismatch
        );
        let bad_result = StoredGame {
            result: 3,
            ..opening()
        };
        assert_eq!(
            bad_result.replay::<Position>(|_, _, _| {}).unwrap_err(),
            RecordError::BadResult(3)
        );
        let bad_start = StoredGame {
            start: "not a position".into(),
            ..opening()
        };
        assert!(matches!(
            bad_start.replay::<Position>(|_, _, _| {}),
            Err(RecordError::BadStart(_))
        ));
    }
}
