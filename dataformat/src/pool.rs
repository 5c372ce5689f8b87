//! A data pool's manifest: a pool is one directory per game holding verified data files and
//! `pool.tsv`, a human-readable manifest with one row per file (generation, evaluator, nodes,
//! seed, shard, games, positions, bytes, checksum). This module reads and renders the manifest;
//! `datagen pool add` (in datagen) verifies files and writes it.

use crate::shard::Shard;
use anyhow::{anyhow, bail, Context, Result};
use sente::game::GameKind;
use std::path::{Path, PathBuf};

/// The manifest's file name inside a pool directory.
pub const MANIFEST: &str = "pool.tsv";
const HEADER_PREFIX: &str = "sente-pool v1\t";
/// The manifest's column names (its second line), tab-separated.
pub const COLUMNS: &str =
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
    /// The entry's manifest row (tab-separated, no newline).
    pub fn row(&self) -> String {
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
    /// A pool holds one game.
    pub game: GameKind,
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

    /// Parses manifest text (of the pool at `dir`); errors name the line.
    pub fn parse(dir: &Path, text: &str) -> Result<Self> {
        let mut lines = text.lines().enumerate();
        let game = lines
            .next()
            .and_then(|(_, l)| l.strip_prefix(HEADER_PREFIX))
            .ok_or_else(|| anyhow!("line 1: expected '{HEADER_PREFIX}<game>'"))?;
        let game = game.parse().context("line 1")?;
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
            game,
            entries,
        })
    }

    /// The manifest text (what `parse` reads back).
    pub fn render(&self) -> String {
        let mut text = format!("{HEADER_PREFIX}{}\n{COLUMNS}\n", self.game);
        for entry in &self.entries {
            text.push_str(&entry.row());
            text.push('\n');
        }
        text
    }

    /// The data files of the pool, in manifest order.
    pub fn files(&self) -> Vec<PathBuf> {
        self.entries
            .iter()
            .map(|e| self.dir.join(&e.file))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(file: &str, shard: Shard, checksum: u64) -> PoolEntry {
        PoolEntry {
            file: file.to_string(),
            generation: 2,
            evaluator: "classical".to_string(),
            nodes: 500,
            seed: 1,
            shard,
            games: 10,
            positions: 500,
            bytes: 3000,
            checksum,
        }
    }

    #[test]
    fn the_manifest_round_trips_and_bad_rows_are_named() {
        let pool = Pool {
            dir: PathBuf::from("/p"),
            game: GameKind::Shogi,
            entries: vec![
                entry("a.bin", Shard::new(0, 2).unwrap(), 0xabc),
                entry("b.bin", Shard::new(1, 2).unwrap(), 0xdef),
            ],
        };
        let text = pool.render();
        assert!(text.starts_with("sente-pool v1\tshogi\n"), "{text}");
        assert_eq!(Pool::parse(Path::new("/p"), &text).unwrap(), pool);
        assert_eq!(pool.files()[1], PathBuf::from("/p/b.bin"));
        let broken = text.replace("\t500\t", "\tfive\t");
        let error = format!("{:#}", Pool::parse(Path::new("/p"), &broken).unwrap_err());
        assert!(
            error.contains("line 3") && error.contains("five"),
            "{error}"
        );
        let error = format!(
            "{:#}",
            Pool::parse(Path::new("/p"), "sente-pool v1\tgo\n").unwrap_err()
        );
        assert!(
            error.contains("line 1") && error.contains("unknown game 'go'"),
            "{error}"
        );
        for bad_name in ["", "../x.bin", ".hidden"] {
            let row = entry(bad_name, Shard::WHOLE, 1).row();
            assert!(PoolEntry::parse_row(&row).is_err(), "{bad_name:?}");
        }
    }
}
