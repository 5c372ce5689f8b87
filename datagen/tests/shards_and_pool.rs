//! Scale-out: N shards of a run hold, game by game, the games of one unsharded run with the same
//! seed; a torn shard resumes to the same bytes; a pool accepts the shards and refuses overlap,
//! duplicates, damage and other games' data without changing its manifest; a sharded match
//! merges to the counts of the whole match.

mod common;

use common::{classical_match, run_args, scratch, strings, with, DATAGEN};
use datagen::digest::collect_games;
use datagen::match_result::MatchResult;
use sente::selfplay::Pentanomial;
use sente_data::data_paths::expand_data_paths;
use sente_data::pool::Pool;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `datagen run` with small searches; `shard` like `1/3` or `None`.
fn run(game: &str, games: u64, shard: Option<&str>, out: &Path) {
    let args = run_args(game, games, out);
    DATAGEN.ok(&match shard {
        Some(shard) => with(args, "--shard", shard),
        None => args,
    });
}

/// `datagen pool add` of chess `inputs` to `pool` as generation `generation`.
fn pool_add(pool: &Path, generation: u32, inputs: &[&Path]) -> Vec<String> {
    let mut args = strings(&["pool", "add", "--pool", pool.to_str().unwrap()]);
    args = with(
        with(args, "--game", "chess"),
        "--generation",
        &generation.to_string(),
    );
    args.extend(inputs.iter().map(|i| i.to_str().unwrap().to_string()));
    args
}

#[test]
fn shards_hold_the_games_of_one_run_and_resume_alone() {
    let dir = scratch("scale-shards");
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
    let error = DATAGEN.failure(&with(run_args("chess", 70, &shards[1]), "--shard", "2/3"));
    assert!(error.contains("other settings"), "{error}");
    let error = DATAGEN.failure(&[
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
    let error = DATAGEN.failure(&[
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
    let shard_dirs: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    DATAGEN.ok(&pool_add(&pool, 3, &shard_dirs));
    let digest = |input: &Path| DATAGEN.ok(&["digest", "--game", "chess", input.to_str().unwrap()]);
    assert_eq!(digest(&pool), digest(&whole));
    assert!(digest(&pool).starts_with("games 70 digest "));
    // Overlapping inputs are an error, not a bigger digest.
    let error = DATAGEN.failure(&[
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
    let dir = scratch("scale-pool");
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
    let add = |inputs: &[&Path]| DATAGEN.run(&pool_add(&pool, 2, inputs));
    assert!(add(&[&a]).status.success());
    let manifest = std::fs::read_to_string(pool.join("pool.tsv")).unwrap();

    let refused = |inputs: &[&Path], why: &str| {
        let out = add(inputs);
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

    assert!(add(&[&b]).status.success());
    let listing = DATAGEN.ok(&["pool", "list", p]);
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
    assert!(DATAGEN
        .ok(&verify)
        .contains("verified 12 games in 2 files: 0 problems"));
    // So do `verify` and `stats` themselves: the pool for its files, a run for its data file.
    assert!(DATAGEN
        .ok(&["verify", "--game", "chess", p])
        .contains("verified 12 games in 2 files: 0 problems"));
    let mut stats = vec!["stats", "--game", "chess"];
    stats.extend(files.iter().map(|f| f.to_str().unwrap()));
    assert_eq!(
        DATAGEN.ok(&["stats", "--game", "chess", p]),
        DATAGEN.ok(&stats)
    );
    let a_data = a.join("data.bin");
    assert_eq!(
        DATAGEN.ok(&["stats", "--game", "chess", a.to_str().unwrap()]),
        DATAGEN.ok(&["stats", "--game", "chess", a_data.to_str().unwrap()])
    );
    // A damaged manifest is an error naming the line, not a crash.
    std::fs::write(
        pool.join("pool.tsv"),
        manifest.replace("\tclassical\t300\t", "\tclassical\tmany\t"),
    )
    .unwrap();
    let error = DATAGEN.failure(&["pool", "list", p]);
    assert!(
        error.contains("line 3") && error.contains("many"),
        "{error}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sharded_match_merges_to_the_whole_match() {
    let dir = scratch("scale-match");
    std::fs::create_dir_all(&dir).unwrap();
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/../nets/chess-default.nnue");
    let play = |shard: Option<&str>, result: &Path| {
        let mut args = with(classical_match("chess"), "--a-net", net);
        for (flag, value) in [
            ("--pairs", "5"),
            ("--nodes", "200"),
            ("--verify-nodes", "100"),
        ] {
            args = with(args, flag, value);
        }
        args = with(args, "--seed", "9");
        args = with(args, "--result", result.to_str().unwrap());
        if let Some(shard) = shard {
            args = with(args, "--shard", shard);
        }
        DATAGEN.ok(&args);
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
    let merged = DATAGEN.ok(&args);
    // Node-limited games are deterministic: the shards add up to the whole match.
    let mut sum = Pentanomial::default();
    for part in &parts {
        for (total, n) in sum.0.iter_mut().zip(part.pentanomial.0) {
            *total += n;
        }
    }
    assert_eq!(sum, whole.pentanomial);
    let whole_text = DATAGEN.ok(&[
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
    let error = DATAGEN.failure(&["match-merge", &files[0], &files[0]]);
    assert!(error.contains("given twice"), "{error}");
    let sharded = with(classical_match("chess"), "--shard", "0/2");
    let error = DATAGEN.failure(&with(sharded, "--sprt", "0,10"));
    assert!(error.contains("--sprt"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn concurrent_pool_adds_take_turns() {
    let dir = scratch("scale-concurrent");
    let shards: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("s{i}"))).collect();
    for (i, out) in shards.iter().enumerate() {
        run("chess", 9, Some(&format!("{i}/3")), out);
    }
    let pool = dir.join("pool");
    let children: Vec<_> = shards
        .iter()
        .map(|shard| {
            Command::new(DATAGEN.path)
                .args(pool_add(&pool, 0, &[shard]))
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
