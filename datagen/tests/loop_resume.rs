//! `datagen loop` end to end on a tiny scale (a few hundred positions at 50 nodes, one
//! superbatch of two 256-position batches, matches of a few pairs): two generations, the first
//! promoted (the best net is held to one node against 1000 and the SPRT bounds are negative),
//! published into a scratch repository, the second starting by rescoring the stale pool file.
//! The same loop stopped after every single step and started again ends with the same state,
//! pool, promotions and published nets as the loop run uninterrupted, and so does a loop killed
//! (SIGKILL) in the middle of a step. A second loop on the same data is refused, a bad config is
//! refused naming its key, and the shell loop's state (best.txt, markers) is read. Each run
//! leaves one `efficiency.tsv` row per completed step, the same steps and work counts whether
//! the loop ran through or one step per start. `train.epochs` trains that many passes over the
//! positions the pool lists for the training set.

mod common;

use common::{remove_dirs, scratch_dir};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const DATAGEN: &str = env!("CARGO_BIN_EXE_datagen");

/// A scratch repository (nets/chess-default.nnue, an empty history) and a tiny config.
fn setup(name: &str, extra: &str) -> (PathBuf, PathBuf) {
    let dir = scratch_dir(name);
    let nets = dir.join("repo").join("nets");
    std::fs::create_dir_all(&nets).unwrap();
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../nets/chess-default.nnue");
    std::fs::copy(shipped, nets.join("chess-default.nnue")).unwrap();
    std::fs::write(nets.join("history.tsv"), "").unwrap();
    std::fs::write(nets.join("README.md"), "").unwrap();
    let config = dir.join("loop.toml");
    std::fs::write(
        &config,
        format!(
            r#"game = "chess"
data = "data"
repository = "repo"
max_generation = 2
max_attempts = 1
publish = true
[generate]
nodes = 50
positions = 300
[train]
superbatches = 1
batches = 2
batch = 256
val_every = 4
threads = 1
[match]
pairs = 1
nodes = 1
a_nodes = 1000
sprt = "-1500,-500"
extra_rounds = 2
extra_pairs = 4
extra_min_llr = -3.0
threads = 1
[rescore]
positions = 1
nodes = 50
{extra}"#
        ),
    )
    .unwrap();
    (dir, config)
}

fn run_loop(config: &Path, args: &[&str]) -> Output {
    Command::new(DATAGEN)
        .args(["loop", "--config", config.to_str().unwrap()])
        .args(args)
        .output()
        .unwrap()
}

fn ok(output: Output) -> String {
    let text = String::from_utf8_lossy(&output.stdout).to_string()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{text}");
    text
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What a finished loop leaves: its state, pool manifest, retired files, promotions (without
/// the date), published history and nets.
fn outcome(dir: &Path) -> Vec<(String, String)> {
    let data = dir.join("data").join("chess");
    let promotions: String = read(&data.join("promotions.tsv"))
        .lines()
        .map(|l| l.rsplit_once('\t').unwrap().0.to_string() + "\n")
        .collect();
    let mut files = vec![
        ("state".to_string(), read(&data.join("loop-state.toml"))),
        ("pool".to_string(), read(&data.join("pool/pool.tsv"))),
        (
            "retired".to_string(),
            read(&data.join("pool/retired/retired.tsv")),
        ),
        ("promotions".to_string(), promotions),
        (
            "history".to_string(),
            read(&dir.join("repo/nets/history.tsv")),
        ),
    ];
    for entry in std::fs::read_dir(dir.join("repo/nets")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "nnue") {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            // Nets by content (a name is the file's hash, the default net a copy of one).
            let bytes = std::fs::read(&path).unwrap();
            files.push((
                name,
                format!("{:016x}", sente::nnue::format::fnv1a64(&bytes)),
            ));
        }
    }
    files.sort();
    files
}

/// The rows of `efficiency.tsv` as (generation, attempt, step, work, unit), checked: the
/// header first, eight fields per row, non-negative wall and CPU seconds.
fn efficiency_rows(dir: &Path) -> Vec<(u32, u32, String, u64, String)> {
    let path = dir.join("data/chess/efficiency.tsv");
    let text = read(&path);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("time\tgeneration\tattempt\tstep\twall_s\tcpu_s\twork\tunit")
    );
    lines
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 8, "{line}");
            for seconds in [f[4], f[5]] {
                assert!(seconds.parse::<f64>().unwrap() >= 0.0, "{line}");
            }
            (
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].to_string(),
                f[6].parse().unwrap(),
                f[7].to_string(),
            )
        })
        .collect()
}

/// The rows of an uninterrupted run: every step of both generations, each step that works
/// with its work (512 training positions: 1 superbatch × 2 batches × 256), in its unit.
fn check_efficiency(rows: &[(u32, u32, String, u64, String)]) {
    let steps: Vec<String> = rows
        .iter()
        .map(|(g, a, step, _, _)| format!("{g}/{a}/{step}"))
        .collect();
    let text = format!("{rows:?}");
    assert!(
        steps.starts_with(&[
            "1/1/generate".to_string(),
            "1/1/pool".to_string(),
            "1/1/train".to_string(),
            "1/1/train".to_string(),
            "1/1/match".to_string(),
            "1/1/match-r1".to_string(),
        ]),
        "{text}"
    );
    for step in [
        "1/1/decide",
        "1/1/publish",
        "2/1/rescore",
        "2/1/generate",
        "2/1/decide",
    ] {
        assert!(steps.contains(&step.to_string()), "{step}: {text}");
    }
    for (_, _, step, work, unit) in rows {
        let expected = match step.as_str() {
            "rescore" | "generate" | "pool" => "positions",
            "train" => "training positions",
            s if s.starts_with("match") => "games",
            "decide" => "-",
            "publish" => "nets",
            _ => panic!("step {step}: {text}"),
        };
        assert_eq!(unit, expected, "{text}");
        if ["generate", "pool"].contains(&step.as_str()) || step.starts_with("match-r") {
            assert!(*work > 0, "{text}");
        }
    }
    let work_of = |name: &str| -> Vec<u64> {
        rows.iter()
            .filter(|r| r.2 == name && r.3 > 0)
            .map(|r| r.3)
            .collect()
    };
    assert_eq!(work_of("train"), [512, 512], "{text}");
    assert_eq!(work_of("publish"), [1, 1], "{text}");
    assert_eq!(work_of("rescore").len(), 1, "{text}");
}

fn step_of(dir: &Path) -> String {
    let state = read(&dir.join("data/chess/loop-state.toml"));
    let line = state.lines().find(|l| l.starts_with("step = ")).unwrap();
    line.trim_start_matches("step = ")
        .trim_matches('"')
        .to_string()
}

#[test]
fn a_loop_stopped_after_every_step_or_killed_mid_step_ends_as_one_run_uninterrupted() {
    let (whole, config) = setup("loop-whole", "");
    let log = ok(run_loop(&config, &[]));
    assert!(log.contains("gen 1 promoted: chess-"), "{log}");
    assert!(log.contains("publish: chess-"), "{log}");
    assert!(
        log.contains("gen 2: chose 1 stale pool files of generations 1"),
        "{log}"
    );
    assert!(log.contains("gen 2: retired g1-"), "{log}");
    let reference = outcome(&whole);
    let efficiency = efficiency_rows(&whole);
    check_efficiency(&efficiency);
    let history = read(&whole.join("repo/nets/history.tsv"));
    assert!(
        history.starts_with("chess\tchess-") && history.contains("H1"),
        "{history}"
    );
    let promoted = history.lines().last().unwrap().split('\t').nth(1).unwrap();
    assert_eq!(
        std::fs::read(whole.join("repo/nets").join(promoted)).unwrap(),
        std::fs::read(whole.join("repo/nets/chess-default.nnue")).unwrap()
    );

    // Stopped after each step: every state is one a kill can leave.
    let (stepped, config) = setup("loop-stepped", "");
    let mut seen = BTreeSet::new();
    for _ in 0..100 {
        let log = ok(run_loop(&config, &["--max-steps", "1"]));
        seen.insert(step_of(&stepped));
        if log.contains("max_generation") || log.contains("max_attempts") {
            break;
        }
    }
    let all = [
        "decide", "generate", "match", "pool", "publish", "rescore", "train",
    ];
    assert_eq!(
        seen,
        all.iter().map(|s| s.to_string()).collect(),
        "steps seen"
    );
    assert_eq!(outcome(&stepped), reference);
    assert_eq!(efficiency_rows(&stepped), efficiency);

    // Killed in the middle of its first steps (self-play, pooling, training): the next start
    // resumes the step and the loop ends the same.
    let (killed, config) = setup("loop-killed", "");
    let mut child = Command::new(DATAGEN)
        .args(["loop", "--config", config.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let data = killed.join("data/chess/runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::time::Instant::now() < deadline
        && !std::fs::read_dir(&data).is_ok_and(|mut d| d.next().is_some())
    {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    ok(run_loop(&config, &[]));
    assert_eq!(outcome(&killed), reference);
    // The killed step's row is the resumed process's: its work is at most the whole step's.
    let generated = |rows: &[(u32, u32, String, u64, String)]| -> u64 {
        rows.iter().filter(|r| r.2 == "generate").map(|r| r.3).sum()
    };
    assert!(generated(&efficiency_rows(&killed)) <= generated(&efficiency));
    remove_dirs([whole, stepped, killed]);
}

#[test]
fn a_second_loop_a_bad_config_and_the_shell_loops_state() {
    let (dir, config) = setup("loop-lock", "");
    // The lock held by another process (here: this test) keeps a loop out before it does anything.
    let game = dir.join("data/chess");
    std::fs::create_dir_all(&game).unwrap();
    let held = std::fs::File::create(game.join("loop.lock")).unwrap();
    held.try_lock().unwrap();
    let refused = run_loop(&config, &[]);
    let text = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && text.contains("another loop of chess is running"),
        "{text}"
    );
    assert!(
        !game.join("loop-state.toml").exists()
            && !game.join("nets").read_dir().unwrap().any(|_| true)
    );
    drop(held);

    // A bad key or value: refused before anything runs, naming the key.
    let (bad, bad_config) = setup("loop-bad", "[slurm]\nshards = 0\n");
    let refused = run_loop(&bad_config, &[]);
    let text = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && text.contains("slurm.shards"),
        "{text}"
    );
    assert!(!bad.join("data").exists());

    // The shell loop's layout: best.txt and attempt 1 rejected; attempt 2 generated.
    let nets = game.join("nets");
    std::fs::create_dir_all(&nets).unwrap();
    std::fs::copy(
        dir.join("repo/nets/chess-default.nnue"),
        nets.join("chess-x.nnue"),
    )
    .unwrap();
    std::fs::write(game.join("best.txt"), "7 chess/nets/chess-x.nnue\n").unwrap();
    for (attempt, marker) in [("a1", "rejected"), ("a2", "generated")] {
        let a = game.join("gen8").join(attempt);
        std::fs::create_dir_all(&a).unwrap();
        std::fs::write(a.join(marker), "").unwrap();
    }
    let log = ok(run_loop(&config, &["--max-steps", "0"]));
    assert!(log.contains("read the shell loop's state"), "{log}");
    let state = read(&game.join("loop-state.toml"));
    for line in [
        "best_generation = 7",
        "best_net = \"chess/nets/chess-x.nnue\"",
        "generation = 8",
        "attempt = 2",
        "step = \"pool\"",
    ] {
        assert!(state.contains(line), "{line}: {state}");
    }
    remove_dirs([dir, bad]);
}

#[test]
fn train_epochs_size_the_training_to_the_pool() {
    let (dir, config) = setup("loop-epochs", "");
    let text = read(&config).replace("superbatches = 1\n", "superbatches = 1\nepochs = 3.0\n");
    std::fs::write(&config, text).unwrap();
    // generate, pool, train (fixes the set), train.
    for _ in 0..4 {
        ok(run_loop(&config, &["--max-steps", "1"]));
    }
    assert_eq!(step_of(&dir), "match");
    let pool = read(&dir.join("data/chess/pool/pool.tsv"));
    let positions: u64 = pool
        .lines()
        .skip(2)
        .map(|row| row.split('\t').nth(7).unwrap().parse::<u64>().unwrap())
        .sum();
    // Three passes in superbatches of 2 batches × 256 positions, rounded up.
    let superbatches = (3 * positions).div_ceil(512);
    assert!(superbatches > 1, "{positions} positions");
    let trained: Vec<u64> = efficiency_rows(&dir)
        .iter()
        .filter(|r| r.2 == "train" && r.3 > 0)
        .map(|r| r.3)
        .collect();
    assert_eq!(trained, [superbatches * 512], "{positions} positions");
}

#[test]
fn train_king_buckets_fine_tunes_the_best_net_into_more_buckets() {
    let (dir, config) = setup("loop-king-buckets", "");
    let text = read(&config)
        .replace("max_generation = 2\n", "max_generation = 1\n")
        .replace(
            "superbatches = 1\n",
            "superbatches = 1\ninit = \"best\"\nking_buckets = 4\n",
        );
    std::fs::write(&config, text).unwrap();
    let shipped = sente::nnue::format::NetHeader::parse(
        &std::fs::read(dir.join("repo/nets/chess-default.nnue")).unwrap(),
    )
    .unwrap();
    assert_eq!(shipped.arch.king_buckets, 1);
    let log = ok(run_loop(&config, &[]));
    assert!(log.contains("gen 1 promoted: chess-"), "{log}");
    let history = read(&dir.join("repo/nets/history.tsv"));
    let row = history.lines().last().unwrap();
    assert!(
        row.contains("--king-buckets 4") && row.contains("(fine-tuned from the parent)"),
        "{row}"
    );
    let promoted = row.split('\t').nth(1).unwrap();
    let header = sente::nnue::format::NetHeader::parse(
        &std::fs::read(dir.join("repo/nets").join(promoted)).unwrap(),
    )
    .unwrap();
    assert_eq!(header.arch.king_buckets, 4);
    assert_eq!(header.arch.l1, shipped.arch.l1);
    remove_dirs([dir]);
}
