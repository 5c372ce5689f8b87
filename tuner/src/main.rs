//! `tuner`: see `tuner --help`. Filled in by its own issue.

use clap::Parser;

/// Sente tuner (not yet implemented beyond this help).
#[derive(Parser)]
#[command(version, about)]
struct Cli {}

fn main() {
    let _ = Cli::parse();
    eprintln!("tuner: nothing to do yet; see --help");
}
