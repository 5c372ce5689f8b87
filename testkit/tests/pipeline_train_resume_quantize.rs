//! End to end on real self-play data: datagen → tuner train → the engine loads the net; a run
//! killed after a checkpoint and restarted ends with exactly the net of an uninterrupted run.

mod support;

use sente::chess::Position;
use sente::eval::Evaluator;
use sente::game::Game;
use sente::nnue::{GameEval, Network, NnueGame};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use support::{with, TUNER};

fn scratch(name: &str) -> PathBuf {
    support::scratch("tuner", name)
}

fn chess_data(dir: &Path) -> PathBuf {
    support::chess_data(dir, 64, 300, 5)
}

fn train_args(data: &Path, out: &Path) -> Vec<String> {
    [
        ("--superbatches", "6"),
        ("--batches", "4"),
        ("--batch", "512"),
        ("--lr", "cosine:0.002:0.0002"),
        ("--seed", "3"),
    ]
    .iter()
    .fold(
        support::chess_train_args(data, out, "resume-test"),
        |args, (flag, value)| with(args, flag, value),
    )
}

#[test]
fn trained_nets_load_in_the_engine_and_killed_runs_resume_exactly() {
    let data_dir = scratch("data");
    let data = chess_data(&data_dir);

    let whole = scratch("whole");
    TUNER.ok(&train_args(&data, &whole));
    let net_file = whole.join("resume-test.nnue");
    let reference = std::fs::read(&net_file).unwrap();
    for plot in ["loss.png", "loss.svg", "lr.png", "lr.svg"] {
        assert!(whole.join(plot).exists(), "{plot}");
    }

    // The engine loads the net and evaluates with it.
    let net = Network::load(&net_file, &Position::ARCH).expect("engine loads the trained net");
    assert_eq!(net.header().name, "resume-test");
    let mut eval = GameEval::<Position>::classical();
    eval.load_net(&net_file).unwrap();
    let pos = Position::startpos();
    eval.reset(&pos);
    let cp = eval.evaluate(&pos);
    assert!(cp.abs() < 2000, "start position evaluates to {cp}");

    // Kill a run once it has saved a checkpoint, then rerun the same command.
    let killed = scratch("killed");
    let mut child = Command::new(TUNER.path)
        .args(train_args(&data, &killed))
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let checkpoint = killed.join("checkpoint.bin");
    let deadline = Instant::now() + Duration::from_secs(120);
    while !checkpoint.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let saved = tuner::checkpoint::Checkpoint::load(&checkpoint).unwrap();
    assert!(
        saved.superbatch < 12,
        "the run was killed before it finished"
    );
    TUNER.ok(&train_args(&data, &killed));
    assert_eq!(
        std::fs::read(killed.join("resume-test.nnue")).unwrap(),
        reference,
        "a resumed run must end with the same net"
    );

    // quantize and eval commands work on the checkpoint and the net.
    let requantized = killed.join("requantized.nnue");
    TUNER.ok(&[
        "quantize",
        "--game",
        "chess",
        checkpoint.to_str().unwrap(),
        "--out",
        requantized.to_str().unwrap(),
        "--name",
        "resume-test",
    ]);
    assert_eq!(std::fs::read(&requantized).unwrap(), reference);
    let loss = TUNER.ok(&support::eval_args(net_file.to_str().unwrap(), &[&data]));
    assert!(loss.contains("loss"), "{loss}");

    // A damaged net is refused by the engine with a clear error.
    let mut damaged = reference.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x55;
    let bad = killed.join("damaged.nnue");
    std::fs::write(&bad, damaged).unwrap();
    let err = eval.load_net(&bad).unwrap_err().to_string();
    assert!(err.contains("checksum"), "{err}");
    for dir in [data_dir, whole, killed] {
        let _ = std::fs::remove_dir_all(dir);
    }
}
