//! Publishing promoted nets: the rows of `GAME/promotions.tsv` (the loop's promotions) not yet
//! in the repository's `nets/history.tsv` are copied into `nets/` under their content name, the
//! newest becomes the game's embedded default `nets/GAME-default.nnue`, each one's provenance is
//! appended to `nets/history.tsv` and `nets/README.md`, and `nets/elo.{png,svg}` are redrawn.
//! This is the one code path that writes `nets/history.tsv`. Rebuild (the default net is
//! embedded) and commit `nets/` afterwards.

use crate::loop_config::LoopConfig;
use crate::loop_runner::{copy_atomically, log};
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::PathBuf;

/// Publishes the promotions of `config`'s game (run from the data root); returns how many.
pub fn publish(config: &LoopConfig) -> Result<usize> {
    let game = config.game.name();
    let promotions = PathBuf::from(game).join("promotions.tsv");
    let Ok(text) = std::fs::read_to_string(&promotions) else {
        log(
            game,
            &format!("publish: no promotions in {}", promotions.display()),
        );
        return Ok(0);
    };
    let nets = config.repository.join("nets");
    let history_path = nets.join("history.tsv");
    let history = std::fs::read_to_string(&history_path).unwrap_or_default();
    let mut published = 0;
    for (index, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [row_game, name, parent, games, positions, nodes, runs, training, result, date] =
            fields[..]
        else {
            bail!(
                "{} line {}: not the 10 fields of a promotion",
                promotions.display(),
                index + 1
            );
        };
        if history.lines().any(|h| h.split('\t').nth(1) == Some(name)) {
            continue;
        }
        // Copied beside and renamed over: a program that has the old default net memory-mapped
        // keeps its (unlinked) file instead of dying of SIGBUS when the file is rewritten.
        let source = PathBuf::from(game).join("nets").join(name);
        copy_atomically(&source, &nets.join(name))?;
        copy_atomically(&source, &nets.join(format!("{game}-default.nnue")))?;
        let append = |path: &PathBuf, row: String| -> Result<()> {
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("opening {}", path.display()))?;
            writeln!(file, "{row}")?;
            Ok(())
        };
        append(
            &history_path,
            [
                row_game, name, parent, games, positions, nodes, runs, training, result,
            ]
            .join("\t"),
        )?;
        append(
            &nets.join("README.md"),
            format!("| {row_game} | {name} | {parent} | {games} games, {positions} positions, {nodes} nodes/move, {runs} | {training} | {result} | {date} |"),
        )?;
        log(
            game,
            &format!("publish: {name} is now nets/{game}-default.nnue"),
        );
        published += 1;
    }
    if published > 0 {
        // The plot is for people: one that cannot be drawn is a warning, the nets are published.
        if let Err(e) = tuner::elo_history::plot_elo_history(&history_path, &nets) {
            log(game, &format!("publish: warning: no Elo plot ({e:#})"));
        }
    }
    Ok(published)
}
