//! `datagen run`: self-play games into a run directory.

use super::evaluator_args::EvaluatorArgs;
use super::opening_args::OpeningArgs;
use super::search_change_args::SearchChangeArgs;
use crate::generate::{search_changes, GenerateConfig};
use crate::generate_run::generate_run;
use crate::side_searchers::SideSearchers;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use sente::dispatch_game;
use sente::game::GameKind;
use sente::selfplay::Adjudication;
use sente_data::shard::Shard;
use std::path::PathBuf;
use std::time::Duration;

/// `--verify-margin`'s default in self-play (the literal below must say the same).
pub const RUN_VERIFY_MARGIN: i32 = 300;

#[derive(Clone, Debug, Args)]
#[command(mut_arg("net", |a| a.default_value("classical").required(false)))]
#[command(mut_arg("verify_margin", |a| a.default_value("300").required(false)))]
pub struct RunArgs {
    #[arg(long)]
    pub game: GameKind,
    /// Stop after this many games.
    #[arg(long)]
    pub games: Option<u64>,
    /// Stop after this many scored positions (whole chunks).
    #[arg(long)]
    pub positions: Option<u64>,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Node limit per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output directory.
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub evaluator: EvaluatorArgs,
    #[command(flatten)]
    pub openings: OpeningArgs,
    /// Chess: start from random Chess960 / double-Fischer-random positions.
    #[arg(long, conflicts_with = "book")]
    pub dfrc: bool,
    /// `shared`: one searcher moves for both sides, its table and histories kept from move to
    /// move within a game; `per-side`: a searcher for each side (how runs without a
    /// `searchers=` line in run.txt were played; give it to resume one).
    #[arg(long, default_value_t = SideSearchers::Shared)]
    pub searchers: SideSearchers,
    /// Play only shard I of N: the games whose index in the whole run is ≡ I (mod N), each
    /// exactly as the unsharded run plays it. --games is the whole run's total.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Stop at the first chunk boundary after this many seconds (a job's time slot): the
    /// file ends with a whole chunk, joins a pool as it is, and the same command without
    /// or with --max-time resumes the run.
    #[arg(long, value_name = "SECONDS")]
    pub max_time: Option<f64>,
    #[command(flatten)]
    pub search: SearchChangeArgs,
    /// Chess: Syzygy endgame tables (directories, ':'-separated) that adjudicate the games: a
    /// game ends as soon as a capture or pawn move reaches a position they hold (no castling
    /// rights), with their result under the 50-move rule. Without it games play on as before.
    #[arg(long, value_name = "DIRS")]
    pub syzygy: Option<String>,
}

impl RunArgs {
    /// The generator's settings, checked.
    pub fn config(&self) -> Result<GenerateConfig> {
        let game = self.game;
        if self.dfrc && game != GameKind::Chess {
            bail!("--dfrc is for chess");
        }
        if self.syzygy.is_some() && game != GameKind::Chess {
            bail!("--syzygy is for chess (Syzygy endgame tables); {game} has none");
        }
        let openings = self.openings.settings(self.seed);
        Ok(GenerateConfig {
            game,
            games: self.games,
            positions: self.positions,
            nodes: self.nodes,
            seed: self.seed,
            random_plies: openings.random_plies,
            verify_nodes: openings.verify_nodes,
            verify_margin: openings.verify_margin,
            adjudication: Adjudication::default(),
            evaluator: self.evaluator.net.clone(),
            dfrc: self.dfrc,
            searchers: self.searchers,
            search: dispatch_game!(game, G => search_changes::<G>(&self.search.search))?,
        })
    }

    pub fn execute(&self) -> Result<()> {
        let max_time = self
            .max_time
            .map(|seconds| {
                Duration::try_from_secs_f64(seconds)
                    .map_err(|_| anyhow!("--max-time {seconds}: give seconds, 0 or more"))
            })
            .transpose()?;
        let config = self.config()?;
        let shard = self.shard.unwrap_or(Shard::WHOLE);
        let (book, threads, out) = (self.openings.book.as_ref(), self.threads, &self.out);
        let syzygy = self.syzygy.as_deref();
        dispatch_game!(self.game, G => generate_run::<G>(&config, book, syzygy, shard, threads, max_time, out))?;
        Ok(())
    }
}
