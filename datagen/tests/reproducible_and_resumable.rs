//! A run is bit-identical whatever the thread count, and a run killed with SIGKILL and restarted
//! with the same arguments ends with exactly the same file as an uninterrupted one.

use sente::game::Game;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_datagen");

fn args(game: &str, threads: usize, out: &Path) -> Vec<String> {
    [
        "run",
        "--game",
        game,
        "--games",
        "96",
        "--nodes",
        "300",
        "--verify-nodes",
        "200",
        "--seed",
        "11",
        "--threads",
        &threads.to_string(),
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-datagen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run_to_end(game: &str, threads: usize, out: &Path) -> Vec<u8> {
    let status = Command::new(BIN)
        .args(args(game, threads, out))
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::read(out.join("data.bin")).unwrap()
}

fn check(game: &str) {
    let one = scratch(&format!("{game}-one"));
    let two = scratch(&format!("{game}-two"));
    let killed = scratch(&format!("{game}-killed"));
    let reference = run_to_end(game, 1, &one);
    assert_eq!(
        run_to_end(game, 2, &two),
        reference,
        "thread count changed the data"
    );

    // Start, wait until at least one chunk is on disk, SIGKILL, then resume.
    let mut child = Command::new(BIN)
        .args(args(game, 2, &killed))
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let data = killed.join("data.bin");
    while std::fs::metadata(&data).map_or(0, |m| m.len()) == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let partial = std::fs::read(&data).unwrap();
    assert!(partial.len() < reference.len(), "killed before the end");
    // Simulate a torn write as well: a few stray bytes after the last chunk.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&data)
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"SENTEDAT\x01\x00"))
        .unwrap();
    assert_eq!(
        run_to_end(game, 2, &killed),
        reference,
        "resumed run differs"
    );

    let verify = Command::new(BIN)
        .args(["verify", "--game", game, data.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stdout)
    );
    check_positions(game, &data);
    for dir in [one, two, killed] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// `datagen positions` prints a sample of the recorded positions, each one a position the
/// engine reads back.
fn check_positions(game: &str, data: &Path) {
    let listed = |every: &str| {
        let out = Command::new(BIN)
            .args([
                "positions",
                "--game",
                game,
                "--every",
                every,
                data.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let all = listed("1");
    let sample = listed("10");
    let all_lines: Vec<&str> = all.lines().collect();
    let sample_lines: Vec<&str> = sample.lines().collect();
    assert!(all_lines.len() > 100);
    assert_eq!(sample_lines.len(), all_lines.len().div_ceil(10));
    assert_eq!(sample_lines[1], all_lines[10]);
    for line in sample_lines {
        let ok = if game == "chess" {
            sente::chess::Position::from_text(line).is_ok()
        } else {
            sente::shogi::Position::from_text(line).is_ok()
        };
        assert!(ok, "{line}");
    }
}

#[test]
fn chess_runs_are_reproducible_and_resume_after_a_kill() {
    check("chess");
}

#[test]
fn shogi_runs_are_reproducible_and_resume_after_a_kill() {
    check("shogi");
}

#[test]
fn a_run_with_other_settings_in_the_same_directory_is_refused() {
    let dir = scratch("mismatch");
    run_to_end("chess", 2, &dir);
    let mut other = args("chess", 2, &dir);
    let seed = other.iter().position(|a| a == "--seed").unwrap();
    other[seed + 1] = "12".into();
    let out = Command::new(BIN).args(other).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("other settings"));
    let _ = std::fs::remove_dir_all(dir);
}
