//! Fine-tuning end to end: `tuner train --init NET` starts from a trained net's weights (its width
//! read from the file), so a run whose learning rate cannot move a weight by half a quantization
//! step writes the same net back, while a run from random weights does not; a resume that names
//! another starting net, and a width other than the file's, are refused with clear errors.
//!
//! Needs the `datagen` library and the `tuner` binary of the same `cargo test` run.

mod support;

use sente::nnue::arch::CHESS;
use sente::nnue::format::{read_net, QuantizedNet};
use std::path::{Path, PathBuf};
use support::{with, TUNER};

fn scratch(name: &str) -> PathBuf {
    support::scratch("fine-tune", name)
}

/// A short chess run on `data` into `out`, named `name`, at learning rate `lr`.
fn train_args(data: &Path, out: &Path, name: &str, lr: &str) -> Vec<String> {
    with(support::chess_train_args(data, out, name), "--lr", lr)
}

fn read(path: &Path) -> QuantizedNet {
    read_net(&std::fs::read(path).unwrap(), &CHESS).expect("a net the tuner wrote reads back")
}

/// The share of feature and output weights two nets of one width hold equal.
fn equal_share(a: &QuantizedNet, b: &QuantizedNet) -> f64 {
    let pairs = a
        .ft_weights
        .iter()
        .zip(&b.ft_weights)
        .chain(a.out_weights.iter().zip(&b.out_weights));
    let (equal, total) = pairs.fold((0usize, 0usize), |(equal, total), (x, y)| {
        (equal + usize::from(x == y), total + 1)
    });
    equal as f64 / total as f64
}

#[test]
fn a_run_started_from_a_net_continues_from_its_weights() {
    let data_dir = scratch("data");
    let data = support::chess_data(&data_dir, 24, 300, 11);

    // The starting point: a 256-wide net.
    let base_dir = scratch("base");
    let base_args = with(
        train_args(&data, &base_dir, "base", "cosine:0.002:0.0005"),
        "--l1",
        "256",
    );
    TUNER.ok(&base_args);
    let base_file = base_dir.join("base.nnue");
    let base = read(&base_file);

    // Fine-tuning at a learning rate far below a quantization step: the same weights come back.
    // The width comes from the file.
    let tiny = "constant:0.0000001";
    let tuned_dir = scratch("tuned");
    let mut tuned_args = train_args(&data, &tuned_dir, "tuned", tiny);
    tuned_args.extend(["--init".into(), base_file.display().to_string()]);
    let run = TUNER.run(&tuned_args);
    let log = sente_testkit::text(&run.stderr);
    assert!(run.status.success(), "{log}");
    assert!(
        log.contains("l1 256") && log.contains("starting from"),
        "{log}"
    );
    let tuned = read(&tuned_dir.join("tuned.nnue"));
    assert_eq!(tuned.header.arch, base.header.arch);
    let kept = equal_share(&base, &tuned);
    assert!(kept > 0.999, "only {kept} of the weights kept");

    // The same run from random weights is another net.
    let fresh_dir = scratch("fresh");
    TUNER.ok(&with(
        train_args(&data, &fresh_dir, "fresh", tiny),
        "--l1",
        "256",
    ));
    let fresh_file = fresh_dir.join("fresh.nnue");
    let fresh = equal_share(&base, &read(&fresh_file));
    assert!(fresh < 0.5, "{fresh} of a random start equals the base net");

    // A resume must start from the same net; the width is the file's.
    let other = with(tuned_args.clone(), "--init", fresh_file.to_str().unwrap());
    let refused = TUNER.failure(&other);
    assert!(refused.contains("other settings"), "{refused}");
    let narrow_dir = scratch("narrow");
    let narrow = with(
        with(tuned_args, "--out", narrow_dir.to_str().unwrap()),
        "--l1",
        "128",
    );
    let refused = TUNER.failure(&narrow);
    assert!(
        refused.contains("256 wide") && refused.contains("--l1 256"),
        "{refused}"
    );
    // A file that is not a net is named as such.
    let not_a_net = with(
        train_args(&data, &narrow_dir, "x", tiny),
        "--init",
        data.to_str().unwrap(),
    );
    let refused = TUNER.failure(&not_a_net);
    assert!(refused.contains("not a net file"), "{refused}");

    for dir in [data_dir, base_dir, tuned_dir, fresh_dir, narrow_dir] {
        let _ = std::fs::remove_dir_all(dir);
    }
}
