//! Scale-out: N shards of a run hold, game by game, the games of one unsharded run with the same
//! seed; a torn shard resumes to the same bytes; a pool accepts the shards and refuses overlap,
//! duplicates, damage and other games' data without changing its manifest; a sharded match
//! merges to the counts of the whole match.

use datagen::digest::collect_games;
use datagen::match_result::MatchResult;
use datagen::pool::{expand_data_paths, Pool};
use sente::selfplay::Pentanomial;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_datagen");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-scale-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn datagen(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = datagen(args);
    assert!(
        out.status.success(),
        "datagen {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn failure(args: &[&str]) -> String {
    let out = datagen(args);
    assert!(!out.status.success(), "datagen {args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

/// `datagen run` with small searches; `shard` like `1/3` or `None`.
fn run(game: &str, games: u64, shard: Option<&str>, out: &Path) {
    let games = games.to_string();
    let mut args = vec![
        "run",
        "--game",
        game,
        "--games",
        &games,
        "--nodes",
        "300",
        "--verify-nodes",
        "200",
        "--seed",
        "5",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
    ];
    if let Some(shard) = shard {
        args.extend(["--shard", shard]);
    }
    ok(&args);
}

#[test]
fn shards_hold_the_games_of_one_run_and_resume_alone() {
    let dir = scratch("shards");
    let whole = dir.join("whole");
    run("chess", 70, None, &whole);
    let shards: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("s{i}"))).collect();
    for (i, out) in shards.iter().enumerate() {
        run("chess", 70, Some(&format!("{i}/3")), out);
    }
    let one = collect_games::<sente::chess::Position>(std::slice::from_ref(&whole)).unwrap();
    let union = collect_games::<sente::chess::Position>(&shards).unwrap();
    assert_eq!(one.len(), 70);
    let indices: Vec<u64> = union.keys().map(|k| k.2).collect();
    assert_eq!(indices, (0..70).collect::<Vec<u64>>());
    for (key, record) in &one {
        assert_eq!(union.get(key), Some(record), "game {key:?} differs");
    }
    // Shard 0/3 holds games 0, 3, ..., 69: 24 games.
    let s0 = collect_games::<sente::chess::Position>(&shards[..1]).unwrap();
    assert_eq!(s0.len(), 24);
    assert!(s0.keys().all(|k| k.2 % 3 == 0));

    // A shard cut inside its (only) chunk resumes to the same bytes; so does a shard whose chunk
    // is damaged (the repair plays the shard's games again, not games 0, 1, 2, ...).
    let data = shards[1].join("data.bin");
    let complete = std::fs::read(&data).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&data).unwrap();
    file.set_len(complete.len() as u64 - 100).unwrap();
    drop(file);
    run("chess", 70, Some("1/3"), &shards[1]);
    assert_eq!(std::fs::read(&data).unwrap(), complete);
    let mut damaged = complete.clone();
    damaged[60] ^= 0x40;
    std::fs::write(&data, &damaged).unwrap();
    run("chess", 70, Some("1/3"), &shards[1]);
    assert_eq!(std::fs::read(&data).unwrap(), complete);
    // Another shard (or none) in the same directory is a different run.
    let error = failure(&[
        "run",
        "--game",
        "chess",
        "--games",
        "70",
        "--nodes",
        "300",
        "--verify-nodes",
        "200",
        "--seed",
        "5",
        "--shard",
        "2/3",
        "--out",
        shards[1].to_str().unwrap(),
    ]);
    assert!(error.contains("other settings"), "{error}");
    let error = failure(&[
        "run",
        "--game",
        "chess",
        "--positions",
        "500",
        "--shard",
        "0/2",
        "--out",
        dir.join("p").to_str().unwrap(),
    ]);
    assert!(
        error.contains("--shard splits a fixed game count"),
        "{error}"
    );
    let error = failure(&[
        "run",
        "--game",
        "chess",
        "--games",
        "8",
        "--shard",
        "2/2",
        "--out",
        dir.join("q").to_str().unwrap(),
    ]);
    assert!(error.contains("not below the shard count"), "{error}");

    // The digest of the pooled shards equals that of the whole run.
    let pool = dir.join("pool");
    let mut add = vec![
        "pool",
        "add",
        "--pool",
        pool.to_str().unwrap(),
        "--game",
        "chess",
    ];
    add.extend(["--generation", "3"]);
    let shard_args: Vec<&str> = shards.iter().map(|p| p.to_str().unwrap()).collect();
    add.extend(&shard_args);
    ok(&add);
    let digest = |input: &Path| ok(&["digest", "--game", "chess", input.to_str().unwrap()]);
    assert_eq!(digest(&pool), digest(&whole));
    assert!(digest(&pool).starts_with("games 70 digest "));
    // Overlapping inputs are an error, not a bigger digest.
    let error = failure(&[
        "digest",
        "--game",
        "chess",
        whole.to_str().unwrap(),
        shards[2].to_str().unwrap(),
    ]);
    assert!(error.contains("appears twice"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pool_verifies_refuses_and_lists() {
    let dir = scratch("pool");
    let (a, b, whole, shogi) = (
        dir.join("a"),
        dir.join("b"),
        dir.join("whole"),
        dir.join("shogi"),
    );
    run("chess", 12, Some("0/2"), &a);
    run("chess", 12, Some("1/2"), &b);
    run("chess", 4, None, &whole);
    run("shogi", 2, None, &shogi);
    let pool = dir.join("pool");
    let p = pool.to_str().unwrap();
    let add = |inputs: &[&Path]| {
        let mut args = vec![
            "pool",
            "add",
            "--pool",
            p,
            "--game",
            "chess",
            "--generation",
            "2",
        ];
        args.extend(inputs.iter().map(|i| i.to_str().unwrap()));
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let run_args =
        |args: Vec<String>| datagen(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(run_args(add(&[&a])).status.success());
    let manifest = std::fs::read_to_string(pool.join("pool.tsv")).unwrap();

    let refused = |inputs: &[&Path], why: &str| {
        let out = run_args(add(inputs));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains(why), "{stderr}");
        // Nothing changed.
        assert_eq!(
            std::fs::read_to_string(pool.join("pool.tsv")).unwrap(),
            manifest
        );
    };
    // Same file again; the whole run overlaps shard 0/2 at game 0; b with a copy of itself in
    // one command; another game's data.
    refused(&[&a], "same content");
    refused(&[&whole], "game 0 of seed 5");
    let b_copy = dir.join("b-copy");
    std::fs::create_dir_all(&b_copy).unwrap();
    for name in ["data.bin", "run.txt", "evaluator.txt"] {
        std::fs::copy(b.join(name), b_copy.join(name)).unwrap();
    }
    refused(&[&b, &b_copy], "same content");
    refused(&[&shogi], "shogi run cannot join a chess pool");
    // A damaged chunk (one payload byte) and a torn tail are refused.
    let data = b_copy.join("data.bin");
    let mut bytes = std::fs::read(&data).unwrap();
    bytes[60] ^= 0x40;
    std::fs::write(&data, &bytes).unwrap();
    refused(&[&b_copy], "checksum mismatch");
    bytes[60] ^= 0x40;
    std::fs::write(&data, &bytes[..bytes.len() - 7]).unwrap();
    refused(&[&b_copy], "resume the run first");
    // A file without run.txt beside it.
    let bare = dir.join("bare.bin");
    std::fs::write(&bare, &bytes).unwrap();
    refused(&[&bare], "run.txt");

    assert!(run_args(add(&[&b])).status.success());
    let listing = ok(&["pool", "list", p]);
    assert!(listing.contains("total: 2 files, 12 games"), "{listing}");
    assert!(
        listing.contains("\t0/2\t6\t") && listing.contains("\t1/2\t6\t"),
        "{listing}"
    );
    let opened = Pool::open(&pool).unwrap();
    assert_eq!(opened.entries.len(), 2);
    assert!(opened
        .entries
        .iter()
        .all(|e| e.generation == 2 && e.evaluator == "classical"));
    // Readers (the tuner) see the pool as its files, which verify.
    let files = expand_data_paths(std::slice::from_ref(&pool)).unwrap();
    assert_eq!(files, opened.files());
    let mut verify = vec!["verify", "--game", "chess"];
    verify.extend(files.iter().map(|f| f.to_str().unwrap()));
    assert!(ok(&verify).contains("verified 12 games in 2 files: 0 problems"));
    // A damaged manifest is an error naming the line, not a crash.
    std::fs::write(
        pool.join("pool.tsv"),
        manifest.replace("\tclassical\t300\t", "\tclassical\tmany\t"),
    )
    .unwrap();
    let error = failure(&["pool", "list", p]);
    assert!(
        error.contains("line 3") && error.contains("many"),
        "{error}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sharded_match_merges_to_the_whole_match() {
    let dir = scratch("match");
    std::fs::create_dir_all(&dir).unwrap();
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/../nets/chess-default.nnue");
    let play = |shard: Option<&str>, result: &Path| {
        let mut args = vec![
            "match",
            "--game",
            "chess",
            "--a",
            net,
            "--b",
            "classical",
            "--pairs",
            "5",
            "--nodes",
            "200",
            "--verify-nodes",
            "100",
            "--seed",
            "9",
            "--result",
            result.to_str().unwrap(),
        ];
        if let Some(shard) = shard {
            args.extend(["--shard", shard]);
        }
        ok(&args);
        MatchResult::read(result).unwrap()
    };
    let whole = play(None, &dir.join("whole.txt"));
    let parts: Vec<MatchResult> = (0..3)
        .map(|i| play(Some(&format!("{i}/3")), &dir.join(format!("r{i}.txt"))))
        .collect();
    assert_eq!(
        parts
            .iter()
            .map(|r| r.pentanomial.pairs())
            .collect::<Vec<_>>(),
        [2, 2, 1]
    );
    let files: Vec<String> = (0..3)
        .map(|i| dir.join(format!("r{i}.txt")).to_str().unwrap().to_string())
        .collect();
    let mut args = vec!["match-merge", "--sprt", "0,10"];
    args.extend(files.iter().map(String::as_str));
    let merged = ok(&args);
    // Node-limited games are deterministic: the shards add up to the whole match.
    let mut sum = Pentanomial::default();
    for part in &parts {
        for (total, n) in sum.0.iter_mut().zip(part.pentanomial.0) {
            *total += n;
        }
    }
    assert_eq!(sum, whole.pentanomial);
    let whole_text = ok(&[
        "match-merge",
        "--sprt",
        "0,10",
        dir.join("whole.txt").to_str().unwrap(),
    ]);
    assert_eq!(merged, whole_text);
    assert!(
        merged.contains("10 games") && merged.contains("SPRT [0, 10]"),
        "{merged}"
    );
    // The same shard twice is refused.
    let error = failure(&["match-merge", &files[0], &files[0]]);
    assert!(error.contains("given twice"), "{error}");
    let error = failure(&[
        "match",
        "--game",
        "chess",
        "--a",
        "classical",
        "--b",
        "classical",
        "--shard",
        "0/2",
        "--sprt",
        "0,10",
    ]);
    assert!(error.contains("--sprt"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn concurrent_pool_adds_take_turns() {
    let dir = scratch("concurrent");
    let shards: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("s{i}"))).collect();
    for (i, out) in shards.iter().enumerate() {
        run("chess", 9, Some(&format!("{i}/3")), out);
    }
    let pool = dir.join("pool");
    let children: Vec<_> = shards
        .iter()
        .map(|shard| {
            Command::new(BIN)
                .args(["pool", "add", "--game", "chess", "--pool"])
                .args([&pool, shard])
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let opened = Pool::open(&pool).unwrap();
    let mut shard_indices: Vec<u64> = opened.entries.iter().map(|e| e.shard.index).collect();
    shard_indices.sort();
    assert_eq!(shard_indices, [0, 1, 2]);
    let _ = std::fs::remove_dir_all(&dir);
}
