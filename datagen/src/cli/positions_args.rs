//! `datagen positions`: every EVERY-th recorded position of data files, one FEN / SFEN a line.

use crate::inspect::print_positions;
use anyhow::Result;
use clap::Args;
use sente::dispatch_game;
use sente::game::GameKind;
use sente_data::data_paths::expand_data_paths;
use std::path::PathBuf;

#[derive(Clone, Debug, Args)]
pub struct PositionsArgs {
    #[arg(long)]
    pub game: GameKind,
    /// Take one position in this many.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// Data files, run directories or pools.
    pub files: Vec<PathBuf>,
}

impl PositionsArgs {
    pub fn execute(&self) -> Result<()> {
        let files = expand_data_paths(&self.files)?;
        dispatch_game!(self.game, G => print_positions::<G>(&files, self.every))
    }
}
