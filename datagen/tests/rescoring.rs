//! `datagen rescore`: a classical run's games rescored with a net keep their moves, starts,
//! results, ends and unscored plies and get new scores; games that do not replay are reported and
//! left out; the output is the same on one or two threads and a cut or damaged output resumes to
//! the same bytes; other settings and bad inputs are refused with errors naming them; the output
//! joins a pool and reads back, and its source can then be retired from the pool (kept aside,
//! never deleted) so that training reads each game once.

mod common;

use common::{data_of, pool_add_args, remove_dirs, run_args, scratch, strings, DATAGEN};
use sente::chess::Position;
use sente::game::GameKind;
use sente_data::chunk::encode_chunk;
use sente_data::data_paths::expand_data_paths;
use sente_data::pool::Pool;
use sente_data::read::read_games;
use sente_data::scan::scan;
use sente_data::stored_game::{StoredGame, SCORE_NONE};
use sente_testkit::text;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// The net the tests rescore with (the classical evaluator played the source games).
const NET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../nets/chess-default.nnue");

/// The source data, made once per test binary.
struct Source {
    /// A classical run of 40 games (two chunks).
    run: PathBuf,
    /// A loose data file of the run's games with their first two plies unscored and game 3
    /// broken (an illegal move at ply 5): 39 of its 40 games replay.
    mixed: PathBuf,
}

static SOURCE: LazyLock<Source> = LazyLock::new(|| {
    // Shared by the tests of this process and never dropped, so it lives in Cargo's scratch
    // directory for integration tests (under `target/`), replaced by each run, not in /tmp.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rescore-source");
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.join("run");
    DATAGEN.ok(&run_args("chess", 40, &run));
    let mut games = games_of(&run.join("data.bin"));
    for game in &mut games {
        game.scores[0] = SCORE_NONE;
        game.scores[1] = SCORE_NONE;
    }
    games[3].moves[5] = games[3].moves[4];
    assert!(games[3].replay::<Position>(|_, _, _| {}).is_err());
    let mut bytes = Vec::new();
    for (i, chunk) in games.chunks(32).enumerate() {
        bytes.extend(encode_chunk(GameKind::Chess.id(), 32 * i as u64, chunk));
    }
    let mixed = dir.join("mixed.bin");
    std::fs::write(&mixed, bytes).unwrap();
    Source { run, mixed }
});

/// Every game of a data file, in order.
fn games_of(file: &Path) -> Vec<StoredGame> {
    let mut games = Vec::new();
    let problems = read_games(file, Some(GameKind::Chess), |_, g| games.push(g.clone())).unwrap();
    assert_eq!(problems, 0, "{}", file.display());
    games
}

/// `datagen rescore` of chess `inputs` with `net` at `nodes` nodes on `threads` threads.
fn rescore_args(
    net: &str,
    nodes: u64,
    threads: usize,
    out: &Path,
    inputs: &[&Path],
) -> Vec<String> {
    let mut args = strings(&[
        "rescore",
        "--game",
        "chess",
        "--net",
        net,
        "--nodes",
        &nodes.to_string(),
        "--threads",
        &threads.to_string(),
        "--out",
        out.to_str().unwrap(),
    ]);
    args.extend(inputs.iter().map(|p| p.to_str().unwrap().to_string()));
    args
}

/// Runs a rescoring that must succeed; its stderr.
fn rescore(args: &[String]) -> String {
    let out = DATAGEN.run(args);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    stderr
}

/// Runs a rescoring that must fail without a panic; its stderr.
fn refused(args: &[String]) -> String {
    let stderr = DATAGEN.failure(args);
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

#[test]
fn rescored_games_keep_their_moves_and_unscored_plies_and_get_new_scores() {
    let out = scratch("rescore-labels");
    let stderr = rescore(&rescore_args(NET, 100, 2, &out, &[&SOURCE.mixed]));
    let reported = format!("{}: game 3 does not replay", SOURCE.mixed.display());
    assert!(stderr.contains(&reported), "{stderr}");
    assert!(stderr.contains("positions/s"), "{stderr}");

    let mut source = games_of(&SOURCE.mixed);
    source.remove(3);
    let rescored = games_of(&out.join("data.bin"));
    assert_eq!(rescored.len(), 39);
    let (mut scored, mut changed) = (0, 0);
    for (old, new) in source.iter().zip(&rescored) {
        assert_eq!(
            (&old.start, &old.moves, old.result, old.end),
            (&new.start, &new.moves, new.result, new.end)
        );
        assert_eq!(old.scores.len(), new.scores.len());
        for (&a, &b) in old.scores.iter().zip(&new.scores) {
            assert_eq!(a == SCORE_NONE, b == SCORE_NONE);
            scored += (a != SCORE_NONE) as u32;
            changed += (a != SCORE_NONE && a != b) as u32;
        }
    }
    assert!(changed > scored / 2, "{changed} of {scored} scores changed");
    DATAGEN.ok(&[
        "verify",
        "--game",
        "chess",
        out.join("data.bin").to_str().unwrap(),
    ]);
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn rescoring_is_the_same_on_one_or_two_threads_and_resumes_to_the_same_bytes() {
    let (one, two) = (scratch("rescore-one"), scratch("rescore-two"));
    let args = |threads, out: &Path| rescore_args(NET, 100, threads, out, &[&SOURCE.run]);
    rescore(&args(1, &one));
    let reference = data_of(&one);
    rescore(&args(2, &two));
    assert_eq!(
        data_of(&two),
        reference,
        "the thread count changed the data"
    );

    let chunks = scan(&reference).chunks;
    assert_eq!(chunks.len(), 2);
    let data = two.join("data.bin");
    // Cut inside the second chunk, after the first, inside the first chunk's header.
    for len in [chunks[0].end() + 100, chunks[0].end(), 20] {
        std::fs::write(&data, &reference[..len]).unwrap();
        let stderr = rescore(&args(2, &two));
        if len != chunks[0].end() {
            assert!(stderr.contains("dropping an incomplete chunk"), "{stderr}");
        }
        assert_eq!(data_of(&two), reference, "resumed from {len} bytes");
    }
    // A damaged first chunk is kept aside and rescored again.
    let mut damaged = reference.clone();
    damaged[chunks[0].offset + 40 + 200] ^= 0x10;
    std::fs::write(&data, &damaged).unwrap();
    let stderr = rescore(&args(1, &two));
    assert!(stderr.contains("data.bin.damaged-1"), "{stderr}");
    assert_eq!(
        std::fs::read(two.join("data.bin.damaged-1")).unwrap(),
        damaged
    );
    assert_eq!(data_of(&two), reference, "repaired");
    remove_dirs([one, two]);
}

#[test]
fn other_settings_and_bad_inputs_are_refused_with_errors_naming_them() {
    let dir = scratch("rescore-refused");
    let out = dir.join("out");
    let run = SOURCE.run.as_path();
    rescore(&rescore_args(NET, 50, 1, &out, &[run]));
    let finished = data_of(&out);
    for other in [
        rescore_args(NET, 60, 1, &out, &[run]),
        rescore_args("classical", 50, 1, &out, &[run]),
        rescore_args(NET, 50, 1, &out, &[run, &SOURCE.mixed]),
    ] {
        let stderr = refused(&other);
        assert!(stderr.contains("other settings"), "{other:?}: {stderr}");
    }
    assert_eq!(data_of(&out), finished);
    // The same arguments again: nothing left to do, nothing changed.
    rescore(&rescore_args(NET, 50, 2, &out, &[run]));
    assert_eq!(data_of(&out), finished);

    std::fs::create_dir_all(&dir).unwrap();
    let source = data_of(run);
    let (damaged, torn) = (dir.join("damaged.bin"), dir.join("torn.bin"));
    let mut bytes = source.clone();
    bytes[300] ^= 0x10;
    std::fs::write(&damaged, bytes).unwrap();
    std::fs::write(&torn, &source[..source.len() - 10]).unwrap();
    let fresh = dir.join("fresh");
    for (input, why) in [(&damaged, "damaged"), (&torn, "truncated")] {
        let stderr = refused(&rescore_args(NET, 50, 1, &fresh, &[input]));
        assert!(
            stderr.contains(input.to_str().unwrap()) && stderr.contains(why),
            "{stderr}"
        );
    }
    let mut shogi = rescore_args("classical", 50, 1, &fresh, &[run]);
    shogi[2] = "shogi".into();
    let stderr = refused(&shogi);
    assert!(
        stderr.contains(run.to_str().unwrap()) && stderr.contains("holds chess games"),
        "{stderr}"
    );
    let garbage = dir.join("garbage.nnue");
    std::fs::write(&garbage, b"not a net").unwrap();
    for net in [garbage.to_str().unwrap(), "/nonexistent/net.nnue"] {
        let stderr = refused(&rescore_args(net, 50, 1, &fresh, &[run]));
        assert!(stderr.contains(net), "{stderr}");
    }
    let stderr = refused(&rescore_args(NET, 0, 1, &fresh, &[run]));
    assert!(stderr.contains("--nodes"), "{stderr}");
    let stderr = refused(&rescore_args(NET, 50, 1, &out, &[&out]));
    assert!(stderr.contains("is the output file"), "{stderr}");
    assert!(!fresh.join("data.bin").exists());
    let _ = std::fs::remove_dir_all(dir);
}

/// A scratch folder for `tag` with the shared source run rescored at 80 nodes on `threads`
/// threads into its `out`: the folder, `out`, and the (not yet made) `pool` path beside it.
fn rescored_at_80_nodes(tag: &str, threads: usize) -> (PathBuf, PathBuf, PathBuf) {
    let dir = scratch(tag);
    let out = dir.join("out");
    rescore(&rescore_args(NET, 80, threads, &out, &[&SOURCE.run]));
    let pool = dir.join("pool");
    (dir, out, pool)
}

#[test]
fn a_rescored_run_joins_a_pool_as_the_net_at_its_nodes_and_reads_back() {
    let (dir, out, pool) = rescored_at_80_nodes("rescore-pool", 2);
    let add = |input: &Path| pool_add_args(&pool, "chess", 2, input);
    DATAGEN.ok(&add(&out));
    DATAGEN.ok(&add(&SOURCE.run));
    let error = DATAGEN.failure(&add(&out));
    assert!(error.contains("refused"), "{error}");

    let manifest = Pool::open(&pool).unwrap();
    let entry = &manifest.entries[0];
    let net_label = std::fs::read_to_string(out.join("evaluator.txt")).unwrap();
    assert!(net_label.starts_with("fnv1a64:"), "{net_label}");
    assert_eq!(entry.evaluator, net_label.trim());
    assert_eq!((entry.nodes, entry.games), (80, 40));
    let run_txt = std::fs::read_to_string(pool.join(format!("{}.run.txt", entry.file))).unwrap();
    assert!(
        run_txt.contains("command=rescore")
            && run_txt.contains(SOURCE.run.join("data.bin").to_str().unwrap()),
        "{run_txt}"
    );
    let files = expand_data_paths(std::slice::from_ref(&pool)).unwrap();
    let pooled: Vec<StoredGame> = files.iter().flat_map(|f| games_of(f)).collect();
    assert_eq!(pooled.len(), 80);
    assert_eq!(pooled[..40], games_of(&out.join("data.bin"))[..]);
    let digest = DATAGEN.ok(&["digest", "--game", "chess", pool.to_str().unwrap()]);
    assert!(digest.starts_with("games 80 digest "), "{digest}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_rescored_copy_replaces_its_source_once_the_source_is_retired() {
    let (dir, out, pool) = rescored_at_80_nodes("rescore-retire", 1);
    DATAGEN.ok(&pool_add_args(&pool, "chess", 2, &SOURCE.run));
    DATAGEN.ok(&pool_add_args(&pool, "chess", 2, &out));
    let before = Pool::open(&pool).unwrap();
    let source = before
        .entries
        .iter()
        .find(|e| e.nodes != 80)
        .unwrap()
        .clone();
    let pool_arg = pool.to_str().unwrap();
    let retire = |files: &[&str]| {
        let mut args = strings(&["pool", "retire", "--pool", pool_arg]);
        args.extend(strings(files));
        args
    };

    // An unknown name (or a name given twice) retires nothing.
    let error = DATAGEN.failure(&retire(&[&source.file, "g2-nothing.bin"]));
    assert!(
        error.contains("g2-nothing.bin is not in the pool"),
        "{error}"
    );
    let error = DATAGEN.failure(&retire(&[&source.file, &source.file]));
    assert!(error.contains("named twice"), "{error}");
    assert_eq!(Pool::open(&pool).unwrap(), before);

    // As if an earlier retire was killed after logging the row and before the manifest changed:
    // the retry logs it once.
    std::fs::create_dir_all(pool.join("retired")).unwrap();
    std::fs::write(
        pool.join("retired").join("retired.tsv"),
        format!("{}\n", source.row()),
    )
    .unwrap();
    let said = DATAGEN.ok(&retire(&[&source.file]));
    assert!(
        said.contains(&format!("retired {} (40 games", source.file)),
        "{said}"
    );
    let after = Pool::open(&pool).unwrap();
    assert_eq!(after.entries.len(), 1);
    assert_eq!(after.entries[0].nodes, 80, "the rescored copy stays");
    let retired = pool.join("retired");
    assert!(!pool.join(&source.file).exists());
    assert_eq!(
        std::fs::read(retired.join(&source.file)).unwrap(),
        data_of(&SOURCE.run),
        "the source's data is kept, byte for byte"
    );
    assert!(retired.join(format!("{}.run.txt", source.file)).is_file());
    let log = std::fs::read_to_string(retired.join("retired.tsv")).unwrap();
    assert_eq!(log, format!("{}\n", source.row()));

    // Training reads the pool's manifest: each game once, with the new scores.
    let files = expand_data_paths(std::slice::from_ref(&pool)).unwrap();
    let pooled: Vec<StoredGame> = files.iter().flat_map(|f| games_of(f)).collect();
    assert_eq!(pooled, games_of(&out.join("data.bin")));
    let error = DATAGEN.failure(&retire(&[&source.file]));
    assert!(error.contains("is not in the pool"), "{error}");
    let _ = std::fs::remove_dir_all(dir);
}
