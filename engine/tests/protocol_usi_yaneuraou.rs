//! YaneuraOu's USI extension options through USI as a GUI sends them: the declarations, search
//! limits, the time options' effect on the byoyomi and sudden-death budgets, `ResignValue`,
//! `ConsiderationMode` as ShogiHome's analysis drives it, `OutputFailLHPV`, and the `.db` book
//! (`USI_OwnBook`, `BookFile`, the `Book*` filters, damaged books).

mod protocol_support;

use protocol_support::{Engine, SEARCH};
use std::time::{Duration, Instant};

fn usi_engine() -> Engine {
    let mut engine = Engine::start();
    engine.handshake("usi");
    engine
}

/// The deepest `info depth N` among `lines`.
fn max_depth(lines: &[String]) -> u32 {
    lines
        .iter()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            (words.first() == Some(&"info") && words.get(1) == Some(&"depth"))
                .then(|| words[2].parse().ok())
                .flatten()
        })
        .max()
        .unwrap_or(0)
}

/// The value after `key` in an `info` line.
fn field(line: &str, key: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == key)?;
    words.get(at + 1)?.parse().ok()
}

/// Sends `go`, returns the milliseconds to `bestmove` and the lines.
fn timed_go(engine: &mut Engine, go: &str) -> (u128, String, Vec<String>) {
    let start = Instant::now();
    engine.send(go);
    let (best, _, lines) = engine.bestmove();
    (start.elapsed().as_millis(), best, lines)
}

/// `setoption` refused: one `info string` naming the option, nothing else.
fn assert_refused(engine: &mut Engine, name: &str, value: &str) {
    engine.send(&format!("setoption name {name} value {value}"));
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string") && lines[0].contains(name),
        "{name}={value}: {lines:?}"
    );
}

#[test]
fn handshake_declares_yaneuraou_options_with_their_ranges() {
    let mut engine = Engine::start();
    let lines = engine.handshake("usi");
    for expected in [
        "option name NetworkDelay type spin default 10 min 0 max 10000",
        "option name NetworkDelay2 type spin default 0 min 0 max 10000",
        "option name MinimumThinkingTime type spin default 0 min 0 max 100000",
        "option name SlowMover type spin default 100 min 1 max 1000",
        "option name DepthLimit type spin default 0 min 0 max 2147483647",
        "option name NodesLimit type spin default 0 min 0 max 9223372036854775807",
        "option name ConsiderationMode type check default false",
        "option name OutputFailLHPV type check default true",
        "option name ResignValue type spin default 99999 min 0 max 99999",
        "option name USI_OwnBook type check default true",
        "option name BookFile type filename default no_book",
        "option name BookMoves type spin default 16 min 0 max 10000",
        "option name BookIgnoreRate type spin default 0 min 0 max 100",
        "option name BookEvalDiff type spin default 30 min 0 max 99999",
        "option name BookEvalBlackLimit type spin default 0 min -99999 max 99999",
        "option name BookEvalWhiteLimit type spin default -140 min -99999 max 99999",
        "option name BookDepthLimit type spin default 16 min 0 max 99999",
        "option name ConsiderBookMoveCount type check default false",
        "option name IgnoreBookPly type check default false",
        "option name SkillLevel type spin default 20 min 0 max 20",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
    engine.finish(true, SEARCH);
}

#[test]
fn depth_and_nodes_limits_bound_every_search_and_bad_values_keep_them() {
    let mut engine = usi_engine();
    engine.send("setoption name DepthLimit value 3");
    assert_refused(&mut engine, "DepthLimit", "-1");
    assert_refused(&mut engine, "DepthLimit", "deep");
    engine.send("position startpos");
    // A 10 s byoyomi would search far deeper: the option stops it at depth 3.
    let (ms, _, lines) = timed_go(&mut engine, "go btime 0 wtime 0 byoyomi 10000");
    assert_eq!(max_depth(&lines), 3, "{lines:?}");
    assert!(ms < 5000, "{ms} ms");
    // A `go depth` below the option wins.
    let (_, _, lines) = timed_go(&mut engine, "go depth 2");
    assert_eq!(max_depth(&lines), 2, "{lines:?}");
    engine.send("setoption name DepthLimit value 0");
    engine.send("setoption name NodesLimit value 20000");
    assert_refused(&mut engine, "NodesLimit", "-5");
    let (ms, _, lines) = timed_go(&mut engine, "go btime 0 wtime 0 byoyomi 10000");
    let nodes = lines
        .iter()
        .filter_map(|l| field(l, "nodes"))
        .max()
        .unwrap();
    assert!(nodes <= 25_000 && ms < 5000, "{nodes} nodes, {ms} ms");
    engine.finish(true, SEARCH);
}

/// Nodes to the millisecond of the node clock the time tests run on (`nodestime`): each search
/// then stops at a node count fixed by its budget, however busy the machine is.
const NODES_PER_MS: u64 = 100;

/// An engine on a node clock, at the start position.
fn node_clock_engine() -> Engine {
    let mut engine = usi_engine();
    engine.send(&format!("setoption name nodestime value {NODES_PER_MS}"));
    assert_refused(&mut engine, "nodestime", "-1");
    assert_refused(&mut engine, "nodestime", "10001");
    engine.send("position startpos");
    engine
}

/// Sends each option to a fresh engine on the node clock, then `go`; returns the most nodes the
/// `info` lines report. Fresh engines make each search repeat exactly. The lines lag the search
/// by at most the iteration a deadline cut short, so only upper bounds on them are exact.
fn nodes_searched_with(options: &[&str], go: &str) -> u64 {
    let mut engine = node_clock_engine();
    for option in options {
        engine.send(option);
    }
    let (_, _, lines) = timed_go(&mut engine, go);
    engine.finish(true, SEARCH);
    most_nodes(&lines)
}

#[test]
fn network_delay2_answers_that_much_before_the_byoyomi_ends() {
    // A pure 1.5 s byoyomi may be searched to 1500 - 10 (NetworkDelay) - 100 (the byoyomi
    // reserve) ms; with NetworkDelay2 1000, 1500 - 1000 ms is the last moment, and the clock is
    // read every 256 nodes.
    let go = "go btime 0 wtime 0 byoyomi 1500";
    let plain = nodes_searched_with(&[], go);
    let early = nodes_searched_with(&["setoption name NetworkDelay2 value 1000"], go);
    assert!(plain <= 1390 * NODES_PER_MS + 256, "{plain} nodes");
    assert!(
        early <= 500 * NODES_PER_MS + 256 && early < plain,
        "NetworkDelay2 1000: {early} nodes (without: {plain})"
    );
    let mut engine = usi_engine();
    assert_refused(&mut engine, "NetworkDelay2", "10001");
    engine.finish(true, SEARCH);
}

#[test]
fn minimum_thinking_time_and_slow_mover_shape_a_clock() {
    // 20 s sudden death plans (20000 - 10 - 50) / 30 = 664 ms for the move and allows at most
    // four times that.
    let go = "go btime 20000 wtime 20000";
    let plain = nodes_searched_with(&[], go);
    let fast = nodes_searched_with(&["setoption name SlowMover value 10"], go);
    let slow = nodes_searched_with(&["setoption name SlowMover value 1000"], go);
    assert!(plain <= 4 * 664 * NODES_PER_MS + 256, "{plain} nodes");
    // A tenth of the plan, and ten times it (up to the hard bound).
    assert!(
        fast * 2 < plain && plain < slow,
        "{fast} < {plain} < {slow} nodes"
    );
    // No answer before 2000 - 10 ms, long after the default stops.
    let floor = nodes_searched_with(&["setoption name MinimumThinkingTime value 2000"], go);
    assert!(
        floor > plain,
        "MinimumThinkingTime 2000: {floor} nodes (without: {plain})"
    );
    let mut engine = usi_engine();
    assert_refused(&mut engine, "SlowMover", "0");
    assert_refused(&mut engine, "MinimumThinkingTime", "100001");
    // On the wall clock, which a busy machine only slows, no answer comes before the minimum.
    engine.send("setoption name MinimumThinkingTime value 1000");
    engine.send("position startpos");
    let (ms, _, _) = timed_go(&mut engine, go);
    assert!(ms >= 990, "{ms} ms");
    engine.finish(true, SEARCH);
}

#[test]
fn resign_value_resigns_lost_positions_only_when_asked() {
    let mut engine = usi_engine();
    // White has a bare king against a full hand: lost.
    let lost = "position sfen 4k4/9/9/9/9/9/9/9/4K4 w 2R2B4G4S4N4L18P 1";
    engine.send(lost);
    let (_, best, lines) = timed_go(&mut engine, "go depth 4");
    assert_ne!(best, "resign", "the default never resigns: {lines:?}");
    engine.send("setoption name ResignValue value 1000");
    assert_refused(&mut engine, "ResignValue", "100000");
    let (_, best, lines) = timed_go(&mut engine, "go depth 4");
    assert_eq!(best, "resign", "{lines:?}");
    // The winning side plays on; analysis never resigns.
    engine.send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1");
    let (_, best, _) = timed_go(&mut engine, "go depth 4");
    assert_ne!(best, "resign");
    engine.send(lost);
    engine.send("go infinite");
    engine.read_until(SEARCH, |l| field(l, "depth").is_some_and(|d| d >= 4));
    engine.send("stop");
    let (best, _, _) = engine.bestmove();
    assert_ne!(best, "resign");
    engine.finish(true, SEARCH);
}

/// ShogiHome's analysis: `go infinite`, a PV at every depth, `stop` answered at once, and the
/// last line before `bestmove` starts with the move played.
#[test]
fn consideration_mode_prints_every_depth_and_stops_at_once() {
    let mut engine = usi_engine();
    engine.send("setoption name ConsiderationMode value true");
    assert_refused(&mut engine, "ConsiderationMode", "maybe");
    engine.send("setoption name MultiPV value 1");
    for position in [
        "position startpos",
        "position startpos moves 7g7f 3c3d 2g2f",
    ] {
        engine.send(position);
        engine.send("go infinite");
        let lines = engine.read_until(SEARCH, |l| {
            field(l, "depth").is_some_and(|d| d >= 10) && l.contains(" pv ")
        });
        for depth in 1..=10u64 {
            assert!(
                lines
                    .iter()
                    .any(|l| field(l, "depth") == Some(depth) && l.contains(" pv ")),
                "no PV at depth {depth}: {lines:?}"
            );
        }
        // Nothing ends the analysis but `stop`.
        let quiet = engine.drain(Duration::from_millis(300));
        assert!(
            quiet.iter().all(|l| !l.starts_with("bestmove")),
            "{quiet:?}"
        );
        let asked = Instant::now();
        engine.send("stop");
        let (best, _, lines) = engine.bestmove();
        let waited = asked.elapsed();
        assert!(waited < Duration::from_secs(2), "stop took {waited:?}");
        let last_info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info") && l.contains(" pv "))
            .expect("a PV before bestmove");
        let pv_first = last_info.split(" pv ").nth(1).unwrap().split(' ').next();
        assert_eq!(pv_first, Some(best.as_str()), "{lines:?}");
    }
    engine.finish(true, SEARCH);
}

#[test]
fn output_fail_lh_pv_off_prints_exact_lines_only() {
    let mut engine = usi_engine();
    engine.send("setoption name OutputFailLHPV value false");
    assert_refused(&mut engine, "OutputFailLHPV", "2");
    engine.send("position startpos moves 7g7f 3c3d 8h2b+ 3a2b");
    engine.send("go btime 0 wtime 0 byoyomi 2500");
    let (_, _, lines) = engine.bestmove();
    assert!(
        lines
            .iter()
            .all(|l| !l.contains("lowerbound") && !l.contains("upperbound")),
        "{lines:?}"
    );
    engine.finish(true, SEARCH);
}

const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const AFTER_7G7F: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";

fn write_book(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-book-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("book.db");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn book_moves_come_from_the_db_file_under_its_filters() {
    let path = write_book(
        "play",
        &format!(
            "#YANEURAOU-DB2016 1.00\n\
             sfen {START_SFEN}\n\
             9g9f 1c1d 50 32 3\n\
             1g1f 9c9d 45 32 1\n\
             5i5h none -200 32 9\n\
             sfen {AFTER_7G7F}\n\
             1c1d none 10 32 1\n"
        ),
    );
    let mut engine = usi_engine();
    engine.send(&format!("setoption name BookFile value {}", path.display()));
    let lines = engine.sync();
    assert!(lines.iter().any(|l| l.contains("2 positions")), "{lines:?}");
    // YaneuraOu's defaults: within 30 of the best, no negative eval for black.
    let mut seen = std::collections::BTreeMap::new();
    for _ in 0..80 {
        engine.send("position startpos");
        let (ms, best, lines) = timed_go(&mut engine, "go btime 0 wtime 0 byoyomi 5000");
        // A book move needs no search: no node searched (its `info` line carries the book's
        // depth and score), and no waiting for the byoyomi (a search would think about 4.9 s).
        assert!(most_nodes(&lines) == 0 && ms < 4000, "{ms} ms: {lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("info string book move")));
        *seen.entry(best).or_insert(0) += 1;
    }
    assert_eq!(
        seen.keys().collect::<Vec<_>>(),
        ["1g1f", "9g9f"],
        "{seen:?}"
    );
    // Best only, and the ponder move from the book.
    engine.send("setoption name BookEvalDiff value 0");
    engine.send("position startpos");
    for _ in 0..20 {
        engine.send("position startpos");
        engine.send("go btime 0 wtime 0 byoyomi 5000");
        let (best, ponder, _) = engine.bestmove();
        assert_eq!((best.as_str(), ponder.as_deref()), ("9g9f", Some("1c1d")));
    }
    // Weighted by count: 3 to 1.
    engine.send("setoption name BookEvalDiff value 30");
    engine.send("setoption name ConsiderBookMoveCount value true");
    let mut first = 0;
    for _ in 0..200 {
        engine.send("position startpos");
        engine.send("go btime 0 wtime 0 byoyomi 5000");
        first += usize::from(engine.bestmove().0 == "9g9f");
    }
    assert!(
        (120..=180).contains(&first),
        "9g9f {first} of 200 (expected 150)"
    );
    // White's limit: 10 is above -140, so the move after 7g7f is played.
    engine.send("position startpos moves 7g7f");
    engine.send("go btime 0 wtime 0 byoyomi 5000");
    let (best, ponder, _) = engine.bestmove();
    assert_eq!((best.as_str(), ponder), ("1c1d", None));
    engine.send("setoption name BookEvalWhiteLimit value 20");
    engine.send("position startpos moves 7g7f");
    let (_, _, lines) = timed_go(&mut engine, "go btime 0 wtime 0 byoyomi 200");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    // BookMoves 1: only the first position; USI_OwnBook false: never.
    engine.send("setoption name BookEvalWhiteLimit value -140");
    engine.send("setoption name BookMoves value 1");
    engine.send("position startpos moves 7g7f");
    let (_, _, lines) = timed_go(&mut engine, "go btime 0 wtime 0 byoyomi 200");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    engine.send("setoption name USI_OwnBook value false");
    engine.send("position startpos");
    let (_, _, lines) = timed_go(&mut engine, "go btime 0 wtime 0 byoyomi 200");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    // Ponder: the book answer waits for `ponderhit`.
    engine.send("setoption name USI_OwnBook value true");
    engine.send("setoption name BookMoves value 16");
    engine.send("position startpos");
    engine.send("go ponder btime 0 wtime 0 byoyomi 5000");
    let early = engine.drain(Duration::from_millis(300));
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:?}"
    );
    engine.send("ponderhit");
    let (best, _, _) = engine.bestmove();
    assert!(best == "9g9f" || best == "1g1f", "{best}");
    engine.finish(true, SEARCH);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn damaged_or_missing_books_are_named_and_play_goes_on() {
    let bad = write_book(
        "bad",
        &format!("#YANEURAOU-DB2016 1.00\nsfen {START_SFEN}\n9g9f none 0 32 1\n9g9e none 0 32 1\n"),
    );
    let mut engine = usi_engine();
    for (value, expected) in [
        (
            bad.display().to_string(),
            format!("'{}' line 4", bad.display()),
        ),
        (
            "/nonexistent/book.db".to_string(),
            "'/nonexistent/book.db' line 0: cannot read it".to_string(),
        ),
    ] {
        engine.send(&format!("setoption name BookFile value {value}"));
        let lines = engine.sync();
        assert!(
            lines.len() == 1
                && lines[0].starts_with("info string book")
                && lines[0].contains(&expected)
                && lines[0].ends_with("playing without a book"),
            "{lines:?}"
        );
        engine.send("position startpos");
        let (_, _, lines) = timed_go(&mut engine, "go btime 0 wtime 0 byoyomi 200");
        assert!(
            lines.iter().all(|l| !l.starts_with("info string book")),
            "{lines:?}"
        );
    }
    engine.finish(true, SEARCH);
    let _ = std::fs::remove_dir_all(bad.parent().unwrap());
}

/// The largest `nodes` count among a search's `info` lines.
fn most_nodes(lines: &[String]) -> u64 {
    lines
        .iter()
        .filter_map(|l| field(l, "nodes"))
        .max()
        .unwrap_or(0)
}

/// `SkillLevel` below 20 caps the search (the strength limiter's nodes and depth) and picks
/// among near-best moves; 20 is full strength.
#[test]
fn skill_level_weakens_the_search() {
    let mut engine = usi_engine();
    engine.send("setoption name SkillLevel value 0");
    assert_refused(&mut engine, "SkillLevel", "21");
    assert_refused(&mut engine, "SkillLevel", "-1");
    engine.send("position startpos moves 7g7f 3c3d");
    let (ms, _, lines) = timed_go(&mut engine, "go btime 0 wtime 0 byoyomi 3000");
    let nodes = most_nodes(&lines);
    assert!(
        ms < 2000 && nodes < 1000,
        "level 0: {nodes} nodes in {ms} ms: {lines:?}"
    );
    // A middle level reads shogi's level table: its node cap, not chess's `2^(9 + L/2)`.
    use sente::game::GameKind;
    use sente::search::strength::{skill_level, strength_limit};
    let cap_at = |game, level| strength_limit(skill_level(Some(game), level).unwrap()).node_cap;
    let (cap, chess_cap) = (cap_at(GameKind::Shogi, 5), cap_at(GameKind::Chess, 5));
    assert!(cap > chess_cap, "level 5's cap {cap}, chess's {chess_cap}");
    engine.send("setoption name SkillLevel value 5");
    let (_, _, lines) = timed_go(&mut engine, "go btime 0 wtime 0 byoyomi 3000");
    let level5 = most_nodes(&lines);
    assert!(
        level5 > nodes && level5 <= cap + 512,
        "level 5: {level5} nodes, cap {cap}, level 0: {nodes}"
    );
    engine.send("setoption name SkillLevel value 20");
    let (_, _, lines) = timed_go(&mut engine, "go btime 0 wtime 0 byoyomi 1000");
    let full = most_nodes(&lines);
    assert!(
        full > 10 * nodes.max(1),
        "level 20: {full} nodes, level 0: {nodes}"
    );
    engine.finish(true, SEARCH);
}
