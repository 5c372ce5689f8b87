//! Helpers shared by the pipeline tests: scratch directories, small data sets made by the real
//! datagen, the `tuner` binary (a `sente_testkit::Program`) and its argument lists. Each test file
//! uses a part of them.
#![allow(dead_code)]

use datagen::generate::{generate, GenerateConfig};
use datagen::players::{load_eval, DatagenGame};
use datagen::side_searchers::SideSearchers;
use sente::selfplay::Adjudication;
use sente_data::chunk::game_kind;
use sente_testkit::Program;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// The `tuner` binary, built by the same `cargo test` run (`-p tuner`, or `--workspace`).
pub static TUNER: LazyLock<Program> = LazyLock::new(|| Program::workspace_binary("tuner"));

/// An empty scratch directory `sente-<test>-<name>-<pid>` in the temp dir.
pub fn scratch(test: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-{test}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `games` games of `G` at `nodes` nodes per move (classical evaluator, seed `seed`) in `dir`;
/// returns the data file.
pub fn game_data<G: DatagenGame>(dir: &Path, games: u64, nodes: u64, seed: u64) -> PathBuf {
    let config = GenerateConfig {
        game: game_kind::<G>(),
        games: Some(games),
        positions: None,
        nodes,
        seed,
        random_plies: 8,
        verify_nodes: 0,
        verify_margin: 300,
        adjudication: Adjudication::default(),
        evaluator: "classical".into(),
        dfrc: false,
        search: String::new(),
        searchers: SideSearchers::default(),
    };
    let eval = load_eval::<G>("classical").unwrap();
    generate::<G, _>(&eval, &config, 2, dir).unwrap();
    dir.join("data.bin")
}

/// `game_data` of chess.
pub fn chess_data(dir: &Path, games: u64, nodes: u64, seed: u64) -> PathBuf {
    game_data::<sente::chess::Position>(dir, games, nodes, seed)
}

/// `tuner eval --game chess MODEL --data FILES…` (MODEL: a net, a checkpoint or `classical`).
pub fn eval_args(model: &str, data: &[&Path]) -> Vec<String> {
    let mut args: Vec<String> = ["eval", "--game", "chess", model, "--data"]
        .map(String::from)
        .to_vec();
    args.extend(data.iter().map(|p| p.to_str().unwrap().to_string()));
    args
}

/// The report of `tuner eval` of the classical evaluator on `data` (which must succeed).
pub fn classical_eval_on(data: &[&Path]) -> String {
    TUNER.ok(&eval_args("classical", data))
}

/// A short `tuner train` of chess on `data` into `out`, the net named `name`: 2 superbatches of
/// 3 batches of 256 positions, lr cosine 0.002 → 0.0005, 2 threads, seed 5 (change any with
/// `with`).
pub fn chess_train_args(data: &Path, out: &Path, name: &str) -> Vec<String> {
    [
        "train",
        "--game",
        "chess",
        "--data",
        data.to_str().unwrap(),
        "--superbatches",
        "2",
        "--batches",
        "3",
        "--batch",
        "256",
        "--lr",
        "cosine:0.002:0.0005",
        "--threads",
        "2",
        "--seed",
        "5",
        "--name",
        name,
        "--out",
        out.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

/// `args` with `flag` set to `value` (replaced if present, else added).
pub fn with(mut args: Vec<String>, flag: &str, value: &str) -> Vec<String> {
    match args.iter().position(|a| a == flag) {
        Some(at) => args[at + 1] = value.to_string(),
        None => args.extend([flag.to_string(), value.to_string()]),
    }
    args
}
