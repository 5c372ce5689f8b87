//! Helpers shared by datagen's integration tests: scratch directories, the `datagen` binary (a
//! `sente_testkit::Program`), and the argument lists of small runs and classical-vs-classical
//! matches. Each test file uses a part of them.
#![allow(dead_code)]

use sente_testkit::Program;
use std::path::{Path, PathBuf};

/// The `datagen` binary.
pub const DATAGEN: Program = Program::new(env!("CARGO_BIN_EXE_datagen"));

/// An empty scratch path `sente-datagen-<name>-<pid>` in the temp dir (removed, not created).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-datagen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `scratch`, created.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// `datagen run` of a small test run: `games` games of `game` at 300 nodes per move (openings
/// checked at 200), seed 5, two threads, into `out`. `with` changes or adds flags.
pub fn run_args(game: &str, games: u64, out: &Path) -> Vec<String> {
    let games = games.to_string();
    strings(&[
        "run",
        "--game",
        game,
        "--games",
        &games,
        "--nodes",
        "300",
        "--verify-nodes",
        "200",
        "--seed",
        "5",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
    ])
}

/// `datagen match` of the classical evaluator against itself, with the default settings.
pub fn classical_match(game: &str) -> Vec<String> {
    strings(&[
        "match",
        "--game",
        game,
        "--a-net",
        "classical",
        "--b-net",
        "classical",
    ])
}

/// `args` with `flag` set to `value` (replaced if present, else added).
pub fn with(mut args: Vec<String>, flag: &str, value: &str) -> Vec<String> {
    match args.iter().position(|a| a == flag) {
        Some(at) => args[at + 1] = value.to_string(),
        None => args.extend([flag.to_string(), value.to_string()]),
    }
    args
}

/// `args` with each (flag, value) of `settings` set in turn, as `with` does.
pub fn with_all(args: Vec<String>, settings: &[(&str, &str)]) -> Vec<String> {
    settings
        .iter()
        .fold(args, |args, &(flag, value)| with(args, flag, value))
}

/// Removes the scratch folders `dirs` (what is already gone is no error).
pub fn remove_dirs(dirs: impl IntoIterator<Item = impl AsRef<Path>>) {
    for dir in dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The data file of the run in `out`.
pub fn data_of(out: &Path) -> Vec<u8> {
    std::fs::read(out.join("data.bin")).unwrap()
}

/// `datagen pool add` of `input` to `pool` as generation `generation`.
pub fn pool_add_args(pool: &Path, game: &str, generation: u32, input: &Path) -> Vec<String> {
    strings(&[
        "pool",
        "add",
        "--pool",
        pool.to_str().unwrap(),
        "--game",
        game,
        "--generation",
        &generation.to_string(),
        input.to_str().unwrap(),
    ])
}
