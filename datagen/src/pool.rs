//! Writing data pools: `datagen pool add` verifies files (checksums, contiguous chunks, replay of
//! every game), refuses duplicates and other games' data, copies the files in and rewrites the
//! manifest atomically (temporary file, fsync, rename), one writer at a time (a lock on
//! `pool.lock`); `datagen pool retire` takes files out of the manifest (a rescored copy replaces
//! its source) and keeps them under `retired/`, never deleting data; `datagen pool list` prints
//! the manifest with totals. The manifest format and its reader are `sente_data::pool`.

use crate::run_info::{self, read_indexed_games, RunInfo};
use anyhow::{anyhow, bail, Context, Result};
use sente::game::Game;
use sente_data::chunk::{checksum, game_kind};
use sente_data::pool::{Pool, PoolEntry, COLUMNS, MANIFEST};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// File locked by `add` and `retire` while they change the pool.
const LOCK: &str = "pool.lock";
/// Where `retire` keeps the files it takes out of the manifest.
pub const RETIRED: &str = "retired";

/// Takes the lock on the pool at `dir` (created if missing); it is released when dropped.
fn lock_pool(dir: &Path) -> Result<std::fs::File> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let lock_path = dir.join(LOCK);
    let lock = std::fs::File::create(&lock_path)
        .with_context(|| format!("creating {}", lock_path.display()))?;
    lock.lock()
        .with_context(|| format!("locking {}", lock_path.display()))?;
    Ok(lock)
}

/// Whether both files play the same games for the same global index (same seed, evaluator and
/// node limit), so they must not share an index.
fn same_series(a: &PoolEntry, b: &PoolEntry) -> bool {
    a.seed == b.seed && a.evaluator == b.evaluator && a.nodes == b.nodes
}

/// The global game indices a file holds (its shard's share of the first `games`).
fn indices(entry: &PoolEntry) -> impl Iterator<Item = u64> + '_ {
    (0..entry.games).map(|k| entry.shard.global(k))
}

fn holds_index(entry: &PoolEntry, global: u64) -> bool {
    let shard = entry.shard;
    shard.contains(global) && (global - shard.index) / shard.count < entry.games
}

/// Writes the manifest atomically: a temporary file, synced, renamed over the old one.
fn save(pool: &Pool) -> Result<()> {
    let path = pool.dir.join(MANIFEST);
    let tmp = pool.dir.join(format!("{MANIFEST}.tmp"));
    write_synced(&tmp, pool.render().as_bytes())?;
    std::fs::rename(&tmp, &path)
        .with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))?;
    sync_dir(&pool.dir);
    Ok(())
}

/// Why `candidate` may not join the pool (same content, or a game index already held by a file
/// of the same series), or `None`.
fn conflict(pool: &Pool, candidate: &PoolEntry) -> Option<String> {
    for entry in &pool.entries {
        if entry.checksum == candidate.checksum && entry.bytes == candidate.bytes {
            return Some(format!("the same content as {}", entry.file));
        }
        if same_series(entry, candidate) {
            let (small, large) = if entry.games <= candidate.games {
                (entry, candidate)
            } else {
                (candidate, entry)
            };
            if let Some(index) = indices(small).find(|&i| holds_index(large, i)) {
                return Some(format!(
                    "game {index} of seed {}, evaluator {}, {} nodes, already in {}",
                    entry.seed, entry.evaluator, entry.nodes, entry.file
                ));
            }
        }
    }
    None
}

/// The manifest and its totals (all, and per generation), as `datagen pool list` prints them.
pub fn listing(pool: &Pool) -> String {
    let mut text = format!("pool {} ({})\n{COLUMNS}\n", pool.dir.display(), pool.game);
    let mut by_generation: BTreeMap<u32, [u64; 4]> = BTreeMap::new();
    for entry in &pool.entries {
        text.push_str(&entry.row());
        text.push('\n');
        let totals = by_generation.entry(entry.generation).or_default();
        for (total, value) in totals
            .iter_mut()
            .zip([1, entry.games, entry.positions, entry.bytes])
        {
            *total += value;
        }
    }
    for (generation, [files, games, positions, bytes]) in &by_generation {
        let _ = writeln!(
            text,
            "generation {generation}: {files} files, {games} games, {positions} positions, {bytes} bytes"
        );
    }
    let sum = |f: fn(&PoolEntry) -> u64| pool.entries.iter().map(f).sum::<u64>();
    let _ = writeln!(
        text,
        "total: {} files, {} games, {} positions, {} bytes",
        pool.entries.len(),
        sum(|e| e.games),
        sum(|e| e.positions),
        sum(|e| e.bytes)
    );
    text
}
fn write_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut file =
        std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("writing {}", path.display()))
}

/// Makes a rename in `dir` durable (best effort: not every filesystem syncs directories).
fn sync_dir(dir: &Path) {
    if let Ok(handle) = std::fs::File::open(dir) {
        let _ = handle.sync_all();
    }
}

/// Options of `datagen pool add`.
#[derive(Clone, Debug, Default)]
pub struct AddOptions {
    pub generation: u32,
    /// The net the runs played with, when their `evaluator.txt` is missing and the path in
    /// `run.txt` does not resolve from here.
    pub net: Option<PathBuf>,
    /// Remove each source data file once the pool's manifest lists its copy.
    pub move_files: bool,
}

/// A checked input file waiting to be copied in.
struct Staged {
    source: PathBuf,
    manifest: String,
    entry: PoolEntry,
}

/// Verifies `inputs` (run directories or data files with `run.txt` beside them) and adds them to
/// the pool at `dir` (created if missing). Every input is checked before anything is copied: one
/// bad, duplicate or foreign input adds nothing. Returns the new entries.
pub fn add<G: Game>(
    dir: &Path,
    inputs: &[PathBuf],
    options: &AddOptions,
) -> Result<Vec<PoolEntry>> {
    if inputs.is_empty() {
        bail!("give run directories or data files to add");
    }
    // One writer at a time (e.g. two merge jobs of a cluster); the lock goes with the process.
    let lock = lock_pool(dir)?;
    let mut pool = if Pool::is_pool(dir) {
        Pool::open(dir)?
    } else {
        Pool {
            dir: dir.to_path_buf(),
            game: game_kind::<G>(),
            entries: Vec::new(),
        }
    };
    if pool.game != game_kind::<G>() {
        bail!(
            "{} is a {} pool; these files are {}",
            dir.display(),
            pool.game,
            G::NAME
        );
    }
    let net_label = options
        .net
        .as_deref()
        .map(run_info::net_label)
        .transpose()?;
    let mut staged: Vec<Staged> = Vec::new();
    for input in inputs {
        let info = RunInfo::locate(input)?;
        if info.game != pool.game {
            bail!(
                "{}: a {} run cannot join a {} pool",
                input.display(),
                info.game,
                G::NAME
            );
        }
        let evaluator = match &net_label {
            Some(label) => label.clone(),
            None => info.evaluator_label()?,
        };
        let counts = read_indexed_games(&info.data, pool.game, info.shard, |_, r| {
            r.replay::<G>(|_, _, _| {})
                .map(|_| ())
                .map_err(|e| anyhow!("does not replay: {e}"))
        })?;
        if counts.games == 0 {
            bail!("{}: no games", info.data.display());
        }
        let file = format!(
            "g{}-{}-n{}-s{}-{}of{}-{:016x}.bin",
            options.generation,
            evaluator.rsplit(':').next().unwrap_or("net"),
            info.nodes,
            info.seed,
            info.shard.index,
            info.shard.count,
            counts.checksum
        );
        let entry = PoolEntry {
            file,
            generation: options.generation,
            evaluator,
            nodes: info.nodes,
            seed: info.seed,
            shard: info.shard,
            games: counts.games,
            positions: counts.positions,
            bytes: counts.bytes,
            checksum: counts.checksum,
        };
        if let Some(why) = conflict(&pool, &entry) {
            bail!("{}: refused, {why}", input.display());
        }
        sente::eprintln_best_effort!(
            "{}: verified {} games, {} positions",
            input.display(),
            entry.games,
            entry.positions
        );
        // Later inputs are checked against this one too.
        pool.entries.push(entry.clone());
        staged.push(Staged {
            source: info.data,
            manifest: info.manifest,
            entry,
        });
    }
    for item in &staged {
        let target = dir.join(&item.entry.file);
        let tmp = dir.join(format!(".{}.tmp", item.entry.file));
        std::fs::copy(&item.source, &tmp)
            .with_context(|| format!("copying {} to {}", item.source.display(), tmp.display()))?;
        let copy =
            std::fs::File::open(&tmp).with_context(|| format!("opening {}", tmp.display()))?;
        copy.sync_all()
            .with_context(|| format!("syncing {}", tmp.display()))?;
        let copied_sum =
            checksum(&std::fs::read(&tmp).with_context(|| format!("reading {}", tmp.display()))?);
        if copied_sum != item.entry.checksum {
            let _ = std::fs::remove_file(&tmp);
            bail!(
                "{} changed while it was added (checksum {copied_sum:016x}, verified {:016x})",
                item.source.display(),
                item.entry.checksum
            );
        }
        std::fs::rename(&tmp, &target)
            .with_context(|| format!("renaming {} to {}", tmp.display(), target.display()))?;
        write_synced(
            &dir.join(format!("{}.run.txt", item.entry.file)),
            item.manifest.as_bytes(),
        )?;
    }
    sync_dir(dir);
    save(&pool)?;
    if options.move_files {
        for item in &staged {
            std::fs::remove_file(&item.source)
                .with_context(|| format!("removing {}", item.source.display()))?;
        }
    }
    drop(lock);
    Ok(staged.into_iter().map(|s| s.entry).collect())
}

/// Takes the manifest's files named in `files` out of the pool at `dir` (training no longer reads
/// them) and moves each, with its `.run.txt`, into `dir/retired/`, whose `retired.tsv` keeps
/// their manifest rows. Every name is checked before anything changes: one unknown name retires
/// nothing. The manifest is rewritten first, so a kill at any moment leaves a pool whose manifest
/// lists only files it holds. Returns the retired entries.
pub fn retire(dir: &Path, files: &[String]) -> Result<Vec<PoolEntry>> {
    if files.is_empty() {
        bail!("name the pool files to retire (as `datagen pool list` prints them)");
    }
    if !Pool::is_pool(dir) {
        bail!("{} is not a pool (no manifest)", dir.display());
    }
    let lock = lock_pool(dir)?;
    let mut pool = Pool::open(dir)?;
    for (k, file) in files.iter().enumerate() {
        if !pool.entries.iter().any(|e| &e.file == file) {
            bail!("{file} is not in the pool at {}", dir.display());
        }
        if files[..k].contains(file) {
            bail!("{file} is named twice");
        }
    }
    let (retired, kept): (Vec<PoolEntry>, Vec<PoolEntry>) = pool
        .entries
        .drain(..)
        .partition(|e| files.contains(&e.file));
    pool.entries = kept;
    let retired_dir = dir.join(RETIRED);
    std::fs::create_dir_all(&retired_dir)
        .with_context(|| format!("creating {}", retired_dir.display()))?;
    let log_path = retired_dir.join("retired.tsv");
    // A retry after a kill between this log and the manifest finds its rows already written.
    let logged = match std::fs::read_to_string(&log_path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", log_path.display())),
    };
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .with_context(|| format!("opening {}", log_path.display()))?;
    for entry in retired
        .iter()
        .filter(|e| !logged.lines().any(|line| line == e.row()))
    {
        writeln!(log, "{}", entry.row())
            .and_then(|()| log.sync_all())
            .with_context(|| format!("writing {}", log_path.display()))?;
    }
    save(&pool)?;
    for entry in &retired {
        for name in [entry.file.clone(), format!("{}.run.txt", entry.file)] {
            let (from, to) = (dir.join(&name), retired_dir.join(&name));
            if from.exists() {
                std::fs::rename(&from, &to)
                    .with_context(|| format!("moving {} to {}", from.display(), to.display()))?;
            }
        }
    }
    sync_dir(&retired_dir);
    sync_dir(dir);
    drop(lock);
    Ok(retired)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente::game::GameKind;
    use sente_data::shard::Shard;

    fn entry(file: &str, seed: u64, shard: Shard, games: u64, checksum: u64) -> PoolEntry {
        PoolEntry {
            file: file.to_string(),
            generation: 2,
            evaluator: "classical".to_string(),
            nodes: 500,
            seed,
            shard,
            games,
            positions: games * 50,
            bytes: games * 300,
            checksum,
        }
    }

    #[test]
    fn the_listing_totals_the_pool_per_generation_and_overall() {
        let mut later = entry("c.bin", 2, Shard::WHOLE, 4, 0x123);
        later.generation = 3;
        let pool = Pool {
            dir: PathBuf::from("/p"),
            game: GameKind::Shogi,
            entries: vec![
                entry("a.bin", 1, Shard::new(0, 2).unwrap(), 10, 0xabc),
                entry("b.bin", 1, Shard::new(1, 2).unwrap(), 10, 0xdef),
                later,
            ],
        };
        let text = listing(&pool);
        assert!(text.starts_with("pool /p (shogi)\n"), "{text}");
        assert!(
            text.contains("generation 2: 2 files, 20 games, 1000 positions, 6000 bytes\n"),
            "{text}"
        );
        assert!(text.contains("generation 3: 1 files, 4 games"), "{text}");
        assert!(
            text.contains("total: 3 files, 24 games, 1200 positions"),
            "{text}"
        );
    }

    #[test]
    fn conflicts_are_overlapping_indices_of_one_series_or_equal_content() {
        let mut pool = Pool {
            dir: PathBuf::from("/p"),
            game: GameKind::Chess,
            entries: vec![entry("a.bin", 1, Shard::new(0, 4).unwrap(), 8, 1)],
        };
        // Shard 1/4 of the same series: disjoint indices.
        assert_eq!(
            conflict(&pool, &entry("b", 1, Shard::new(1, 4).unwrap(), 8, 2)),
            None
        );
        // Another seed: a different series.
        assert_eq!(conflict(&pool, &entry("c", 2, Shard::WHOLE, 64, 3)), None);
        // A whole run of the same series overlaps at game 0.
        let why = conflict(&pool, &entry("d", 1, Shard::WHOLE, 64, 4)).unwrap();
        assert!(why.contains("game 0"), "{why}");
        // Shard 2/8 holds 2, 10, ... ; 0/4 holds 0, 4, 8, ..., 28: overlap at 4? no, at 10? no.
        // 2/8 → 2, 10, 18, 26 none ≡ 0 mod 4: disjoint.
        assert_eq!(
            conflict(&pool, &entry("e", 1, Shard::new(2, 8).unwrap(), 4, 5)),
            None
        );
        // 4/8 → 4, 12: in 0/4's first 8 games (0..28).
        assert!(conflict(&pool, &entry("f", 1, Shard::new(4, 8).unwrap(), 2, 6)).is_some());
        // Same content under another name.
        pool.entries[0].evaluator = "fnv1a64:1".to_string();
        let copy = PoolEntry {
            file: "g".into(),
            ..pool.entries[0].clone()
        };
        assert!(conflict(&pool, &copy).unwrap().contains("same content"));
    }
}
