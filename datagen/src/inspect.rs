//! `datagen stats`, `datagen verify` and `datagen positions`: summaries of data files, a full
//! check of every chunk (checksum) and game (replay through the rules), and a sample of the
//! recorded positions as text.

use crate::format::{self, GameRecord, SCORE_NONE};
use anyhow::{Context, Result};
use memmap2::Mmap;
use sente::game::Game;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A read-only memory map of a data file.
pub fn map_file(path: &Path) -> Result<Mmap> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    // SAFETY: read-only private map of a data file; datagen appends only whole chunks and never
    // rewrites bytes that readers may have mapped.
    unsafe { Mmap::map(&file) }.with_context(|| format!("mapping {}", path.display()))
}

/// Calls `visit` for every game of every valid chunk; returns the number of damaged chunks
/// (at most one per file: reading stops at the first).
pub fn for_each_game(path: &Path, mut visit: impl FnMut(&GameRecord)) -> Result<usize> {
    let map = map_file(path)?;
    let (chunks, error) = format::scan(&map);
    for info in &chunks {
        let (info, payload) = format::parse_chunk(&map, info.offset)?;
        for record in format::decode_games(&info, payload)? {
            visit(&record);
        }
    }
    if let Some(e) = &error {
        eprintln!("{}: {e}", path.display());
    }
    Ok(usize::from(error.is_some()))
}

fn histogram_line(label: &str, buckets: &[(String, u64)], total: u64) {
    println!("{label}:");
    for (name, count) in buckets {
        let share = *count as f64 / total.max(1) as f64;
        let bar = "#".repeat((share * 50.0).round() as usize);
        println!("  {name:>12} {count:>9} {bar}");
    }
}

/// Prints games, positions, results, and game-length and score histograms.
pub fn print_stats<G: Game>(files: &[PathBuf]) -> Result<()> {
    let (mut games, mut positions, mut results) = (0u64, 0u64, [0u64; 3]);
    let mut lengths = [0u64; 8];
    let mut scores = [0u64; 8];
    let mut bytes = 0u64;
    for path in files {
        bytes += std::fs::metadata(path)?.len();
        for_each_game(path, |record| {
            games += 1;
            results[record.result.min(2) as usize] += 1;
            lengths[(record.moves.len() / 50).min(7)] += 1;
            for &s in &record.scores {
                if s == SCORE_NONE {
                    continue;
                }
                positions += 1;
                let magnitude = (s as i32).unsigned_abs();
                let bucket = match magnitude {
                    0..=25 => 0,
                    26..=50 => 1,
                    51..=100 => 2,
                    101..=200 => 3,
                    201..=400 => 4,
                    401..=800 => 5,
                    801..=30_000 => 6,
                    _ => 7,
                };
                scores[bucket] += 1;
            }
        })?;
    }
    println!("{} data: {games} games, {positions} scored positions, {bytes} bytes ({:.2} bytes/position)", G::NAME, bytes as f64 / positions.max(1) as f64);
    println!(
        "results (first player): wins {} ({:.1}%), draws {} ({:.1}%), losses {} ({:.1}%)",
        results[0],
        100.0 * results[0] as f64 / games.max(1) as f64,
        results[1],
        100.0 * results[1] as f64 / games.max(1) as f64,
        results[2],
        100.0 * results[2] as f64 / games.max(1) as f64
    );
    let length_names = [
        "0-49", "50-99", "100-149", "150-199", "200-249", "250-299", "300-349", "350+",
    ];
    histogram_line(
        "game length (plies)",
        &length_names
            .iter()
            .map(|n| n.to_string())
            .zip(lengths)
            .collect::<Vec<_>>(),
        games,
    );
    let score_names = [
        "0-25", "26-50", "51-100", "101-200", "201-400", "401-800", "801+", "mate",
    ];
    histogram_line(
        "|score| (cp)",
        &score_names
            .iter()
            .map(|n| n.to_string())
            .zip(scores)
            .collect::<Vec<_>>(),
        positions,
    );
    Ok(())
}

/// Checks every chunk and replays every game; prints each problem and returns how many there
/// were.
pub fn verify_files<G: Game>(files: &[PathBuf]) -> Result<usize> {
    let mut bad = 0;
    let mut games = 0u64;
    for path in files {
        let mut index = 0u64;
        bad += for_each_game(path, |record| {
            if let Err(e) = record.replay::<G>(|_, _, _| {}) {
                println!("{}: game {index}: {e}", path.display());
                bad += 1;
            }
            index += 1;
        })?;
        games += index;
    }
    println!(
        "verified {games} games in {} files: {bad} problems",
        files.len()
    );
    Ok(bad)
}

/// Prints every `every`-th position at which a recorded move was played (FEN / SFEN), in file
/// and game order.
pub fn print_positions<G: Game>(files: &[PathBuf], every: u64) -> Result<()> {
    let mut seen = 0u64;
    let mut out = std::io::stdout().lock();
    let mut write_error = None;
    for path in files {
        for_each_game(path, |record| {
            let replayed = record.replay::<G>(|pos, _, _| {
                if seen.is_multiple_of(every) && write_error.is_none() {
                    if let Err(e) = writeln!(out, "{}", pos.to_text()) {
                        write_error = Some(e);
                    }
                }
                seen += 1;
            });
            if let Err(e) = replayed {
                eprintln!("{}: a game does not replay: {e}", path.display());
            }
        })?;
    }
    match write_error {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}
