//! The loop's state: where it stands (best net, generation, attempt, step and what the step
//! has fixed), one TOML file `GAME/loop-state.toml` rewritten atomically (a temporary file
//! synced, then renamed over) after every transition, so a kill at any moment leaves the last
//! state whole. A game directory the shell loop (`scripts/loop/run.sh`) kept, with `best.txt`
//! and marker files, is read once into this state.

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The state file's name inside the game directory.
pub const STATE_FILE: &str = "loop-state.toml";

/// A step of one attempt (rescoring only before a generation's first attempt generates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Relabel the pool's oldest files with the new best net.
    Rescore,
    /// Self-play data with the best net.
    Generate,
    /// The run joins the pool.
    Pool,
    /// Train on the pool's files.
    Train,
    /// The promotion match, round `LoopState::round`.
    Match,
    /// Promote the net or reject the attempt.
    Decide,
    /// Copy the promotions into the repository's `nets/` (when `publish` is set).
    Publish,
}

/// Where the loop stands; every path is relative to the data root.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoopState {
    /// Generation of the best net and its file.
    pub best_generation: u32,
    pub best_net: String,
    pub generation: u32,
    pub attempt: u32,
    pub step: Step,
    /// The training files, fixed when the attempt first trains.
    #[serde(default)]
    pub train_data: Vec<String>,
    /// The pool files to rescore, fixed when the rescoring starts, and how many are done.
    #[serde(default)]
    pub rescore_files: Vec<String>,
    #[serde(default)]
    pub rescore_done: usize,
    /// The new net's node limit in the match, fixed before its first round.
    #[serde(default)]
    pub a_nodes: Option<u64>,
    #[serde(default)]
    pub speed_ratio: Option<f64>,
    /// The match round to play next (1: the SPRT proper).
    #[serde(default = "first_round")]
    pub round: u32,
}

fn first_round() -> u32 {
    1
}

impl LoopState {
    /// The state at the start of generation `generation`'s first attempt.
    pub fn new_generation(best_generation: u32, best_net: String, rescore: bool) -> Self {
        LoopState {
            best_generation,
            best_net,
            generation: best_generation + 1,
            attempt: 1,
            step: if rescore {
                Step::Rescore
            } else {
                Step::Generate
            },
            train_data: Vec::new(),
            rescore_files: Vec::new(),
            rescore_done: 0,
            a_nodes: None,
            speed_ratio: None,
            round: 1,
        }
    }

    /// The attempt's directory `GAME/genG/aA`.
    pub fn attempt_dir(&self, game: &str) -> PathBuf {
        PathBuf::from(game)
            .join(format!("gen{}", self.generation))
            .join(format!("a{}", self.attempt))
    }

    /// The attempt's seed (as the shell loop numbered them).
    pub fn seed(&self) -> u64 {
        u64::from(self.generation) * 10 + u64::from(self.attempt)
    }

    /// Reads `GAME/loop-state.toml`, if there is one.
    pub fn read(game_dir: &Path) -> Result<Option<Self>> {
        let path = game_dir.join(STATE_FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                Ok(Some(toml::from_str(&text).with_context(|| {
                    format!("{}: not a loop state", path.display())
                })?))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// Writes the state atomically.
    pub fn write(&self, game_dir: &Path) -> Result<()> {
        write_atomically(
            &game_dir.join(STATE_FILE),
            toml::to_string(self)?.as_bytes(),
        )
    }

    /// The state of a game directory the shell loop kept: `best.txt` ("GEN NET"), and in the
    /// current attempt's directory the markers `generated`, `pooled`, `trained`, the fixed
    /// `data.txt`, `node-odds.txt`, finished rounds `match-rK.txt` and `match.txt`; rescoring
    /// under way in `genG/rescore/files.txt` with a `.retired` marker per finished file.
    pub fn from_shell_loop(game: &str, rescore: bool) -> Result<Option<Self>> {
        let best = PathBuf::from(game).join("best.txt");
        let Ok(text) = std::fs::read_to_string(&best) else {
            return Ok(None);
        };
        let mut fields = text.split_whitespace();
        let (Some(generation), Some(net), None) = (fields.next(), fields.next(), fields.next())
        else {
            bail!("{}: not \"GENERATION NET\"", best.display());
        };
        let best_generation: u32 = generation
            .parse()
            .with_context(|| format!("{}: bad generation", best.display()))?;
        let mut state = LoopState::new_generation(best_generation, net.to_string(), false);
        let gen_dir = PathBuf::from(game).join(format!("gen{}", state.generation));
        while state.attempt_dir(game).join("rejected").exists() {
            state.attempt += 1;
        }
        let dir = state.attempt_dir(game);
        let rescore_list = gen_dir.join("rescore").join("files.txt");
        let marker = |name: &str| dir.join(name).exists();
        if rescore_list.exists() && !gen_dir.join("rescore").join("done").exists() {
            state.step = Step::Rescore;
            state.rescore_files = std::fs::read_to_string(&rescore_list)?
                .lines()
                .map(str::to_string)
                .collect();
            state.rescore_done = state
                .rescore_files
                .iter()
                .take_while(|file| {
                    let stem = file.strip_suffix(".bin").unwrap_or(file);
                    gen_dir
                        .join("rescore")
                        .join(format!("{stem}.retired"))
                        .exists()
                })
                .count();
        } else if !marker("generated") {
            state.step = if rescore && state.attempt == 1 && !rescore_list.exists() {
                Step::Rescore
            } else {
                Step::Generate
            };
        } else if !marker("pooled") {
            state.step = Step::Pool;
        } else if !marker("trained") {
            state.step = Step::Train;
        } else if !marker("match.txt") {
            state.step = Step::Match;
            state.round = (1..).find(|k| !marker(&format!("match-r{k}.txt"))).unwrap();
        } else {
            state.step = Step::Decide;
            state.round = (1..).find(|k| !marker(&format!("match-r{k}.txt"))).unwrap();
        }
        if let Ok(text) = std::fs::read_to_string(dir.join("data.txt")) {
            state.train_data = text.lines().map(str::to_string).collect();
        }
        if let Ok(text) = std::fs::read_to_string(dir.join("node-odds.txt")) {
            let mut fields = text.split_whitespace();
            state.a_nodes = fields.next().and_then(|n| n.parse().ok());
            state.speed_ratio = fields.next().and_then(|r| r.parse().ok());
        }
        Ok(Some(state))
    }
}

/// Writes `bytes` to `path` through a synced temporary file renamed over it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    let mut file =
        std::fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming onto {}", path.display()))?;
    Ok(())
}
