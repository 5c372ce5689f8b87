//! Thousands of random and garbled lines per protocol (seeded), with hostile whole lines mixed
//! in (positions no game reaches, bad `go` values), after which the engine must still be alive,
//! answer its synchronisation command and play a normal search. Every 50 lines the search is
//! stopped and `isready` / `ping` must be answered within `SYNC_BOUND`.
//!
//! CI runs `LINES` lines per protocol (a few seconds); `SENTE_FUZZ_LINES` changes that, and the
//! ignored `long_fuzz_of_every_protocol` runs many seeds on demand:
//! `cargo test --release -p sente --test protocol_fuzz -- --ignored`. The legality of every
//! move played under fuzzing is checked by `tests/python/test_protocol_fuzz.py`.

mod protocol_support;

use protocol_support::{Engine, Rng, SEARCH};
use std::time::{Duration, Instant};

const LINES: usize = 3000;

/// A stopped engine answers `isready` / `ping` in milliseconds; this leaves room for a loaded
/// 2-core machine.
const SYNC_BOUND: Duration = Duration::from_secs(3);

fn lines_per_run() -> usize {
    std::env::var("SENTE_FUZZ_LINES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(LINES)
}

/// Whole lines that once hung or killed the engine (issue 59), sent now and then.
const UCI_HOSTILE: &[&str] = &[
    "position fen 4k3/8/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/8/4K3 w - - 0 1",
    "position fen 4k3/8/8/8/1b6/3n4/8/r3K3 w - - 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKQNR w KQkq - 0 1",
    "go nodes 1",
    "go depth 1",
    "go mate -5",
    "go nodes -3",
    "go infinite",
];
const USI_HOSTILE: &[&str] = &[
    "position sfen 4k4/9/5N3/9/4R3B/9/9/9/4K4 w - 1",
    "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 3G 1",
    "go mate -5",
    "go mate abc",
    "go mate 100",
    "go nodes 1",
    "go infinite",
];
const CECP_HOSTILE: &[&str] = &[
    "setboard 4k3/8/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/8/4K3 w - - 0 1",
    "setboard 4k3/8/8/8/1b6/3n4/8/r3K3 w - - 0 1",
    "analyze",
    "sd 1",
    "go",
];

const UCI_WORDS: &[&str] = &[
    "uci",
    "isready",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "MultiPV",
    "Clear",
    "UCI_Chess960",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "searchmoves",
    "ponder",
    "ponderhit",
    "stop",
    "ucinewgame",
    "debug",
    "on",
    "off",
    "register",
    "e2e4",
    "e7e5",
    "g1f3",
    "e1g1",
    "a7a8q",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "w",
    "b",
    "KQkq",
    "-",
    "0",
    "1",
    "mate",
    "8/8/8/8/8/8/8/8",
    "k7/8/8/8/8/8/8/K7",
    "infinite",
    "true",
    "false",
];

const USI_WORDS: &[&str] = &[
    "usi",
    "isready",
    "setoption",
    "name",
    "value",
    "USI_Hash",
    "USI_Ponder",
    "Threads",
    "EnteringKingRule",
    "CSARule24",
    "MaxMovesToDraw",
    "position",
    "startpos",
    "sfen",
    "moves",
    "go",
    "btime",
    "wtime",
    "byoyomi",
    "binc",
    "winc",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "ponder",
    "ponderhit",
    "stop",
    "usinewgame",
    "gameover",
    "win",
    "lose",
    "draw",
    "7g7f",
    "3c3d",
    "8h2b+",
    "P*5e",
    "2g2f",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
    "b",
    "w",
    "-",
    "1",
    "0",
    "infinite",
    "4k4/9/9/9/9/9/9/9/4K4",
];

const CECP_WORDS: &[&str] = &[
    "new",
    "force",
    "go",
    "playother",
    "usermove",
    "e2e4",
    "e7e5",
    "Nf3",
    "O-O",
    "e1g1",
    "?",
    "ping",
    "draw",
    "result",
    "1-0",
    "setboard",
    "edit",
    "#",
    "c",
    ".",
    "Ke1",
    "Pe2",
    "white",
    "black",
    "hint",
    "bk",
    "undo",
    "remove",
    "hard",
    "easy",
    "post",
    "nopost",
    "analyze",
    "exit",
    "exclude",
    "include",
    "all",
    "level",
    "40",
    "0:30",
    "st",
    "0.05",
    "sd",
    "2",
    "nps",
    "time",
    "otim",
    "100",
    "memory",
    "8",
    "cores",
    "1",
    "option",
    "MultiPV=2",
    "variant",
    "shogi",
    "normal",
    "fischerandom",
    "name",
    "rating",
    "computer",
    "random",
    "accepted",
    "rejected",
    "pause",
    "resume",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "w",
    "KQkq",
    "-",
    "c3c4",
    "P@e5",
];

/// A random line: mostly vocabulary words with small numbers, sometimes raw garbage.
fn random_line(rng: &mut Rng, words: &[&str], avoid: &[&str]) -> Vec<u8> {
    match rng.below(10) {
        0 => (0..rng.below(40))
            .map(|_| (rng.next() & 0xff) as u8)
            .filter(|&b| b != b'\n' && b != b'\r')
            .collect(),
        1 => {
            let tabs = ["\t", "  ", " \t ", ""];
            let mut line = String::new();
            for _ in 0..rng.below(6) {
                line.push_str(tabs[rng.below(tabs.len())]);
                line.push_str(words[rng.below(words.len())]);
            }
            line.into_bytes()
        }
        _ => {
            let count = 1 + rng.below(8);
            let mut parts: Vec<String> = Vec::new();
            for i in 0..count {
                let word = if i > 0 && rng.below(4) == 0 {
                    (rng.below(3000) as i64 - 500).to_string()
                } else {
                    words[rng.below(words.len())].to_string()
                };
                parts.push(word);
            }
            let line = parts.join(" ");
            if avoid.iter().any(|a| line.contains(a)) {
                b"isready".to_vec()
            } else {
                line.into_bytes()
            }
        }
    }
}

/// How the fuzz stops a search and checks the engine answers: the stop command(s), and the
/// synchronisation command with its answer (`{n}` replaced by a counter).
struct Sync {
    stop: &'static [&'static str],
    ask: &'static str,
    answer: &'static str,
}

const UCI_SYNC: Sync = Sync {
    stop: &["stop"],
    ask: "isready",
    answer: "readyok",
};
const CECP_SYNC: Sync = Sync {
    stop: &["exit", "force"],
    ask: "ping {n}",
    answer: "pong {n}",
};

/// Feeds the lines, interleaving a stop and a synchronisation that must be answered within
/// `SYNC_BOUND`, so no search outlives the fuzzing by much.
fn fuzz(
    engine: &mut Engine,
    seed: u64,
    words: &[&str],
    hostile: &[&str],
    avoid: &[&str],
    sync: &Sync,
) {
    let mut rng = Rng(seed);
    let mut slowest = Duration::ZERO;
    for i in 0..lines_per_run() {
        let mut line = if rng.below(20) == 0 {
            hostile[rng.below(hostile.len())].as_bytes().to_vec()
        } else {
            random_line(&mut rng, words, avoid)
        };
        line.extend_from_slice(if rng.below(5) == 0 { b"\r\n" } else { b"\n" });
        engine.send_raw(&line);
        if i % 50 == 49 {
            for stop in sync.stop {
                engine.send(stop);
            }
            let n = (i / 50).to_string();
            let (ask, answer) = (sync.ask.replace("{n}", &n), sync.answer.replace("{n}", &n));
            let started = Instant::now();
            engine.send(&ask);
            engine.read_until(SYNC_BOUND, |l| l == answer);
            slowest = slowest.max(started.elapsed());
        }
    }
    eprintln!("seed {seed:#x}: slowest answer to a synchronisation {slowest:?}");
    for stop in sync.stop {
        engine.send(stop);
    }
    engine.drain(Duration::from_millis(200));
    assert!(engine.is_alive(), "died; transcript:\n{}", engine.tail());
}

/// The fuzz must not ask for days of work (deep perft) or huge tables.
const AVOID: &[&str] = &["perft", "Hash value", "memory", "cores", "Threads value"];

/// A fresh engine in `protocol` (`uci`, `usi` or `xboard`) after `fuzz` from `seed` with that
/// protocol's words, hostile lines and synchronisation.
fn fuzzed_engine(protocol: &str, seed: u64) -> Engine {
    let mut engine = Engine::start();
    let (words, hostile, sync) = match protocol {
        "uci" => (UCI_WORDS, UCI_HOSTILE, &UCI_SYNC),
        "usi" => (USI_WORDS, USI_HOSTILE, &UCI_SYNC),
        "xboard" => (CECP_WORDS, CECP_HOSTILE, &CECP_SYNC),
        other => panic!("no fuzz words for protocol {other}"),
    };
    if protocol == "xboard" {
        engine.send("xboard");
        engine.send("protover 2");
        engine.expect_prefix("feature done=1", SEARCH);
    } else {
        engine.handshake(protocol);
    }
    fuzz(&mut engine, seed, words, hostile, AVOID, sync);
    engine
}

/// A depth-3 search of `position` ends in a `bestmove` line other than `no_move`.
fn assert_plays_a_move(engine: &mut Engine, position: &str, no_move: &str) {
    engine.send(position);
    engine.send("go depth 3");
    let lines = engine.expect_prefix("bestmove", SEARCH);
    assert_ne!(lines.last().unwrap(), no_move);
}

#[test]
fn uci_survives_garbage() {
    let mut engine = fuzzed_engine("uci", 0xC0FFEE);
    engine.send("stop");
    engine.send("setoption name UCI_Chess960 value false");
    engine.send("setoption name MultiPV value 1");
    engine.sync();
    assert_plays_a_move(
        &mut engine,
        "position startpos moves e2e4",
        "bestmove (none)",
    );
    engine.sync();
    assert!(engine.finish(true, SEARCH).success());
}

#[test]
fn usi_survives_garbage() {
    let mut engine = fuzzed_engine("usi", 0xBADC0DE);
    engine.send("stop");
    engine.sync();
    assert_plays_a_move(
        &mut engine,
        "position startpos moves 7g7f",
        "bestmove resign",
    );
    assert!(engine.finish(true, SEARCH).success());
}

#[test]
fn cecp_survives_garbage() {
    let mut engine = fuzzed_engine("xboard", 0xFEED);
    engine.send(".");
    engine.send("exit");
    engine.send("force");
    engine.send("new");
    engine.send("force");
    engine.send("ping 77");
    engine.read_until(SEARCH, |l| l == "pong 77");
    engine.send("usermove e2e4");
    engine.send("st 0.1");
    engine.send("go");
    engine.expect_prefix("move ", SEARCH);
    engine.send("ping 78");
    engine.read_until(SEARCH, |l| l == "pong 78");
    assert!(engine.finish(true, SEARCH).success());
}

/// The long run on demand: many seeds per protocol, each a fresh engine.
#[test]
#[ignore]
fn long_fuzz_of_every_protocol() {
    for seed in 1..=20u64 {
        for (protocol, shift) in [("uci", 0), ("usi", 8), ("xboard", 16)] {
            let engine = fuzzed_engine(protocol, seed << shift);
            assert!(engine.finish(true, SEARCH).success());
        }
    }
}
