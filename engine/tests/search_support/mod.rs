//! Shared by the search tests on chess, shogi and the toy game: running one search and
//! collecting what it reports, depth limits, and PV legality. (`tictactoe.rs` beside it is the
//! toy game, included by path where it is used.)

#![allow(dead_code)] // Each test binary uses a different part.

use sente::eval::Evaluator;
use sente::game::{Game, HistoryEntry};
use sente::movelist::MoveList;
use sente::search::{
    Clock, Limits, SearchControl, SearchEvent, SearchInfo, SearchOptions, SearchResult, Searcher,
};
use std::time::{Duration, Instant};

/// A search to depth `d` and no other limit.
pub fn depth<M>(d: u32) -> Limits<M> {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// A search on a clock and no other limit: each side's main time, one increment and one byoyomi
/// period for both (milliseconds), no `movestogo`.
pub fn clock_limits<M>(time_ms: [u64; 2], inc_ms: u64, byoyomi_ms: u64) -> Limits<M> {
    Limits {
        clock: Some(Clock {
            time_ms: time_ms.map(Some),
            inc_ms: [inc_ms; 2],
            moves_to_go: None,
            byoyomi_ms: [byoyomi_ms; 2],
        }),
        ..Limits::default()
    }
}

/// Searches `root` after `history` and returns the result with every event it reported.
pub fn search_events<G: Game, E: Evaluator<G>>(
    searcher: &mut Searcher<G, E>,
    root: &G,
    history: &[HistoryEntry],
    limits: &Limits<G::Move>,
    options: &SearchOptions,
) -> (SearchResult<G::Move>, Vec<SearchEvent<G::Move>>) {
    let mut events = Vec::new();
    let control = SearchControl::default();
    let result = searcher.search(root, history, limits, options, &control, &mut |e| {
        events.push(e)
    });
    (result, events)
}

/// `search_events`, keeping only the reported lines (depth, score, PV ...).
pub fn search_infos<G: Game, E: Evaluator<G>>(
    searcher: &mut Searcher<G, E>,
    root: &G,
    history: &[HistoryEntry],
    limits: &Limits<G::Move>,
    options: &SearchOptions,
) -> (SearchResult<G::Move>, Vec<SearchInfo<G::Move>>) {
    let (result, events) = search_events(searcher, root, history, limits, options);
    let infos = events
        .into_iter()
        .filter_map(|event| match event {
            SearchEvent::Pv(info) => Some(info),
            SearchEvent::CurrentMove { .. } => None,
        })
        .collect();
    (result, infos)
}

/// `search_infos` of `root` with no game history and the default options.
pub fn search_root<G: Game, E: Evaluator<G>>(
    searcher: &mut Searcher<G, E>,
    root: &G,
    limits: &Limits<G::Move>,
) -> (SearchResult<G::Move>, Vec<SearchInfo<G::Move>>) {
    search_infos(searcher, root, &[], limits, &SearchOptions::default())
}

/// Searches `root` (no history, default options) under `control` while another thread calls
/// `change` on it after `delay` (setting `stop`, or ending pondering); returns the result and
/// how long the search took.
pub fn search_changed_after<G: Game, E: Evaluator<G>>(
    searcher: &mut Searcher<G, E>,
    root: &G,
    limits: &Limits<G::Move>,
    control: &SearchControl,
    delay: Duration,
    change: impl FnOnce(&SearchControl) + Send,
) -> (SearchResult<G::Move>, Duration) {
    let started = Instant::now();
    let result = std::thread::scope(|scope| {
        scope.spawn(move || {
            std::thread::sleep(delay);
            change(control);
        });
        let options = SearchOptions::default();
        searcher.search(root, &[], limits, &options, control, &mut |_| {})
    });
    (result, started.elapsed())
}

/// Replays a PV from `root`: every move legal, none played once the game has no move left.
pub fn assert_pv_legal<G: Game>(root: &G, pv: &[G::Move]) {
    let mut pos = root.clone();
    let mut moves = G::Moves::default();
    for &m in pv {
        pos.generate_legal(&mut moves);
        assert!(
            !moves.is_empty(),
            "PV {pv:?} runs past the end from {}",
            root.to_text()
        );
        assert!(
            pos.is_legal_move(m),
            "illegal PV move {m:?} in {pv:?} from {}",
            root.to_text()
        );
        pos.make_move(m);
    }
}
