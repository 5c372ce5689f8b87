//! The generic search on tic-tac-toe, where perfect play is known: exact values and mate
//! distances, legal PVs, MultiPV order, searchmoves, determinism, threads, stop and events.

#[allow(dead_code)] // Each test binary uses a different part of the shared toy game.
#[path = "search_support/tictactoe.rs"]
mod tictactoe;

mod search_support;

use search_support::{assert_pv_legal, depth, search_changed_after, search_events};
use sente::game::{Game, GameMove, HistoryEntry};
use sente::movelist::{ArrayMoveList, MoveList};
use sente::search::{Limits, Score, SearchControl, SearchEvent, SearchOptions, Searcher};
use std::sync::atomic::Ordering;
use tictactoe::{all_positions, solve, Cell, LinesEval, TicTacToe};

fn expected_score(pos: &TicTacToe) -> Score {
    match solve(pos) {
        Some(n) => Score::MatePlies(n),
        None => Score::Cp(0),
    }
}

#[test]
fn every_position_gets_its_exact_value_and_mate_distance() {
    let mut searcher = Searcher::new(LinesEval::default());
    let options = SearchOptions::default();
    let mut checked = 0;
    for pos in all_positions() {
        let mut moves = ArrayMoveList::<Cell, 9>::default();
        pos.generate_legal(&mut moves);
        if moves.is_empty() {
            continue;
        }
        searcher.clear();
        let (result, events) = search_events(&mut searcher, &pos, &[], &depth(60), &options);
        assert_eq!(
            result.score,
            expected_score(&pos),
            "position {}",
            pos.to_text()
        );
        let best = result.best.expect("a move");
        let mut child = pos;
        child.make_move(best);
        let child_value = match solve(&child) {
            Some(n) if n > 0 => Some(-(n + 1)),
            Some(n) => Some(-n + 1),
            None => None,
        };
        assert_eq!(
            child_value,
            solve(&pos),
            "best move {best:?} of {}",
            pos.to_text()
        );
        let Some(SearchEvent::Pv(last)) = events.last() else {
            panic!("no PV event");
        };
        assert_eq!(last.pv[0], best);
        assert_pv_legal(&pos, &last.pv);
        if let Score::MatePlies(n) = result.score {
            if n > 0 {
                assert_eq!(
                    last.pv.len(),
                    n as usize,
                    "mate PV length {}",
                    pos.to_text()
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 4000);
}

#[test]
fn same_values_with_a_warm_table_between_searches() {
    // No clearing: entries from other positions' searches must not corrupt values.
    let mut searcher = Searcher::new(LinesEval::default());
    let options = SearchOptions::default();
    for pos in all_positions().into_iter().step_by(7) {
        let (result, _) = search_events(&mut searcher, &pos, &[], &depth(60), &options);
        if result.best.is_some() {
            assert_eq!(result.score, expected_score(&pos), "{}", pos.to_text());
        }
    }
}

#[test]
fn finished_root_has_no_move() {
    let mut searcher = Searcher::new(LinesEval::default());
    let won = TicTacToe::from_text("xxxoo....").unwrap();
    let (result, events) = search_events(
        &mut searcher,
        &won,
        &[],
        &depth(5),
        &SearchOptions::default(),
    );
    assert_eq!(result.best, None);
    assert_eq!(result.score, Score::MatePlies(0));
    assert!(events.is_empty());
    let full = TicTacToe::from_text("xoxxoooxx").unwrap();
    let (result, _) = search_events(
        &mut searcher,
        &full,
        &[],
        &depth(5),
        &SearchOptions::default(),
    );
    assert_eq!((result.best, result.score), (None, Score::Cp(0)));
}

#[test]
fn multipv_lines_are_ordered_and_exact() {
    // X to move: 3 (cell index 2) wins at once; others differ.
    let pos = TicTacToe::from_text("xx.oo....").unwrap();
    let options = SearchOptions {
        multi_pv: 4,
        ..SearchOptions::default()
    };
    let mut searcher = Searcher::new(LinesEval::default());
    let (result, events) = search_events(&mut searcher, &pos, &[], &depth(60), &options);
    assert_eq!(result.best, Some(Cell(3)));
    assert_eq!(result.score, Score::MatePlies(1));
    let final_depth = events
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Pv(i) => Some(i.depth),
            _ => None,
        })
        .max()
        .unwrap();
    let lines: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Pv(i) if i.depth == final_depth => Some(i.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(lines.len(), 4);
    let rank = |s: Score| match s {
        Score::MatePlies(n) if n > 0 => 1000 - n,
        Score::MatePlies(n) => -1000 - n,
        Score::Cp(c) => c,
    };
    for (k, line) in lines.iter().enumerate() {
        assert_eq!(line.multipv, k + 1);
        assert_pv_legal(&pos, &line.pv);
        let mut child = pos;
        child.make_move(line.pv[0]);
        let exact = match solve(&child) {
            Some(n) if n > 0 => Score::MatePlies(-(n + 1)),
            Some(n) => Score::MatePlies(-n + 1),
            None => Score::Cp(0),
        };
        assert_eq!(line.score, exact, "line {k}: {:?}", line.pv);
        if k > 0 {
            assert!(rank(lines[k - 1].score) >= rank(line.score));
        }
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    let pos = TicTacToe::from_text("xx.oo....").unwrap();
    let limits = Limits {
        depth: Some(60),
        search_moves: vec![Cell(9)],
        ..Limits::default()
    };
    let mut searcher = Searcher::new(LinesEval::default());
    let (result, _) = search_events(&mut searcher, &pos, &[], &limits, &SearchOptions::default());
    assert_eq!(result.best, Some(Cell(9)));
    // After 9, O completes 4-5-6 at once.
    assert_eq!(result.score, Score::MatePlies(-2));
}

#[test]
fn one_thread_with_a_node_limit_is_deterministic() {
    let pos = TicTacToe::startpos();
    let limits = Limits {
        nodes: Some(3000),
        ..Limits::default()
    };
    let run = || {
        let mut searcher = Searcher::new(LinesEval::default());
        let (result, events) =
            search_events(&mut searcher, &pos, &[], &limits, &SearchOptions::default());
        (result, events.len())
    };
    let first = run();
    assert_eq!(first, run());
    assert!(
        first.0.nodes >= 3000 && first.0.nodes < 3000 + 100,
        "{}",
        first.0.nodes
    );
}

#[test]
fn several_threads_agree_on_exact_values() {
    let mut searcher = Searcher::new(LinesEval::default());
    searcher.set_threads(4);
    for text in [
        "x...o....",
        ".........",
        "x.o.x....",
        "xo.......",
        "o.x.x....",
    ] {
        let pos = match TicTacToe::from_text(text) {
            Ok(p) => p,
            Err(_) => continue,
        };
        searcher.clear();
        let (result, _) = search_events(
            &mut searcher,
            &pos,
            &[],
            &depth(40),
            &SearchOptions::default(),
        );
        assert_eq!(result.score, expected_score(&pos), "{text}");
    }
}

#[test]
fn stop_ends_an_infinite_search_with_a_move() {
    let pos = TicTacToe::startpos();
    let control = SearchControl::default();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let (result, elapsed) = search_changed_after(
        &mut Searcher::new(LinesEval::default()),
        &pos,
        &limits,
        &control,
        std::time::Duration::from_millis(100),
        |control| control.stop.store(true, Ordering::Relaxed),
    );
    let elapsed = elapsed.as_millis();
    // Only `stop` ends it; the upper bound leaves room for a busy machine.
    assert!((100..2000).contains(&elapsed), "{elapsed} ms");
    assert!(result.best.is_some_and(|m| pos.is_legal_move(m)));
}

#[test]
fn pv_events_come_once_per_completed_depth() {
    let pos = TicTacToe::from_text("x...o....").unwrap();
    let mut searcher = Searcher::new(LinesEval::default());
    let (result, events) = search_events(
        &mut searcher,
        &pos,
        &[],
        &depth(6),
        &SearchOptions::default(),
    );
    let depths: Vec<u32> = events
        .iter()
        .map(|e| match e {
            SearchEvent::Pv(i) => i.depth,
            SearchEvent::CurrentMove { .. } => panic!("current move before 1 s"),
        })
        .collect();
    assert_eq!(depths, [1, 2, 3, 4, 5, 6]);
    assert_eq!(result.depth, 6);
    let SearchEvent::Pv(last) = events.last().unwrap() else {
        unreachable!()
    };
    assert_eq!(last.nodes, result.nodes);
}

#[test]
fn history_before_the_root_is_accepted() {
    let history = [HistoryEntry {
        hash: TicTacToe::startpos().hash(),
        in_check: false,
    }];
    let pos = TicTacToe::from_text("x........").unwrap();
    let mut searcher = Searcher::new(LinesEval::default());
    let control = SearchControl::default();
    let result = searcher.search(
        &pos,
        &history,
        &depth(60),
        &SearchOptions::default(),
        &control,
        &mut |_| {},
    );
    assert_eq!(result.score, Score::Cp(0));
    assert!(result.best.is_some_and(|m| m.is_some()));
}

#[test]
fn limited_strength_still_plays_legal_moves_deterministically() {
    let pos = TicTacToe::startpos();
    let options = SearchOptions {
        skill: Some(sente::search::strength::Skill(0)),
        ..SearchOptions::default()
    };
    let mut searcher = Searcher::new(LinesEval::default());
    searcher.set_strength_salt(7);
    let (a, _) = search_events(&mut searcher, &pos, &[], &Limits::default(), &options);
    searcher.clear();
    searcher.set_strength_salt(7);
    let (b, _) = search_events(&mut searcher, &pos, &[], &Limits::default(), &options);
    assert_eq!(a.best, b.best);
    assert!(a.best.is_some_and(|m| pos.is_legal_move(m)));
    assert!(a.nodes <= 64 * 4 + 64, "node cap applies: {}", a.nodes);
}

/// Benches tic-tac-toe `texts` with the lines evaluator at `depth`; the summary and the printed report.
fn toy_bench(
    texts: &[&str],
    depth: u32,
) -> (
    Result<sente::bench::BenchSummary, sente::bench::BenchError>,
    String,
) {
    let mut out = Vec::new();
    let summary = sente::bench::bench_positions::<TicTacToe, _>(
        texts,
        LinesEval::default(),
        depth,
        sente::bench::BenchSearch::default(),
        &mut out,
    );
    (summary, String::from_utf8(out).unwrap())
}

#[test]
fn bench_node_count_is_a_repeatable_signature() {
    let texts = ["startpos", "x...o....", "startpos moves 5 1 9", "xx.oo...."];
    let (a, text) = toy_bench(&texts, 7);
    let a = a.unwrap();
    let b = toy_bench(&texts, 7).0.unwrap();
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.positions, 4);
    assert!(
        text.contains(&format!("Nodes searched  : {}", a.nodes)),
        "{text}"
    );
    assert_eq!(text.lines().filter(|l| l.contains(" nodes ")).count(), 4);
    let (bad, _) = toy_bench(&["startpos moves 5 5"], 3);
    assert!(
        matches!(
            bad,
            Err(sente::bench::BenchError::BadPosition { index: 1, .. })
        ),
        "{bad:?}"
    );
}
