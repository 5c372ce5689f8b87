//! Bad input never loses intact data, crashes or hangs the data tools: a damaged chunk in the
//! middle of a file hides no later chunk (readers skip it with a warning, `run` quarantines it and
//! plays its games again), devices are refused as data files, data of the other game is named,
//! stdout errors are handled, and degenerate arguments are refused.

mod common;

use common::{classical_match, run_args, scratch_dir, strings, with, DATAGEN};
use sente_data::scan::scan;
use sente_testkit::{text, Program};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

/// datagen, killed (and the test failed) after `seconds`: a hang or a read-until-OOM fails the
/// test instead of stalling it.
fn within(seconds: u64) -> Program {
    DATAGEN.within(Duration::from_secs(seconds))
}

/// The commands that read data files.
const READERS: [&str; 3] = ["stats", "verify", "positions"];

/// Each reader's error on `file` as `game` data (each must fail).
fn refusals(game: &str, file: &Path) -> Vec<(&'static str, String)> {
    READERS
        .into_iter()
        .map(|command| {
            let out = tool(command, game, file);
            assert!(
                !out.status.success(),
                "{command} accepted {}",
                file.display()
            );
            (command, text(&out.stderr))
        })
        .collect()
}

fn tool(command: &str, game: &str, file: &Path) -> Output {
    let args = strings(&[command, "--game", game, file.to_str().unwrap()]);
    within(60).run(&args)
}

/// A small run of `games` games into `dir`, which must succeed within two minutes; its data file.
fn small_run(game: &str, games: u64, dir: &Path) -> PathBuf {
    let out = within(120).run(&run_args(game, games, dir));
    assert!(out.status.success(), "{}", text(&out.stderr));
    dir.join("data.bin")
}

#[test]
fn a_damaged_chunk_in_the_middle_loses_no_intact_data() {
    let reference_dir = scratch_dir("odd-reference");
    let out = within(300).run(&run_args("chess", 320, &reference_dir));
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
    let resumed = within(300).run(&run_args("chess", 320, &dir));
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
    let resumed = within(300).run(&run_args("chess", 320, &dir));
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
    let out = within(20).run(&run_args("chess", 2, &dir));
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );
    for (command, error) in refusals("chess", Path::new("/dev/zero")) {
        assert!(error.contains("not a regular file"), "{command}: {error}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn data_of_the_other_game_is_named() {
    let dir = scratch_dir("odd-other-game");
    let data = small_run("shogi", 4, &dir);
    for (command, error) in refusals("chess", &data) {
        assert!(
            error.contains(data.to_str().unwrap()) && error.contains("holds shogi data, not chess"),
            "{command}: {error}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn stdout_errors_are_handled() {
    let dir = scratch_dir("odd-stdout");
    let data = small_run("chess", 4, &dir);
    for command in READERS {
        DATAGEN.check_stdout_errors(&[command, "--game", "chess", data.to_str().unwrap()]);
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
            let out = within(20).run(&args);
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
