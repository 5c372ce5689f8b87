//! `tuner`: see `tuner --help`.

use clap::Parser;

/// Sente's CPU trainer (commands arrive with the tuner issue).
#[derive(Parser)]
#[command(version, about)]
struct Cli {}

fn main() {
    let _ = Cli::parse();
    eprintln!("tuner: no command yet; see --help");
}
