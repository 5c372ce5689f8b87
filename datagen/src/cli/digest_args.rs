//! `datagen digest`: the canonical listing of the games of pools, run directories or files.

use anyhow::Result;
use clap::Args;
use sente::dispatch_game;
use sente::game::GameKind;
use std::path::PathBuf;

#[derive(Clone, Debug, Args)]
pub struct DigestArgs {
    #[arg(long)]
    pub game: GameKind,
    /// Print a line per game (seed, nodes, index, record hash) before the digest.
    #[arg(long)]
    pub per_game: bool,
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
}

impl DigestArgs {
    pub fn execute(&self) -> Result<()> {
        dispatch_game!(self.game, G => crate::digest::print_digest::<G>(&self.inputs, self.per_game))
    }
}
