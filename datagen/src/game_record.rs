//! One finished game as the record writers (PGN, KIF, CSA) take it: the start position and the
//! moves in the engine's notation, the players, limits, result and why the game ended; built
//! from a match's `PlayedGame` or from a stored self-play game.

use sente::game::{EndReason, Game, Side};
use sente::selfplay::{GameEnd, PlayedGame};

/// Why a recorded game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordEnd {
    Checkmate,
    Stalemate,
    FiftyMoveRule,
    Repetition,
    InsufficientMaterial,
    PerpetualCheck,
    /// Shogi: an entering-king declaration.
    Declaration,
    /// The game-length limit.
    MaxPlies,
    ResignAdjudication,
    DrawAdjudication,
    TimeForfeit,
    /// Chess: the endgame tables' result (`datagen run --syzygy`).
    TablebaseAdjudication,
    /// The record ends without a known reason (e.g. a stored game cut short).
    Unknown,
}

impl RecordEnd {
    pub fn from_game_end(end: GameEnd) -> Self {
        match end {
            GameEnd::Rule(reason) => match reason {
                EndReason::Checkmate => Self::Checkmate,
                EndReason::Stalemate => Self::Stalemate,
                EndReason::FiftyMoveRule => Self::FiftyMoveRule,
                EndReason::Repetition => Self::Repetition,
                EndReason::InsufficientMaterial => Self::InsufficientMaterial,
                EndReason::PerpetualCheck => Self::PerpetualCheck,
                EndReason::EnteringKing => Self::Declaration,
                EndReason::MaxPlies => Self::MaxPlies,
            },
            GameEnd::Declaration => Self::Declaration,
            GameEnd::ResignAdjudication => Self::ResignAdjudication,
            GameEnd::DrawAdjudication => Self::DrawAdjudication,
            GameEnd::MaxPlies => Self::MaxPlies,
            GameEnd::TimeForfeit => Self::TimeForfeit,
            GameEnd::TablebaseAdjudication => Self::TablebaseAdjudication,
        }
    }

    /// Words for comments and tags.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Checkmate => "checkmate",
            Self::Stalemate => "stalemate",
            Self::FiftyMoveRule => "fifty-move rule",
            Self::Repetition => "repetition",
            Self::InsufficientMaterial => "insufficient material",
            Self::PerpetualCheck => "perpetual check",
            Self::Declaration => "entering-king declaration",
            Self::MaxPlies => "move limit",
            Self::ResignAdjudication => "resign adjudication",
            Self::DrawAdjudication => "draw adjudication",
            Self::TimeForfeit => "time forfeit",
            Self::TablebaseAdjudication => "tablebase adjudication",
            Self::Unknown => "unknown",
        }
    }
}

/// A game ready to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// `Game::NAME`: `chess` or `shogi`.
    pub game: &'static str,
    /// FEN / SFEN of the position the moves start from.
    pub start: String,
    /// UCI / USI moves from `start` (the opening's moves included).
    pub moves: Vec<String>,
    /// How many of `moves` are the opening (not chosen by the players).
    pub opening_plies: usize,
    /// First mover first.
    pub players: [String; 2],
    /// The move limits or clock, as text.
    pub limits: String,
    pub event: String,
    pub round: u64,
    /// `None`: a draw (or unknown when `end` is `Unknown` and `decided` is false).
    pub winner: Option<Side>,
    pub end: RecordEnd,
    /// FEN / SFEN after the last move (what the record must replay to).
    pub final_position: String,
    /// UTC start time `YYYY/MM/DD HH:MM:SS` (KIF / CSA) — also the PGN date.
    pub date: String,
}

impl GameRecord {
    /// A match game's record.
    pub fn from_played<G: Game>(
        game: &PlayedGame<G>,
        limits: &str,
        event: &str,
        round: u64,
        date: &str,
    ) -> Self {
        let mut pos = game.start.clone();
        let mut moves = Vec::with_capacity(game.opening.len() + game.moves.len());
        for &m in game.opening.iter().chain(&game.moves) {
            moves.push(pos.format_move(m));
            pos.make_move(m);
        }
        Self {
            game: G::NAME,
            start: game.start.to_text(),
            moves,
            opening_plies: game.opening.len(),
            players: game.players.clone(),
            limits: limits.to_string(),
            event: event.to_string(),
            round,
            winner: game.winner,
            end: RecordEnd::from_game_end(game.end),
            final_position: pos.to_text(),
            date: date.to_string(),
        }
    }

    /// Whether the game was decided (a winner or a draw), not cut short.
    pub fn decided(&self) -> bool {
        self.end != RecordEnd::Unknown
    }
}

/// The current UTC time as `YYYY/MM/DD HH:MM:SS`.
pub fn utc_now() -> String {
    let t = sente::utc_time::UtcTime::now();
    format!("{:04}/{:02}/{:02} {}", t.year, t.month, t.day, t.clock())
}
