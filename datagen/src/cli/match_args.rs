//! `datagen match`: paired games between two evaluators, with Elo, losses on time and an SPRT.

use super::evaluator_args::PlayerNetArgs;
use super::limit_args::LimitArgs;
use super::opening_args::OpeningArgs;
use super::search_change_args::PlayerSearchArgs;
use crate::match_play::{parse_sprt, play_match, MatchSplit};
use anyhow::Result;
use clap::Args;
use sente::dispatch_game;
use sente::game::GameKind;
use sente::selfplay::{MatchConfig, MatchReport, PriorCounts};
use sente_data::shard::Shard;
use std::path::PathBuf;

/// `--verify-margin`'s default in a match (the literal below must say the same).
pub const MATCH_VERIFY_MARGIN: i32 = 200;
/// Adjudication defaults.
pub const RESIGN: &str = "1000:8";
pub const DRAW: &str = "10:12:80";
pub const MAX_PLIES: u32 = 400;
/// `--move-overhead`'s default (ms).
pub const MOVE_OVERHEAD_MS: u64 = 10;

#[derive(Clone, Debug, Args)]
#[command(mut_arg("verify_margin", |a| a.default_value("200").required(false)))]
pub struct MatchArgs {
    #[arg(long)]
    pub game: GameKind,
    #[command(flatten)]
    pub nets: PlayerNetArgs,
    /// Game pairs (games = 2 × pairs).
    #[arg(long, default_value_t = 100)]
    pub pairs: usize,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Games played at once (on a clock, keep this at most the number of free cores).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub openings: OpeningArgs,
    /// SPRT bounds in Elo, e.g. `0,10`; the match stops once decided.
    #[arg(long)]
    pub sprt: Option<String>,
    #[command(flatten)]
    pub search: PlayerSearchArgs,
    /// Play only shard I of N of the --pairs pairs (pair indices ≡ I mod N); give --sprt to
    /// `match-merge` instead.
    #[arg(long, value_name = "I/N", conflicts_with = "sprt")]
    pub shard: Option<Shard>,
    /// Also write the result (W/D/L, pentanomial) to FILE for `match-merge`.
    #[arg(long, value_name = "FILE")]
    pub result: Option<PathBuf>,
    /// Go on from earlier results of this match (`--result` files of the same players,
    /// limits and openings, other seeds; e.g. what a killed match left): the SPRT, the
    /// progress and the report count their games with this run's, while `--result` gets this
    /// run's games only (merge them with `match-merge`). A match resumed so plays new
    /// openings (its own seed) instead of replaying the games it had finished.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "shard")]
    pub prior: Vec<PathBuf>,
    /// Adjudicate a win once CP:PLIES (PLIES plies in a row, in both players' reports, show
    /// one side ahead by CP centipawns or more), or `off`. OpenBench plays `400:6`.
    #[arg(long, value_name = "CP:PLIES", default_value = RESIGN)]
    pub resign: String,
    /// Adjudicate a draw once CP:PLIES:FROM_PLY (PLIES plies in a row within CP of 0, from
    /// game ply FROM_PLY on), or `off`. OpenBench plays `10:16:68`.
    #[arg(long, value_name = "CP:PLIES:FROM_PLY", default_value = DRAW)]
    pub draw: String,
    /// Adjudicate a draw after this many plies of the game proper.
    #[arg(long, default_value_t = MAX_PLIES)]
    pub max_plies: u32,
    /// Write every game into this folder: chess as `games.pgn`, shogi as KIF (`.kifu`) and
    /// CSA files, with an `index.tsv` of results and final positions.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    #[command(flatten)]
    pub row: crate::results_table::ResultRowArgs,
}

impl MatchArgs {
    /// Plays the match; returns its report (prior games included).
    pub fn execute(&self) -> Result<MatchReport> {
        let shard = self.shard.unwrap_or(Shard::WHOLE);
        let adjudication =
            crate::adjudication_args::adjudication(&self.resign, &self.draw, self.max_plies)?;
        let search = self.search.checked()?;
        let openings = self.openings.settings(self.seed);
        let config = MatchConfig {
            pairs: shard.share_of(self.pairs as u64) as usize,
            concurrency: self.threads,
            opening_plies: openings.random_plies,
            seed: self.seed,
            adjudication,
            sprt: self.sprt.as_deref().map(parse_sprt).transpose()?,
            // Set by play_match: progress lines and the running result file, the prior games.
            on_pair: None,
            prior: PriorCounts::default(),
        };
        let split = MatchSplit {
            pairs: self.pairs as u64,
            shard,
            result: self.result.clone(),
            prior: self.prior.clone(),
            records: self.records.clone(),
            row: self.row.clone(),
        };
        let nets = [self.nets.a_net.clone(), self.nets.b_net.clone()];
        let (limits, book) = (self.limits.move_limits(), self.openings.book.clone());
        dispatch_game!(self.game, G => play_match::<G>(
            &nets, search, &limits, book, &openings, &config, &split,
        ))
    }
}
