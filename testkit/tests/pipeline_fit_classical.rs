//! `tuner fit-classical` on real self-play positions: targets made from a known, perturbed
//! parameter vector are fitted clearly better than by the defaults, the fit is deterministic,
//! recentring changes no score, and the written Rust source holds exactly the fitted numbers.

mod support;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sente::chess::{ClassicalParams, Position};
use std::path::{Path, PathBuf};
use tuner::data::{load_games, TargetBlend};
use tuner::fit_classical::{
    extract_rows, fit, fit_classical, loss, recentre, seen, ClassicalFit, FitConfig, FitOptions,
};

fn scratch(name: &str) -> PathBuf {
    support::scratch("fit", name)
}

fn chess_data(dir: &Path) -> PathBuf {
    support::chess_data(dir, 48, 200, 11)
}

/// The defaults with every piece value moved by up to ±25% and every table entry by up to ±40.
fn perturbed(seed: u64) -> Vec<f32> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut uniform =
        |lo: f32, hi: f32| lo + (hi - lo) * (rng.next_u64() >> 11) as f32 / (1u64 << 53) as f32;
    let mut w = Position::default_vector();
    for k in 0..5 {
        for i in [
            ClassicalParams::mg_value_index(k),
            ClassicalParams::eg_value_index(k),
        ] {
            w[i] *= uniform(0.75, 1.25);
        }
    }
    for x in w.iter_mut().skip(12) {
        *x += uniform(-40.0, 40.0);
    }
    w
}

#[test]
fn fits_known_parameters_and_writes_them_as_rust() {
    let dir = scratch("data");
    let data = chess_data(&dir);
    let games = load_games::<Position>(std::slice::from_ref(&data)).unwrap();
    let refs: Vec<_> = games.iter().collect();
    let blend = TargetBlend {
        lambda: 0.0,
        eval_scale: 400.0,
    };
    let mut rows = extract_rows::<Position>(&refs, &blend);
    assert!(rows.len() > 1000, "only {} positions", rows.len());

    // Targets from a known parameter vector: the defaults fit them badly, the fit well.
    let truth = perturbed(7);
    for i in 0..rows.len() {
        rows.target[i] = 1.0 / (1.0 + (-rows.score(i, &truth) / 400.0).exp());
    }
    let init = Position::default_vector();
    let config = FitConfig {
        epochs: 60,
        lr: 2.0,
        batch: 1024,
        ..FitConfig::default()
    };
    let before = loss(&rows, &init, 400.0);
    let fitted = fit(&rows, &init, &config, |_, _| {});
    let after = loss(&rows, &fitted, 400.0);
    println!("synthetic targets: default loss {before:.6}, fitted {after:.6}");
    assert!(before > 1e-3, "the perturbation is too small: {before}");
    assert!(after < 0.2 * before, "default {before}, fitted {after}");
    assert_eq!(
        fit(&rows, &init, &config, |_, _| {}),
        fitted,
        "not deterministic"
    );

    // Recentring moves table means into values without changing any score.
    let mut centred = fitted.clone();
    recentre::<Position>(&mut centred, &seen(&rows, init.len()));
    assert_ne!(centred, fitted);
    for i in 0..rows.len() {
        let (a, b) = (rows.score(i, &fitted), rows.score(i, &centred));
        assert!((a - b).abs() < 0.05, "row {i}: {a} vs {b}");
    }

    // The whole command on the data's own targets: the loss goes down and the written constant
    // holds the fitted numbers.
    let out = dir.join("fitted.rs");
    let report = fit_classical::<Position>(&FitOptions {
        data: vec![data.clone()],
        lambda: 0.0,
        config: FitConfig {
            epochs: 10,
            batch: 1024,
            ..FitConfig::default()
        },
        out: out.clone(),
    })
    .unwrap();
    assert!(report.train_after < report.train_before, "{report:?}");
    let source = std::fs::read_to_string(&out).unwrap();
    assert!(source.contains("pub const FITTED: ClassicalParams = ClassicalParams {"));
    let written: Vec<i32> = source
        .lines()
        .map(|l| l.split("//").next().unwrap())
        .flat_map(|l| {
            l.split(|c: char| !(c.is_ascii_digit() || c == '-'))
                .filter(|t| !t.is_empty())
                .map(|t| t.parse::<i32>().unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    let p = ClassicalParams::from_vector(&report.fitted);
    let mut expected: Vec<i32> = Vec::new();
    expected.extend(p.mg_value);
    expected.extend(p.eg_value);
    expected.extend(p.mg_table.iter().flatten());
    expected.extend(p.eg_table.iter().flatten());
    expected.extend(p.phase_weight);
    assert_eq!(written, expected);

    // The command line works end to end.
    let cli_out = dir.join("cli.rs");
    support::TUNER.ok(&[
        "fit-classical",
        "--game",
        "chess",
        "--data",
        data.to_str().unwrap(),
        "--epochs",
        "2",
        "--threads",
        "2",
        "--out",
        cli_out.to_str().unwrap(),
    ]);
    assert!(std::fs::read_to_string(&cli_out)
        .unwrap()
        .contains("ClassicalParams {"));
    let _ = std::fs::remove_dir_all(&dir);
}
