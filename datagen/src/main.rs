//! `datagen`: see `datagen --help`. Filled in by its own issue.

use clap::Parser;

/// Sente datagen (not yet implemented beyond this help).
#[derive(Parser)]
#[command(version, about)]
struct Cli {}

fn main() {
    let _ = Cli::parse();
    eprintln!("datagen: nothing to do yet; see --help");
}
