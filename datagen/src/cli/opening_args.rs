//! How games open, for `run` and `match`: random plies, an opening book, and the classical
//! search that rejects lopsided openings. `--verify-margin`'s default is the subcommand's own.

use crate::generate::OpeningSettings;
use clap::Args;
use std::path::PathBuf;

/// Random plies of an opening by default.
pub const RANDOM_PLIES: u32 = 8;
/// Nodes of the opening check by default.
pub const VERIFY_NODES: u64 = 1000;

#[derive(Clone, Debug, Args)]
pub struct OpeningArgs {
    /// Random plies of each opening (on top of the book position, if any).
    #[arg(long, default_value_t = RANDOM_PLIES)]
    pub random_plies: u32,
    /// Openings from FILE: one FEN / SFEN per line (EPD fields after it ignored, optional
    /// `moves …`), `startpos [moves …]` or moves from the start; `#` comments. Game (match:
    /// pair) i takes a line chosen by (seed, i).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Nodes of the search that rejects lopsided openings (0: no check). Balanced openings make
    /// fewer games decided by the opening alone.
    #[arg(long, default_value_t = VERIFY_NODES)]
    pub verify_nodes: u64,
    /// Largest opening score (centipawns) the check accepts.
    #[arg(long)]
    pub verify_margin: i32,
}

impl OpeningArgs {
    /// The openings drawn with `seed`.
    pub fn settings(&self, seed: u64) -> OpeningSettings {
        OpeningSettings {
            seed,
            random_plies: self.random_plies,
            verify_nodes: self.verify_nodes,
            verify_margin: self.verify_margin,
        }
    }
}
