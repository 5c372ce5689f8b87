//! `tuner`'s command line: the subcommands, one argument struct each in its own module, with the
//! groups they share (game and threads) flattened in. `main` parses [`Command`] and calls
//! [`Command::execute`]; [`report_error`] prints what went wrong.

pub mod arg_parsers;
pub mod elo_plot_args;
pub mod eval_args;
pub mod fit_classical_args;
pub mod quantize_args;
pub mod threads_args;
pub mod train_args;

use anyhow::Result;
use clap::Parser;

/// The subcommands (parsed as the whole command line).
#[allow(clippy::large_enum_variant)] // parsed once per process
#[derive(Parser)]
#[command(name = "tuner", version, about = "Sente's CPU NNUE trainer")]
pub enum Command {
    /// Train a net from datagen files (resumes from OUT/checkpoint.bin when present).
    Train(train_args::TrainArgs),
    /// Draw the Elo-per-generation plot (`elo.png`, `elo.svg`) of the promoted nets.
    EloPlot(elo_plot_args::EloPlotArgs),
    /// Quantize a checkpoint into the engine's net format.
    Quantize(quantize_args::QuantizeArgs),
    /// Loss of a net file or a checkpoint on data files.
    Eval(eval_args::EvalArgs),
    /// Fit the classical evaluator's values and piece-square tables to data (Texel-style) and
    /// write them as Rust source of a `ClassicalParams` constant.
    FitClassical(fit_classical_args::FitClassicalArgs),
}

impl Command {
    /// Runs the subcommand.
    pub fn execute(self) -> Result<()> {
        match self {
            Command::Train(args) => args.execute(),
            Command::EloPlot(args) => args.execute(),
            Command::Quantize(args) => args.execute(),
            Command::Eval(args) => args.execute(),
            Command::FitClassical(args) => args.execute(),
        }
    }
}

/// The exit status of a finished command: 0 on success and on a closed output pipe
/// (`tuner eval … | head -0` ends quietly), else 1 after printing the error chain.
pub fn report_error(result: Result<()>) -> i32 {
    let Err(e) = result else { return 0 };
    let broken_pipe = e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    });
    if broken_pipe {
        return 0;
    }
    sente::eprintln_best_effort!("tuner: error: {e:#}");
    1
}
