//! What a finished `datagen run` directory says about its data: the settings in `run.txt`
//! (game, nodes, seed, evaluator, shard), the evaluator's identity (`evaluator.txt`: `classical`,
//! `default` or the net file's content hash), and a strict reader that yields every game with its
//! global game index (checksums checked, chunks contiguous from game 0, no torn tail).

use anyhow::{anyhow, bail, Context, Result};
use sente::game::GameKind;
use sente::nnue::EvalChoice;
use sente_data::chunk::{checksum, read_chunk, ChunkError};
use sente_data::data_paths::run_data_file;
use sente_data::file::map_file;
use sente_data::scan::scan;
use sente_data::shard::Shard;
use sente_data::stored_game::StoredGame;
use std::path::{Path, PathBuf};

/// File beside `data.bin` naming the evaluator by content (written by `datagen run`).
pub const EVALUATOR_FILE: &str = "evaluator.txt";

/// A run's data file and the settings that produced it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunInfo {
    /// The data file.
    pub data: PathBuf,
    /// Its `run.txt`, verbatim.
    pub manifest: String,
    pub game: GameKind,
    pub nodes: u64,
    pub seed: u64,
    /// The evaluator as given to `datagen run --net` (`classical`, `default` or a path).
    pub evaluator_spec: String,
    pub shard: Shard,
}

impl RunInfo {
    /// Reads a run directory (holding `data.bin` and `run.txt`) or a data file with `run.txt`
    /// beside it.
    pub fn locate(path: &Path) -> Result<Self> {
        let (data, dir) = if path.is_dir() {
            (run_data_file(path), path.to_path_buf())
        } else {
            let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
            (path.to_path_buf(), dir)
        };
        if !data.is_file() {
            bail!(
                "{}: no data file (expected {})",
                path.display(),
                data.display()
            );
        }
        let manifest_path = dir.join("run.txt");
        let manifest = std::fs::read_to_string(&manifest_path).with_context(|| {
            format!(
                "{}: reading {} (the run's settings are needed)",
                path.display(),
                manifest_path.display()
            )
        })?;
        let mut info = Self::parse(&manifest)
            .with_context(|| format!("{}: bad run.txt", manifest_path.display()))?;
        info.data = data;
        Ok(info)
    }

    /// Parses `run.txt` (`key=value` lines after a `sente datagen vN` line).
    pub fn parse(manifest: &str) -> Result<Self> {
        let mut lines = manifest.lines();
        if !lines
            .next()
            .is_some_and(|l| l.starts_with("sente datagen v"))
        {
            bail!("does not start with 'sente datagen v'");
        }
        let field = |key: &str| -> Result<&str> {
            manifest
                .lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix('='))
                .ok_or_else(|| anyhow!("no {key}= line"))
        };
        let number = |key: &str| -> Result<u64> {
            let text = field(key)?;
            text.parse()
                .map_err(|_| anyhow!("{key}={text} is not a number"))
        };
        let shard = match field("shard") {
            Ok(text) => text.parse()?,
            Err(_) => Shard::WHOLE,
        };
        let game = field("game")?.parse()?;
        Ok(Self {
            data: PathBuf::new(),
            manifest: manifest.to_string(),
            game,
            nodes: number("nodes")?,
            seed: number("seed")?,
            evaluator_spec: field("evaluator")?.to_string(),
            shard,
        })
    }

    /// The evaluator by content: `evaluator.txt` beside the data when `datagen run` wrote one,
    /// else `classical` / `default`, else the hash of the net file named in `run.txt` (as a path
    /// from the current directory or the run directory), else an error asking for `--net`.
    pub fn evaluator_label(&self) -> Result<String> {
        let dir = self.data.parent().unwrap_or(Path::new("."));
        if let Ok(text) = std::fs::read_to_string(dir.join(EVALUATOR_FILE)) {
            let label = text.trim();
            if label.is_empty() || label.contains(char::is_whitespace) {
                bail!(
                    "{}: bad evaluator label '{label}'",
                    dir.join(EVALUATOR_FILE).display()
                );
            }
            return Ok(label.to_string());
        }
        let spec = &self.evaluator_spec;
        if !matches!(EvalChoice::from_name(spec), EvalChoice::Net(_)) {
            return evaluator_label(spec);
        }
        for candidate in [PathBuf::from(spec), dir.join(spec)] {
            if candidate.is_file() {
                return net_label(&candidate);
            }
        }
        bail!(
            "{}: the run's net '{spec}' is not found from here and the run has no {EVALUATOR_FILE}; give the net file with --net",
            self.data.display()
        )
    }
}

/// `fnv1a64:<hex>` of a net file's bytes.
pub fn net_label(path: &Path) -> Result<String> {
    let bytes =
        std::fs::read(path).with_context(|| format!("reading the net {}", path.display()))?;
    Ok(format!("fnv1a64:{:016x}", checksum(&bytes)))
}

/// `classical`, `default`, or the net file's `net_label`.
pub fn evaluator_label(spec: &str) -> Result<String> {
    match EvalChoice::from_name(spec) {
        EvalChoice::Default => Ok(EvalChoice::DEFAULT.to_string()),
        EvalChoice::Classical => Ok(EvalChoice::CLASSICAL.to_string()),
        EvalChoice::Net(path) => net_label(path),
    }
}

/// Counts of a data file read by `read_indexed_games`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileCounts {
    pub games: u64,
    pub positions: u64,
    pub bytes: u64,
    /// FNV-1a 64 of the whole file.
    pub checksum: u64,
}

/// Reads every game of `data` strictly: a damaged or torn chunk, a chunk of another game, or
/// chunks that are not contiguous from local game 0 are errors. Calls `visit(global index,
/// record)` with global index `shard.global(local)`.
pub fn read_indexed_games(
    data: &Path,
    game: GameKind,
    shard: Shard,
    mut visit: impl FnMut(u64, &StoredGame) -> Result<()>,
) -> Result<FileCounts> {
    let map = map_file(data)?;
    let scan = scan(&map);
    if let Some(damage) = scan.damaged.first() {
        bail!("{}: {damage} (resuming the run repairs it)", data.display());
    }
    if let Some((_, e)) = &scan.torn_tail {
        bail!(
            "{}: {e} (a torn tail is what a killed run leaves: resume the run first)",
            data.display()
        );
    }
    let chunks = scan.chunks;
    let mut counts = FileCounts {
        bytes: map.len() as u64,
        checksum: checksum(&map),
        ..FileCounts::default()
    };
    let mut next = 0u64;
    for info in &chunks {
        if info.game_id != game.id() {
            let error = ChunkError::WrongGame {
                offset: info.offset,
                expected: game.id(),
                found: info.game_id,
            };
            bail!("{}: {error}", data.display());
        }
        let (info, games) =
            read_chunk(&map, info.offset).map_err(|e| anyhow!("{}: {e}", data.display()))?;
        if info.first_game != next {
            bail!(
                "{}: chunk at byte {} starts at game {}, expected {next} (chunks must be contiguous)",
                data.display(),
                info.offset,
                info.first_game
            );
        }
        for (i, record) in games.iter().enumerate() {
            let global = shard.global(info.first_game + i as u64);
            visit(global, record).with_context(|| {
                format!(
                    "{}: game {global} (chunk at byte {})",
                    data.display(),
                    info.offset
                )
            })?;
            counts.games += 1;
            counts.positions += record.scored_plies();
        }
        next = info.first_game + info.games as u64;
    }
    Ok(counts)
}

/// FNV-1a 64 of a record's fields in a fixed layout (start text, moves, scores, result, end).
pub fn record_hash(record: &StoredGame) -> u64 {
    let mut bytes = Vec::with_capacity(record.start.len() + 4 * record.moves.len() + 16);
    bytes.extend_from_slice(&(record.start.len() as u64).to_le_bytes());
    bytes.extend_from_slice(record.start.as_bytes());
    bytes.extend_from_slice(&(record.moves.len() as u64).to_le_bytes());
    for m in &record.moves {
        bytes.extend_from_slice(&m.to_le_bytes());
    }
    for s in &record.scores {
        bytes.extend_from_slice(&s.to_le_bytes());
    }
    bytes.push(record.result);
    bytes.push(record.end);
    checksum(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_txt_is_parsed_with_and_without_a_shard() {
        let text = "sente datagen v1\ngame=chess\nnodes=5000\nseed=7\nrandom_plies=8\nevaluator=classical\n";
        let info = RunInfo::parse(text).unwrap();
        assert_eq!((info.nodes, info.seed, info.shard), (5000, 7, Shard::WHOLE));
        assert_eq!(info.evaluator_spec, "classical");
        let sharded = format!("{text}shard=2/4\n");
        assert_eq!(
            RunInfo::parse(&sharded).unwrap().shard,
            Shard::new(2, 4).unwrap()
        );
        assert!(RunInfo::parse("hello\n").is_err());
        assert!(RunInfo::parse(&text.replace("seed=7", "seed=x")).is_err());
        assert!(RunInfo::parse(&text.replace("game=chess", "game=go")).is_err());
    }
}
