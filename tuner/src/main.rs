//! `tuner`: trains NNUE nets from datagen files, quantizes checkpoints, and measures nets on data.
//! See `tuner --help`.

use clap::Parser;

fn main() {
    let result = tuner::cli::Command::parse().execute();
    std::process::exit(tuner::cli::report_error(result));
}
