//! `datagen match-merge`: `match --result` files combined into one Elo ± error and SPRT.

use crate::match_play::parse_sprt;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Clone, Debug, Args)]
pub struct MatchMergeArgs {
    /// SPRT bounds in Elo, e.g. `0,10`.
    #[arg(long)]
    pub sprt: Option<String>,
    #[command(flatten)]
    pub row: crate::results_table::ResultRowArgs,
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

impl MatchMergeArgs {
    pub fn execute(&self) -> Result<()> {
        self.row.check()?;
        let sprt = self.sprt.as_deref().map(parse_sprt).transpose()?;
        let merged = crate::match_result::merge_files(&self.files, sprt)?;
        sente::try_println!("{merged}")?;
        self.row.append_merged(&merged)
    }
}
