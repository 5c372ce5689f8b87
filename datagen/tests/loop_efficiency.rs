//! `datagen loop --efficiency` on a hand-written `GAME/efficiency.tsv` and `promotions.tsv`:
//! the per-generation CPU-hours by step, work per CPU-second and Elo per CPU-hour, checked
//! number by number (the CPU of a generation never promoted counts toward the next promotion);
//! damaged rows of either file are skipped with a warning naming the file and line. (A real
//! loop's rows are checked in `loop_resume.rs`.)

mod common;

use common::{remove_dirs, scratch_dir};
use std::path::{Path, PathBuf};
use std::process::Command;

const DATAGEN: &str = env!("CARGO_BIN_EXE_datagen");

const HEADER: &str = "time\tgeneration\tattempt\tstep\twall_s\tcpu_s\twork\tunit";

fn row(generation: u32, attempt: u32, step: &str, cpu: f64, work: u64, unit: &str) -> String {
    format!(
        "2025-01-02 03:04:05\t{generation}\t{attempt}\t{step}\t{cpu:.3}\t{cpu:.2}\t{work}\t{unit}"
    )
}

fn promotion(seed: &str, result: &str) -> String {
    format!("chess\tchess-aaaa.nnue\tchess-bbbb.nnue\t100\t5000\t1250\t{seed} (pool: 3 runs)\tsb=8 x 50 x 16384\t{result}\t2025-01-02")
}

fn setup(name: &str, efficiency: &[String], promotions: &[String]) -> (PathBuf, PathBuf) {
    let dir = scratch_dir(name);
    let game = dir.join("data").join("chess");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(game.join("efficiency.tsv"), efficiency.join("\n") + "\n").unwrap();
    if !promotions.is_empty() {
        std::fs::write(game.join("promotions.tsv"), promotions.join("\n") + "\n").unwrap();
    }
    let config = dir.join("loop.toml");
    std::fs::write(&config, "game = \"chess\"\ndata = \"data\"\n").unwrap();
    (dir, config)
}

fn run_efficiency(config: &Path) -> (String, String) {
    let output = Command::new(DATAGEN)
        .args(["loop", "--config", config.to_str().unwrap(), "--efficiency"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(output.status.success(), "{stdout}{stderr}");
    (stdout, stderr)
}

/// The whitespace-separated cells of the table row of generation `generation`.
fn cells(report: &str, generation: u32) -> Vec<String> {
    let row = report
        .lines()
        .find(|l| l.split_whitespace().next() == Some(&generation.to_string()))
        .unwrap_or_else(|| panic!("no row of generation {generation}:\n{report}"));
    row.split_whitespace().map(String::from).collect()
}

#[test]
fn the_report_adds_up_each_generations_attempts_and_prices_each_promotion() {
    let efficiency = vec![
        HEADER.to_string(),
        // Generation 3: rescoring, a rejected attempt and a promoted one (seed 32).
        row(3, 1, "rescore", 0.0, 0, "positions"),
        row(3, 1, "rescore", 1800.0, 100_000, "positions"),
        row(3, 1, "generate", 1800.0, 900_000, "positions"),
        row(3, 1, "pool", 0.0, 900_000, "positions"),
        row(3, 1, "train", 0.0, 0, "training positions"),
        row(3, 1, "train", 3600.0, 1_600_000, "training positions"),
        row(3, 1, "match", 0.0, 0, "games"),
        row(3, 1, "match-r1", 1440.0, 720, "games"),
        row(3, 1, "decide", 0.0, 0, "-"),
        row(3, 2, "generate", 1800.0, 900_000, "positions"),
        row(3, 2, "train", 3600.0, 2_000_000, "training positions"),
        row(3, 2, "match-r1", 2160.0, 1080, "games"),
        row(3, 2, "decide", 0.0, 0, "-"),
        // Generation 4: never promoted (its net adopted by hand); its CPU counts toward 5's.
        row(4, 1, "generate", 1800.0, 900_000, "positions"),
        // Generation 5: promoted at its first attempt (seed 51).
        row(5, 1, "generate", 1800.0, 900_000, "positions"),
        row(5, 1, "train", 3600.0, 1_800_000, "training positions"),
        row(5, 1, "decide", 0.0, 0, "-"),
        row(5, 1, "publish", 0.0, 1, "nets"),
        // Generation 6: under way.
        row(6, 1, "generate", 900.0, 450_000, "positions"),
    ];
    let promotions =
        vec![
        // Before the accounting began: no rows of generation 2, left out.
        promotion("21", "Elo +40.0 ± 20.0 (95%), 800 games, SPRT [0,10] LLR 2.95 H1"),
        promotion("32", "Elo +18.0 ± 12.0 (95%), 1800 games, SPRT [0,10] LLR 2.96 H1"),
        promotion(
            "51",
            "Elo +10.0 ± 8.0 (95%), 2000 games, SPRT [0,10] LLR 2.97 H1, 1100 against 1000 nodes",
        ),
    ];
    let (dir, config) = setup("efficiency-report", &efficiency, &promotions);
    let (report, warnings) = run_efficiency(&config);
    assert!(!warnings.contains("warning"), "{warnings}");
    let expect = |generation: u32, cells_expected: &[&str]| {
        assert_eq!(cells(&report, generation), cells_expected, "{report}");
    };
    // gen attempts | CPU-h: generate rescore train match total | pos/CPU-s: generate train |
    // games/CPU-s | Elo | cost CPU-h | Elo/CPU-h
    expect(
        3,
        &[
            "3", "2", "1.000", "0.500", "2.000", "1.000", "4.500", "500.0", "500.0", "0.500",
            "+18.0", "±", "12.0", "4.500", "4.00",
        ],
    );
    expect(
        4,
        &[
            "4", "1", "0.500", "0.000", "0.000", "0.000", "0.500", "500.0", "-", "-", "-", "-", "-",
        ],
    );
    expect(
        5,
        &[
            "5", "1", "0.500", "0.000", "1.000", "0.000", "1.500", "500.0", "500.0", "-", "+10.0",
            "±", "8.0", "2.000", "5.00",
        ],
    );
    expect(
        6,
        &[
            "6", "1", "0.250", "0.000", "0.000", "0.000", "0.250", "500.0", "-", "-", "-", "-", "-",
        ],
    );
    assert!(
        report.contains(
            "promoted generations: 2; +28.0 Elo over 6.500 CPU-hours, 4.31 Elo per CPU-hour"
        ),
        "{report}"
    );
    remove_dirs([dir]);
}

#[test]
fn damaged_rows_are_skipped_with_their_file_and_line() {
    let efficiency = vec![
        HEADER.to_string(),
        row(3, 1, "generate", 1800.0, 900_000, "positions"),
        "2025-01-02 03:04:05\t3\t1\ttrain\tsoon\t1.0\t5\ttraining positions".to_string(),
        "2025-01-02 03:04:05\t3\t1\tmatch-r1\t1.0".to_string(),
        row(3, 1, "train", 3600.0, 1_800_000, "training positions"),
        "2025-01-02 03:04:05\t3\t1\tmatch-r1\t1.0\t-5\t7\tgames".to_string(),
    ];
    let promotions = vec![
        "chess\tchess-aaaa.nnue\ttruncated".to_string(),
        promotion("31", "promoted by hand"),
        promotion(
            "31",
            "Elo +9.0 ± 3.0 (95%), 1800 games, SPRT [0,10] LLR 2.96 H1",
        ),
    ];
    let (dir, config) = setup("efficiency-damaged", &efficiency, &promotions);
    let (report, warnings) = run_efficiency(&config);
    let game = dir.join("data").join("chess");
    for (file, line, why) in [
        ("efficiency.tsv", 3, "wall_s \"soon\""),
        ("efficiency.tsv", 4, "5 fields"),
        ("efficiency.tsv", 6, "cpu_s \"-5\""),
        ("promotions.tsv", 1, "3 fields"),
        ("promotions.tsv", 2, "no \"Elo X ± Y\""),
    ] {
        let at = format!("{}:{line}: ", game.join(file).display());
        assert!(
            warnings
                .lines()
                .any(|w| w.starts_with("warning: ") && w.contains(&at) && w.contains(why)),
            "{at}{why}: {warnings}"
        );
    }
    assert_eq!(warnings.lines().count(), 5, "{warnings}");
    // The good rows still count: 1.5 CPU-hours, +9.0 Elo.
    assert_eq!(
        cells(&report, 3),
        [
            "3", "1", "0.500", "0.000", "1.000", "0.000", "1.500", "500.0", "500.0", "-", "+9.0",
            "±", "3.0", "1.500", "6.00"
        ],
        "{report}"
    );
    remove_dirs([dir]);
}

#[test]
fn self_play_of_killed_processes_is_charged_at_the_measured_rate() {
    let efficiency = vec![
        HEADER.to_string(),
        // Attempt 1's run was killed twice: the process that finished it wrote 300,000 of the
        // 900,000 positions the pool got, in 600 CPU-seconds.
        row(7, 1, "generate", 600.0, 300_000, "positions"),
        row(7, 1, "pool", 0.0, 900_000, "positions"),
        row(7, 1, "train", 1800.0, 900_000, "training positions"),
        row(7, 1, "match-r1", 1800.0, 900, "games"),
        row(7, 1, "decide", 0.0, 0, "-"),
        // Attempt 2 ran in one process: nothing to add.
        row(7, 2, "generate", 900.0, 450_000, "positions"),
        row(7, 2, "pool", 0.0, 450_000, "positions"),
        // A generate row without a measured rate (a Slurm array) is not extrapolated.
        row(8, 1, "generate", 0.0, 0, "positions"),
        row(8, 1, "pool", 0.0, 900_000, "positions"),
    ];
    let promotions = vec![promotion(
        "71",
        "Elo +12.0 ± 6.0 (95%), 3000 games, SPRT [0,10] LLR 2.96 H1",
    )];
    let (dir, config) = setup("efficiency-killed", &efficiency, &promotions);
    let (report, warnings) = run_efficiency(&config);
    assert!(!warnings.contains("warning"), "{warnings}");
    // Generate: 600 + 900 measured + 1,200 estimated = 2,700 s; total 2,700 + 1,800 + 1,800.
    assert_eq!(
        cells(&report, 7),
        [
            "7", "2", "0.750*", "0.000", "0.500", "0.500", "1.750", "500.0", "500.0", "0.500",
            "+12.0", "±", "6.0", "1.750", "6.86"
        ],
        "{report}"
    );
    assert_eq!(cells(&report, 8)[2], "0.000", "{report}");
    assert!(
        report.contains(
            "* gen 7: includes 0.333 CPU-hours estimated for 600000 positions that killed processes"
        ),
        "{report}"
    );
    assert!(!report.contains("* gen 8"), "{report}");
    remove_dirs([dir]);
}

#[test]
fn a_loop_without_rows_says_so() {
    let dir = scratch_dir("efficiency-none");
    let config = dir.join("loop.toml");
    std::fs::write(&config, "game = \"chess\"\ndata = \"data\"\n").unwrap();
    let (report, _) = run_efficiency(&config);
    assert!(report.contains("no efficiency rows in"), "{report}");
    remove_dirs([dir]);
}
