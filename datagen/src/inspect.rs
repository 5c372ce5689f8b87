//! `datagen stats`, `datagen verify` and `datagen positions`: summaries of data files, a full
//! check of every chunk (checksum) and game (replay through the rules), and a sample of the
//! recorded positions as text.

use anyhow::{anyhow, Context, Result};
use sente::game::Game;
use sente_data::chunk::game_kind;
use sente_data::file::check_regular_file;
use sente_data::read::read_games;
use sente_data::stored_game::SCORE_NONE;
use std::io::Write;
use std::path::PathBuf;

/// Turns the result of writing a report to stdout into the command's result: a closed pipe
/// (`| head`) ends the command quietly, any other write error (a full disk) is an error.
pub fn stdout_result(result: std::io::Result<()>) -> Result<()> {
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(anyhow!("writing to standard output: {e}")),
        Ok(()) => Ok(()),
    }
}

/// A labelled histogram, one line per bucket: name, count and a bar of its share of `total`.
fn histogram_lines(
    out: &mut impl Write,
    label: &str,
    names: &[&str],
    counts: &[u64],
    total: u64,
) -> std::io::Result<()> {
    writeln!(out, "{label}:")?;
    for (name, count) in names.iter().zip(counts) {
        let share = *count as f64 / total.max(1) as f64;
        let bar = "#".repeat((share * 50.0).round() as usize);
        writeln!(out, "  {name:>12} {count:>9} {bar}")?;
    }
    Ok(())
}

/// Totals that `stats` prints.
#[derive(Default)]
struct Stats {
    games: u64,
    positions: u64,
    results: [u64; 3],
    lengths: [u64; 8],
    scores: [u64; 8],
    bytes: u64,
}

/// Prints games, positions, results, and game-length and score histograms. Damaged chunks are
/// skipped with a warning; a file of another game is an error.
pub fn print_stats<G: Game>(files: &[PathBuf]) -> Result<()> {
    let mut st = Stats::default();
    for path in files {
        check_regular_file(path)?;
        st.bytes += std::fs::metadata(path)
            .with_context(|| format!("reading {}", path.display()))?
            .len();
        read_games(path, Some(game_kind::<G>()), |_, record| {
            st.games += 1;
            st.results[record.result.min(2) as usize] += 1;
            st.lengths[(record.moves.len() / 50).min(7)] += 1;
            for &s in &record.scores {
                if s == SCORE_NONE {
                    continue;
                }
                st.positions += 1;
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
                st.scores[bucket] += 1;
            }
        })?;
    }
    stdout_result(write_stats::<G>(&mut std::io::stdout().lock(), &st))
}

fn write_stats<G: Game>(out: &mut impl Write, st: &Stats) -> std::io::Result<()> {
    let (games, positions, results, bytes) = (st.games, st.positions, st.results, st.bytes);
    writeln!(out, "{} data: {games} games, {positions} scored positions, {bytes} bytes ({:.2} bytes/position)", G::NAME, bytes as f64 / positions.max(1) as f64)?;
    writeln!(
        out,
        "results (first player): wins {} ({:.1}%), draws {} ({:.1}%), losses {} ({:.1}%)",
        results[0],
        100.0 * results[0] as f64 / games.max(1) as f64,
        results[1],
        100.0 * results[1] as f64 / games.max(1) as f64,
        results[2],
        100.0 * results[2] as f64 / games.max(1) as f64
    )?;
    let length_names = [
        "0-49", "50-99", "100-149", "150-199", "200-249", "250-299", "300-349", "350+",
    ];
    histogram_lines(
        out,
        "game length (plies)",
        &length_names,
        &st.lengths,
        games,
    )?;
    let score_names = [
        "0-25", "26-50", "51-100", "101-200", "201-400", "401-800", "801+", "mate",
    ];
    histogram_lines(out, "|score| (cp)", &score_names, &st.scores, positions)?;
    out.flush()
}

/// Checks every chunk (all of them: damage in one does not hide the later ones) and replays
/// every game; prints each problem and returns how many there were.
pub fn verify_files<G: Game>(files: &[PathBuf]) -> Result<usize> {
    let mut bad = 0;
    let mut games = 0u64;
    let mut out = std::io::stdout().lock();
    let mut written = Ok(());
    for path in files {
        let mut count = 0u64;
        bad += read_games(path, Some(game_kind::<G>()), |index, record| {
            if let Err(e) = record.replay::<G>(|_, _, _| {}) {
                if written.is_ok() {
                    written = writeln!(out, "{}: game {index}: {e}", path.display());
                }
                bad += 1;
            }
            count += 1;
        })?;
        games += count;
    }
    if written.is_ok() {
        written = writeln!(
            out,
            "verified {games} games in {} files: {bad} problems",
            files.len()
        )
        .and_then(|()| out.flush());
    }
    stdout_result(written)?;
    Ok(bad)
}

/// Prints every `every`-th position at which a recorded move was played (FEN / SFEN), in file
/// and game order. Games that do not replay are reported with their file and index.
pub fn print_positions<G: Game>(files: &[PathBuf], every: u64) -> Result<()> {
    let mut seen = 0u64;
    let mut out = std::io::stdout().lock();
    let mut written = Ok(());
    for path in files {
        read_games(path, Some(game_kind::<G>()), |index, record| {
            if written.is_err() {
                return;
            }
            let replayed = record.replay::<G>(|pos, _, _| {
                if seen.is_multiple_of(every) && written.is_ok() {
                    written = writeln!(out, "{}", pos.to_text());
                }
                seen += 1;
            });
            if let Err(e) = replayed {
                sente::eprintln_best_effort!(
                    "{}: game {index} does not replay: {e}",
                    path.display()
                );
            }
        })?;
        if written.is_err() {
            break;
        }
    }
    if written.is_ok() {
        written = out.flush();
    }
    stdout_result(written)
}
