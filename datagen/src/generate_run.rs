//! One `datagen run` into its output directory: the book checked whole and the endgame tables
//! opened (`--syzygy`), the evaluator loaded and named by content in `OUT/evaluator.txt` (for
//! `pool add`), then the games of one shard generated (resuming what a killed run left).
//! `datagen run` and `datagen loop` both call [`generate_run`].

use crate::book::Book;
use crate::generate::{generate_shard, GenerateConfig, GenerateSummary};
use crate::players::DatagenGame;
use crate::run_info::{evaluator_label, EVALUATOR_FILE};
use crate::tablebases::Tablebases;
use anyhow::{Context, Result};
use sente_data::shard::Shard;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Generates shard `shard` of the run `config` into `out` with `threads` threads, stopping at a
/// chunk boundary after `max_time` if given; `syzygy` (directories of Syzygy tables, chess)
/// adjudicates the games by the tables.
#[allow(clippy::too_many_arguments)]
pub fn generate_run<G: DatagenGame>(
    config: &GenerateConfig,
    book: Option<&PathBuf>,
    syzygy: Option<&str>,
    shard: Shard,
    threads: usize,
    max_time: Option<Duration>,
    out: &Path,
) -> Result<GenerateSummary> {
    // The book is checked whole before anything else happens.
    let book = book.map(|path| Book::<G>::load(path)).transpose()?;
    let tables = syzygy.map(Tablebases::<G>::open).transpose()?;
    let eval = G::load_eval(&config.evaluator)?;
    // The evaluator by content, for `pool add` (run.txt keeps the name as given).
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let evaluator_file = out.join(EVALUATOR_FILE);
    std::fs::write(&evaluator_file, evaluator_label(&config.evaluator)? + "\n")
        .with_context(|| format!("writing {}", evaluator_file.display()))?;
    let (book, tables) = (book.as_ref(), tables.as_ref());
    generate_shard::<G, _>(&eval, config, book, tables, shard, threads, out, max_time)
}
