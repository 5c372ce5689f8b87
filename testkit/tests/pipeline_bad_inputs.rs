//! Bad input never crashes, hangs or silently misleads the tuner: damaged chunks are skipped
//! with a warning (later chunks still read), data of the other game and games that do not replay
//! are named, devices are refused, damaged checkpoints are refused, a full disk is reported with
//! the file's path (and leaves no temporary checkpoint), plots that cannot be drawn do not stop
//! training, stdout errors are handled, and degenerate arguments are refused.

mod support;

use sente::game::GameKind;
use sente_data::chunk::{encode_chunk, read_chunk};
use sente_data::scan::scan;
use sente_data::stored_game::StoredGame;
use sente_testkit::text;
use std::ffi::OsStr;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;
use support::{eval_args, with, TUNER};

fn scratch(name: &str) -> PathBuf {
    let dir = support::scratch("tuner-bad", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the tuner with a one-minute deadline.
fn tuner<S: AsRef<OsStr> + Debug>(args: &[S]) -> Output {
    TUNER.within(Duration::from_secs(60)).run(args)
}

/// Runs the tuner, which must fail (within a minute); its stderr.
fn refused<S: AsRef<OsStr> + Debug>(args: &[S]) -> String {
    TUNER.within(Duration::from_secs(60)).failure(args)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `tuner eval --game chess classical --data FILE`: the position count it reports.
fn classical_count(data: &Path) -> (usize, Output) {
    let out = tuner(&eval_args("classical", &[data]));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let count = stdout
        .split("over ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stdout}"));
    (count, out)
}

fn train_args(data: &Path, out: &Path, superbatches: &str) -> Vec<String> {
    [
        "train",
        "--game",
        "chess",
        "--data",
        s(data),
        "--superbatches",
        superbatches,
        "--batches",
        "2",
        "--batch",
        "256",
        "--threads",
        "2",
        "--out",
        s(out),
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn damaged_chunks_other_games_and_unreplayable_games_are_reported() {
    let dir = scratch("data");
    let data = support::chess_data(&dir, 128, 300, 5);
    let bytes = std::fs::read(&data).unwrap();
    let chunks = scan(&bytes).chunks;
    assert_eq!(chunks.len(), 4);

    // Chunk 2 of 4 damaged: the readers skip it with a warning and read chunks 3 and 4.
    let mut damaged = bytes.clone();
    damaged[chunks[1].offset + 40 + 200] ^= 0x08;
    let damaged_file = dir.join("damaged.bin");
    std::fs::write(&damaged_file, &damaged).unwrap();
    let mut without_second = bytes[..chunks[1].offset].to_vec();
    without_second.extend_from_slice(&bytes[chunks[2].offset..]);
    let without_file = dir.join("without-second.bin");
    std::fs::write(&without_file, &without_second).unwrap();
    let (expected, _) = classical_count(&without_file);
    let (count, out) = classical_count(&damaged_file);
    assert_eq!(count, expected, "the chunks after the damaged one are read");
    let warning = text(&out.stderr);
    assert!(
        warning.contains(s(&damaged_file)) && warning.contains("chunk 2"),
        "{warning}"
    );
    let train_out = scratch("train-damaged");
    let out = tuner(&train_args(&damaged_file, &train_out, "1"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = text(&out.stderr);
    assert!(log.contains("96 training games"), "{log}");
    // No validation set: the validation loss is "n/a", not NaN.
    assert!(
        log.contains("val loss n/a") && !log.contains("NaN"),
        "{log}"
    );

    // Shogi data given as chess data: an error naming the file and the game it holds.
    let shogi_dir = scratch("shogi");
    let shogi = support::game_data::<sente::shogi::Position>(&shogi_dir, 2, 200, 1);
    let shogi_train_out = scratch("train-shogi");
    for args in [
        eval_args("classical", &[&shogi]),
        train_args(&shogi, &shogi_train_out, "1"),
    ] {
        let message = refused(&args);
        assert!(
            message.contains(&format!("{} holds shogi data, not chess", s(&shogi))),
            "{args:?}: {message}"
        );
    }

    // A game that does not replay is named with its file and index.
    let (_, mut games): (_, Vec<StoredGame>) = read_chunk(&bytes, 0).unwrap();
    games.truncate(3);
    games[1].moves[4] = 0;
    let bad_game = dir.join("bad-game.bin");
    std::fs::write(&bad_game, encode_chunk(GameKind::Chess.id(), 0, &games)).unwrap();
    let (_, out) = classical_count(&bad_game);
    let warning = text(&out.stderr);
    assert!(
        warning.contains(s(&bad_game)) && warning.contains("game 1 does not replay"),
        "{warning}"
    );

    // Devices are refused.
    for args in [
        eval_args("classical", &[Path::new("/dev/zero")]),
        train_args(Path::new("/dev/zero"), &train_out, "1"),
    ] {
        let message = refused(&args);
        assert!(message.contains("not a regular file"), "{args:?}");
    }
    for d in [dir, shogi_dir, shogi_train_out, train_out] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn checkpoints_disk_full_plots_stdout_and_arguments() {
    let dir = scratch("checkpoints");
    let data = support::chess_data(&dir, 32, 300, 7);
    let out_dir = dir.join("run");
    let out = tuner(&train_args(&data, &out_dir, "1"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let checkpoint = out_dir.join("checkpoint.bin");

    // A flipped byte in a checkpoint: refused, both to resume and to evaluate.
    let mut bytes = std::fs::read(&checkpoint).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    std::fs::write(&checkpoint, &bytes).unwrap();
    let message = refused(&train_args(&data, &out_dir, "2"));
    assert!(
        message.contains(s(&checkpoint)) && message.contains("damaged"),
        "{message}"
    );
    let message = refused(&eval_args(s(&checkpoint), &[&data]));
    assert!(message.contains("damaged"));

    // A full disk while writing the checkpoint: the error names the file, and no temporary
    // file is left behind.
    let full_dir = dir.join("full");
    std::fs::create_dir_all(&full_dir).unwrap();
    let tmp = full_dir.join("checkpoint.tmp");
    std::os::unix::fs::symlink("/dev/full", &tmp).unwrap();
    let message = refused(&train_args(&data, &full_dir, "1"));
    assert!(
        message.contains(s(&tmp)) && message.contains("No space left"),
        "{message}"
    );
    assert!(
        std::fs::symlink_metadata(&tmp).is_err(),
        "checkpoint.tmp left behind"
    );

    // A plot that cannot be written: a warning, and training goes on to the net.
    let plot_dir = dir.join("plot");
    std::fs::create_dir_all(plot_dir.join("loss.png")).unwrap();
    let out = tuner(&train_args(&data, &plot_dir, "2"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("could not draw the plots"));
    assert!(plot_dir.join("sente-net.nnue").exists());
    let net = plot_dir.join("sente-net.nnue");

    // stdout: a full disk is an error, a closed pipe a quiet exit.
    let net_eval = eval_args(s(&net), &[&data]);
    TUNER.check_stdout_errors(&net_eval);

    // Degenerate arguments.
    for (flag, command) in [
        ("--threads", "train"),
        ("--batch", "train"),
        ("--batches", "train"),
        ("--threads", "eval"),
    ] {
        let args = if command == "train" {
            train_args(&data, &out_dir, "1")
        } else {
            net_eval.clone()
        };
        let message = refused(&with(args, flag, "0"));
        assert!(
            message.contains("must be at least 1"),
            "{command} {flag} 0: {message}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
