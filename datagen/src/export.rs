//! `datagen export`: Sente data files, run directories and pools written in the formats other
//! trainers read (chess: text, bulletformat, viriformat, binpack; shogi: text, psv, hcpe),
//! through the trainer's position filters, optionally shuffled through a bounded seeded buffer.
//! Games are read in blocks (a few thousand games); each block's games are replayed, filtered
//! and encoded in parallel (`--threads`), each into its own buffer, and the buffers written in
//! game order, so the output is the same on any number of threads and no file is held whole in
//! memory.

use anyhow::{anyhow, bail, Context, Result};
use rayon::prelude::*;
use sente::game::{Game, GameKind};
use sente_data::chunk::game_kind;
use sente_data::data_paths::expand_data_paths;
use sente_data::format_chess_records::{
    BinpackEncoder, BinpackWriter, BulletEncoder, ViriEncoder, ViriWriter,
};
use sente_data::format_kind::ForeignFormat;
use sente_data::format_shogi_records::ShogiRecordEncoder;
use sente_data::format_text::TextEncoder;
use sente_data::format_writer::{encode_game, ExportError, GameEncoder, GameSink, RecordSink};
use sente_data::position_filter::PositionFilter;
use sente_data::read::read_games;
use sente_data::stored_game::StoredGame;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `datagen export` arguments.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    #[arg(long)]
    pub game: GameKind,
    /// text, bulletformat, viriformat, binpack (chess); text, psv, hcpe (shogi).
    #[arg(long)]
    pub format: ForeignFormat,
    /// The file to write (created or truncated).
    #[arg(long)]
    pub out: PathBuf,
    /// Skip the first plies of each game (as `tuner train --min-ply`).
    #[arg(long, default_value_t = PositionFilter::default().min_ply)]
    pub min_ply: u32,
    /// Keep positions with the side to move in check (skipped by default, as in training).
    #[arg(long)]
    pub keep_in_check: bool,
    /// Keep positions whose move is a capture or promotion (skipped by default).
    #[arg(long)]
    pub keep_noisy: bool,
    /// Skip positions whose |score| is at least this (mate scores; default as in training).
    #[arg(long, default_value_t = PositionFilter::default().max_abs_score)]
    pub max_score: i32,
    /// Shuffle positions through a buffer of this many records (0: file order; text,
    /// bulletformat, psv and hcpe only: binpack and viriformat keep games whole).
    #[arg(long, default_value_t = 0)]
    pub shuffle: usize,
    /// Seed of the shuffle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads that replay, filter and encode the games (default: all cores). The output does
    /// not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: Option<u64>,
    /// Plies of a block of games encoded together (tests set it small, to have many blocks).
    #[arg(long, default_value_t = BLOCK_PLIES, hide = true, value_parser = clap::value_parser!(u64).range(1..))]
    pub block_plies: u64,
    /// Data files, run directories or pools.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
}

impl ExportArgs {
    fn filter(&self) -> PositionFilter {
        PositionFilter {
            min_ply: self.min_ply,
            skip_in_check: !self.keep_in_check,
            skip_noisy_move: !self.keep_noisy,
            max_abs_score: self.max_score,
        }
    }
}

/// Runs `datagen export`.
pub fn run(args: &ExportArgs) -> Result<()> {
    args.format.check_game(args.game, &args.out)?;
    if args.shuffle > 0
        && matches!(
            args.format,
            ForeignFormat::Binpack | ForeignFormat::Viriformat
        )
    {
        bail!(
            "--shuffle: {} keeps games whole; shuffle at training time",
            args.format
        );
    }
    let files = expand_data_paths(&args.data)?;
    let threads = match args.threads {
        Some(n) => n as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting the export's threads")?;
    let started = Instant::now();
    let records = || RecordSink::create(&args.out, args.shuffle, args.seed);
    let job = Job {
        files: &files,
        filter: args.filter(),
        pool: &pool,
        block_plies: args.block_plies as usize,
    };
    let (written, games) = match (args.game, args.format) {
        (GameKind::Chess, ForeignFormat::Text) => {
            job.run::<sente::chess::Position, _, _>(&TextEncoder, &mut records()?)?
        }
        (GameKind::Chess, ForeignFormat::Bulletformat) => {
            job.run(&BulletEncoder, &mut records()?)?
        }
        (GameKind::Chess, ForeignFormat::Viriformat) => {
            job.run(&ViriEncoder, &mut ViriWriter::create(&args.out)?)?
        }
        (GameKind::Chess, _) => {
            let mut writer = BinpackWriter {
                writer: sfbinpack_writer(&args.out)?,
                written: 0,
            };
            job.run(&BinpackEncoder, &mut writer)?
        }
        (GameKind::Shogi, ForeignFormat::Text) => {
            job.run::<sente::shogi::Position, _, _>(&TextEncoder, &mut records()?)?
        }
        (GameKind::Shogi, format) => job.run(&ShogiRecordEncoder { format }, &mut records()?)?,
    };
    let seconds = started.elapsed().as_secs_f64();
    sente::try_println!(
        "wrote {written} positions of {games} games to {} ({}; {:.0} positions/s)",
        args.out.display(),
        args.format,
        written as f64 / seconds.max(1e-9)
    )?;
    Ok(())
}

fn sfbinpack_writer(
    path: &Path,
) -> Result<sfbinpack::CompressedTrainingDataEntryWriter<std::fs::File>> {
    let file =
        std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    sfbinpack::CompressedTrainingDataEntryWriter::new(file)
        .map_err(|e| anyhow!("creating {}: {e}", path.display()))
}

/// Games of a block: read together, encoded in parallel, written in order. About this many
/// plies (or `BLOCK_GAMES` games), which bounds the memory a block takes.
const BLOCK_PLIES: u64 = 1 << 17;
const BLOCK_GAMES: usize = 4096;

/// One export: the files, the filter and the threads that encode.
struct Job<'a> {
    files: &'a [PathBuf],
    filter: PositionFilter,
    pool: &'a rayon::ThreadPool,
    /// `BLOCK_PLIES`, or what `--block-plies` says.
    block_plies: usize,
}

/// An encoded block waiting to be written: its file, and each game's index and encoding.
struct Encoded<'a, T> {
    path: &'a Path,
    games: Vec<(u64, Result<T, ExportError>)>,
}

impl Job<'_> {
    /// Exports every game of the files through `encoder` into `sink`; returns (positions
    /// written, games read). Each block is encoded while the one before it is written. On a
    /// write error what was written so far stays written.
    fn run<G: Game, E: GameEncoder<G>, S: GameSink<E::Encoded> + Send>(
        &self,
        encoder: &E,
        sink: &mut S,
    ) -> Result<(u64, u64)> {
        let mut games = 0u64;
        let mut pending: Option<Encoded<E::Encoded>> = None;
        let mut failure = None;
        for path in self.files {
            let mut block: Vec<(u64, StoredGame)> = Vec::new();
            let mut plies = 0;
            let read = read_games(path, Some(game_kind::<G>()), |index, record| {
                if failure.is_some() {
                    return;
                }
                games += 1;
                plies += record.moves.len();
                block.push((index, record.clone()));
                if plies >= self.block_plies || block.len() >= BLOCK_GAMES {
                    let before = pending.take();
                    let (encoded, written) = self.pool.install(|| {
                        rayon::join(
                            || self.encode(path, &block, encoder),
                            || write_block(before, sink),
                        )
                    });
                    failure = written.err();
                    pending = Some(encoded);
                    block.clear();
                    plies = 0;
                }
            });
            if let Err(e) = read {
                // A file that cannot be read (before any of its games): what came before it
                // is written, then the export stops.
                if failure.is_none() {
                    let _ = write_block(pending.take(), sink);
                    failure = Some(e);
                }
                break;
            }
            if failure.is_none() && !block.is_empty() {
                let before = pending.take();
                let encoded = self.pool.install(|| self.encode(path, &block, encoder));
                failure = write_block(before, sink).err();
                pending = Some(encoded);
            }
            if failure.is_some() {
                break;
            }
        }
        if failure.is_none() {
            failure = write_block(pending.take(), sink).err();
        }
        if let Some(e) = failure {
            // What was written so far stays written.
            let _ = sink.finish();
            return Err(e);
        }
        let written = sink.finish()?;
        Ok((written, games))
    }

    /// Replays, filters and encodes the games of `block` (of `path`) in parallel.
    fn encode<'p, G: Game, E: GameEncoder<G>>(
        &self,
        path: &'p Path,
        block: &[(u64, StoredGame)],
        encoder: &E,
    ) -> Encoded<'p, E::Encoded> {
        let filter = &self.filter;
        let games = block
            .par_iter()
            .map(|(index, record)| {
                let encoded = encode_game::<G, E>(record, filter, encoder);
                (*index, encoded.map(|(out, _)| out))
            })
            .collect();
        Encoded { path, games }
    }
}

/// Writes an encoded block's games in order: a game that does not replay is reported and
/// skipped; an encoding or write error stops, naming the file and game.
fn write_block<T, S: GameSink<T>>(block: Option<Encoded<T>>, sink: &mut S) -> Result<()> {
    let Some(Encoded { path, games }) = block else {
        return Ok(());
    };
    for (index, game) in games {
        match game {
            Ok(out) => sink.write_game(out)?,
            Err(ExportError::Replay(e)) => sente::eprintln_best_effort!(
                "datagen: {}: game {index} does not replay ({e}); skipped",
                path.display()
            ),
            Err(ExportError::Write(e)) => {
                return Err(e.context(format!("{}: game {index}", path.display())))
            }
        }
    }
    Ok(())
}
