//! One search thread: iterative deepening with aspiration windows over a principal variation
//! search (PVS) and quiescence. All its tables are allocated once at construction; the node
//! recursion allocates nothing. Lazy SMP runs several workers on one shared table.

use super::features::SearchFeatures;
use super::history::{history_bonus, HistoryTables, PieceTo};
use super::ordering::{
    is_losing_noisy, pick_best, score_moves, score_noisy_first, OrderingContext,
};
use super::report::{ScoreBound, SearchEvent, SearchInfo};
use super::time::TimeManager;
use super::tt::{Bound, TranspositionTable};
use super::value::{
    from_tt, is_mate_value, mated_at, outcome_value, to_score, to_tt, wdl_of, winning_at, INFINITE,
    MATE_BOUND, MAX_PLY,
};
use super::SearchControl;
use crate::eval::Evaluator;
use crate::game::{Game, GameMove, HistoryEntry};
use crate::movelist::MoveList;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Static eval marker for "in check, none computed".
const NO_EVAL: i32 = -INFINITE;
/// Nodes between clock and stop-flag checks.
const CHECK_INTERVAL: u64 = 1024;
/// Quiet moves remembered per node for history maluses.
const MAX_QUIETS_TRIED: usize = 64;

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
    /// Each thread's node count, published every `CHECK_INTERVAL` nodes.
    pub nodes: Vec<AtomicU64>,
    pub node_limit: Option<u64>,
    pub depth_limit: i32,
    pub multi_pv: usize,
    pub features: SearchFeatures,
    /// Stop once a mate in at most this many plies is found (`go mate N`).
    pub mate_plies: Option<i32>,
    pub show_wdl: bool,
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
    /// Multi-PV lines to report (strength limiting may search more than it shows).
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
        }
    }

    pub fn line(&self) -> &[M] {
        &self.pv[..self.pv_len]
    }
}

#[derive(Clone, Copy)]
struct PlyState<M> {
    static_eval: i32,
    /// (piece, to) of the move made from this ply; `None` for a null move.
    piece_to: Option<PieceTo>,
    /// Move excluded by a singular-extension search at this ply.
    excluded: M,
}

/// A search thread's private state.
pub struct Worker<G: Game, E: Evaluator<G>> {
    pub id: usize,
    pub evaluator: E,
    history: HistoryTables<G>,
    stack: Vec<PlyState<G::Move>>,
    pv: Vec<G::Move>,
    pv_len: Vec<usize>,
    scores: Vec<i32>,
    move_capacity: usize,
    game_history: Vec<HistoryEntry>,
    pub root_moves: Vec<RootMove<G::Move>>,
    nodes: u64,
    seldepth: usize,
    root_depth: i32,
    pv_index: usize,
    nmp_min_ply: usize,
    stopped: bool,
    lmr: Vec<[i32; 64]>,
    /// Depth of the last completed iteration (0: none yet).
    pub completed_depth: i32,
    /// The multi-PV lines of the last completed iteration, best first.
    pub completed_lines: Vec<RootMove<G::Move>>,
}

impl<G: Game, E: Evaluator<G>> Worker<G, E> {
    pub fn new(id: usize, evaluator: E) -> Self {
        let move_capacity = <G::Moves as MoveList<G::Move>>::CAPACITY;
        let lmr = (0..64)
            .map(|depth| {
                let mut row = [0; 64];
                for (count, r) in row.iter_mut().enumerate().skip(1) {
                    if depth > 0 {
                        let value = 0.75 + (depth as f64).ln() * (count as f64).ln() / 2.25;
                        *r = value as i32;
                    }
                }
                row
            })
            .collect();
        Self {
            id,
            evaluator,
            history: HistoryTables::new(MAX_PLY),
            stack: vec![
                PlyState {
                    static_eval: NO_EVAL,
                    piece_to: None,
                    excluded: G::Move::NONE,
                };
                MAX_PLY + 2
            ],
            pv: vec![G::Move::NONE; MAX_PLY * MAX_PLY],
            pv_len: vec![0; MAX_PLY + 1],
            scores: vec![0; (MAX_PLY + 1) * move_capacity],
            move_capacity,
            game_history: Vec::with_capacity(1024 + MAX_PLY),
            root_moves: Vec::with_capacity(move_capacity),
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            pv_index: 0,
            nmp_min_ply: 0,
            stopped: false,
            lmr,
            completed_depth: 0,
            completed_lines: Vec::with_capacity(move_capacity),
        }
    }

    /// Forgets all learned move-ordering statistics.
    pub fn clear(&mut self) {
        self.history.clear();
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
            let mut scale = (700.0 + 500.0 * best_changes).min(2000.0) as u64;
            if self.root_moves.len() == 1 {
                scale = 100;
            }
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
        let mut delta = 18;
        let (mut alpha, mut beta) =
            if shared.features.aspiration_windows && depth >= 4 && !is_mate_value(previous) {
                (
                    (previous - delta).max(-INFINITE),
                    (previous + delta).min(INFINITE),
                )
            } else {
                (-INFINITE, INFINITE)
            };
        loop {
            let value = self.negamax(root, shared, &mut main, alpha, beta, depth, 0, false);
            self.root_moves[self.pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return;
            }
            let bound = if value <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITE);
                ScoreBound::Upper
            } else if value >= beta {
                beta = (value + delta).min(INFINITE);
                ScoreBound::Lower
            } else {
                return;
            };
            if let Some(main) = main.as_deref_mut() {
                if main.time.elapsed_ms() > 1000 && self.pv_index < main.reported_lines {
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
        let rm = &self.root_moves[k];
        let nodes = shared.total_nodes().max(self.nodes);
        let time_ms = time.elapsed_ms();
        let score = to_score(rm.score);
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
            pv: legal_prefix(root, rm.line()),
        }
    }

    fn publish_nodes(&self, shared: &SharedSearch) {
        shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Whether the search must unwind now. Depth 1 always completes so a move is ready.
    fn should_stop(
        &mut self,
        shared: &SharedSearch,
        main: &mut Option<&mut MainThreadContext<'_, '_, G::Move>>,
    ) -> bool {
        if self.stopped {
            return true;
        }
        if self.root_depth <= 1 {
            return false;
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
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.publish_nodes(shared);
            if let Some(main) = main.as_deref_mut() {
                if shared.control.stop.load(Ordering::Relaxed) {
                    shared.abort.store(true, Ordering::Relaxed);
                }
                main.time
                    .update_ponder(shared.control.pondering.load(Ordering::Relaxed));
                if main.time.hard_expired() {
                    shared.abort.store(true, Ordering::Relaxed);
                }
            }
        }
        if shared.abort.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    fn evaluate(&mut self, pos: &G) -> i32 {
        self.evaluator
            .evaluate(pos)
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    fn previous_piece_to(&self, ply: usize) -> [Option<PieceTo>; 2] {
        [
            ply.checked_sub(1).and_then(|p| self.stack[p].piece_to),
            ply.checked_sub(2).and_then(|p| self.stack[p].piece_to),
        ]
    }

    /// Copies the child's line behind `m` into this ply's line.
    fn update_pv(&mut self, ply: usize, m: G::Move) {
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

    fn enter_child(&mut self, pos: &G, child: &G) {
        self.game_history.push(HistoryEntry {
            hash: pos.hash(),
            in_check: pos.in_check(),
        });
        self.evaluator.push(child);
    }

    fn leave_child(&mut self) {
        self.evaluator.pop();
        self.game_history.pop();
    }

    /// Principal variation search of `pos` at `ply` to `depth`, within (`alpha`, `beta`).
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &G,
        shared: &SharedSearch,
        main: &mut Option<&mut MainThreadContext<'_, '_, G::Move>>,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        if depth <= 0 {
            return self.quiescence(pos, shared, main, alpha, beta, ply);
        }
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.should_stop(shared, main) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        let excluded = self.stack[ply].excluded;
        let features = shared.features;

        if !root {
            if let Some(outcome) = pos.rule_outcome(&self.game_history, true) {
                return outcome_value(outcome, ply);
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { self.evaluate(pos) };
            }
            alpha = alpha.max(mated_at(ply));
            beta = beta.min(winning_at(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        let hash = pos.hash();
        let tt_entry = if excluded.is_some() {
            None
        } else {
            shared.tt.probe(hash)
        };
        let tt_value = tt_entry.map(|e| from_tt(e.score, ply));
        let mut tt_move = G::Move::NONE;
        if root {
            tt_move = self.root_moves[self.pv_index].mv;
        } else if let Some(e) = tt_entry {
            let m = G::Move::from_bits(e.move_bits);
            if m.is_some() && pos.is_legal_move(m) {
                tt_move = m;
            }
        }
        if let (Some(e), Some(v)) = (tt_entry, tt_value) {
            if !pv_node && e.depth >= depth && bound_allows_cutoff(e.bound, v, alpha, beta) {
                return v;
            }
        }

        if !root && !excluded.is_some() {
            if let Some(m) = pos.mate_in_one() {
                if pos.is_legal_move(m) {
                    self.pv[ply * MAX_PLY] = m;
                    self.pv_len[ply] = 1;
                    return winning_at(ply + 1);
                }
            }
        }

        // Static evaluation, sharpened by the table's bound when it applies.
        let static_eval = if in_check {
            NO_EVAL
        } else if let Some(e) = tt_entry {
            e.static_eval
        } else {
            self.evaluate(pos)
        };
        let mut eval = static_eval;
        if let (Some(e), Some(v)) = (tt_entry, tt_value) {
            if !in_check && !is_mate_value(v) {
                let sharper = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v > eval,
                    Bound::Upper => v < eval,
                };
                if sharper {
                    eval = v;
                }
            }
        }
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != NO_EVAL
            && static_eval > self.stack[ply - 2].static_eval;
        if ply + 2 < MAX_PLY {
            self.history.clear_killers_at(ply + 2);
        }

        if !pv_node && !in_check && !excluded.is_some() {
            // Reverse futility: far above beta, a shallow search will not fall below it.
            if features.forward_pruning
                && depth <= 8
                && eval - 80 * (depth - improving as i32) >= beta
                && eval < MATE_BOUND
                && beta > -MATE_BOUND
            {
                return eval;
            }
            // Null move: if passing still beats beta, the position is good enough.
            if features.null_move
                && depth >= 3
                && eval >= beta
                && static_eval >= beta
                && ply >= self.nmp_min_ply
                && ply > 0
                && self.stack[ply - 1].piece_to.is_some()
                && beta > -MATE_BOUND
                && pos.null_move_allowed()
            {
                let reduction = 3 + depth / 3 + ((eval - beta) / 200).min(3);
                let mut child = pos.clone();
                child.make_null_move();
                self.stack[ply].piece_to = None;
                self.enter_child(pos, &child);
                let value = -self.negamax(
                    &child,
                    shared,
                    main,
                    -beta,
                    -beta + 1,
                    depth - reduction,
                    ply + 1,
                    !cut_node,
                );
                self.leave_child();
                if self.stopped {
                    return 0;
                }
                if value >= beta {
                    let value = if value >= MATE_BOUND { beta } else { value };
                    if self.nmp_min_ply > 0 || depth < 12 {
                        return value;
                    }
                    // Verification at high depth (zugzwang guard): search without null moves
                    // for the next plies.
                    self.nmp_min_ply = ply + 3 * (depth - reduction) as usize / 4;
                    let verified = self.negamax(
                        pos,
                        shared,
                        main,
                        beta - 1,
                        beta,
                        depth - reduction,
                        ply,
                        false,
                    );
                    self.nmp_min_ply = 0;
                    if verified >= beta {
                        return value;
                    }
                }
            }
        }

        // Internal iterative reduction: no table move means this node was never searched well.
        if depth >= 4 && !tt_move.is_some() && (pv_node || cut_node) && !excluded.is_some() {
            depth -= 1;
        }

        let mut moves = G::Moves::default();
        let base = ply * self.move_capacity;
        if root {
            for (i, rm) in self.root_moves[self.pv_index..].iter().enumerate() {
                moves.push(rm.mv);
                self.scores[base + i] = -(i as i32);
            }
        } else {
            pos.generate_legal(&mut moves);
        }
        if moves.is_empty() {
            return outcome_value(pos.no_moves_outcome(), ply);
        }
        let previous = self.previous_piece_to(ply);
        if !root {
            let context = OrderingContext {
                tt_move,
                killers: self.history.killers(ply),
                counter: self.history.counter(previous[0]),
                previous,
            };
            let len = moves.len();
            score_moves(
                pos,
                moves.as_slice(),
                &mut self.scores[base..base + len],
                &context,
                &self.history,
            );
        }

        let side = pos.side_to_move();
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = G::Move::NONE;
        let mut moves_searched = 0usize;
        let mut quiets_tried = [G::Move::NONE; MAX_QUIETS_TRIED];
        let mut quiet_count = 0;
        let mut skip_quiets = false;
        let killers = self.history.killers(ply);

        for i in 0..moves.len() {
            let len = moves.len();
            let (m, order_score) =
                pick_best(moves.as_mut_slice(), &mut self.scores[base..base + len], i);
            if m == excluded {
                continue;
            }
            let quiet = pos.is_quiet(m);
            if quiet && skip_quiets {
                continue;
            }
            let gives_check = pos.gives_check(m);
            let piece_to = self.history.piece_to(pos, m);
            let history_score = if quiet {
                self.history.quiet_score(side, m, piece_to, previous)
            } else {
                0
            };
            let reduction = self.lmr[depth.min(63) as usize][moves_searched.min(63)];

            if !root && features.forward_pruning && best > -MATE_BOUND {
                let lmr_depth = (depth - 1 - reduction).max(0);
                if quiet && !gives_check && !in_check {
                    let late_limit = (3 + depth * depth) as usize / (2 - improving as usize);
                    if moves_searched >= late_limit {
                        skip_quiets = true;
                        continue;
                    }
                    if lmr_depth <= 8 && static_eval + 100 + 90 * lmr_depth <= alpha {
                        skip_quiets = true;
                        continue;
                    }
                    if lmr_depth <= 8 && !pos.see_ge(m, -25 * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if !quiet && depth <= 8 && !pos.see_ge(m, -90 * depth) {
                    continue;
                }
            }

            let mut extension = 0;
            if !root && ply < 2 * self.root_depth as usize {
                let singular_candidate = features.singular_extensions
                    && m == tt_move
                    && !excluded.is_some()
                    && depth >= 8
                    && tt_entry.is_some_and(|e| {
                        e.depth >= depth - 3 && e.bound != Bound::Upper && !is_mate_value(e.score)
                    });
                if singular_candidate {
                    let tt_v = tt_value.unwrap_or(0);
                    let singular_beta = tt_v - 2 * depth;
                    self.stack[ply].excluded = m;
                    let value = self.negamax(
                        pos,
                        shared,
                        main,
                        singular_beta - 1,
                        singular_beta,
                        (depth - 1) / 2,
                        ply,
                        cut_node,
                    );
                    self.stack[ply].excluded = G::Move::NONE;
                    if self.stopped {
                        return 0;
                    }
                    // The nested search reused this ply's buffers: re-score the moves left.
                    let context = OrderingContext {
                        tt_move,
                        killers: self.history.killers(ply),
                        counter: self.history.counter(previous[0]),
                        previous,
                    };
                    score_moves(
                        pos,
                        moves.as_slice(),
                        &mut self.scores[base..base + len],
                        &context,
                        &self.history,
                    );
                    if value < singular_beta {
                        extension = 1;
                    } else if !pv_node && singular_beta >= beta {
                        // Multi-cut: several moves beat beta.
                        return singular_beta;
                    } else if tt_v >= beta {
                        extension = -1;
                    }
                } else if gives_check {
                    extension = 1;
                }
            }

            let mut child = pos.clone();
            child.make_move(m);
            self.stack[ply].piece_to = Some(piece_to);
            self.enter_child(pos, &child);
            if root && main.is_some() && self.id == 0 {
                if let Some(main) = main.as_deref_mut() {
                    if main.time.elapsed_ms() > 1000 {
                        (main.report)(SearchEvent::CurrentMove {
                            depth: depth as u32,
                            mv: m,
                            number: self.pv_index + i + 1,
                        });
                    }
                }
            }
            let new_depth = depth - 1 + extension;
            let mut value = 0;
            let full_null_window;
            if features.late_move_reductions
                && depth >= 3
                && moves_searched > root as usize
                && (quiet || is_losing_noisy(order_score))
            {
                let mut r = reduction;
                if pv_node {
                    r -= 1;
                }
                if cut_node {
                    r += 1;
                }
                if !improving {
                    r += 1;
                }
                if gives_check {
                    r -= 1;
                }
                if m == killers[0] || m == killers[1] {
                    r -= 1;
                }
                r -= history_score / 8192;
                let reduced = (new_depth - r).clamp(1, new_depth.max(1));
                value = -self.negamax(
                    &child,
                    shared,
                    main,
                    -alpha - 1,
                    -alpha,
                    reduced,
                    ply + 1,
                    true,
                );
                full_null_window = value > alpha && reduced < new_depth;
            } else {
                full_null_window = !pv_node || moves_searched > 0;
            }
            if full_null_window {
                value = -self.negamax(
                    &child,
                    shared,
                    main,
                    -alpha - 1,
                    -alpha,
                    new_depth,
                    ply + 1,
                    !cut_node,
                );
            }
            if pv_node && (moves_searched == 0 || value > alpha) {
                value = -self.negamax(
                    &child,
                    shared,
                    main,
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    false,
                );
            }
            self.leave_child();
            moves_searched += 1;
            if self.stopped {
                return 0;
            }

            if root {
                let seldepth = self.seldepth;
                let child_len = self.pv_len[1];
                let index = self.pv_index + i;
                let rm = &mut self.root_moves[index];
                debug_assert!(rm.mv == m);
                if moves_searched == 1 || value > alpha {
                    rm.score = value;
                    rm.seldepth = seldepth;
                    rm.bound = if value >= beta {
                        ScoreBound::Lower
                    } else if value <= alpha {
                        ScoreBound::Upper
                    } else {
                        ScoreBound::Exact
                    };
                    rm.pv[0] = m;
                    let len = child_len.min(MAX_PLY - 1);
                    rm.pv[1..1 + len].copy_from_slice(&self.pv[MAX_PLY..MAX_PLY + len]);
                    rm.pv_len = 1 + len;
                } else {
                    rm.score = -INFINITE;
                }
            }

            if value > best {
                best = value;
                if value > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if value >= beta {
                        if quiet {
                            self.reward_quiet(
                                pos,
                                ply,
                                depth,
                                m,
                                previous,
                                &quiets_tried[..quiet_count],
                            );
                        }
                        break;
                    }
                    alpha = value;
                }
            }
            if quiet && quiet_count < MAX_QUIETS_TRIED {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            }
        }

        if moves_searched == 0 {
            // Only the excluded move exists: it is singular.
            return alpha;
        }
        if !(excluded.is_some() || root && self.pv_index > 0) {
            let bound = if best >= beta {
                Bound::Lower
            } else if pv_node && best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            shared.tt.store(
                hash,
                best_move.to_bits(),
                to_tt(best, ply),
                static_eval,
                depth,
                bound,
            );
        }
        best
    }

    /// Cutoff bookkeeping for a quiet move: killer, counter-move and history bonus; maluses for
    /// the quiets tried before it.
    fn reward_quiet(
        &mut self,
        pos: &G,
        ply: usize,
        depth: i32,
        m: G::Move,
        previous: [Option<PieceTo>; 2],
        tried: &[G::Move],
    ) {
        let side = pos.side_to_move();
        let bonus = history_bonus(depth);
        let piece_to = self.history.piece_to(pos, m);
        self.history
            .update_quiet(side, m, piece_to, previous, bonus);
        for &q in tried {
            let q_piece_to = self.history.piece_to(pos, q);
            self.history
                .update_quiet(side, q, q_piece_to, previous, -bonus);
        }
        self.history.add_killer(ply, m);
        self.history.set_counter(previous[0], m);
    }

    /// Quiescence: captures and promotions (all evasions when in check) until the position is
    /// quiet, with stand-pat, delta and SEE pruning.
    fn quiescence(
        &mut self,
        pos: &G,
        shared: &SharedSearch,
        main: &mut Option<&mut MainThreadContext<'_, '_, G::Move>>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.should_stop(shared, main) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        if let Some(outcome) = pos.rule_outcome(&self.game_history, true) {
            return outcome_value(outcome, ply);
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos) };
        }

        let hash = pos.hash();
        let tt_entry = shared.tt.probe(hash);
        let tt_value = tt_entry.map(|e| from_tt(e.score, ply));
        if let (Some(e), Some(v)) = (tt_entry, tt_value) {
            if !pv_node && bound_allows_cutoff(e.bound, v, alpha, beta) {
                return v;
            }
        }
        let mut tt_move = G::Move::NONE;
        if let Some(e) = tt_entry {
            let m = G::Move::from_bits(e.move_bits);
            if m.is_some() && pos.is_legal_move(m) {
                tt_move = m;
            }
        }

        let static_eval;
        let mut best;
        if in_check {
            static_eval = NO_EVAL;
            best = -INFINITE;
        } else {
            static_eval = match tt_entry {
                Some(e) => e.static_eval,
                None => self.evaluate(pos),
            };
            best = static_eval;
            if let (Some(e), Some(v)) = (tt_entry, tt_value) {
                let sharper = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v > best,
                    Bound::Upper => v < best,
                };
                if sharper && !is_mate_value(v) {
                    best = v;
                }
            }
            if best >= beta {
                if tt_entry.is_none() {
                    shared
                        .tt
                        .store(hash, 0, to_tt(best, ply), static_eval, -1, Bound::Lower);
                }
                return best;
            }
            alpha = alpha.max(best);
        }

        let mut moves = G::Moves::default();
        if in_check {
            pos.generate_legal(&mut moves);
            if moves.is_empty() {
                return outcome_value(pos.no_moves_outcome(), ply);
            }
        } else {
            pos.generate_noisy(&mut moves);
        }
        let base = ply * self.move_capacity;
        let len = moves.len();
        score_noisy_first(
            pos,
            moves.as_slice(),
            &mut self.scores[base..base + len],
            tt_move,
            &self.history,
        );

        let original_alpha = alpha;
        let mut best_move = G::Move::NONE;
        for i in 0..len {
            let (m, _) = pick_best(moves.as_mut_slice(), &mut self.scores[base..base + len], i);
            if !in_check {
                if static_eval + pos.noisy_gain(m) + 200 <= alpha && !pos.gives_check(m) {
                    continue;
                }
                if !pos.see_ge(m, 0) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.make_move(m);
            self.stack[ply].piece_to = Some(self.history.piece_to(pos, m));
            self.enter_child(pos, &child);
            let value = -self.quiescence(&child, shared, main, -beta, -alpha, ply + 1);
            self.leave_child();
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                }
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        shared.tt.store(
            hash,
            best_move.to_bits(),
            to_tt(best, ply),
            static_eval,
            0,
            bound,
        );
        best
    }
}

/// Plies of a positive mate value.
fn to_score_plies(v: i32) -> i32 {
    match to_score(v) {
        super::report::Score::MatePlies(p) => p,
        super::report::Score::Cp(_) => i32::MAX,
    }
}

fn bound_allows_cutoff(bound: Bound, value: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => value >= beta,
        Bound::Upper => value <= alpha,
    }
}

/// The longest prefix of `line` that is legal from `root` and does not run past a finished game.
pub fn legal_prefix<G: Game>(root: &G, line: &[G::Move]) -> Vec<G::Move> {
    let mut pos = root.clone();
    let mut history: Vec<HistoryEntry> = Vec::new();
    let mut out = Vec::with_capacity(line.len());
    let mut moves = G::Moves::default();
    for &m in line {
        if !m.is_some() || !pos.is_legal_move(m) {
            break;
        }
        if !out.is_empty() {
            pos.generate_legal(&mut moves);
            if moves.is_empty() || pos.rule_outcome(&history, false).is_some() {
                break;
            }
        }
        history.push(HistoryEntry {
            hash: pos.hash(),
            in_check: pos.in_check(),
        });
        pos.make_move(m);
        out.push(m);
    }
    out
}
