//! `datagen pool add | retire | list`: data pools, directories of verified files with a
//! manifest (pool.tsv).

use crate::pool::{listing, AddOptions, RETIRED};
use anyhow::Result;
use clap::{Args, Subcommand};
use sente::dispatch_game;
use sente::game::GameKind;
use sente_data::pool::Pool;
use std::path::PathBuf;

#[derive(Clone, Debug, Subcommand)]
pub enum PoolCommand {
    /// Verify run directories or data files (run.txt beside them) and copy them into the pool.
    Add(PoolAddArgs),
    /// Take files out of the pool (e.g. the source of a rescored copy that joined it): the
    /// manifest stops listing them and they move to POOL/retired/, nothing is deleted.
    Retire(PoolRetireArgs),
    /// Print the manifest with totals.
    List(PoolListArgs),
}

#[derive(Clone, Debug, Args)]
pub struct PoolAddArgs {
    /// The pool directory (created if missing).
    #[arg(long)]
    pub pool: PathBuf,
    #[arg(long)]
    pub game: GameKind,
    /// Generation the data belongs to.
    #[arg(long, default_value_t = 0)]
    pub generation: u32,
    /// The net the runs played with, when the path in their run.txt does not resolve here
    /// and they have no evaluator.txt.
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
    /// Remove the source data files once the pool lists their copies.
    #[arg(long = "move")]
    pub move_files: bool,
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
}

#[derive(Clone, Debug, Args)]
pub struct PoolRetireArgs {
    /// The pool directory.
    #[arg(long)]
    pub pool: PathBuf,
    /// File names as `datagen pool list` prints them.
    #[arg(required = true)]
    pub files: Vec<String>,
}

#[derive(Clone, Debug, Args)]
pub struct PoolListArgs {
    pub pool: PathBuf,
}

impl PoolCommand {
    pub fn execute(self) -> Result<()> {
        match self {
            PoolCommand::Add(args) => {
                let options = AddOptions {
                    generation: args.generation,
                    net: args.net,
                    move_files: args.move_files,
                };
                let added = dispatch_game!(args.game, G => crate::pool::add::<G>(&args.pool, &args.inputs, &options)?);
                for entry in &added {
                    sente::try_println!(
                        "added {} ({} games, {} positions)",
                        entry.file,
                        entry.games,
                        entry.positions
                    )?;
                }
                Ok(())
            }
            PoolCommand::Retire(args) => {
                for entry in crate::pool::retire(&args.pool, &args.files)? {
                    sente::try_println!(
                        "retired {} ({} games, {} positions) to {}",
                        entry.file,
                        entry.games,
                        entry.positions,
                        args.pool.join(RETIRED).display()
                    )?;
                }
                Ok(())
            }
            PoolCommand::List(args) => {
                sente::try_print!("{}", listing(&Pool::open(&args.pool)?))?;
                Ok(())
            }
        }
    }
}
