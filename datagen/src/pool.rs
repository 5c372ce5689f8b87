//! A data pool: one directory per game holding verified datagen files and `pool.tsv`, a
//! human-readable manifest with one row per file (generation, evaluator, nodes, seed, shard,
//! games, positions, bytes, checksum). `datagen pool add` verifies files (checksums, contiguous
//! chunks, replay of every game), refuses duplicates and other games' data, copies the files in
//! and rewrites the manifest atomically (temporary file, fsync, rename), one writer at a time
//! (a lock on `pool.lock`); `datagen pool list`
//! prints it with totals; `expand_data_paths` turns a pool directory into its files (tuner).

use crate::format;
use crate::run_info::{self, read_indexed_games, RunInfo};
use crate::shard::Shard;
use anyhow::{anyhow, bail, Context, Result};
use sente::game::{Game, GameKind};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The manifest's file name inside a pool directory.
pub const MANIFEST: &str = "pool.tsv";
/// File locked by `add` while it changes the pool.
const LOCK: &str = "pool.lock";
const HEADER_PREFIX: &str = "sente-pool v1\t";
const COLUMNS: &str =
    "file\tgeneration\tevaluator\tnodes\tseed\tshard\tgames\tpositions\tbytes\tchecksum";

/// One file of a pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolEntry {
    /// File name inside the pool directory.
    pub file: String,
    pub generation: u32,
    /// `classical`, `default` or `fnv1a64:<hex>` of the net.
    pub evaluator: String,
    pub nodes: u64,
    pub seed: u64,
    pub shard: Shard,
    pub games: u64,
    pub positions: u64,
    pub bytes: u64,
    /// FNV-1a 64 of the whole file.
    pub checksum: u64,
}

impl PoolEntry {
    /// Whether both files play the same games for the same global index (same seed, evaluator
    /// and node limit), so they must not share an index.
    fn same_series(&self, other: &PoolEntry) -> bool {
        self.seed == other.seed && self.evaluator == other.evaluator && self.nodes == other.nodes
    }

    /// The global game indices the file holds (shard share of the first `games`).
    fn indices(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.games).map(|k| self.shard.global(k))
    }

    fn holds_index(&self, global: u64) -> bool {
        self.shard.contains(global) && (global - self.shard.index) / self.shard.count < self.games
    }

    fn row(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:016x}",
            self.file,
            self.generation,
            self.evaluator,
            self.nodes,
            self.seed,
            self.shard,
            self.games,
            self.positions,
            self.bytes,
            self.checksum
        )
    }

    fn parse_row(line: &str) -> Result<Self> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [file, generation, evaluator, nodes, seed, shard, games, positions, bytes, checksum] =
            fields[..]
        else {
            bail!("{} fields, expected 10", fields.len());
        };
        let number = |name: &str, text: &str| -> Result<u64> {
            text.parse()
                .map_err(|_| anyhow!("{name} '{text}' is not a number"))
        };
        if file.is_empty() || file.contains('/') || file.starts_with('.') {
            bail!("bad file name '{file}'");
        }
        Ok(Self {
            file: file.to_string(),
            generation: generation
                .parse()
                .map_err(|_| anyhow!("generation '{generation}' is not a number"))?,
            evaluator: evaluator.to_string(),
            nodes: number("nodes", nodes)?,
            seed: number("seed", seed)?,
            shard: shard.parse()?,
            games: number("games", games)?,
            positions: number("positions", positions)?,
            bytes: number("bytes", bytes)?,
            checksum: u64::from_str_radix(checksum, 16)
                .map_err(|_| anyhow!("checksum '{checksum}' is not hexadecimal"))?,
        })
    }
}

/// A pool directory and its manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    pub dir: PathBuf,
    /// `chess` or `shogi`: a pool holds one game.
    pub game: String,
    pub entries: Vec<PoolEntry>,
}

impl Pool {
    /// Whether `dir` holds a pool manifest.
    pub fn is_pool(dir: &Path) -> bool {
        dir.join(MANIFEST).is_file()
    }

    /// Reads the manifest of an existing pool.
    pub fn open(dir: &Path) -> Result<Self> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {} (not a pool?)", path.display()))?;
        Self::parse(dir, &text).with_context(|| format!("{}", path.display()))
    }

    fn parse(dir: &Path, text: &str) -> Result<Self> {
        let mut lines = text.lines().enumerate();
        let game = lines
            .next()
            .and_then(|(_, l)| l.strip_prefix(HEADER_PREFIX))
            .ok_or_else(|| anyhow!("line 1: expected '{HEADER_PREFIX}<game>'"))?;
        if GameKind::from_name(game).is_none() {
            bail!("line 1: game '{game}' is neither chess nor shogi");
        }
        if lines.next().map(|(_, l)| l) != Some(COLUMNS) {
            bail!("line 2: expected the column names '{COLUMNS}'");
        }
        let mut entries = Vec::new();
        for (number, line) in lines {
            if line.is_empty() {
                continue;
            }
            entries
                .push(PoolEntry::parse_row(line).with_context(|| format!("line {}", number + 1))?);
        }
        Ok(Self {
            dir: dir.to_path_buf(),
            game: game.to_string(),
            entries,
        })
    }

    fn render(&self) -> String {
        let mut text = format!("{HEADER_PREFIX}{}\n{COLUMNS}\n", self.game);
        for entry in &self.entries {
            text.push_str(&entry.row());
            text.push('\n');
        }
        text
    }

    /// Writes the manifest atomically: a temporary file, synced, renamed over the old one.
    fn save(&self) -> Result<()> {
        let path = self.dir.join(MANIFEST);
        let tmp = self.dir.join(format!("{MANIFEST}.tmp"));
        write_synced(&tmp, self.render().as_bytes())?;
        std::fs::rename(&tmp, &path)
            .with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))?;
        sync_dir(&self.dir);
        Ok(())
    }

    /// The data files of the pool, in manifest order.
    pub fn files(&self) -> Vec<PathBuf> {
        self.entries
            .iter()
            .map(|e| self.dir.join(&e.file))
            .collect()
    }

    /// Why `candidate` may not join the pool (same content, or a game index already held by a
    /// file of the same series), or `None`.
    fn conflict(&self, candidate: &PoolEntry) -> Option<String> {
        for entry in &self.entries {
            if entry.checksum == candidate.checksum && entry.bytes == candidate.bytes {
                return Some(format!("the same content as {}", entry.file));
            }
            if entry.same_series(candidate) {
                let (small, large) = if entry.games <= candidate.games {
                    (entry, candidate)
                } else {
                    (candidate, entry)
                };
                if let Some(index) = small.indices().find(|&i| large.holds_index(i)) {
                    return Some(format!(
                        "game {index} of seed {}, evaluator {}, {} nodes, already in {}",
                        entry.seed, entry.evaluator, entry.nodes, entry.file
                    ));
                }
            }
        }
        None
    }

    /// Prints the manifest and its totals (all, and per generation).
    pub fn listing(&self) -> String {
        let mut text = format!("pool {} ({})\n{COLUMNS}\n", self.dir.display(), self.game);
        let mut by_generation: BTreeMap<u32, [u64; 4]> = BTreeMap::new();
        for entry in &self.entries {
            text.push_str(&entry.row());
            text.push('\n');
            let totals = by_generation.entry(entry.generation).or_default();
            for (total, value) in
                totals
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
        let sum = |f: fn(&PoolEntry) -> u64| self.entries.iter().map(f).sum::<u64>();
        let _ = writeln!(
            text,
            "total: {} files, {} games, {} positions, {} bytes",
            self.entries.len(),
            sum(|e| e.games),
            sum(|e| e.positions),
            sum(|e| e.bytes)
        );
        text
    }
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
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    // One writer at a time (e.g. two merge jobs of a cluster); the lock goes with the process.
    let lock_path = dir.join(LOCK);
    let lock = std::fs::File::create(&lock_path)
        .with_context(|| format!("creating {}", lock_path.display()))?;
    lock.lock()
        .with_context(|| format!("locking {}", lock_path.display()))?;
    let mut pool = if Pool::is_pool(dir) {
        Pool::open(dir)?
    } else {
        Pool {
            dir: dir.to_path_buf(),
            game: G::NAME.to_string(),
            entries: Vec::new(),
        }
    };
    if pool.game != G::NAME {
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
        if info.game != G::NAME {
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
        let counts = read_indexed_games(&info.data, format::game_id::<G>(), info.shard, |_, r| {
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
        if let Some(why) = pool.conflict(&entry) {
            bail!("{}: refused, {why}", input.display());
        }
        eprintln!(
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
        let copy = std::fs::File::open(&tmp)?;
        copy.sync_all()?;
        let copied_sum = format::checksum(&std::fs::read(&tmp)?);
        if copied_sum != item.entry.checksum {
            let _ = std::fs::remove_file(&tmp);
            bail!(
                "{} changed while it was added (checksum {copied_sum:016x}, verified {:016x})",
                item.source.display(),
                item.entry.checksum
            );
        }
        std::fs::rename(&tmp, &target)?;
        write_synced(
            &dir.join(format!("{}.run.txt", item.entry.file)),
            item.manifest.as_bytes(),
        )?;
    }
    sync_dir(dir);
    pool.save()?;
    if options.move_files {
        for item in &staged {
            std::fs::remove_file(&item.source)
                .with_context(|| format!("removing {}", item.source.display()))?;
        }
    }
    drop(lock);
    Ok(staged.into_iter().map(|s| s.entry).collect())
}

/// Data files for readers: a pool directory becomes its manifest's files, a run directory its
/// `data.bin`; files stay as they are.
pub fn expand_data_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if Pool::is_pool(path) {
            files.extend(Pool::open(path)?.files());
        } else if path.is_dir() {
            let data = path.join("data.bin");
            if !data.is_file() {
                bail!(
                    "{} is a directory but neither a pool ({MANIFEST}) nor a run (data.bin)",
                    path.display()
                );
            }
            files.push(data);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_manifest_round_trips_and_bad_rows_are_named() {
        let pool = Pool {
            dir: PathBuf::from("/p"),
            game: "shogi".to_string(),
            entries: vec![
                entry("a.bin", 1, Shard::new(0, 2).unwrap(), 10, 0xabc),
                entry("b.bin", 1, Shard::new(1, 2).unwrap(), 10, 0xdef),
            ],
        };
        let text = pool.render();
        assert_eq!(Pool::parse(Path::new("/p"), &text).unwrap(), pool);
        let broken = text.replace("\t500\t", "\tfive\t");
        let error = format!("{:#}", Pool::parse(Path::new("/p"), &broken).unwrap_err());
        assert!(
            error.contains("line 3") && error.contains("five"),
            "{error}"
        );
        assert!(Pool::parse(Path::new("/p"), "sente-pool v1\tgo\n").is_err());
        assert!(pool
            .listing()
            .contains("total: 2 files, 20 games, 1000 positions"));
    }

    #[test]
    fn conflicts_are_overlapping_indices_of_one_series_or_equal_content() {
        let mut pool = Pool {
            dir: PathBuf::from("/p"),
            game: "chess".to_string(),
            entries: vec![entry("a.bin", 1, Shard::new(0, 4).unwrap(), 8, 1)],
        };
        // Shard 1/4 of the same series: disjoint indices.
        assert_eq!(
            pool.conflict(&entry("b", 1, Shard::new(1, 4).unwrap(), 8, 2)),
            None
        );
        // Another seed: a different series.
        assert_eq!(pool.conflict(&entry("c", 2, Shard::WHOLE, 64, 3)), None);
        // A whole run of the same series overlaps at game 0.
        let why = pool.conflict(&entry("d", 1, Shard::WHOLE, 64, 4)).unwrap();
        assert!(why.contains("game 0"), "{why}");
        // Shard 2/8 holds 2, 10, ... ; 0/4 holds 0, 4, 8, ..., 28: overlap at 4? no, at 10? no.
        // 2/8 → 2, 10, 18, 26 none ≡ 0 mod 4: disjoint.
        assert_eq!(
            pool.conflict(&entry("e", 1, Shard::new(2, 8).unwrap(), 4, 5)),
            None
        );
        // 4/8 → 4, 12: in 0/4's first 8 games (0..28).
        assert!(pool
            .conflict(&entry("f", 1, Shard::new(4, 8).unwrap(), 2, 6))
            .is_some());
        // Same content under another name.
        pool.entries[0].evaluator = "fnv1a64:1".to_string();
        assert!(pool
            .conflict(&PoolEntry {
                file: "g".into(),
                ..pool.entries[0].clone()
            })
            .unwrap()
            .contains("same content"));
    }
}
