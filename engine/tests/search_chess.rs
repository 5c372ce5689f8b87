//! The search on real chess positions: forced mates with exact distances, mated and stalemated
//! roots, repetition through the game history, determinism, legal PVs, MultiPV order,
//! searchmoves, time limits and pondering.

mod search_support;

use search_support::{
    assert_pv_legal, clock_limits, depth, search_changed_after, search_infos as run, search_root,
};
use sente::chess::{ClassicalEval, Position};
use sente::game::{Game, HistoryEntry};
use sente::movelist::MoveList;
use sente::search::{
    Limits, Score, ScoreBound, SearchControl, SearchFeatures, SearchInfo, SearchOptions,
    SearchParams, SearchResult, Searcher,
};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

type ChessMove = <Position as Game>::Move;

fn pos(fen: &str) -> Position {
    Position::from_text(fen).expect("valid FEN")
}

fn searcher() -> Searcher<Position, ClassicalEval> {
    Searcher::new(ClassicalEval::default())
}

/// The (depth, score, PV) of every line a search reports.
type Lines = Vec<(u32, Score, Vec<ChessMove>)>;

/// Searches `root` (no game history) and returns the result with its reported lines.
fn search_lines(
    s: &mut Searcher<Position, ClassicalEval>,
    root: &Position,
    limits: &Limits<ChessMove>,
) -> (SearchResult<ChessMove>, Lines) {
    let (r, infos) = search_root(s, root, limits);
    let lines = infos
        .iter()
        .map(|i| (i.depth, i.score, i.pv.clone()))
        .collect();
    (r, lines)
}

/// The last reported line starts with the move played, is legal from `root` and ends in mate.
fn assert_last_pv_mates(
    root: &Position,
    result: &SearchResult<ChessMove>,
    infos: &[SearchInfo<ChessMove>],
    what: &str,
) {
    let last = infos.last().expect("a reported line");
    assert_eq!(Some(last.pv[0]), result.best, "{what}");
    assert_pv_legal(root, &last.pv);
    let mut end = *root;
    for &m in &last.pv {
        end.make_move(m);
    }
    let mut moves = <Position as Game>::Moves::default();
    end.generate_legal(&mut moves);
    assert!(moves.is_empty() && end.in_check(), "{what}: the PV mates");
}

const MATES_IN_TWO: [&str; 3] = [
    "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1",
    "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
    "2bqkbn1/2pppp2/np2N3/r3P1p1/p2N2B1/5Q2/PPPPKPP1/RNB2r2 w - - 0 1",
];

#[test]
fn mate_in_two_is_found_with_its_distance_and_a_full_pv() {
    for fen in MATES_IN_TWO {
        let root = pos(fen);
        let mut s = searcher();
        let (result, infos) = search_root(&mut s, &root, &depth(6));
        assert_eq!(result.score, Score::MatePlies(3), "{fen}");
        let last = infos.last().unwrap();
        assert_eq!(last.pv.len(), 3, "mate PV length for {fen}: {:?}", last.pv);
        assert_last_pv_mates(&root, &result, &infos, fen);
        // The defender sees the mate too.
        let mut after = root;
        after.make_move(result.best.unwrap());
        let (defence, _) = search_root(&mut s, &after, &depth(6));
        assert_eq!(defence.score, Score::MatePlies(-2), "{fen}");
    }
}

#[test]
fn several_threads_find_the_same_mate() {
    let root = pos(MATES_IN_TWO[1]);
    let mut s = searcher();
    s.set_threads(3);
    let (result, _) = search_root(&mut s, &root, &depth(7));
    assert_eq!(result.score, Score::MatePlies(3));
}

#[test]
fn mated_and_stalemated_roots_have_no_move() {
    let mut s = searcher();
    let mated = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    let (result, infos) = search_root(&mut s, &mated, &depth(5));
    assert_eq!((result.best, result.score), (None, Score::MatePlies(0)));
    assert!(infos.is_empty());
    let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let (result, _) = search_root(&mut s, &stalemate, &depth(5));
    assert_eq!((result.best, result.score), (None, Score::Cp(0)));
}

#[test]
fn repetition_through_the_game_history_is_a_draw() {
    // White: rook up. After Kh1 Kh8 Kg1, Black's Kg8 repeats the start: the only drawing move.
    let start = pos("6k1/8/8/8/8/8/8/R5K1 w - - 0 1");
    let mut p = start;
    let mut history = Vec::new();
    for text in ["g1h1", "g8h8", "h1g1"] {
        let m = p.parse_move(text).unwrap();
        history.push(HistoryEntry {
            hash: p.hash(),
            in_check: p.in_check(),
        });
        p.make_move(m);
    }
    let mut s = searcher();
    let (with_history, _) = run(&mut s, &p, &history, &depth(8), &SearchOptions::default());
    assert_eq!(with_history.score, Score::Cp(0));
    assert_eq!(p.format_move(with_history.best.unwrap()), "h8g8");
    s.clear();
    let (without, _) = search_root(&mut s, &p, &depth(8));
    assert!(
        matches!(without.score, Score::Cp(cp) if cp < -300),
        "{:?}",
        without.score
    );
}

#[test]
fn one_thread_with_a_node_limit_is_deterministic() {
    let root = Position::startpos();
    let limits = Limits {
        nodes: Some(30_000),
        ..Limits::default()
    };
    let once = || search_lines(&mut searcher(), &root, &limits);
    let a = once();
    assert_eq!(a, once());
    assert!(a.0.nodes >= 30_000 && a.0.nodes < 31_000, "{}", a.0.nodes);
}

#[test]
fn a_search_on_the_callers_thread_matches_one_on_its_own_thread() {
    let root = pos("r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9");
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let search = |on_caller_thread: bool| {
        let mut s = searcher();
        s.set_search_on_caller_thread(on_caller_thread);
        search_lines(&mut s, &root, &limits)
    };
    let own_thread = search(false);
    // The caller's thread must have a search-sized stack.
    let on_caller = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(sente::search::SEARCH_STACK_BYTES)
            .spawn_scoped(scope, || search(true))
            .unwrap()
            .join()
            .unwrap()
    });
    assert_eq!(on_caller, own_thread);
    assert!(
        !on_caller.1.is_empty(),
        "progress reported from the caller's thread"
    );
}

#[test]
fn multipv_lines_are_legal_distinct_and_ordered() {
    let options = SearchOptions {
        multi_pv: 4,
        ..SearchOptions::default()
    };
    for fen in sente::bench::positions::CHESS.iter().step_by(5) {
        let root = pos(fen);
        let mut s = searcher();
        let (result, infos) = run(&mut s, &root, &[], &depth(7), &options);
        let final_depth = infos.iter().map(|i| i.depth).max().unwrap();
        let lines: Vec<_> = infos.iter().filter(|i| i.depth == final_depth).collect();
        let mut legal = <Position as Game>::Moves::default();
        root.generate_legal(&mut legal);
        assert_eq!(lines.len(), legal.len().min(4), "{fen}");
        assert_eq!(Some(lines[0].pv[0]), result.best);
        for (k, line) in lines.iter().enumerate() {
            assert_eq!(line.multipv, k + 1);
            assert_eq!(line.bound, ScoreBound::Exact);
            assert_pv_legal(&root, &line.pv);
            if k > 0 {
                assert_ne!(line.pv[0], lines[k - 1].pv[0]);
                let (Score::Cp(prev), Score::Cp(cur)) = (lines[k - 1].score, line.score) else {
                    continue;
                };
                assert!(prev >= cur, "{fen}: line {k} {cur} above {prev}");
            }
        }
    }
}

#[test]
fn pvs_of_bench_positions_replay_legally() {
    let mut s = searcher();
    for fen in sente::bench::positions::CHESS {
        let root = pos(fen);
        let (result, infos) = search_root(&mut s, &root, &depth(6));
        for info in &infos {
            assert_pv_legal(&root, &info.pv);
        }
        assert_eq!(infos.last().unwrap().pv.first().copied(), result.best);
        if let Some(ponder) = result.ponder {
            let mut after = root;
            after.make_move(result.best.unwrap());
            assert!(after.is_legal_move(ponder));
        }
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    let root = Position::startpos();
    let only = root.parse_move("a2a3").unwrap();
    let limits = Limits {
        depth: Some(6),
        search_moves: vec![only],
        ..Limits::default()
    };
    let (result, infos) = search_root(&mut searcher(), &root, &limits);
    assert_eq!(result.best, Some(only));
    assert!(infos.iter().all(|i| i.pv[0] == only));
}

#[test]
fn movetime_is_respected() {
    let root = pos(sente::bench::positions::CHESS[3]);
    let limits = Limits {
        move_time_ms: Some(300),
        ..Limits::default()
    };
    // A second attempt absorbs one unlucky descheduling when the test machine is overloaded; a
    // search that overruns by itself fails both.
    let mut timings = Vec::new();
    for _ in 0..2 {
        let mut s = searcher();
        let started = Instant::now();
        let (result, _) = search_root(&mut s, &root, &limits);
        let elapsed = started.elapsed().as_millis();
        assert!(elapsed >= 200, "gave up early: {elapsed} ms");
        assert!(result.best.is_some());
        timings.push(elapsed);
        if elapsed <= 300 {
            return;
        }
    }
    panic!("movetime 300 overrun twice: {timings:?} ms");
}

#[test]
fn a_bullet_game_never_flags() {
    // 1 s + 10 ms for each side, 60 plies from the start position.
    let mut p = Position::startpos();
    let mut history = Vec::new();
    let mut clock = [1000i64, 1000];
    let mut players = [searcher(), searcher()];
    let mut legal = <Position as Game>::Moves::default();
    for _ in 0..60 {
        p.generate_legal(&mut legal);
        if legal.is_empty() || p.rule_outcome(&history, false).is_some() {
            break;
        }
        let side = p.side_to_move().index();
        let limits = clock_limits(clock.map(|ms| ms as u64), 10, 0);
        let started = Instant::now();
        let (result, _) = run(
            &mut players[side],
            &p,
            &history,
            &limits,
            &SearchOptions::default(),
        );
        clock[side] -= started.elapsed().as_millis() as i64;
        assert!(clock[side] > 0, "flagged on ply {}", p.game_ply());
        clock[side] += 10;
        let m = result.best.unwrap();
        history.push(HistoryEntry {
            hash: p.hash(),
            in_check: p.in_check(),
        });
        p.make_move(m);
    }
}

#[test]
fn ponder_ignores_the_clock_until_ponderhit() {
    let root = Position::startpos();
    let control = SearchControl::default();
    control.pondering.store(true, Ordering::Relaxed);
    let limits = Limits {
        move_time_ms: Some(100),
        ..Limits::default()
    };
    let (result, elapsed) = search_changed_after(
        &mut searcher(),
        &root,
        &limits,
        &control,
        Duration::from_millis(400),
        |control| control.pondering.store(false, Ordering::Relaxed),
    );
    let elapsed = elapsed.as_millis();
    // The clock starts at `ponderhit`; the upper bound leaves room for a busy machine.
    assert!((400..1500).contains(&elapsed), "{elapsed} ms");
    assert!(result.best.is_some());
}

#[test]
fn stop_during_a_deep_search_still_gives_a_legal_move() {
    let root = pos(sente::bench::positions::CHESS[10]);
    let control = SearchControl::default();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let mut s = searcher();
    s.set_threads(2);
    let (result, elapsed) = search_changed_after(
        &mut s,
        &root,
        &limits,
        &control,
        Duration::from_millis(200),
        |control| control.stop.store(true, Ordering::Relaxed),
    );
    // An infinite search ends only on `stop`; the bound leaves room for a busy machine.
    assert!(elapsed < Duration::from_millis(2000), "{elapsed:?}");
    assert!(result.best.is_some_and(|m| root.is_legal_move(m)));
}

#[test]
fn hash_fills_during_search_and_clears() {
    let mut s = searcher();
    s.set_hash_mb(1);
    let (_, infos) = search_root(&mut s, &Position::startpos(), &depth(9));
    assert!(infos.last().unwrap().hashfull > 0);
    assert!(s.hashfull() > 0);
    s.clear();
    assert_eq!(s.hashfull(), 0);
}

#[test]
fn wdl_is_reported_when_asked() {
    let options = SearchOptions {
        show_wdl: true,
        ..SearchOptions::default()
    };
    let (_, infos) = run(
        &mut searcher(),
        &Position::startpos(),
        &[],
        &depth(4),
        &options,
    );
    let wdl = infos.last().unwrap().wdl.expect("wdl requested");
    assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000);
    let (_, plain) = search_root(&mut searcher(), &Position::startpos(), &depth(4));
    assert!(plain.iter().all(|i| i.wdl.is_none()));
}

#[test]
fn go_mate_stops_once_the_mate_is_found() {
    let root = pos(MATES_IN_TWO[0]);
    let limits = Limits {
        mate_in: Some(2),
        ..Limits::default()
    };
    let (result, _) = search_root(&mut searcher(), &root, &limits);
    assert_eq!(result.score, Score::MatePlies(3));
    assert!(result.depth < 10, "stopped at depth {}", result.depth);
}

/// A root fail-high re-searched a ply shallower still ends in the mate that first shows as a
/// fail-high of the aspiration window (centipawn scores up to depth 4, mate in three from depth
/// 5 or 6), with its exact distance and a PV that mates.
#[test]
fn a_fail_high_re_searched_shallower_still_finds_the_mate() {
    let root = pos("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1");
    let mut s = searcher();
    let (result, infos) = search_root(&mut s, &root, &depth(9));
    assert_eq!(result.score, Score::MatePlies(5));
    assert!(
        infos
            .iter()
            .any(|i| i.depth == 4 && matches!(i.score, Score::Cp(_))),
        "the mate is not yet seen at depth 4, so it arrives as a fail-high"
    );
    assert_last_pv_mates(&root, &result, &infos, "default");
}

/// A node limit that stops an iteration after a later root move beat the previous best to the
/// end plays that move (reporting the completed depth) instead of the last completed
/// iteration's. Over the bench positions and four node limits some moves differ from the
/// completed iteration's (the same search to that depth: the same tree up to the stop); in each
/// such case the same search run to the end of the stopped iteration no longer has the old move
/// first.
#[test]
fn a_stopped_iteration_plays_its_new_best_move() {
    let run_with = |root: &Position, limits: &Limits<ChessMove>| {
        let mut s = searcher();
        search_root(&mut s, root, limits).0
    };
    let mut changed = 0;
    for fen in sente::bench::positions::CHESS {
        let root = pos(fen);
        for nodes in [4_000, 9_000, 20_000, 45_000] {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let stopped = run_with(&root, &limits);
            let completed = run_with(&root, &depth(stopped.depth));
            if stopped.best == completed.best {
                continue;
            }
            changed += 1;
            let iteration = run_with(&root, &depth(stopped.depth + 1));
            assert_ne!(
                iteration.best,
                completed.best,
                "{fen} at {nodes} nodes: {:?} beat {:?} inside depth {}",
                stopped.best,
                completed.best,
                stopped.depth + 1
            );
        }
    }
    assert!(changed > 0, "no stopped iteration had a new best move");
}

/// Each run-time switch (`SearchFeatures::NAMES`), turned from chess's default, changes the tree
/// (the bench positions at a fixed depth search another node count) yet keeps every forced
/// mate exact: the mates in two and the mate in three behind an aspiration fail-high, with
/// their distances and mating PVs.
#[test]
fn every_switch_changes_the_tree_and_keeps_mates_exact() {
    let base = SearchFeatures::for_game::<Position>();
    let bench_nodes = |features: SearchFeatures| {
        let mut total = 0;
        for fen in sente::bench::positions::CHESS.iter().take(8) {
            let mut s = searcher();
            s.set_features(features);
            total += search_root(&mut s, &pos(fen), &depth(7)).0.nodes;
        }
        total
    };
    let base_nodes = bench_nodes(base);
    assert!(!SearchFeatures::NAMES.is_empty());
    for name in SearchFeatures::NAMES {
        let on = base.with_changes(&format!("{name}=on")).unwrap();
        let change = format!("{name}={}", if on == base { "off" } else { "on" });
        let change = change.as_str();
        let features = base.with_changes(change).unwrap();
        assert_ne!(features, base);
        assert_ne!(
            bench_nodes(features),
            base_nodes,
            "{change} changes the tree"
        );
        for (fen, plies) in MATES_IN_TWO.iter().map(|&f| (f, 3)).chain([(
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            5,
        )]) {
            let root = pos(fen);
            let mut s = searcher();
            s.set_features(features);
            let (result, infos) = search_root(&mut s, &root, &depth(9));
            assert_eq!(result.score, Score::MatePlies(plies), "{change}: {fen}");
            assert_last_pv_mates(&root, &result, &infos, change);
        }
    }
}

/// The centipawn score of a depth-1 search of `fen` with chess's switches changed by `changes`.
fn depth_one_score(fen: &str, changes: &str) -> i32 {
    depth_one_score_with(fen, changes, "")
}

/// `depth_one_score` with chess's search parameters changed by `params` as well.
fn depth_one_score_with(fen: &str, changes: &str, params: &str) -> i32 {
    let mut s = searcher();
    s.set_features(
        SearchFeatures::for_game::<Position>()
            .with_changes(changes)
            .unwrap(),
    );
    s.set_params(
        SearchParams::for_game::<Position>()
            .with_changes(params)
            .unwrap(),
    );
    match search_root(&mut s, &pos(fen), &depth(1)).0.score {
        Score::Cp(cp) => cp,
        other => panic!("{other:?}"),
    }
}

/// With `material_scaling` the evaluation is scaled by the material on the board: at base 768
/// and divisor 32, a lone queen (900 of material: (768 + 28) / 1024, about 0.78) keeps about
/// three quarters of its score, while nearly full material (7,500: about 0.98) keeps nearly all
/// of it. `Game::board_material` counts both sides.
#[test]
fn material_scaling_shrinks_the_score_as_material_leaves() {
    let score = |fen: &str, scaling: bool| {
        depth_one_score_with(
            fen,
            &format!("material_scaling={}", if scaling { "on" } else { "off" }),
            "material_scale_base=768,material_scale_divisor=32",
        )
    };
    assert_eq!(Position::startpos().board_material(), Some(7_800));
    let queen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 60";
    assert_eq!(pos(queen).board_material(), Some(900));
    let plain = score(queen, false);
    assert!(plain > 500, "a queen up: {plain}");
    let ratio = f64::from(score(queen, true)) / f64::from(plain);
    assert!((0.72..0.83).contains(&ratio), "lone queen: {ratio}");
    let knight_up = "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let plain = score(knight_up, false);
    assert!(plain > 150, "a knight up: {plain}");
    let ratio = f64::from(score(knight_up, true)) / f64::from(plain);
    assert!((0.93..1.0).contains(&ratio), "full board: {ratio}");
}

/// The material scaling's factor is (`material_scale_base` + material / `material_scale_divisor`)
/// / 1024: a lone queen (900) keeps (512 + 28) / 1024, about 0.53, of its score at base 512, and
/// (768 + 56) / 1024, about 0.80, at base 768 and divisor 16, more than at divisor 32.
#[test]
fn material_scaling_follows_its_parameters() {
    let queen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 60";
    let plain = depth_one_score(queen, "material_scaling=off");
    let ratio = |params: &str| {
        f64::from(depth_one_score_with(queen, "material_scaling=on", params)) / f64::from(plain)
    };
    let low_base = ratio("material_scale_base=512,material_scale_divisor=32");
    assert!((0.48..0.58).contains(&low_base), "base 512: {low_base}");
    let steep = ratio("material_scale_base=768,material_scale_divisor=16");
    let flat = ratio("material_scale_base=768,material_scale_divisor=32");
    assert!(
        steep > flat && (0.76..0.85).contains(&steep),
        "divisor 16: {steep} against 32: {flat}"
    );
    // Without the switch the parameters change nothing.
    assert_eq!(
        depth_one_score_with(queen, "material_scaling=off", "material_scale_base=512"),
        plain
    );
}
