//! `datagen stats`: games, positions, results and histograms of data files.

use crate::inspect::print_stats;
use anyhow::Result;
use clap::Args;
use sente::dispatch_game;
use sente::game::GameKind;
use sente_data::data_paths::expand_data_paths;
use std::path::PathBuf;

#[derive(Clone, Debug, Args)]
pub struct StatsArgs {
    #[arg(long)]
    pub game: GameKind,
    /// Data files, run directories or pools.
    pub files: Vec<PathBuf>,
}

impl StatsArgs {
    pub fn execute(&self) -> Result<()> {
        let files = expand_data_paths(&self.files)?;
        dispatch_game!(self.game, G => print_stats::<G>(&files))
    }
}
