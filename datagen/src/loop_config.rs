//! `datagen loop --config FILE.toml`: the loop's settings, read with serde from TOML and checked
//! whole before anything runs, each error naming its key. Paths are relative to the config
//! file's directory; `~/` is the home directory.

use crate::side_searchers::SideSearchers;
use anyhow::{anyhow, bail, Context, Result};
use sente::game::GameKind;
use sente::selfplay::Sprt;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The file as written (every key has a default but `game`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    game: String,
    #[serde(default = "default_data")]
    data: String,
    #[serde(default = "default_repository")]
    repository: String,
    max_generation: Option<u32>,
    max_attempts: Option<u32>,
    #[serde(default)]
    generate: GenerateSection,
    #[serde(default)]
    train: TrainSection,
    #[serde(default, rename = "match")]
    matches: MatchSection,
    #[serde(default)]
    rescore: RescoreSection,
    #[serde(default)]
    publish: bool,
    slurm: Option<SlurmSection>,
}

fn default_data() -> String {
    "~/sente-data".into()
}
fn default_repository() -> String {
    ".".into()
}

/// `[generate]`: the self-play data of each attempt.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct GenerateSection {
    /// Node limit per move.
    pub nodes: u64,
    /// Scored positions of new data per attempt.
    pub positions: u64,
    /// Games per attempt instead (a sharded run on Slurm needs a game count).
    pub games: Option<u64>,
    pub threads: usize,
    /// Search switches changed from the game's defaults (`datagen run --search`).
    pub search: Option<String>,
    /// Chess: games start from random Chess960 / DFRC back ranks (`datagen run --dfrc`), so the
    /// attempt's files add positions a standard start never reaches to the pool.
    pub dfrc: bool,
    /// `shared` (one searcher for both sides of a game) or `per-side` (`datagen run
    /// --searchers`; `per-side` resumes an attempt begun before `shared`).
    pub searchers: SideSearchers,
}

impl Default for GenerateSection {
    fn default() -> Self {
        Self {
            nodes: 1250,
            positions: 3_000_000,
            games: None,
            threads: 1,
            search: None,
            dfrc: false,
            searchers: SideSearchers::Shared,
        }
    }
}

/// `[train]`: the trainer's settings (`tuner train`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct TrainSection {
    pub superbatches: u32,
    /// Passes over the training set instead of a fixed count: the superbatches are then the
    /// set's positions (its pool listing) × `epochs` / (`batches` × `batch`), rounded up, so a
    /// growing pool is trained as long per position (`superbatches` is unused).
    pub epochs: Option<f64>,
    pub batches: u32,
    pub batch: usize,
    pub lr: String,
    pub wdl: f32,
    pub val_every: usize,
    pub threads: usize,
    /// Hidden width; none: the game's default, or the `init = "best"` net's.
    pub l1: Option<usize>,
    /// King buckets of the trained net (one of `SUPPORTED_KING_BUCKETS`); none: the
    /// `init = "best"` net's count, or the game's default. A fine-tune may raise the best net's
    /// count (each new bucket starts as a copy of its rows), never lower it.
    pub king_buckets: Option<usize>,
    /// Train on left-right mirror images too (shogi).
    pub mirror: bool,
    /// `"best"`: start from the best net's weights (fine-tuning); `"random"`: from scratch.
    pub init: String,
}

impl Default for TrainSection {
    fn default() -> Self {
        Self {
            superbatches: 160,
            epochs: None,
            batches: 50,
            batch: 16384,
            lr: "cosine:0.001:0.00003".into(),
            wdl: 0.0,
            val_every: 20,
            threads: 2,
            l1: None,
            king_buckets: None,
            mirror: false,
            init: "random".into(),
        }
    }
}

/// `[match]`: the promotion SPRT and the rounds that go on from an undecided one.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct MatchSection {
    pub pairs: u64,
    pub nodes: u64,
    /// The new net's own node limit: a number, or `"auto"` (measured speed ratio).
    pub a_nodes: toml::Value,
    pub sprt: String,
    pub extra_rounds: u32,
    pub extra_pairs: u64,
    pub extra_min_llr: f64,
    pub threads: usize,
}

impl Default for MatchSection {
    fn default() -> Self {
        Self {
            pairs: 1500,
            nodes: 5000,
            a_nodes: toml::Value::String("same".into()),
            sprt: "0,10".into(),
            extra_rounds: 4,
            extra_pairs: 250,
            extra_min_llr: 0.0,
            threads: 2,
        }
    }
}

/// `[rescore]`: after a promotion, the oldest pool files relabelled by the new best net.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct RescoreSection {
    /// Positions to rescore per generation (0: off).
    pub positions: u64,
    pub nodes: u64,
}

impl Default for RescoreSection {
    fn default() -> Self {
        Self {
            positions: 0,
            nodes: 1000,
        }
    }
}

/// `[slurm]`: the generate and match steps as Slurm job arrays.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SlurmSection {
    /// Array tasks per step.
    pub shards: u32,
    #[serde(default = "one")]
    pub cpus_per_task: usize,
    /// More `sbatch` options (e.g. `["--partition=cpu"]`).
    #[serde(default)]
    pub sbatch_args: Vec<String>,
    /// The datagen binary the tasks run (default: this one).
    pub datagen: Option<String>,
}

fn one() -> usize {
    1
}

/// How the new net's node limit in the promotion match is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeOdds {
    /// `[match] nodes`, as the best net.
    Same,
    Fixed(u64),
    /// Measured: the nodes the new net searches in the time the best searches `nodes`.
    Auto,
}

/// The checked configuration.
#[derive(Clone, Debug)]
pub struct LoopConfig {
    pub game: GameKind,
    /// The data root (`SENTE_DATA`): the game's files are in `data/GAME`.
    pub data: PathBuf,
    /// The repository: `nets/GAME-default.nnue` seeds the best net; promoted nets are published
    /// into its `nets/` when `publish` is set.
    pub repository: PathBuf,
    pub max_generation: u32,
    pub max_attempts: u32,
    pub generate: GenerateSection,
    pub train: TrainSection,
    pub train_init_best: bool,
    pub matches: MatchSection,
    pub node_odds: NodeOdds,
    pub sprt: Sprt,
    pub rescore: RescoreSection,
    pub publish: bool,
    pub slurm: Option<SlurmSection>,
}

fn expand(path: &str, base: &Path) -> PathBuf {
    if let Some(rest) = path.strip_prefix("~/") {
        if let Some(home) = std::env::var_os("HOME") {
            return PathBuf::from(home).join(rest);
        }
    }
    base.join(path)
}

fn at_least_one(value: u64, key: &str) -> Result<()> {
    if value == 0 {
        bail!("{key} must be at least 1");
    }
    Ok(())
}

impl LoopConfig {
    /// Reads and checks `path`.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the loop config {}", path.display()))?;
        // The loop works inside its data folder, so paths relative to the config's folder are
        // made absolute here, while the working directory is still the caller's.
        let absolute = std::path::absolute(path)
            .with_context(|| format!("resolving the loop config path {}", path.display()))?;
        let base = absolute.parent().unwrap_or(Path::new("/"));
        Self::parse(&text, base).with_context(|| format!("loop config {}", path.display()))
    }

    /// Checks the TOML text `text` (paths relative to `base`).
    pub fn parse(text: &str, base: &Path) -> Result<Self> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| anyhow!("{e}"))?;
        let game = match raw.game.as_str() {
            "chess" => GameKind::Chess,
            "shogi" => GameKind::Shogi,
            other => bail!("game = \"{other}\": give \"chess\" or \"shogi\""),
        };
        let g = &raw.generate;
        at_least_one(g.nodes, "generate.nodes")?;
        at_least_one(g.positions, "generate.positions")?;
        at_least_one(g.threads as u64, "generate.threads")?;
        if let Some(games) = g.games {
            at_least_one(games, "generate.games")?;
        }
        if let Some(search) = &g.search {
            sente::search::SearchFeatures::check_changes(search)
                .map_err(|e| anyhow!("generate.search: {e}"))?;
        }
        let t = &raw.train;
        at_least_one(t.superbatches.into(), "train.superbatches")?;
        if let Some(epochs) = t.epochs {
            if !(epochs > 0.0 && epochs <= 1000.0) {
                bail!("train.epochs = {epochs}: must be above 0 and at most 1000");
            }
        }
        at_least_one(t.batches.into(), "train.batches")?;
        at_least_one(t.batch as u64, "train.batch")?;
        at_least_one(t.threads as u64, "train.threads")?;
        t.lr.parse::<tuner::schedule::LrSchedule>()
            .map_err(|e| anyhow!("train.lr = \"{}\": {e}", t.lr))?;
        if !(0.0..=1.0).contains(&t.wdl) {
            bail!("train.wdl = {}: must be within 0..1", t.wdl);
        }
        if let Some(l1) = t.l1 {
            if !sente::nnue::arch::SUPPORTED_L1.contains(&l1) {
                bail!(
                    "train.l1 = {l1}: not a supported width ({:?})",
                    sente::nnue::arch::SUPPORTED_L1
                );
            }
        }
        if let Some(buckets) = t.king_buckets {
            if !sente::nnue::arch::SUPPORTED_KING_BUCKETS.contains(&buckets) {
                bail!(
                    "train.king_buckets = {buckets}: not a supported count ({:?})",
                    sente::nnue::arch::SUPPORTED_KING_BUCKETS
                );
            }
        }
        if raw.generate.dfrc && game != GameKind::Chess {
            bail!("generate.dfrc: DFRC start positions are chess's; leave it false");
        }
        if t.mirror && game == GameKind::Chess {
            bail!("train.mirror: chess has no exact left-right symmetry; leave it false");
        }
        let train_init_best = match t.init.as_str() {
            "best" => true,
            "random" => false,
            other => bail!("train.init = \"{other}\": give \"best\" or \"random\""),
        };
        let m = &raw.matches;
        at_least_one(m.pairs, "match.pairs")?;
        at_least_one(m.nodes, "match.nodes")?;
        at_least_one(m.threads as u64, "match.threads")?;
        let node_odds = match &m.a_nodes {
            toml::Value::String(s) if s == "auto" => NodeOdds::Auto,
            toml::Value::String(s) if s == "same" => NodeOdds::Same,
            toml::Value::Integer(n) if *n >= 1 => NodeOdds::Fixed(*n as u64),
            other => bail!("match.a_nodes = {other}: give a node count, \"auto\" or \"same\""),
        };
        let sprt =
            crate::match_play::parse_sprt(&m.sprt).map_err(|e| anyhow!("match.sprt: {e}"))?;
        if sprt.elo0 >= sprt.elo1 {
            bail!("match.sprt = \"{}\": ELO0 must be below ELO1", m.sprt);
        }
        if raw.rescore.positions > 0 {
            at_least_one(raw.rescore.nodes, "rescore.nodes")?;
        }
        if let Some(slurm) = &raw.slurm {
            at_least_one(slurm.shards.into(), "slurm.shards")?;
            at_least_one(slurm.cpus_per_task as u64, "slurm.cpus_per_task")?;
            if g.games.is_none() {
                bail!("slurm: set generate.games (a run split into array tasks shares out a game count, not positions)");
            }
        }
        Ok(LoopConfig {
            game,
            data: expand(&raw.data, base),
            repository: expand(&raw.repository, base),
            max_generation: raw.max_generation.unwrap_or(u32::MAX),
            max_attempts: raw.max_attempts.unwrap_or(u32::MAX),
            generate: raw.generate,
            train: raw.train,
            train_init_best,
            matches: raw.matches,
            node_odds,
            sprt,
            rescore: raw.rescore,
            publish: raw.publish,
            slurm: raw.slurm,
        })
    }

    /// The game's directory inside the data root, relative to the data root.
    pub fn game_dir(&self) -> PathBuf {
        PathBuf::from(self.game.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        format!("{:#}", LoopConfig::parse(text, Path::new(".")).unwrap_err())
    }

    #[test]
    fn the_shipped_configs_are_valid() {
        for game in ["chess", "shogi"] {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("loop")
                .join(format!("{game}.toml"));
            let config = LoopConfig::load(&path).unwrap();
            assert_eq!(config.game.name(), game);
            assert_eq!(config.generate.nodes, 1250);
            assert_eq!(config.node_odds, NodeOdds::Auto);
            assert!(config.train_init_best);
            assert_eq!(config.train.l1, Some(256));
        }
    }

    #[test]
    fn a_relative_config_path_gives_absolute_paths() {
        // `datagen loop --config datagen/loop/chess.toml` from the repository root: the loop
        // later works inside its data folder, where a relative repository path would not resolve.
        let relative = Path::new("loop").join("chess.toml");
        assert!(relative.is_relative());
        // Loading by a relative path (tests run with the crate folder as working directory).
        let config = LoopConfig::load(&relative).unwrap();
        assert!(
            config.repository.is_absolute(),
            "{}",
            config.repository.display()
        );
        assert!(config
            .repository
            .join("nets")
            .join("chess-default.nnue")
            .is_file());
    }

    #[test]
    fn dfrc_reaches_the_attempts_generation() {
        let chess = LoopConfig::parse("game = \"chess\"\n[generate]\ndfrc = true", Path::new("."));
        assert!(chess.unwrap().generate.dfrc);
        let default = LoopConfig::parse("game = \"chess\"", Path::new(".")).unwrap();
        assert!(!default.generate.dfrc);
    }

    #[test]
    fn errors_name_the_key() {
        assert!(error("game = \"go\"").contains("game = \"go\""));
        assert!(error("game = \"chess\"\n[generate]\nnodez = 3").contains("nodez"));
        assert!(error("game = \"chess\"\n[generate]\nnodes = 0").contains("generate.nodes"));
        assert!(error("game = \"chess\"\n[train]\nlr = \"fast\"").contains("train.lr"));
        assert!(error("game = \"chess\"\n[train]\nmirror = true").contains("train.mirror"));
        assert!(error("game = \"shogi\"\n[generate]\ndfrc = true").contains("generate.dfrc"));
        assert!(error("game = \"chess\"\n[generate]\nsearchers = \"both\"").contains("searchers"));
        assert!(error("game = \"chess\"\n[train]\nking_buckets = 3").contains("train.king_buckets"));
        assert!(error("game = \"chess\"\n[train]\nepochs = 0.0").contains("train.epochs"));
        assert!(error("game = \"chess\"\n[train]\nepochs = -1.5").contains("train.epochs"));
        assert!(error("game = \"chess\"\n[train]\ninit = \"latest\"").contains("train.init"));
        assert!(error("game = \"chess\"\n[match]\na_nodes = \"fast\"").contains("match.a_nodes"));
        assert!(error("game = \"chess\"\n[match]\nsprt = \"10,0\"").contains("match.sprt"));
        assert!(error("game = \"chess\"\n[slurm]\nshards = 2").contains("generate.games"));
        assert!(error("game = \"chess\"\n[generate]\nnodes = \"x\"").contains("nodes"));
    }
}
