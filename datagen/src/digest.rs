//! `datagen digest`: a canonical listing of the games in pools, run directories or data files,
//! keyed by (seed, nodes, global game index) and independent of how games are split into files,
//! shards and chunks, so that N shards merged into a pool can be compared game by game with one
//! unsharded run of the same seed.

use crate::run_info::{read_indexed_games, record_hash, RunInfo};
use anyhow::{bail, Result};
use sente::game::Game;
use sente_data::chunk::{checksum, game_kind};
use sente_data::pool::Pool;
use sente_data::stored_game::StoredGame;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// (seed, nodes, global game index) of a game.
pub type GameKey = (u64, u64, u64);

/// Calls `visit(key, record)` for every game of `inputs` (pools, run directories, data files
/// with `run.txt` beside them), file by file.
pub fn for_each_keyed_game<G: Game>(
    inputs: &[PathBuf],
    mut visit: impl FnMut(GameKey, &StoredGame) -> Result<()>,
) -> Result<()> {
    let mut add_file = |data: &Path, seed: u64, nodes: u64, shard| -> Result<()> {
        read_indexed_games(data, game_kind::<G>(), shard, |index, record| {
            visit((seed, nodes, index), record)
        })?;
        Ok(())
    };
    for input in inputs {
        if Pool::is_pool(input) {
            let pool = Pool::open(input)?;
            if pool.game != game_kind::<G>() {
                bail!("{} is a {} pool", input.display(), pool.game);
            }
            for entry in &pool.entries {
                add_file(
                    &pool.dir.join(&entry.file),
                    entry.seed,
                    entry.nodes,
                    entry.shard,
                )?;
            }
        } else {
            let info = RunInfo::locate(input)?;
            if info.game != game_kind::<G>() {
                bail!("{} is a {} run", input.display(), info.game);
            }
            add_file(&info.data, info.seed, info.nodes, info.shard)?;
        }
    }
    Ok(())
}

fn twice((seed, nodes, index): GameKey) -> anyhow::Error {
    anyhow::anyhow!("game {index} of seed {seed} at {nodes} nodes appears twice")
}

/// Every game of `inputs` by key; a key seen twice is an error (the inputs overlap).
pub fn collect_games<G: Game>(inputs: &[PathBuf]) -> Result<BTreeMap<GameKey, StoredGame>> {
    let mut games = BTreeMap::new();
    for_each_keyed_game::<G>(inputs, |key, record| {
        match games.insert(key, record.clone()) {
            Some(_) => Err(twice(key)),
            None => Ok(()),
        }
    })?;
    Ok(games)
}

/// Prints one line per game (`seed nodes index record-hash`, tab-separated, in key order) when
/// `per_game`, then `games N digest HEX` (FNV-1a 64 of those lines).
pub fn print_digest<G: Game>(inputs: &[PathBuf], per_game: bool) -> Result<()> {
    // Only each record's hash is kept: pools may be larger than memory.
    let mut games = BTreeMap::new();
    for_each_keyed_game::<G>(inputs, |key, record| {
        match games.insert(key, record_hash(record)) {
            Some(_) => Err(twice(key)),
            None => Ok(()),
        }
    })?;
    let mut lines = String::new();
    for ((seed, nodes, index), hash) in &games {
        lines.push_str(&format!("{seed}\t{nodes}\t{index}\t{hash:016x}\n"));
    }
    if per_game {
        sente::try_print!("{lines}")?;
    }
    sente::try_println!(
        "games {} digest {:016x}",
        games.len(),
        checksum(lines.as_bytes())
    )?;
    Ok(())
}
