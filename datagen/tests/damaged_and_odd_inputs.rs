//! Bad input never loses intact data, crashes or hangs the data tools: a damaged chunk in the
//! middle of a file hides no later chunk (readers skip it with a warning, `run` quarantines it and
//! plays its games again), devices are refused as data files, data of the other game is named,
//! stdout errors are handled, and degenerate arguments are refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_datagen");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-datagen-odd-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_args(game: &str, games: u64, out: &Path) -> Vec<String> {
    let games = games.to_string();
    [
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
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Runs datagen with a deadline (a hang or a read-until-OOM fails the test instead of stalling
/// it).
fn datagen(args: &[String], limit: Duration) -> Output {
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

fn tool(command: &str, game: &str, file: &Path) -> Output {
    let args: Vec<String> = [command, "--game", game, file.to_str().unwrap()]
        .iter()
        .map(|s| s.to_string())
        .collect();
    datagen(&args, Duration::from_secs(60))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Byte offsets of the chunks of a valid file (header: payload length at byte 28).
fn chunk_offsets(bytes: &[u8]) -> Vec<usize> {
    let mut offsets = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        offsets.push(at);
        let len = u32::from_le_bytes(bytes[at + 28..at + 32].try_into().unwrap()) as usize;
        at += 40 + len;
    }
    offsets
}

#[test]
fn a_damaged_chunk_in_the_middle_loses_no_intact_data() {
    let reference_dir = scratch("reference");
    let out = datagen(
        &run_args("chess", 320, &reference_dir),
        Duration::from_secs(300),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let reference = std::fs::read(reference_dir.join("data.bin")).unwrap();
    let offsets = chunk_offsets(&reference);
    assert_eq!(offsets.len(), 10);

    // One flipped byte in the payload of chunk 4 of 10.
    let dir = scratch("damaged");
    std::fs::copy(reference_dir.join("run.txt"), dir.join("run.txt")).unwrap();
    let mut damaged = reference.clone();
    damaged[offsets[3] + 40 + 300] ^= 0x10;
    let data = dir.join("data.bin");
    std::fs::write(&data, &damaged).unwrap();

    // verify checks every later chunk and fails, naming the damaged chunk.
    let verify = tool("verify", "chess", &data);
    assert!(!verify.status.success());
    assert!(
        text(&verify.stdout).contains("verified 288 games in 1 files: 1 problems"),
        "{}",
        text(&verify.stdout)
    );
    let warning = text(&verify.stderr);
    assert!(warning.contains(data.to_str().unwrap()) && warning.contains("chunk 4"));

    // stats reads the nine intact chunks, warning about the damaged one.
    let stats = tool("stats", "chess", &data);
    assert!(stats.status.success());
    assert!(
        text(&stats.stdout).starts_with("chess data: 288 games"),
        "{}",
        text(&stats.stdout)
    );
    assert!(text(&stats.stderr).contains("chunk 4"));

    // Resuming keeps the damaged bytes aside, plays chunk 4's games again and ends with the
    // file an undamaged run writes.
    let resumed = datagen(&run_args("chess", 320, &dir), Duration::from_secs(300));
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let log = text(&resumed.stderr);
    assert!(!log.contains("incomplete chunk"), "{log}");
    assert!(log.contains("chunk 4"), "{log}");
    assert_eq!(
        std::fs::read(&data).unwrap(),
        reference,
        "repaired file differs"
    );
    assert_eq!(
        std::fs::read(dir.join("data.bin.damaged-1")).unwrap(),
        damaged[offsets[3]..offsets[4]].to_vec(),
        "the damaged chunk's bytes were not kept"
    );
    assert!(tool("verify", "chess", &data).status.success());

    // A damaged header outside the checksum (chunk 4's first game index): resuming still finds
    // it and repairs the file.
    let mut bad_header = reference.clone();
    bad_header[offsets[3] + 17] ^= 0x02;
    std::fs::write(&data, &bad_header).unwrap();
    let resumed = datagen(&run_args("chess", 320, &dir), Duration::from_secs(300));
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert_eq!(std::fs::read(&data).unwrap(), reference);
    assert_eq!(
        std::fs::read(dir.join("data.bin.damaged-2")).unwrap(),
        bad_header[offsets[3]..offsets[4]].to_vec()
    );

    // Damage in the length field of chunk 4: the readers still find the chunks after it.
    let mut bad_length = reference.clone();
    bad_length[offsets[3] + 30] ^= 0x01;
    std::fs::write(&data, &bad_length).unwrap();
    let stats = tool("stats", "chess", &data);
    assert!(stats.status.success());
    assert!(text(&stats.stdout).starts_with("chess data: 288 games"));

    for d in [reference_dir, dir] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn devices_are_refused_as_data_files() {
    let dir = scratch("device");
    let out = datagen(&run_args("chess", 2, &dir), Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let data = dir.join("data.bin");
    std::fs::remove_file(&data).unwrap();
    std::os::unix::fs::symlink("/dev/full", &data).unwrap();
    let out = datagen(&run_args("chess", 2, &dir), Duration::from_secs(20));
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );
    for command in ["stats", "verify", "positions"] {
        let out = tool(command, "chess", Path::new("/dev/zero"));
        assert!(!out.status.success(), "{command}");
        assert!(
            text(&out.stderr).contains("not a regular file"),
            "{command}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn data_of_the_other_game_is_named() {
    let dir = scratch("other-game");
    let out = datagen(&run_args("shogi", 4, &dir), Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let data = dir.join("data.bin");
    for command in ["stats", "verify", "positions"] {
        let out = tool(command, "chess", &data);
        assert!(!out.status.success(), "{command}");
        let message = text(&out.stderr);
        assert!(
            message.contains(data.to_str().unwrap())
                && message.contains("holds shogi data, not chess"),
            "{command}: {message}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn stdout_errors_are_handled() {
    let dir = scratch("stdout");
    let out = datagen(&run_args("chess", 4, &dir), Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let data = dir.join("data.bin");
    for command in ["stats", "verify", "positions"] {
        // A full disk: a clear error and a failure status.
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(BIN)
            .args([command, "--game", "chess", data.to_str().unwrap()])
            .stdout(full)
            .output()
            .unwrap();
        let message = text(&out.stderr);
        assert!(!out.status.success(), "{command}");
        assert!(!message.contains("panicked"), "{command}: {message}");
        assert!(message.contains("No space left"), "{command}: {message}");

        // A closed pipe (`| head -0`): a quiet exit.
        let mut child = Command::new(BIN)
            .args([command, "--game", "chess", data.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let message = text(&out.stderr);
        assert!(!message.contains("panicked"), "{command}: {message}");
        assert!(out.status.success(), "{command}: {message}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn degenerate_arguments_are_refused() {
    let dir = scratch("degenerate");
    for (flag, value) in [("--nodes", "0"), ("--threads", "0")] {
        let mut args = run_args("chess", 2, &dir);
        let at = args.iter().position(|a| a == flag).unwrap();
        args[at + 1] = value.into();
        let out = datagen(&args, Duration::from_secs(20));
        assert!(!out.status.success(), "run {flag} 0");
        assert!(
            text(&out.stderr).contains(&format!("{flag} must be at least 1")),
            "{}",
            text(&out.stderr)
        );
        let args: Vec<String> = [
            "match",
            "--game",
            "chess",
            "--a",
            "classical",
            "--b",
            "classical",
            "--pairs",
            "1",
            flag,
            value,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let out = datagen(&args, Duration::from_secs(20));
        assert!(!out.status.success(), "match {flag} 0");
        assert!(
            text(&out.stderr).contains(&format!("{flag} must be at least 1")),
            "{}",
            text(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
