//! `datagen verify`: every chunk's checksum and every game replayed through the rules.

use crate::inspect::verify_files;
use anyhow::{bail, Result};
use clap::Args;
use sente::dispatch_game;
use sente::game::GameKind;
use sente_data::data_paths::expand_data_paths;
use std::path::PathBuf;

#[derive(Clone, Debug, Args)]
pub struct VerifyArgs {
    #[arg(long)]
    pub game: GameKind,
    /// Data files, run directories or pools.
    pub files: Vec<PathBuf>,
}

impl VerifyArgs {
    pub fn execute(&self) -> Result<()> {
        let files = expand_data_paths(&self.files)?;
        let bad = dispatch_game!(self.game, G => verify_files::<G>(&files)?);
        if bad > 0 {
            bail!("{bad} bad records or chunks");
        }
        Ok(())
    }
}
