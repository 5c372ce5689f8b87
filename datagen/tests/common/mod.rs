//! Helpers shared by datagen's integration tests: scratch directories, the `datagen` binary run
//! (with a deadline where a hang must fail the test), and the argument lists of small runs and
//! classical-vs-classical matches. Each test file uses a part of them.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_datagen");

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

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
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
        "--a",
        "classical",
        "--b",
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

/// Runs datagen to the end.
pub fn datagen(args: &[impl AsRef<OsStr>]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

/// Runs datagen with a deadline (a hang or a read-until-OOM fails the test instead of stalling
/// it).
pub fn datagen_within<S: AsRef<OsStr> + Debug>(args: &[S], limit: Duration) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!(
                "datagen {args:?} ran past {limit:?}; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Runs datagen, which must succeed; its stdout.
pub fn ok<S: AsRef<OsStr> + Debug>(args: &[S]) -> String {
    let out = datagen(args);
    assert!(
        out.status.success(),
        "datagen {args:?} failed: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Runs datagen, which must fail; its stderr.
pub fn failure<S: AsRef<OsStr> + Debug>(args: &[S]) -> String {
    let out = datagen(args);
    assert!(!out.status.success(), "datagen {args:?} should have failed");
    text(&out.stderr)
}

/// The data file of the run in `out`.
pub fn data_of(out: &Path) -> Vec<u8> {
    std::fs::read(out.join("data.bin")).unwrap()
}
