//! `datagen`: self-play training data and engine-vs-engine matches. See `datagen --help`.

use clap::Parser;

fn main() -> anyhow::Result<()> {
    datagen::cli::Cli::parse().command.execute()
}
