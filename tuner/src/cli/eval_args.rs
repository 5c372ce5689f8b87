//! `tuner eval`: the loss of a net file, a checkpoint or the classical evaluator on data files.

use super::threads_args::ThreadsArgs;
use crate::checkpoint::Checkpoint;
use crate::data::{validation_set, Filter, TargetBlend};
use crate::evaluate::{classical_loss, quantized_loss};
use crate::model::FloatNet;
use crate::record_set::{RecordSet, RecordView};
use crate::training::{mean_loss, net_from_checkpoint};
use anyhow::{Context, Result};
use clap::Args;
use sente::dispatch_game;
use sente::game::GameKind;
use sente::nnue::{Network, NnueGame};
use sente_data::data_paths::expand_data_paths;
use sente_data::file::check_regular_file;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Args)]
pub struct EvalArgs {
    #[arg(long)]
    pub game: GameKind,
    /// A `.nnue` net, a checkpoint, or `classical` (the static classical evaluator, a baseline).
    pub model: PathBuf,
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    #[arg(long, default_value_t = 0.3)]
    pub wdl: f32,
    #[command(flatten)]
    pub threads: ThreadsArgs,
}

impl EvalArgs {
    pub fn execute(&self) -> Result<()> {
        self.threads.use_threads()?;
        let data = expand_data_paths(&self.data)?;
        dispatch_game!(self.game, G => eval_model::<G>(&self.model, &data, self.wdl))
    }
}

fn eval_model<G: NnueGame>(model: &Path, data: &[PathBuf], lambda: f32) -> Result<()> {
    let mut records = RecordSet::default();
    let refs = records.add_files::<G>(data)?;
    let games = RecordView {
        set: &records,
        refs,
    };
    let blend = TargetBlend {
        lambda,
        eval_scale: G::ARCH.eval_scale as f32,
    };
    let no_position = || anyhow::anyhow!("the data holds no usable {} position", G::NAME);
    let mut out = std::io::stdout().lock();
    if model.as_os_str() == "classical" {
        let (loss, count) = classical_loss::<G>(&games, &Filter::default(), &blend);
        if count == 0 {
            return Err(no_position());
        }
        writeln!(
            out,
            "classical evaluator: loss {loss:.6} over {count} positions"
        )
        .and_then(|()| out.flush())
        .context("writing to standard output")?;
        return Ok(());
    }
    // The model first: its king buckets decide the features of the positions.
    enum Model {
        Quantized(Network),
        Float(FloatNet),
    }
    let loaded = if model.extension().is_some_and(|e| e == "nnue") {
        check_regular_file(model)?;
        Model::Quantized(Network::load(model, &G::ARCH)?)
    } else {
        Model::Float(net_from_checkpoint::<G>(&Checkpoint::load(model)?)?)
    };
    let king_buckets = match &loaded {
        Model::Quantized(net) => net.arch().king_buckets,
        Model::Float(net) => net.arch.king_buckets,
    };
    let batch = validation_set::<G>(&games, &Filter::default(), &blend, king_buckets, usize::MAX);
    if batch.is_empty() {
        return Err(no_position());
    }
    let loss = match &loaded {
        Model::Quantized(net) => quantized_loss(net, &batch),
        Model::Float(net) => mean_loss(net, &batch),
    };
    writeln!(
        out,
        "{}: loss {loss:.6} over {} positions",
        model.display(),
        batch.len()
    )
    .and_then(|()| out.flush())
    .context("writing to standard output")?;
    Ok(())
}
