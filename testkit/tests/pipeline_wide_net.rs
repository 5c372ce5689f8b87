//! A net of a wider hidden width end to end: `tuner train --l1 256` on real self-play data writes
//! a 256-wide net (its header says so) that `sente` loads through `setoption name EvalFile` and
//! searches with, and that `datagen match` plays against the default-width embedded net;
//! `quantize` and `eval` work on the wide checkpoint and net; a resume that asks for another
//! width, and an unsupported `--l1`, are refused with clear errors.
//!
//! Needs the `sente`, `datagen` and `tuner` binaries of the same `cargo test` run (`--workspace`,
//! or `-p sente -p datagen -p tuner -p sente-testkit`).

mod support;

use sente::nnue::arch::CHESS;
use sente::nnue::Network;
use sente_testkit::{line_receiver, Program};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use support::{with, TUNER};

fn scratch(name: &str) -> PathBuf {
    support::scratch("wide", name)
}

/// A few batches of a chess net `--l1` wide (flag left out when `None`).
fn train_args(data: &Path, out: &Path, l1: Option<&str>) -> Vec<String> {
    let args = support::chess_train_args(data, out, "wide");
    match l1 {
        Some(l1) => with(args, "--l1", l1),
        None => args,
    }
}

/// `sente` (UCI) with `EvalFile` set to `net`: the `info string` the load answers and the
/// `bestmove` line of `go depth 4` from the start position.
fn sente_search_with(net: &Path) -> (String, String) {
    let sente = Program::workspace_binary("sente");
    let mut child = Command::new(sente.path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sente starts");
    let lines = line_receiver(child.stdout.take().unwrap());
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        "uci\nsetoption name EvalFile value {}\nisready\nposition startpos\ngo depth 4",
        net.display()
    )
    .unwrap();
    stdin.flush().unwrap();
    let (mut loaded, mut best) = (String::new(), String::new());
    let mut transcript = Vec::new();
    while best.is_empty() {
        let line = lines
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no bestmove within 60 s: {transcript:#?}"));
        if line.starts_with("info string") && loaded.is_empty() {
            loaded.clone_from(&line);
        }
        if line.starts_with("bestmove") {
            best.clone_from(&line);
        }
        transcript.push(line);
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    (loaded, best)
}

#[test]
fn a_wider_net_trains_loads_searches_and_plays_a_match() {
    let data_dir = scratch("data");
    let data = support::chess_data(&data_dir, 24, 300, 9);

    // An unsupported width is refused before anything is read.
    let out = scratch("net");
    let refused = TUNER.failure(&train_args(&data, &out, Some("96")));
    assert!(
        refused.contains("not a supported hidden width")
            && refused.contains("128, 256, 384, 512, 768, 1024"),
        "{refused}"
    );

    // A few batches at l1 = 256.
    let run = TUNER.run(&train_args(&data, &out, Some("256")));
    let log = sente_testkit::text(&run.stderr);
    assert!(run.status.success(), "{log}");
    assert!(log.contains("l1 256"), "{log}");
    let net_file = out.join("wide.nnue");
    let net = Network::load(&net_file, &CHESS).expect("the engine loads the wide net");
    assert_eq!(
        *net.arch(),
        CHESS.with_l1(256),
        "the header records the width"
    );
    assert_eq!(net.header().name, "wide");

    // A resume with another width (or none: the default) is refused, naming the right flag.
    for other in [Some("128"), None, Some("512")] {
        let err = TUNER.failure(&train_args(&data, &out, other));
        assert!(
            err.contains("--l1 256") && err.contains("checkpoint.bin"),
            "{other:?}: {err}"
        );
    }
    // So is an explicit --resume of the wide checkpoint into a run of the default width.
    let elsewhere = scratch("elsewhere");
    let mut resume = train_args(&data, &elsewhere, None);
    resume.extend([
        "--resume".into(),
        out.join("checkpoint.bin").display().to_string(),
    ]);
    let err = TUNER.failure(&resume);
    assert!(err.contains("resume with --l1 256"), "{err}");
    assert!(!elsewhere.join("wide.nnue").exists());

    // quantize and eval read the wide checkpoint and net.
    let requantized = out.join("requantized.nnue");
    let said = TUNER.ok(&[
        "quantize",
        "--game",
        "chess",
        out.join("checkpoint.bin").to_str().unwrap(),
        "--out",
        requantized.to_str().unwrap(),
        "--name",
        "wide",
    ]);
    assert!(said.contains("l1 256"), "{said}");
    assert_eq!(
        std::fs::read(&requantized).unwrap(),
        std::fs::read(&net_file).unwrap()
    );
    for model in [net_file.clone(), out.join("checkpoint.bin")] {
        let loss = TUNER.ok(&support::eval_args(model.to_str().unwrap(), &[&data]));
        assert!(loss.contains("loss"), "{loss}");
    }

    // sente loads it as EvalFile and searches with it.
    let (loaded, best) = sente_search_with(&net_file);
    assert!(
        loaded.starts_with("info string Using NNUE chess net 'wide'") && loaded.contains("l1 256"),
        "{loaded}"
    );
    let mv = best.split_whitespace().nth(1).expect("a move");
    let start = <sente::chess::Position as sente::game::Game>::startpos();
    assert!(sente::game::Game::parse_move(&start, mv).is_ok(), "{best}");

    // datagen match: the wide net against the default-width embedded net (or the classical
    // evaluator in a build without one).
    let datagen = Program::workspace_binary("datagen").within(Duration::from_secs(300));
    let report = datagen.ok(&[
        "match",
        "--game",
        "chess",
        "--a",
        net_file.to_str().unwrap(),
        "--b",
        "default",
        "--pairs",
        "1",
        "--nodes",
        "400",
        "--verify-nodes",
        "0",
        "--seed",
        "3",
    ]);
    assert!(report.contains(": 2 games, W "), "{report}");

    for dir in [data_dir, out, elsewhere] {
        let _ = std::fs::remove_dir_all(dir);
    }
}
