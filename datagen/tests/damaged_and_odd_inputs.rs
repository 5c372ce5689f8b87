//! Bad input never loses intact data, crashes or hangs the data tools: a damaged chunk in the
//! middle of a file hides no later chunk (readers skip it with a warning, `run` quarantines it and
//! plays its games again), devices are refused as data files, data of the other game is named,
//! stdout errors are handled, and degenerate arguments are refused.

mod common;

use common::{classical_match, datagen_within, run_args, scratch_dir, strings, text, with, BIN};
use sente_data::scan::scan;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn tool(command: &str, game: &str, file: &Path) -> Output {
    let args = strings(&[command, "--game", game, file.to_str().unwrap()]);
    datagen_within(&args, Duration::from_secs(60))
}

/// A small run of `games` games into `dir`, which must succeed within two minutes; its data file.
fn small_run(game: &str, games: u64, dir: &Path) -> PathBuf {
    let out = datagen_within(&run_args(game, games, dir), Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out.stderr));
    dir.join("data.bin")
}

#[test]
fn a_damaged_chunk_in_the_middle_loses_no_intact_data() {
    let reference_dir = scratch_dir("odd-reference");
    let out = datagen_within(
        &run_args("chess", 320, &reference_dir),
        Duration::from_secs(300),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let reference = std::fs::read(reference_dir.join("data.bin")).unwrap();
    let offsets: Vec<usize> = scan(&reference).chunks.iter().map(|c| c.offset).collect();
    assert_eq!(offsets.len(), 10);

    // One flipped byte in the payload of chunk 4 of 10.
    let dir = scratch_dir("odd-damaged");
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
    let resumed = datagen_within(&run_args("chess", 320, &dir), Duration::from_secs(300));
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
    let resumed = datagen_within(&run_args("chess", 320, &dir), Duration::from_secs(300));
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
    let dir = scratch_dir("odd-device");
    let data = small_run("chess", 2, &dir);
    std::fs::remove_file(&data).unwrap();
    std::os::unix::fs::symlink("/dev/full", &data).unwrap();
    let out = datagen_within(&run_args("chess", 2, &dir), Duration::from_secs(20));
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
    let dir = scratch_dir("odd-other-game");
    let data = small_run("shogi", 4, &dir);
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
    let dir = scratch_dir("odd-stdout");
    let data = small_run("chess", 4, &dir);
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
    let dir = scratch_dir("odd-degenerate");
    for (flag, value) in [("--nodes", "0"), ("--threads", "0")] {
        let run = with(run_args("chess", 2, &dir), flag, value);
        let one_pair = with(classical_match("chess"), "--pairs", "1");
        for (command, args) in [("run", run), ("match", with(one_pair, flag, value))] {
            let out = datagen_within(&args, Duration::from_secs(20));
            assert!(!out.status.success(), "{command} {flag} 0");
            assert!(
                text(&out.stderr).contains(&format!("{flag} must be at least 1")),
                "{}",
                text(&out.stderr)
            );
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}
