//! `datagen records`: stored self-play games (data files, run directories, pools) written out as
//! game records, PGN for chess and KIF + CSA for shogi, with the same `index.tsv` as
//! `match --records`. A game that does not replay is reported with its file and index and
//! skipped.

use crate::game_record::{utc_now, GameRecord, RecordEnd};
use crate::record_writer::RecordWriter;
use anyhow::{bail, Result};
use sente::game::{Game, GameKind, Side};
use sente_data::data_paths::expand_data_paths;
use sente_data::read::read_games;
use sente_data::stored_game::{StoredGame, RESULT_DRAW, RESULT_FIRST_WINS, SCORE_NONE};
use std::path::PathBuf;

/// The command line of `datagen records`.
#[derive(clap::Args, Debug, Clone)]
pub struct RecordsArgs {
    #[arg(long)]
    pub game: GameKind,
    /// Folder for the records (created; games are numbered after any already there).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Write at most this many games (0: all).
    #[arg(long, default_value_t = 0)]
    pub limit: u64,
    /// Data files, run directories or pools.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
}

/// The stored end codes of `docs/data-format.md`.
fn record_end(code: u8) -> RecordEnd {
    match code {
        0 => RecordEnd::Checkmate,
        1 => RecordEnd::Stalemate,
        2 => RecordEnd::FiftyMoveRule,
        3 => RecordEnd::Repetition,
        4 => RecordEnd::InsufficientMaterial,
        5 => RecordEnd::PerpetualCheck,
        6 | 8 => RecordEnd::Declaration,
        7 | 11 => RecordEnd::MaxPlies,
        9 => RecordEnd::ResignAdjudication,
        10 => RecordEnd::DrawAdjudication,
        12 => RecordEnd::TimeForfeit,
        13 => RecordEnd::TablebaseAdjudication,
        _ => RecordEnd::Unknown,
    }
}

/// The record of one stored game, or why it does not replay.
pub fn stored_record<G: Game>(stored: &StoredGame, round: u64, date: &str) -> Result<GameRecord> {
    let mut moves = Vec::with_capacity(stored.moves.len());
    let end = stored.replay::<G>(|pos, m, _| moves.push(pos.format_move(m)))?;
    let end_reason = record_end(stored.end);
    Ok(GameRecord {
        game: G::NAME,
        start: stored.start.clone(),
        moves,
        opening_plies: stored
            .scores
            .iter()
            .take_while(|&&s| s == SCORE_NONE)
            .count(),
        players: ["Sente self-play".to_string(), "Sente self-play".to_string()],
        limits: "stored self-play game".to_string(),
        event: "datagen self-play".to_string(),
        round,
        winner: match stored.result {
            RESULT_FIRST_WINS => Some(Side::First),
            RESULT_DRAW => None,
            _ => Some(Side::Second),
        },
        end: end_reason,
        final_position: end.to_text(),
        date: date.to_string(),
    })
}

/// Runs `datagen records` for game `G`; prints how many records were written.
pub fn run<G: Game>(args: &RecordsArgs) -> Result<()> {
    let files = expand_data_paths(&args.inputs)?;
    let writer = RecordWriter::create(&args.out)?;
    let date = utc_now();
    let (mut written, mut skipped) = (0u64, 0u64);
    let mut failure = None;
    for file in &files {
        read_games(file, G::KIND, |index, stored| {
            if failure.is_some() || (args.limit > 0 && written >= args.limit) {
                return;
            }
            match stored_record::<G>(stored, index, &date) {
                Ok(record) => match writer.write(&record) {
                    Ok(_) => written += 1,
                    Err(e) => failure = Some(e),
                },
                Err(e) => {
                    sente::eprintln_best_effort!("{} game {index}: {e:#}; skipped", file.display());
                    skipped += 1;
                }
            }
        })?;
        if let Some(e) = failure.take() {
            return Err(e);
        }
    }
    if written == 0 && skipped > 0 {
        bail!("no game replayed ({skipped} skipped)");
    }
    sente::try_println!(
        "{written} records written to {} ({skipped} games skipped)",
        args.out.display()
    )?;
    Ok(())
}
