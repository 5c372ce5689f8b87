//! `tuner elo-plot`: the Elo-per-generation plot of the promoted nets.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Clone, Debug, Args)]
pub struct EloPlotArgs {
    /// The promotion history written by `datagen loop --publish`.
    #[arg(long, default_value = "nets/history.tsv")]
    pub history: PathBuf,
    /// Directory the plots go to.
    #[arg(long, default_value = "nets")]
    pub out: PathBuf,
}

impl EloPlotArgs {
    pub fn execute(&self) -> Result<()> {
        crate::elo_history::plot_elo_history(&self.history, &self.out)?;
        sente::try_println!("wrote {}/elo.png and elo.svg", self.out.display())?;
        Ok(())
    }
}
