//! A run is bit-identical whatever the thread count, and a run killed with SIGKILL and restarted
//! with the same arguments ends with exactly the same file as an uninterrupted one.

mod common;

use common::{data_of, pool_add_args, remove_dirs, run_args, scratch, with, DATAGEN};
use sente::dispatch_game;
use sente::game::{Game, GameKind};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// 96 games of seed 11 on `threads` threads.
fn args(game: &str, threads: usize, out: &Path) -> Vec<String> {
    let args = with(run_args(game, 96, out), "--seed", "11");
    with(args, "--threads", &threads.to_string())
}

fn run_to_end(game: &str, threads: usize, out: &Path) -> Vec<u8> {
    DATAGEN.ok(&args(game, threads, out));
    data_of(out)
}

fn check(game: &str) {
    let one = scratch(&format!("repro-{game}-one"));
    let two = scratch(&format!("repro-{game}-two"));
    let killed = scratch(&format!("repro-{game}-killed"));
    let reference = run_to_end(game, 1, &one);
    assert_eq!(
        run_to_end(game, 2, &two),
        reference,
        "thread count changed the data"
    );

    // Start, wait until at least one chunk is on disk, SIGKILL, then resume.
    let mut child = Command::new(DATAGEN.path)
        .args(args(game, 2, &killed))
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let data = killed.join("data.bin");
    while std::fs::metadata(&data).map_or(0, |m| m.len()) == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let partial = std::fs::read(&data).unwrap();
    assert!(partial.len() < reference.len(), "killed before the end");
    // Simulate a torn write as well: a few stray bytes after the last chunk.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&data)
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"SENTEDAT\x01\x00"))
        .unwrap();
    assert_eq!(
        run_to_end(game, 2, &killed),
        reference,
        "resumed run differs"
    );

    DATAGEN.ok(&["verify", "--game", game, data.to_str().unwrap()]);
    check_positions(game, &data);
    remove_dirs([one, two, killed]);
}

/// `datagen positions` prints a sample of the recorded positions, each one a position the
/// engine reads back.
fn check_positions(game: &str, data: &Path) {
    let listed = |every: &str| {
        DATAGEN.ok(&[
            "positions",
            "--game",
            game,
            "--every",
            every,
            data.to_str().unwrap(),
        ])
    };
    let all = listed("1");
    let sample = listed("10");
    let all_lines: Vec<&str> = all.lines().collect();
    let sample_lines: Vec<&str> = sample.lines().collect();
    assert!(all_lines.len() > 100);
    assert_eq!(sample_lines.len(), all_lines.len().div_ceil(10));
    assert_eq!(sample_lines[1], all_lines[10]);
    let kind: GameKind = game.parse().unwrap();
    for line in sample_lines {
        let read_back = dispatch_game!(kind, G => G::from_text(line).is_ok());
        assert!(read_back, "{line}");
    }
}

#[test]
fn chess_runs_are_reproducible_and_resume_after_a_kill() {
    check("chess");
}

#[test]
fn shogi_runs_are_reproducible_and_resume_after_a_kill() {
    check("shogi");
}

#[test]
fn a_run_with_other_settings_in_the_same_directory_is_refused() {
    let dir = scratch("repro-mismatch");
    run_to_end("chess", 2, &dir);
    let error = DATAGEN.failure(&with(args("chess", 2, &dir), "--seed", "12"));
    assert!(error.contains("other settings"), "{error}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `--max-time` stops a run at a chunk boundary: the file holds whole chunks only (it verifies
/// and joins a pool as it is), and the same command resumes it to the uninterrupted file.
#[test]
fn a_run_stopped_by_max_time_ends_with_whole_chunks_and_resumes_to_the_same_bytes() {
    let full = scratch("maxtime-full");
    let timed = scratch("maxtime-timed");
    let reference = run_to_end("chess", 1, &full);

    let stopped = DATAGEN.run(&with(args("chess", 2, &timed), "--max-time", "0"));
    assert!(stopped.status.success());
    let log = String::from_utf8_lossy(&stopped.stderr);
    assert!(log.contains("stopped after --max-time at game 0"), "{log}");
    assert!(data_of(&timed).is_empty(), "no chunk is written after 0 s");

    // However far a short slot gets, it leaves a prefix of whole chunks of the full run.
    DATAGEN.ok(&with(args("chess", 2, &timed), "--max-time", "0.5"));
    let partial = data_of(&timed);
    assert_eq!(partial[..], reference[..partial.len()]);
    let data = timed.join("data.bin");
    if !partial.is_empty() {
        DATAGEN.ok(&["verify", "--game", "chess", data.to_str().unwrap()]);
        let pool = timed.join("pool");
        DATAGEN.ok(&pool_add_args(&pool, "chess", 1, &timed));
    }
    assert_eq!(
        run_to_end("chess", 2, &timed),
        reference,
        "resumed run differs"
    );
    for bad_value in ["--max-time=-1", "--max-time=soon"] {
        let mut bad_args = args("chess", 1, &timed);
        bad_args.push(bad_value.to_string());
        let error = DATAGEN.failure(&bad_args);
        assert!(error.contains("--max-time"), "{error}");
    }
    remove_dirs([full, timed]);
}

/// A second `datagen run` into a directory another one is writing stops with an error (nothing
/// appended by two writers); once the first is killed, the same command resumes as usual.
#[test]
fn a_second_writer_of_the_same_run_is_refused_while_the_first_runs() {
    let dir = scratch("repro-two-writers");
    let long = with(args("chess", 1, &dir), "--games", "100000");
    let mut first = Command::new(DATAGEN.path)
        .args(&long)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !dir.join("run.txt").exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    let error = DATAGEN.failure(&long);
    assert!(error.contains("another datagen process"), "{error}");
    first.kill().unwrap();
    first.wait().unwrap();
    DATAGEN.ok(&with(long, "--max-time", "0"));
    let _ = std::fs::remove_dir_all(dir);
}

/// `--searchers per-side` plays other games than the default one shared searcher (a searcher's
/// table then holds the other side's search), and reproducibly; its run.txt has no `searchers=`
/// line, as the runs made before that option, so a run begun per side is refused by the default
/// and resumed to the same bytes by `--searchers per-side`.
#[test]
fn per_side_searchers_play_other_games_and_resume_only_per_side() {
    let shared = scratch("searchers-shared");
    let per_side = scratch("searchers-per-side");
    let again = scratch("searchers-per-side-again");
    let shared_data = run_to_end("chess", 2, &shared);
    let per_side_args = with(args("chess", 2, &per_side), "--searchers", "per-side");
    DATAGEN.ok(&per_side_args);
    let per_side_data = data_of(&per_side);
    assert_ne!(per_side_data, shared_data, "the seating changed no game");
    let manifest = |dir: &Path| std::fs::read_to_string(dir.join("run.txt")).unwrap();
    assert!(manifest(&shared).contains("searchers=shared\n"));
    assert!(!manifest(&per_side).contains("searchers="));

    let error = DATAGEN.failure(&args("chess", 2, &per_side));
    assert!(
        error.contains("other settings") && error.contains("searchers=shared"),
        "{error}"
    );
    DATAGEN.ok(&with(args("chess", 1, &again), "--searchers", "per-side"));
    assert_eq!(data_of(&again), per_side_data, "per-side runs differ");
    DATAGEN.ok(&per_side_args);
    assert_eq!(
        data_of(&per_side),
        per_side_data,
        "a finished run changed on resume"
    );

    let bad = DATAGEN.failure(&with(args("chess", 1, &again), "--searchers", "both"));
    assert!(bad.contains("'both'"), "{bad}");
    remove_dirs([shared, per_side, again]);
}
