//! Self-play: matches between two configurations of the engine (search options, evaluator,
//! limits or real clocks) on paired random openings, with adjudication and match statistics
//! (Elo, SPRT). A library API, so datagen and tests drive it directly.

pub mod match_runner;
pub mod opening;
pub mod played_game;
pub mod spsa;
pub mod stats;
pub mod time_control;

pub use match_runner::{
    run_match, run_match_with_openings, MatchConfig, MatchReport, PairObserver, PriorCounts,
};
pub use opening::{random_opening, Opening};
pub use played_game::{
    play_game, play_game_with_tables, tablebase_winner, Adjudication, GameEnd, PlayedGame,
    PlayerConfig, SearchPlayer, SelfPlayer,
};
pub use spsa::{Perturbation, Spsa};
pub use stats::{Pentanomial, ScoreDistribution, Sprt, SprtVerdict, WdlCounts};
pub use time_control::{ClockUsage, GameClock, TimeControl, TimeControlError};
