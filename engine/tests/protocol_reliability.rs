//! Issue 59 through the protocols: `go mate` after a huge `USI_Hash` and with bad values, every
//! search with `Threads 2` reporting its line before `bestmove`, and a net file truncated while
//! a search maps it.

mod protocol_support;

use protocol_support::{Engine, SEARCH};
use std::time::Duration;

/// Item 1: the mate solver's table, sized from `USI_Hash`, falls back to a smaller one with an
/// `info string` instead of aborting; negative and non-numeric `go mate` values answer too.
#[test]
fn go_mate_after_a_huge_hash_falls_back_to_a_smaller_table() {
    // 4 GB of address space: neither a 64 GB main table nor a 64 GB mate table fits.
    let mut engine = Engine::start_with_memory_limit(4_000_000);
    engine.handshake("usi");
    engine.send("setoption name USI_Hash value 65536");
    engine.sync();
    engine.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    engine.send("go mate 1000");
    let lines = engine.expect_prefix("checkmate", SEARCH);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string cannot allocate a 65536 MB mate table; using")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "checkmate G*5b");
    // A negative time is no time: an answer at once.
    engine.send("go mate -5");
    let lines = engine.expect_prefix("checkmate", Duration::from_secs(5));
    assert_eq!(lines.last().unwrap(), "checkmate timeout", "{lines:?}");
    // Not a number: said so, solved without a time limit until `stop`.
    engine.send("position startpos");
    engine.send("go mate abc");
    engine.send("stop");
    let lines = engine.expect_prefix("checkmate", SEARCH);
    assert!(
        lines.iter().any(|l| l.contains("'abc' is not a number")),
        "{lines:?}"
    );
    engine.sync();
    assert!(engine.finish(true, SEARCH).success());
}

/// Searches (each after `position`) until `bestmove`; returns how many sent no
/// `info ... score ... pv` line before it.
fn searches_without_a_line(
    engine: &mut Engine,
    positions: &[&str],
    go: &str,
    count: usize,
) -> usize {
    let mut missing = 0;
    for i in 0..count {
        engine.send(positions[i % positions.len()]);
        engine.send(go);
        let (_, _, lines) = engine.bestmove();
        if !lines
            .iter()
            .any(|l| l.contains(" score ") && l.contains(" pv "))
        {
            missing += 1;
        }
    }
    missing
}

/// Item 6: with `Threads 2` the main thread may start after a helper has used the node budget;
/// the helper's completed iteration is then reported (before, 30 to 50% of these searches sent
/// no line at all).
#[test]
fn every_search_with_two_threads_reports_a_line() {
    for (protocol, multipv, positions, what) in [
        ("uci", None, ["e2e4", "d2d4", "g1f3"], "chess searches"),
        (
            "usi",
            Some(3),
            ["7g7f", "2g2f", "3g3f"],
            "shogi MultiPV 3 searches",
        ),
    ] {
        let mut engine = Engine::start();
        engine.handshake(protocol);
        engine.send("setoption name Threads value 2");
        if let Some(lines) = multipv {
            engine.send(&format!("setoption name MultiPV value {lines}"));
        }
        engine.sync();
        let positions = positions.map(|m| format!("position startpos moves {m}"));
        let positions: Vec<&str> = positions.iter().map(String::as_str).collect();
        let missing = searches_without_a_line(&mut engine, &positions, "go nodes 5000", 60);
        assert_eq!(missing, 0, "{missing} of 60 {what} sent no line");
        assert!(engine.finish(true, SEARCH).success());
    }
}

/// Item 5: a net file truncated while the engine searches with it does not kill the engine
/// (before, the mapped pages faulted: SIGBUS, exit 135): the net is a copy in memory.
#[test]
fn truncating_the_net_file_in_use_leaves_the_engine_searching() {
    let dir = std::env::temp_dir().join(format!("sente-truncate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (protocol, net, go) in [
        ("uci", "chess-default.nnue", "position startpos"),
        ("usi", "shogi-default.nnue", "position startpos"),
    ] {
        let copy = dir.join(net);
        let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../nets")
            .join(net);
        std::fs::copy(&shipped, &copy).unwrap();
        let mut engine = Engine::start();
        engine.handshake(protocol);
        engine.send(&format!("setoption name EvalFile value {}", copy.display()));
        let lines = engine.sync();
        assert!(
            !lines
                .iter()
                .any(|l| l.contains("cannot") || l.contains("error")),
            "{lines:?}"
        );
        engine.send(go);
        engine.send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        std::fs::File::create(&copy).unwrap(); // truncates to 0 bytes
        std::thread::sleep(Duration::from_millis(300));
        engine.send("stop");
        let (best, _, _) = engine.bestmove();
        assert_ne!(best, "(none)");
        // Searching again with the net in memory works too.
        engine.send("go nodes 2000");
        engine.bestmove();
        engine.sync();
        assert!(engine.is_alive(), "{}", engine.tail());
        assert!(engine.finish(true, SEARCH).success());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
