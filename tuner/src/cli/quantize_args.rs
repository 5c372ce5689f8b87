//! `tuner quantize`: a checkpoint into the engine's net format.

use crate::checkpoint::Checkpoint;
use crate::quantize::quantize;
use crate::training::net_from_checkpoint;
use anyhow::{Context, Result};
use clap::Args;
use sente::dispatch_game;
use sente::game::GameKind;
use sente::nnue::{Network, NnueGame};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Args)]
pub struct QuantizeArgs {
    #[arg(long)]
    pub game: GameKind,
    pub checkpoint: PathBuf,
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, default_value = "sente-net")]
    pub name: String,
}

impl QuantizeArgs {
    pub fn execute(&self) -> Result<()> {
        dispatch_game!(self.game, G => quantize_checkpoint::<G>(&self.checkpoint, &self.out, &self.name))
    }
}

fn quantize_checkpoint<G: NnueGame>(checkpoint: &Path, out: &Path, name: &str) -> Result<()> {
    let net = net_from_checkpoint::<G>(&Checkpoint::load(checkpoint)?)?;
    let (bytes, report) = quantize(&net, name);
    Network::from_bytes(&bytes, &G::ARCH).context("the quantized net does not load back")?;
    std::fs::write(out, bytes).with_context(|| format!("writing {}", out.display()))?;
    sente::try_println!(
        "wrote {} (l1 {}, {} king bucket(s); {} of {} weights clipped)",
        out.display(),
        net.arch.l1,
        net.arch.king_buckets,
        report.clipped,
        report.total
    )?;
    if let Some(warning) = report.warning() {
        sente::eprintln_best_effort!("tuner: {warning}");
    }
    Ok(())
}
