//! The game-generic search: iterative deepening PVS over any `Game`, with a shared
//! transposition table and Lazy SMP threads. It never names a game.
//!
//! The protocol layer drives it through `Searcher::search`, a blocking call that it runs on its
//! own thread; `SearchControl` stops it from outside. Every search thread, the main one
//! included, is spawned with a large stack for the search's recursion; the calling thread only
//! relays progress events to the `report` callback.

pub mod alpha_beta;
pub mod change_list;
pub mod correction;
pub mod events;
pub mod history;
pub mod large_pages;
pub mod limits;
pub mod ordering;
pub mod params;
pub mod prefetch;
pub mod pv;
pub mod quiescence;
pub mod root_keys;
pub mod strength;
pub mod switches;
pub mod tablebase;
pub mod time;
pub mod time_shaping;
pub mod tree_stats;
pub mod tt;
pub mod value;
pub mod worker;

pub use events::{Score, ScoreBound, SearchEvent, SearchInfo, SearchResult, Wdl};
pub use limits::{Clock, Limits, SearchOptions};
pub use params::{ParamSpec, SearchParams};
pub use switches::SearchFeatures;

use crate::eval::Evaluator;
use crate::game::{Game, GameResult, HistoryEntry};
use crate::movelist::MoveList;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use time::TimeManager;
use tt::TranspositionTable;
use worker::{MainThreadContext, SharedSearch, Worker};

/// Stack size of search threads (and the least a caller needs for `set_search_on_caller_thread`).
pub const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Infinite and ponder searches answer only when told to (`stop`, or `ponderhit` for ponder).
fn wait_for_stop_if_required<M>(limits: &Limits<M>, control: &SearchControl) {
    while (limits.infinite || control.pondering.load(Ordering::Relaxed))
        && !control.stop.load(Ordering::Relaxed)
    {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Flags shared with the thread that started a search.
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Set to end the search as soon as possible (`stop`, `quit`, a new position ...).
    pub stop: AtomicBool,
    /// While set, the search is pondering: it ignores its time budget (not node/depth limits)
    /// until cleared by `ponderhit`, from which moment the clock applies as if the search had
    /// started normally.
    pub pondering: AtomicBool,
}

/// A search engine for one game with one evaluator type: owns the transposition table and the
/// per-thread state, which persist between searches until `clear` (`ucinewgame`, Clear Hash).
pub struct Searcher<G: Game, E: Evaluator<G>> {
    evaluator: E,
    threads: usize,
    tt: TranspositionTable,
    workers: Vec<Worker<G, E>>,
    features: SearchFeatures,
    params: SearchParams,
    on_caller_thread: bool,
    /// Endgame tables probed at the root and in the search (`tablebase.rs`).
    tablebases: Option<tablebase::SharedTables<G>>,
    /// Mixed into the strength limiter's draws, so that a limited engine varies between runs
    /// (`set_strength_salt` fixes it).
    strength_salt: u64,
    /// Draws made so far: the same position met twice in one run may get another move.
    strength_draws: u64,
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with a 16 MB table and one thread.
    pub fn new(evaluator: E) -> Self {
        Self {
            evaluator,
            threads: 1,
            tt: TranspositionTable::new(16),
            workers: Vec::new(),
            features: SearchFeatures::for_game::<G>(),
            params: SearchParams::for_game::<G>(),
            on_caller_thread: false,
            tablebases: None,
            strength_salt: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
            strength_draws: 0,
        }
    }

    /// Fixes the strength limiter's random choices: the same salt and the same searches give
    /// the same moves.
    pub fn set_strength_salt(&mut self, salt: u64) {
        self.strength_salt = salt;
        self.strength_draws = 0;
    }

    /// Sets (or, with `None`, removes) the endgame tables the search probes.
    pub fn set_tablebases(&mut self, tables: Option<tablebase::SharedTables<G>>) {
        self.tablebases = tables;
    }

    /// With one thread, searches on the calling thread instead of a fresh thread per search
    /// (a thread start and fresh stack pages are a noticeable share of a few-thousand-node
    /// search in self-play). The calling thread must have at least `SEARCH_STACK_BYTES` of stack.
    pub fn set_search_on_caller_thread(&mut self, on_caller_thread: bool) {
        self.on_caller_thread = on_caller_thread;
    }

    /// Resizes the transposition table (clears it); a size that cannot be allocated leaves a
    /// table as `try_set_hash_mb` describes.
    pub fn set_hash_mb(&mut self, mb: usize) {
        let _ = self.try_set_hash_mb(mb);
    }

    /// Resizes the transposition table (clears it) without ever aborting: when `mb` cannot be
    /// allocated beside the current table, the current one is freed and `mb` tried again; if
    /// that fails too, a table of the previous size (or at worst 1 MB) is made again and the
    /// error says which size is in use.
    pub fn try_set_hash_mb(&mut self, mb: usize) -> Result<(), String> {
        let mb = mb.max(1);
        let previous = self.tt.size_mb().max(1);
        if let Some(table) = TranspositionTable::try_new(mb) {
            self.tt = table;
            return Ok(());
        }
        // Free the current table first: the two may not fit side by side.
        self.tt = TranspositionTable::new(1);
        if let Some(table) = TranspositionTable::try_new(mb) {
            self.tt = table;
            return Ok(());
        }
        let kept = match TranspositionTable::try_new(previous) {
            Some(table) => {
                self.tt = table;
                previous
            }
            None => 1,
        };
        Err(format!(
            "cannot allocate a {mb} MB hash table; keeping {kept} MB"
        ))
    }

    /// Size of the transposition table in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Number of Lazy SMP threads (at least 1); see `try_set_threads`.
    pub fn set_threads(&mut self, threads: usize) {
        let _ = self.try_set_threads(threads);
    }

    /// Number of Lazy SMP threads (at least 1), their per-thread tables allocated now rather
    /// than at the next search. When memory runs out first, the threads that could be
    /// allocated are used and the error says how many.
    pub fn try_set_threads(&mut self, threads: usize) -> Result<(), String> {
        let wanted = threads.max(1);
        self.workers.truncate(wanted);
        // Each thread also needs its stack at every search: room for those stacks (and one
        // more for the rest of the engine) is mapped, untouched, as workers are added, so that
        // memory is not all given to workers and the next allocation anywhere aborts.
        let mut stacks = Vec::with_capacity(wanted + 1);
        let mut reserve = |count: usize| {
            while stacks.len() < count {
                match memmap2::MmapOptions::new()
                    .len(SEARCH_STACK_BYTES)
                    .map_anon()
                {
                    Ok(map) => stacks.push(map),
                    Err(_) => return false,
                }
            }
            true
        };
        if !reserve(self.workers.len() + 1) {
            // Not even the current threads' stacks fit: keep one thread.
            self.workers.truncate(1);
        }
        while self.workers.len() < wanted {
            let id = self.workers.len();
            let Some(worker) = Worker::try_new(id, self.evaluator.clone()) else {
                break;
            };
            if !reserve(id + 2) && id > 0 {
                break; // no stack for it: the worker is freed here
            }
            self.workers.push(worker);
        }
        drop(stacks);
        self.threads = self.workers.len().max(1);
        if self.workers.len() < wanted {
            return Err(format!(
                "memory for only {} of {wanted} search threads; using {}",
                self.workers.len(),
                self.threads
            ));
        }
        Ok(())
    }

    /// Replaces the evaluator (e.g. a newly loaded net), in every search thread too. The
    /// threads keep their copies from one search to the next (each search resets a copy's
    /// stack; its refresh cache stays valid for the same net): a fresh copy per search was a
    /// tenth of a self-play move's time at 1,250 nodes.
    pub fn set_evaluator(&mut self, evaluator: E) {
        for worker in &mut self.workers {
            worker.evaluator = evaluator.clone();
        }
        self.evaluator = evaluator;
    }

    /// Turns individual techniques on or off (for measuring them).
    pub fn set_features(&mut self, features: SearchFeatures) {
        self.features = features;
    }

    /// Changes the search's numeric constants (for measuring and tuning them).
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// Forgets everything learned: transposition table, histories.
    pub fn clear(&mut self) {
        self.tt.clear();
        for worker in &mut self.workers {
            worker.clear();
        }
    }

    /// Transposition table fill in permille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `root` (reached through `history`, oldest first, not including `root`) within
    /// `limits`, reporting progress through `report`, until a limit is reached or `control.stop`
    /// is set. Returns the best move (`None` only when `root` has no legal move).
    pub fn search(
        &mut self,
        root: &G,
        history: &[HistoryEntry],
        limits: &Limits<G::Move>,
        options: &SearchOptions,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchEvent<G::Move>),
    ) -> SearchResult<G::Move> {
        // The clock runs from the moment the search is asked for.
        let mut time = TimeManager::new(
            limits,
            root.side_to_move(),
            options.move_overhead_ms,
            time::TimePlan::of(&self.params, history.len() / 2),
            control.pondering.load(Ordering::Relaxed),
        )
        .with_node_clock(options.nodes_per_ms)
        .shaped(
            limits,
            root.side_to_move(),
            options.move_overhead_ms,
            &options.time_shaping,
        );
        let mut legal = G::Moves::default();
        root.generate_legal(&mut legal);
        if legal.is_empty() {
            let score = match root.no_moves_outcome().result {
                GameResult::Loss => Score::MatePlies(0),
                GameResult::Draw | GameResult::Win => Score::Cp(0),
            };
            return SearchResult {
                best: None,
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
                declare_win: false,
            };
        }
        if root.can_declare_win() {
            return SearchResult {
                best: Some(legal.as_slice()[0]),
                ponder: None,
                score: Score::MatePlies(1),
                depth: 0,
                nodes: 0,
                declare_win: true,
            };
        }

        while self.workers.len() < self.threads {
            let id = self.workers.len();
            match Worker::try_new(id, self.evaluator.clone()) {
                Some(worker) => self.workers.push(worker),
                // Out of memory for a helper: search with the threads there are.
                None if id > 0 => self.threads = id,
                None => self.workers.push(Worker::new(id, self.evaluator.clone())),
            }
        }
        let strength = options.skill.map(strength::strength_limit);
        let mut node_limit = limits.nodes;
        let mut depth_limit = limits.depth.unwrap_or(u32::MAX).max(1);
        let mut multi_pv = options.multi_pv.max(1);
        if let Some(s) = strength {
            node_limit = Some(node_limit.map_or(s.node_cap, |n| n.min(s.node_cap)));
            depth_limit = depth_limit.min(s.depth_cap);
            multi_pv = multi_pv.max(s.lines);
        }
        let tb = tablebase::prepare_root(
            self.tablebases.as_deref(),
            &options.tablebase,
            root,
            history,
            &limits.search_moves,
        );
        let search_moves = if tb.moves.is_empty() {
            &limits.search_moves
        } else {
            &tb.moves
        };
        for worker in &mut self.workers {
            worker.use_params(&self.params);
            worker.prepare(root, history, search_moves);
            worker.tablebase = self.tablebases.clone();
        }
        self.tt.new_search();

        let shared = SharedSearch {
            tt: &self.tt,
            control,
            abort: AtomicBool::new(false),
            out_of_time: AtomicBool::new(false),
            nodes: (0..self.threads).map(|_| AtomicU64::new(0)).collect(),
            node_limit,
            depth_limit: depth_limit.min(i32::MAX as u32) as i32,
            multi_pv,
            features: self.features,
            params: self.params,
            mate_plies: limits.mate_in.map(|n| (2 * n as i32 - 1).max(1)),
            show_wdl: options.show_wdl,
            tablebase: tb.search,
            tb_hits: AtomicU64::new(tb.hits),
        };
        let (main_worker, helpers) = self.workers.split_at_mut(1);
        let main_worker = &mut main_worker[0];
        let reported_lines = if options.report_progress {
            options.multi_pv.max(1)
        } else {
            0
        };
        // The main worker runs on its own large-stack thread too, whatever the caller's stack;
        // its events come back over a channel and are reported from the calling thread.
        let (events, received) = std::sync::mpsc::channel();
        let on_caller_thread = self.on_caller_thread && self.threads == 1;
        let main_started = !on_caller_thread
            && std::thread::scope(|scope| {
                for helper in helpers.iter_mut() {
                    let shared = &shared;
                    // A thread the system refuses to start just leaves the search with fewer helpers.
                    let _ = std::thread::Builder::new()
                        .name(format!("search-helper-{}", helper.id))
                        .stack_size(SEARCH_STACK_BYTES)
                        .spawn_scoped(scope, move || helper.iterate(root, shared, None));
                }
                let shared = &shared;
                let time = &mut time;
                let main_thread = std::thread::Builder::new()
                    .name("search-main".to_string())
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut forward = |event| {
                            // The receiver lives until this thread ends.
                            let _ = events.send(event);
                        };
                        let mut context = MainThreadContext {
                            time,
                            report: &mut forward,
                            reported_lines,
                        };
                        main_worker.iterate(root, shared, Some(&mut context));
                        wait_for_stop_if_required(limits, control);
                        shared.abort.store(true, Ordering::Relaxed);
                    });
                if main_thread.is_err() {
                    shared.abort.store(true, Ordering::Relaxed);
                    return false;
                }
                for event in received {
                    report(event);
                }
                true
            });
        if !main_started {
            // Asked for, or no thread could be started: search on the caller's thread, alone.
            let main_worker = &mut self.workers[0];
            if !on_caller_thread {
                main_worker.prepare(root, history, search_moves);
                shared.abort.store(false, Ordering::Relaxed);
            }
            let mut context = MainThreadContext {
                time: &mut time,
                report,
                reported_lines,
            };
            main_worker.iterate(root, &shared, Some(&mut context));
            wait_for_stop_if_required(limits, control);
        }

        let nodes = self.workers.iter().map(|w| w.nodes()).sum();
        let main_worker = &self.workers[0];
        // With helpers the main thread may complete no iteration (it started late and a helper
        // reached the node limit): the deepest iteration a helper completed is then the answer,
        // and its lines are reported here, before the answer.
        let helper = self.workers[1..self.threads.min(self.workers.len()).max(1)]
            .iter()
            .filter(|w| main_worker.completed_lines.is_empty() && !w.completed_lines.is_empty())
            .max_by_key(|w| w.completed_depth);
        if let Some(helper) = helper {
            for k in 0..helper.completed_lines.len().min(reported_lines) {
                report(SearchEvent::Pv(
                    helper.completed_line_info(root, &shared, &time, k),
                ));
            }
        }
        // A search stopped inside depth 1 plays the best root move searched so far (every root
        // move searched to the end has a score; the first one always is).
        // An iteration cut short after a later root move beat the previous best to the end plays
        // that move (one line, no strength limit): the new depth's verdict on the two moves
        // outranks the shallower iteration's.
        let partial = main_worker.partial_best.filter(|_| {
            strength.is_none() && !main_worker.completed_lines.is_empty() && shared.multi_pv == 1
        });
        let (depth, lines) = if let Some(partial) = &partial {
            (
                main_worker.completed_depth as u32,
                std::slice::from_ref(partial),
            )
        } else if let Some(helper) = helper {
            (helper.completed_depth as u32, &helper.completed_lines[..])
        } else if main_worker.completed_lines.is_empty() {
            let moves = &main_worker.root_moves;
            let mut best = 0;
            for (i, rm) in moves.iter().enumerate() {
                if rm.score > moves[best].score {
                    best = i;
                }
            }
            (0, &moves[best..best + 1])
        } else {
            (
                main_worker.completed_depth as u32,
                &main_worker.completed_lines[..],
            )
        };
        let mut chosen = 0;
        if let Some(s) = strength {
            let mut scores = [0i32; strength::MAX_LINES];
            let count = lines.len().min(strength::MAX_LINES);
            for (score, line) in scores.iter_mut().zip(lines) {
                *score = line.score;
            }
            self.strength_draws = self.strength_draws.wrapping_add(1);
            let seed = root.hash() ^ u64::from(root.game_ply()) ^ self.strength_salt;
            let seed = seed ^ self.strength_draws.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            chosen = strength::choose_by_softmax(&scores[..count], s.temperature_cp, seed);
        }
        let line = lines[chosen];
        let pv = pv::legal_prefix(root, line.line());
        SearchResult {
            best: Some(line.mv),
            ponder: pv.get(1).copied(),
            score: value::to_score(tablebase::shown_score(&shared.tablebase, line.score)),
            depth,
            nodes,
            declare_win: false,
        }
    }
}

impl<G: Game, E: Evaluator<G>> std::fmt::Debug for Searcher<G, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("game", &G::NAME)
            .field("threads", &self.threads)
            .field("hash_mb", &self.tt.size_mb())
            .field("features", &self.features)
            .finish()
    }
}
