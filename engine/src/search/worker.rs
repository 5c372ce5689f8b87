//! One search thread's state and its iterative deepening with aspiration windows and MultiPV
//! (the node searches live in `alpha_beta` and `quiescence`). All its tables are allocated once
//! at construction; the node recursion allocates nothing. Lazy SMP runs several workers on one
//! shared table; the main one reports progress and watches the clock.

use super::correction::{CorrectionHistory, CorrectionKeys};
use super::events::{ScoreBound, SearchEvent, SearchInfo};
use super::history::{ContinuationKeys, HistoryTables, PieceTo};
use super::params::SearchParams;
use super::pv::legal_prefix;
use super::root_keys::RootKeys;
use super::switches::SearchFeatures;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::value::{is_mate_value, to_score, wdl_of, INFINITE, MATE_BOUND, MAX_PLY};
use super::SearchControl;
use crate::eval::Evaluator;
use crate::game::{Game, GameMove, HistoryEntry, Side};
use crate::movelist::MoveList;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Static eval marker for "in check, none computed".
pub(super) const NO_EVAL: i32 = -INFINITE;
/// Nodes between clock and stop-flag checks (a power of two).
const CHECK_INTERVAL: u64 = 256;
/// How far past a node limit the first root move of depth 1 may run before it is cut short
/// too (a position whose first move explodes in quiescence must not search unbounded).
const FIRST_MOVE_NODE_ALLOWANCE: u64 = 1 << 20;

/// Lazy SMP depth skipping for helper threads (they spread over depths so the table fills with
/// varied results).
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// State shared by all threads of one search.
pub struct SharedSearch<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    /// Set by the main thread when the search must end (limits, stop).
    pub abort: AtomicBool,
    /// Set by the main thread when the clock's hard bound has passed or `stop` came, and by any
    /// thread when a node limit is far exceeded: this ends even the first root move of depth 1,
    /// which `abort` alone does not end in the main thread.
    pub out_of_time: AtomicBool,
    /// Each thread's node count, published every `CHECK_INTERVAL` nodes.
    pub nodes: Vec<AtomicU64>,
    pub node_limit: Option<u64>,
    pub depth_limit: i32,
    pub multi_pv: usize,
    pub features: SearchFeatures,
    pub params: SearchParams,
    /// Stop once a mate in at most this many plies is found (`go mate N`).
    pub mate_plies: Option<i32>,
    pub show_wdl: bool,
    /// The tables' settings for this search (`tablebase.rs`) and the probes that hit.
    pub tablebase: super::tablebase::TablebaseSearch,
    pub tb_hits: AtomicU64,
}

impl SharedSearch<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// What only the main thread has: the clock and the progress reporter.
pub struct MainThreadContext<'a, 'r, M> {
    pub time: &'a mut TimeManager,
    pub report: &'a mut (dyn FnMut(SearchEvent<M>) + 'r),
    /// Multi-PV lines to report (strength limiting may search more than it shows); 0 when the
    /// caller wants no progress events at all (`SearchOptions::report_progress`).
    pub reported_lines: usize,
}

/// One root move with its latest score and line.
#[derive(Clone, Copy)]
pub struct RootMove<M> {
    pub mv: M,
    pub score: i32,
    pub previous_score: i32,
    pub bound: ScoreBound,
    pub seldepth: usize,
    pub pv: [M; MAX_PLY],
    pub pv_len: usize,
    /// Nodes searched below this move in this search (all iterations).
    pub nodes: u64,
}

impl<M: GameMove> RootMove<M> {
    fn new(mv: M) -> Self {
        let mut pv = [M::NONE; MAX_PLY];
        pv[0] = mv;
        Self {
            mv,
            score: -INFINITE,
            previous_score: -INFINITE,
            bound: ScoreBound::Exact,
            seldepth: 0,
            pv,
            pv_len: 1,
            nodes: 0,
        }
    }

    pub fn line(&self) -> &[M] {
        &self.pv[..self.pv_len]
    }
}

#[derive(Clone, Copy)]
pub(super) struct PlyState<M> {
    pub(super) static_eval: i32,
    /// (piece, to) of the move made from this ply; `None` for a null move.
    pub(super) piece_to: Option<PieceTo>,
    /// Move excluded by a singular-extension search at this ply.
    pub(super) excluded: M,
    /// The plies the parent's late-move reduction took from this ply's node (0 for a search
    /// at full depth; `Game::HINDSIGHT_DEPTH`).
    pub(super) reduction: i32,
}

/// A search thread's private state.
pub struct Worker<G: Game, E: Evaluator<G>> {
    pub id: usize,
    pub evaluator: E,
    pub(super) history: HistoryTables<G>,
    pub(super) correction: CorrectionHistory,
    pub(super) stack: Vec<PlyState<G::Move>>,
    pub(super) pv: Vec<G::Move>,
    pub(super) pv_len: Vec<usize>,
    pub(super) scores: Vec<i32>,
    /// Scratch space for sorting one move list.
    pub(super) sort_keys: Vec<u64>,
    pub(super) move_capacity: usize,
    pub(super) game_history: Vec<HistoryEntry>,
    /// The positions of `game_history` before the root, as a filter for the rule checks.
    pub(super) root_keys: RootKeys,
    pub root_moves: Vec<RootMove<G::Move>>,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) root_depth: i32,
    pub(super) pv_index: usize,
    pub(super) nmp_min_ply: usize,
    pub(super) stopped: bool,
    /// Whether a root move has been searched to the end in this search: from then on a move is
    /// ready, so even depth 1 may be cut short by the clock or `stop`.
    pub(super) root_move_searched: bool,
    pub(super) lmr: Vec<[i32; 64]>,
    /// The parameters `lmr` was built from.
    lmr_params: SearchParams,
    /// Depth of the last completed iteration (0: none yet).
    pub completed_depth: i32,
    /// The multi-PV lines of the last completed iteration, best first.
    pub completed_lines: Vec<RootMove<G::Move>>,
    /// The iteration under way: the last root move that beat the best move so far (searched to
    /// the end, first line only), if any: a search stopped inside the iteration plays it.
    pub partial_best: Option<RootMove<G::Move>>,
    /// The endgame tables the search probes (`tablebase.rs`), if any.
    pub(super) tablebase: Option<super::tablebase::SharedTables<G>>,
}

impl<G: Game, E: Evaluator<G>> Worker<G, E> {
    pub fn new(id: usize, evaluator: E) -> Self {
        match Self::try_new(id, evaluator) {
            Some(worker) => worker,
            None => panic!("cannot allocate search thread {id}"),
        }
    }

    /// As `new`, or `None` when its history tables cannot be allocated.
    pub fn try_new(id: usize, evaluator: E) -> Option<Self> {
        let history = HistoryTables::try_new(MAX_PLY)?;
        let move_capacity = <G::Moves as MoveList<G::Move>>::CAPACITY;
        let lmr = SearchParams::for_game::<G>().reduction_table();
        Some(Self {
            id,
            evaluator,
            history,
            correction: CorrectionHistory::default(),
            stack: vec![
                PlyState {
                    static_eval: NO_EVAL,
                    piece_to: None,
                    excluded: G::Move::NONE,
                    reduction: 0,
                };
                MAX_PLY + 2
            ],
            pv: vec![G::Move::NONE; MAX_PLY * MAX_PLY],
            pv_len: vec![0; MAX_PLY + 1],
            scores: vec![0; (MAX_PLY + 1) * move_capacity],
            sort_keys: vec![0; move_capacity],
            move_capacity,
            game_history: Vec::with_capacity(1024 + MAX_PLY),
            root_keys: RootKeys::default(),
            root_moves: Vec::with_capacity(move_capacity),
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            pv_index: 0,
            nmp_min_ply: 0,
            stopped: false,
            root_move_searched: false,
            lmr,
            lmr_params: SearchParams::for_game::<G>(),
            completed_depth: 0,
            completed_lines: Vec::with_capacity(move_capacity),
            partial_best: None,
            tablebase: None,
        })
    }

    /// Rebuilds the reduction table when `params` change it.
    pub fn use_params(&mut self, params: &SearchParams) {
        if (params.lmr_base, params.lmr_divisor)
            != (self.lmr_params.lmr_base, self.lmr_params.lmr_divisor)
        {
            self.lmr = params.reduction_table();
        }
        self.lmr_params = *params;
    }

    /// Forgets all learned move-ordering statistics.
    pub fn clear(&mut self) {
        self.history.clear();
        self.correction.clear();
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Prepares a search of `root`: game history, root move list (restricted to `search_moves`
    /// when that names legal moves), counters.
    pub fn prepare(&mut self, root: &G, history: &[HistoryEntry], search_moves: &[G::Move]) {
        self.game_history.clear();
        let keep = history.len().min(self.game_history.capacity() - MAX_PLY);
        self.game_history
            .extend_from_slice(&history[history.len() - keep..]);
        if G::ROOT_KEY_FILTER {
            self.root_keys.fill(&self.game_history);
        }
        let mut moves = G::Moves::default();
        root.generate_legal(&mut moves);
        self.root_moves.clear();
        for &m in moves.as_slice() {
            if search_moves.is_empty() || search_moves.contains(&m) {
                self.root_moves.push(RootMove::new(m));
            }
        }
        if self.root_moves.is_empty() {
            // The restriction named no legal move: search everything rather than nothing.
            for &m in moves.as_slice() {
                self.root_moves.push(RootMove::new(m));
            }
        }
        self.nodes = 0;
        self.seldepth = 0;
        self.root_depth = 0;
        self.nmp_min_ply = 0;
        self.stopped = false;
        self.root_move_searched = false;
        self.completed_depth = 0;
        self.completed_lines.clear();
        self.history.clear_killers();
        self.evaluator.reset(root);
    }

    /// Iterative deepening until a limit or the abort flag. The main thread (with `main`) reports
    /// progress and decides when everyone stops.
    pub fn iterate(
        &mut self,
        root: &G,
        shared: &SharedSearch,
        mut main: Option<&mut MainThreadContext<'_, '_, G::Move>>,
    ) {
        let lines = shared.multi_pv.clamp(1, self.root_moves.len().max(1));
        let mut best_changes = 0.0f64;
        let mut last_best = G::Move::NONE;
        for depth in 1..=shared.depth_limit.min(MAX_PLY as i32 - 1) {
            if self.id > 0 {
                let i = (self.id - 1) % SKIP_SIZE.len();
                if depth > 1 && ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0 {
                    continue;
                }
            }
            self.root_depth = depth;
            self.partial_best = None;
            for rm in self.root_moves.iter_mut() {
                rm.previous_score = rm.score;
            }
            for pv_index in 0..lines {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.search_line(root, shared, depth, main.as_deref_mut());
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            self.partial_best = None;
            self.completed_lines.clear();
            self.completed_lines
                .extend_from_slice(&self.root_moves[..lines]);
            self.publish_nodes(shared);

            let Some(main) = main.as_deref_mut() else {
                continue;
            };
            for k in 0..lines.min(main.reported_lines) {
                let info = self.line_info(root, shared, main.time, k, depth);
                (main.report)(SearchEvent::Pv(info));
            }
            let best = self.root_moves[0];
            best_changes *= 0.5;
            if best.mv != last_best && last_best.is_some() {
                best_changes += 1.0;
            }
            last_best = best.mv;
            if let Some(plies) = shared.mate_plies {
                if best.score >= MATE_BOUND && to_score_plies(best.score) <= plies {
                    break;
                }
            }
            if shared.abort.load(Ordering::Relaxed) {
                break;
            }
            let pondering = shared.control.pondering.load(Ordering::Relaxed);
            main.time.update_ponder(pondering);
            let params = &shared.params;
            let mut scale = (params.time_stable_permille as f64
                + params.time_change_permille as f64 * best_changes)
                .min(params.time_stretch_max_permille as f64) as u64;
            if self.root_moves.len() == 1 {
                scale = 100;
            }
            main.time.observe_nodes(shared.total_nodes());
            if main.time.soft_expired(scale) {
                break;
            }
        }
    }

    /// One multi-PV line of one iteration, with aspiration windows.
    fn search_line(
        &mut self,
        root: &G,
        shared: &SharedSearch,
        depth: i32,
        mut main: Option<&mut MainThreadContext<'_, '_, G::Move>>,
    ) {
        let previous = self.root_moves[self.pv_index].previous_score;
        let mut delta = shared.params.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= 4 && !is_mate_value(previous) {
            (
                (previous - delta).max(-INFINITE),
                (previous + delta).min(INFINITE),
            )
        } else {
            (-INFINITE, INFINITE)
        };
        // Fail-highs in a row since the last fail-low: each re-search is a ply shallower, as a
        // root score above the window is usually confirmed without the full depth.
        let mut fail_highs = 0;
        loop {
            let search_depth = (depth - fail_highs).max(1);
            let value = self.negamax(root, shared, &mut main, alpha, beta, search_depth, 0, false);
            self.root_moves[self.pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return;
            }
            let bound = if value <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITE);
                fail_highs = 0;
                ScoreBound::Upper
            } else if value >= beta {
                beta = (value + delta).min(INFINITE);
                fail_highs += 1;
                ScoreBound::Lower
            } else {
                return;
            };
            if let Some(main) = main.as_deref_mut() {
                if self.pv_index < main.reported_lines && main.time.elapsed_ms() > 1000 {
                    let mut info = self.line_info(root, shared, main.time, self.pv_index, depth);
                    info.bound = bound;
                    (main.report)(SearchEvent::Pv(info));
                }
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    fn line_info(
        &self,
        root: &G,
        shared: &SharedSearch,
        time: &TimeManager,
        k: usize,
        depth: i32,
    ) -> SearchInfo<G::Move> {
        self.root_move_info(root, shared, time, &self.root_moves[k], k, depth)
    }

    /// The info line of line `k` of this worker's last completed iteration (to report a
    /// helper's result when the main thread completed none).
    pub(super) fn completed_line_info(
        &self,
        root: &G,
        shared: &SharedSearch,
        time: &TimeManager,
        k: usize,
    ) -> SearchInfo<G::Move> {
        let rm = &self.completed_lines[k];
        self.root_move_info(root, shared, time, rm, k, self.completed_depth)
    }

    fn root_move_info(
        &self,
        root: &G,
        shared: &SharedSearch,
        time: &TimeManager,
        rm: &RootMove<G::Move>,
        k: usize,
        depth: i32,
    ) -> SearchInfo<G::Move> {
        let nodes = shared.total_nodes().max(self.nodes);
        let time_ms = time.elapsed_ms();
        let score = to_score(super::tablebase::shown_score(&shared.tablebase, rm.score));
        SearchInfo {
            depth: depth as u32,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            multipv: k + 1,
            score,
            bound: rm.bound,
            wdl: shared.show_wdl.then(|| wdl_of(score)),
            nodes,
            time_ms,
            nps: nodes * 1000 / time_ms.max(1),
            hashfull: shared.tt.hashfull(),
            tb_hits: shared
                .tablebase
                .loaded
                .then(|| shared.tb_hits.load(Ordering::Relaxed)),
            pv: legal_prefix(root, rm.line()),
        }
    }

    pub(super) fn publish_nodes(&self, shared: &SharedSearch) {
        shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Whether the search must unwind now. Depth 1 runs until its first root move is searched, so
    /// a searched move is always ready, whatever a node limit says (up to
    /// `FIRST_MOVE_NODE_ALLOWANCE` nodes past it); `stop` and the clock's hard bound end it
    /// sooner (a rare position whose first root move explodes in quiescence would otherwise
    /// lose on time or ignore `stop`: the move played is then the first root move, unsearched).
    /// A helper thread also ends it when the main thread is done. After that the clock, `stop`
    /// and node limits apply at any depth.
    pub(super) fn should_stop(
        &mut self,
        shared: &SharedSearch,
        main: &mut Option<&mut MainThreadContext<'_, '_, G::Move>>,
    ) -> bool {
        if self.stopped {
            return true;
        }
        if self.root_depth <= 1 && !self.root_move_searched {
            if self.nodes & (CHECK_INTERVAL - 1) == 0 {
                self.publish_nodes(shared);
                if let Some(main) = main.as_deref_mut() {
                    main.time
                        .update_ponder(shared.control.pondering.load(Ordering::Relaxed));
                    main.time.observe_nodes(shared.total_nodes());
                    if main.time.hard_expired() || shared.control.stop.load(Ordering::Relaxed) {
                        shared.out_of_time.store(true, Ordering::Relaxed);
                    }
                }
                if let Some(limit) = shared.node_limit {
                    if shared.total_nodes() >= limit.saturating_add(FIRST_MOVE_NODE_ALLOWANCE) {
                        shared.out_of_time.store(true, Ordering::Relaxed);
                    }
                }
            }
            if shared.out_of_time.load(Ordering::Relaxed) {
                shared.abort.store(true, Ordering::Relaxed);
                self.stopped = true;
            } else if self.id > 0 && shared.abort.load(Ordering::Relaxed) {
                self.stopped = true;
            }
            return self.stopped;
        }
        if let Some(limit) = shared.node_limit {
            let total = if shared.nodes.len() == 1 {
                self.nodes
            } else {
                shared.total_nodes()
            };
            if total >= limit {
                shared.abort.store(true, Ordering::Relaxed);
            }
        }
        if self.nodes & (CHECK_INTERVAL - 1) == 0 {
            self.publish_nodes(shared);
            if let Some(main) = main.as_deref_mut() {
                if shared.control.stop.load(Ordering::Relaxed) {
                    shared.abort.store(true, Ordering::Relaxed);
                }
                main.time
                    .update_ponder(shared.control.pondering.load(Ordering::Relaxed));
                main.time.observe_nodes(shared.total_nodes());
                if main.time.hard_expired() {
                    shared.out_of_time.store(true, Ordering::Relaxed);
                    shared.abort.store(true, Ordering::Relaxed);
                }
            }
        }
        if shared.abort.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    pub(super) fn evaluate(&mut self, pos: &G) -> i32 {
        self.evaluator
            .evaluate(pos)
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The static evaluation the search uses from a raw one: scaled by the board material
    /// (`material_scaling`), then corrected by the correction history under `keys` (the
    /// node's `correction_keys`, computed once by a node that also updates the history) when
    /// given. The table keeps the raw value.
    pub(super) fn adjusted_eval(
        &self,
        pos: &G,
        raw: i32,
        keys: Option<&CorrectionKeys>,
        features: &SearchFeatures,
        params: &SearchParams,
    ) -> i32 {
        let scaled = self.scaled_eval(pos, raw, features, params);
        self.corrected_eval(pos, scaled, keys)
    }

    /// The raw static evaluation scaled by the board material (under `material_scaling`):
    /// what the correction history corrects.
    pub(super) fn scaled_eval(
        &self,
        pos: &G,
        raw: i32,
        features: &SearchFeatures,
        params: &SearchParams,
    ) -> i32 {
        let mut eval = raw;
        if features.material_scaling {
            if let Some(material) = pos.board_material() {
                eval = eval
                    * (params.material_scale_base + material / params.material_scale_divisor)
                    / 1024;
            }
        }
        eval
    }

    /// `scaled` (a `scaled_eval`) corrected by the correction history under `keys` when given,
    /// within the non-mate scores.
    pub(super) fn corrected_eval(
        &self,
        pos: &G,
        scaled: i32,
        keys: Option<&CorrectionKeys>,
    ) -> i32 {
        let mut eval = scaled;
        if let Some(keys) = keys {
            eval += self.correction.correction(pos.side_to_move(), keys);
        }
        eval.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Teaches the correction history the result `best` of a node searched to `depth`: the
    /// error of the evaluation the correction is added to (`scaled`, the node's `scaled_eval`).
    pub(super) fn learn_correction(
        &mut self,
        side: Side,
        keys: &CorrectionKeys,
        depth: i32,
        best: i32,
        scaled: i32,
    ) {
        self.correction.update(side, keys, depth, best - scaled);
    }

    /// The node's correction keys when its static evaluation is corrected (a game with
    /// `Game::CORRECTION_HISTORY`, not in check), with their entries already loading: computed
    /// before the table probe, so the misses overlap.
    pub(super) fn prefetched_correction_keys(
        &self,
        pos: &G,
        ply: usize,
        in_check: bool,
    ) -> Option<CorrectionKeys> {
        (G::CORRECTION_HISTORY && !in_check).then(|| {
            let keys = self.correction_keys(pos, ply);
            self.correction.prefetch(pos.side_to_move(), &keys);
            keys
        })
    }

    /// The correction history's keys of `pos` at `ply`.
    pub(super) fn correction_keys(&self, pos: &G, ply: usize) -> CorrectionKeys {
        let back = |n: usize| ply.checked_sub(n).and_then(|p| self.stack[p].piece_to);
        CorrectionKeys {
            structure: pos.correction_key(),
            pieces: pos.piece_keys(),
            moves: CorrectionKeys::of_moves(back(1), back(2)),
        }
    }

    /// The continuation keys of a node at `ply`: the moves one and two plies back.
    pub(super) fn previous_piece_to(&self, ply: usize) -> ContinuationKeys {
        let back = |n: usize| ply.checked_sub(n).and_then(|p| self.stack[p].piece_to);
        [back(1), back(2)]
    }

    /// Copies the child's line behind `m` into this ply's line.
    pub(super) fn update_pv(&mut self, ply: usize, m: G::Move) {
        let child_len = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        let (head, tail) = self.pv.split_at_mut((ply + 1) * MAX_PLY);
        let row = &mut head[ply * MAX_PLY..];
        row[0] = m;
        let len = child_len.min(MAX_PLY - 1);
        row[1..1 + len].copy_from_slice(&tail[..len]);
        self.pv_len[ply] = 1 + len;
    }

    /// The game history a rule check of `pos` needs (`Game::rule_outcome`): the search's own
    /// plies only, where the game filters by the keys before the root and `pos` is not among
    /// them.
    #[inline]
    pub(super) fn rule_history(&self, pos: &G) -> &[HistoryEntry] {
        if G::ROOT_KEY_FILTER {
            self.root_keys.rule_history(&self.game_history, pos.hash())
        } else {
            &self.game_history
        }
    }

    pub(super) fn enter_child(&mut self, pos: &G, child: &G) {
        self.game_history.push(HistoryEntry {
            hash: pos.hash(),
            in_check: pos.in_check(),
        });
        self.evaluator.push(child);
    }

    pub(super) fn leave_child(&mut self) {
        self.evaluator.pop();
        self.game_history.pop();
    }
}

/// Plies of a positive mate value.
fn to_score_plies(v: i32) -> i32 {
    match to_score(v) {
        super::events::Score::MatePlies(p) => p,
        super::events::Score::Cp(_) => i32::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::Worker;
    use crate::chess::{ClassicalEval, Position};
    use crate::game::Game;
    use crate::search::{SearchFeatures, SearchParams};

    /// A search that only confirms the node's static evaluation (its result is that
    /// evaluation) teaches the correction nothing: it learns the error of the evaluation it
    /// corrects, the scaled one, not the raw evaluation's (whose error would hold the material
    /// scaling's shrink and apply it again at each confirmation).
    #[test]
    fn a_confirmed_static_evaluation_keeps_its_correction() {
        // A rook against a bishop: the material scaling shrinks the score.
        let pos = Position::from_text("8/8/4k3/8/2b5/8/4K3/3R4 w - - 0 1").unwrap();
        let params = SearchParams::for_game::<Position>();
        let features = SearchFeatures::for_game::<Position>();
        let mut worker = Worker::<Position, ClassicalEval>::new(0, ClassicalEval::default());
        let raw = worker.evaluate(&pos);
        let scaled = worker.scaled_eval(&pos, raw, &features, &params);
        assert!(scaled < raw - 20, "the scaling shrinks {raw} to {scaled}");
        let keys = worker.correction_keys(&pos, 0);
        let corrected = |worker: &Worker<Position, ClassicalEval>| {
            worker.corrected_eval(&pos, scaled, Some(&keys))
        };
        assert_eq!(corrected(&worker), scaled, "nothing learned yet");
        for _ in 0..64 {
            let confirmed = corrected(&worker);
            worker.learn_correction(pos.side_to_move(), &keys, 8, confirmed, scaled);
        }
        assert_eq!(corrected(&worker), scaled);
        // A search that finds more moves the correction toward it.
        for _ in 0..64 {
            worker.learn_correction(pos.side_to_move(), &keys, 8, scaled + 50, scaled);
        }
        assert!(corrected(&worker) > scaled + 40, "{}", corrected(&worker));
    }
}
