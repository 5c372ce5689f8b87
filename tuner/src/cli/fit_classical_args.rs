//! `tuner fit-classical`: the classical evaluator's values and piece-square tables fitted to data
//! (Texel-style), written as Rust source.

use super::threads_args::ThreadsArgs;
use crate::fit_classical::{fit_classical, FitConfig, FitOptions};
use anyhow::Result;
use clap::Args;
use sente::dispatch_game;
use sente::game::GameKind;
use sente_data::data_paths::expand_data_paths;
use std::path::PathBuf;

#[derive(Clone, Debug, Args)]
pub struct FitClassicalArgs {
    #[arg(long)]
    pub game: GameKind,
    /// datagen files (`data.bin`); every 20th game is held out for validation.
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// Weight of the game result in the target (λ); the rest is sigmoid(score / 400).
    #[arg(long, default_value_t = 0.0)]
    pub wdl: f32,
    /// Passes over the training positions.
    #[arg(long, default_value_t = FitConfig::default().epochs)]
    pub epochs: usize,
    /// Adam's starting step in centipawns (cosine decay to a tenth).
    #[arg(long, default_value_t = FitConfig::default().lr)]
    pub lr: f32,
    /// Positions per minibatch (0: full batch).
    #[arg(long, default_value_t = FitConfig::default().batch)]
    pub batch: usize,
    /// Seed of the minibatch order.
    #[arg(long, default_value_t = FitConfig::default().seed)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: ThreadsArgs,
    /// Where the fitted `ClassicalParams` constant (Rust source) goes.
    #[arg(long)]
    pub out: PathBuf,
}

impl FitClassicalArgs {
    pub fn execute(&self) -> Result<()> {
        self.threads.use_threads()?;
        let options = FitOptions {
            data: expand_data_paths(&self.data)?,
            lambda: self.wdl,
            config: FitConfig {
                epochs: self.epochs,
                lr: self.lr,
                batch: self.batch,
                seed: self.seed,
                ..FitConfig::default()
            },
            out: self.out.clone(),
        };
        dispatch_game!(self.game, G => fit_classical::<G>(&options)?);
        Ok(())
    }
}
