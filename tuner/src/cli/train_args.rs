//! `tuner train`: a net trained from data files, resumable from its checkpoint.

use super::arg_parsers::{at_least_one, at_least_one_u32, supported_king_buckets, supported_l1};
use super::threads_args::ThreadsArgs;
use crate::data::Filter;
use crate::init_net::net_file_arch;
use crate::schedule::LrSchedule;
use crate::trainer::DEFAULT_WEIGHT_DECAY;
use crate::training::{train, TrainConfig};
use anyhow::{bail, Result};
use clap::Args;
use sente::dispatch_game;
use sente::game::GameKind;
use sente::nnue::NnueGame;
use sente_data::data_paths::expand_data_paths;
use sente_data::position_filter::PositionFilter;
use std::path::PathBuf;

#[derive(Clone, Debug, Args)]
pub struct TrainArgs {
    #[arg(long)]
    pub game: GameKind,
    /// datagen files (`data.bin`), run directories or data pools (`datagen pool`).
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// Validation files (or run directories, pools).
    #[arg(long, num_args = 1..)]
    pub val: Vec<PathBuf>,
    /// Hold out every K-th game of the training files for validation (0: none). The held-out
    /// games never enter training.
    #[arg(long, default_value_t = 0)]
    pub val_every: usize,
    #[arg(long, default_value_t = 10)]
    pub superbatches: u32,
    /// Batches per superbatch.
    #[arg(long, default_value_t = 100, value_parser = at_least_one_u32)]
    pub batches: u32,
    #[arg(long, default_value_t = 16384, value_parser = at_least_one)]
    pub batch: usize,
    /// `constant:LR`, `step:LR:GAMMA:EVERY` or `cosine:START:END`.
    #[arg(long, default_value = "cosine:0.001:0.00003")]
    pub lr: LrSchedule,
    /// Weight of the game result in the target (λ).
    #[arg(long, default_value_t = 0.3)]
    pub wdl: f32,
    #[arg(long, default_value_t = DEFAULT_WEIGHT_DECAY)]
    pub weight_decay: f32,
    #[command(flatten)]
    pub threads: ThreadsArgs,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long)]
    pub out: PathBuf,
    /// Continue from this checkpoint instead of OUT/checkpoint.bin.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Save a checkpoint every N superbatches.
    #[arg(long, default_value_t = 1)]
    pub save_every: u32,
    /// Skip the first plies of each game.
    #[arg(long, default_value_t = 8)]
    pub min_ply: u32,
    /// Name stored in the net file.
    #[arg(long, default_value = "sente-net")]
    pub name: String,
    /// Train without the factor features (shared piece-kind rows, folded into the net when
    /// quantizing).
    #[arg(long)]
    pub no_factors: bool,
    /// Also train on every position's left-right mirror image (shogi, whose rules are
    /// symmetric; refused for chess).
    #[arg(long)]
    pub mirror: bool,
    /// Hidden width of the net (feature-transformer outputs per perspective): one of the
    /// supported widths (128, 256, 384, 512, 768, 1024); default: the game's default width
    /// (128). The net header records it; a resume must give the same width.
    #[arg(long, value_parser = supported_l1)]
    pub l1: Option<usize>,
    /// King buckets of the net (1, 2 or 4: the king's regions grouped into that many sets
    /// of feature rows); default: the --init net's, else the game's default (1). A run
    /// started from a net with fewer buckets begins with each bucket a copy of the rows it
    /// covers (the same function); the net header records it, and a resume must give it.
    #[arg(long, value_parser = supported_king_buckets)]
    pub king_buckets: Option<usize>,
    /// Start from this net file's weights instead of random ones: fine-tuning a promoted net
    /// on new data (usually with a lower learning rate). Its width is the run's width unless
    /// --l1 gives a wider one: the file's units keep their weights and the new ones start
    /// silent (zero bias and output weights), so the run starts as the file's function; a
    /// narrower --l1 is refused. A resume continues from the checkpoint, which must have
    /// started from the same file.
    #[arg(long)]
    pub init: Option<PathBuf>,
}

impl TrainArgs {
    pub fn execute(self) -> Result<()> {
        if self.mirror && self.game == GameKind::Chess {
            bail!("--mirror: chess has no exact left-right symmetry (castling); its features already mirror by the king's file");
        }
        self.threads.use_threads()?;
        if !(0.0..=1.0).contains(&self.wdl) {
            bail!("--wdl must be within 0..1");
        }
        let game = self.game;
        let resume = self.resume.clone();
        let config = self.into_config()?;
        dispatch_game!(game, G => train::<G>(&config, resume.as_deref())?);
        Ok(())
    }

    /// The training settings: paths expanded, the width and king buckets taken from the --init
    /// net or the game's defaults where not given.
    fn into_config(self) -> Result<TrainConfig> {
        let game = self.game;
        Ok(TrainConfig {
            data: expand_data_paths(&self.data)?,
            val: expand_data_paths(&self.val)?,
            val_every: self.val_every,
            superbatches: self.superbatches,
            batches_per_superbatch: self.batches,
            batch_size: self.batch,
            schedule: self.lr,
            lambda: self.wdl,
            weight_decay: self.weight_decay,
            threads: self.threads.threads,
            seed: self.seed,
            out: self.out,
            save_every: self.save_every,
            filter: Filter {
                positions: PositionFilter {
                    min_ply: self.min_ply,
                    ..PositionFilter::default()
                },
                mirror: self.mirror,
            },
            name: self.name,
            factors: !self.no_factors,
            l1: match (self.l1, &self.init) {
                (Some(l1), _) => l1,
                (None, Some(path)) => net_file_arch(path)?.l1,
                (None, None) => dispatch_game!(game, G => G::ARCH.l1),
            },
            king_buckets: match (self.king_buckets, &self.init) {
                (Some(buckets), _) => buckets,
                (None, Some(path)) => net_file_arch(path)?.king_buckets,
                (None, None) => dispatch_game!(game, G => G::ARCH.king_buckets),
            },
            init: self.init,
        })
    }
}
