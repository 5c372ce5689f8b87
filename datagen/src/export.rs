//! `datagen export`: Sente data files, run directories and pools written in the formats other
//! trainers read (chess: text, bulletformat, viriformat, binpack; shogi: text, psv, hcpe),
//! through the trainer's position filters, optionally shuffled through a bounded seeded buffer.
//! Games are read chunk by chunk and each position is written as it is replayed, so no file is
//! held whole in memory.

use anyhow::{anyhow, bail, Context, Result};
use sente::game::{Game, GameKind};
use sente_data::chunk::game_kind;
use sente_data::data_paths::expand_data_paths;
use sente_data::format_chess_records::{BinpackWriter, BulletWriter, ViriWriter};
use sente_data::format_kind::ForeignFormat;
use sente_data::format_shogi_records::ShogiRecordWriter;
use sente_data::format_text::TextWriter;
use sente_data::format_writer::{export_game, ExportError, FormatWriter, RecordSink};
use sente_data::position_filter::PositionFilter;
use sente_data::read::read_games;
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
    let started = Instant::now();
    let (written, games) = match args.game {
        GameKind::Chess => {
            let mut writer: Box<dyn FormatWriter<sente::chess::Position>> = match args.format {
                ForeignFormat::Text => Box::new(TextWriter {
                    sink: RecordSink::create(&args.out, args.shuffle, args.seed)?,
                }),
                ForeignFormat::Bulletformat => Box::new(BulletWriter {
                    sink: RecordSink::create(&args.out, args.shuffle, args.seed)?,
                }),
                ForeignFormat::Viriformat => Box::new(ViriWriter::create(&args.out)?),
                _ => Box::new(BinpackWriter {
                    writer: sfbinpack_writer(&args.out)?,
                    written: 0,
                }),
            };
            export_files(&files, &args.filter(), writer.as_mut())?
        }
        GameKind::Shogi => {
            let mut writer: Box<dyn FormatWriter<sente::shogi::Position>> = match args.format {
                ForeignFormat::Text => Box::new(TextWriter {
                    sink: RecordSink::create(&args.out, args.shuffle, args.seed)?,
                }),
                format => Box::new(ShogiRecordWriter {
                    format,
                    sink: RecordSink::create(&args.out, args.shuffle, args.seed)?,
                }),
            };
            export_files(&files, &args.filter(), writer.as_mut())?
        }
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

/// Exports every game of `files`; returns (positions written, games read).
fn export_files<G: Game>(
    files: &[PathBuf],
    filter: &PositionFilter,
    writer: &mut dyn FormatWriter<G>,
) -> Result<(u64, u64)> {
    let mut games = 0u64;
    for path in files {
        let mut failure = None;
        read_games(path, Some(game_kind::<G>()), |index, record| {
            if failure.is_some() {
                return;
            }
            games += 1;
            match export_game::<G>(record, filter, writer) {
                Ok(_) => {}
                Err(ExportError::Replay(e)) => sente::eprintln_best_effort!(
                    "datagen: {}: game {index} does not replay ({e}); skipped",
                    path.display()
                ),
                Err(ExportError::Write(e)) => failure = Some(e),
            }
        })?;
        if let Some(e) = failure {
            // What was written so far stays written.
            let _ = writer.finish();
            return Err(e);
        }
    }
    let written = writer.finish()?;
    Ok((written, games))
}
