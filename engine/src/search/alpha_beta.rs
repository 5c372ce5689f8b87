//! The main alpha-beta search of a worker: principal variation search with the transposition
//! table, mate-distance pruning, reverse futility, null move (verified at high depth), internal
//! iterative reduction, futility / late-move / SEE pruning, singular and check extensions, and
//! late-move reductions driven by history. Game rules are asked at every node.

use super::history::{ContinuationKeys, HistoryTables, LOW_PLIES};
use super::ordering::{
    is_losing_noisy, is_winning_noisy, next_best, score_moves, OrderingContext, PickerState,
    PRUNED_QUIET, TT_MOVE,
};
use super::params::REDUCTION_GRAIN;
use super::report::{ScoreBound, SearchEvent};
use super::tt::Bound;
use super::value::{
    from_tt, is_mate_value, mated_at, outcome_value, to_tt, winning_at, INFINITE, MATE_BOUND,
    MAX_PLY,
};
use super::worker::{MainThreadContext, SharedSearch, Worker, NO_EVAL};
use crate::eval::Evaluator;
use crate::game::{Game, GameMove};
use crate::movelist::MoveList;

/// Quiet moves remembered per node for history maluses.
const MAX_QUIETS_TRIED: usize = 64;
/// History pruning drops quiet moves whose history is below −margin × depth.
const HISTORY_PRUNING_MARGIN: i32 = 4096;
/// Noisy moves remembered per node for capture-history maluses.
const MAX_NOISY_TRIED: usize = 32;
/// A singular move whose alternatives fall this far below the singular bound is extended twice.
const DOUBLE_EXTENSION_MARGIN: i32 = 20;
/// A reduced search this far (plus two per ply) above the best value so far asks for a
/// re-search one ply deeper (`lmr_deeper_shallower`).
const LMR_DEEPER_MARGIN: i32 = 40;
/// `eval_diff_history`: history bonus per centipawn of evaluation change, and its bound.
const EVAL_DIFF_HISTORY_SCALE: i32 = 10;
const EVAL_DIFF_HISTORY_MAX: i32 = 1600;
/// `hindsight_depth`: both sides' static evaluations summing above this (the position
/// looked better to each side on its turn) makes a reduced node a ply shallower.
const HINDSIGHT_QUIET_MARGIN: i32 = 85;
/// Most double extensions on one line from the root.
const MAX_DOUBLE_EXTENSIONS: u8 = 8;

impl<G: Game, E: Evaluator<G>> Worker<G, E> {
    /// Principal variation search of `pos` at `ply` to `depth`, within (`alpha`, `beta`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
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
        let params = &shared.params;
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
        let features = &shared.features;

        if !root {
            if let Some(outcome) = pos.rule_outcome(&self.game_history, true) {
                return outcome_value(outcome, ply);
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { self.evaluate(pos) };
            }
            // A move back into a position of the line draws: the draw is a lower bound.
            if features.upcoming_repetition
                && alpha < 0
                && pos.upcoming_repetition(&self.game_history, ply)
            {
                alpha = 0;
                if alpha >= beta {
                    return alpha;
                }
            }
            alpha = alpha.max(mated_at(ply));
            beta = beta.min(winning_at(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // The correction history's keys, once per node: for the static evaluation's correction
        // and the history's update when the node ends. Their entries start loading now, beside
        // the table probe's.
        let correction_keys = self.prefetched_correction_keys(pos, ply, in_check, features);
        let hash = pos.hash();
        let tt_entry = if excluded.is_some() {
            None
        } else {
            shared.tt.probe(hash)
        };
        let tt_value = tt_entry.map(|e| from_tt(e.score, ply));
        // On a principal variation now or once (kept in the table with `tt_pv`).
        let tt_pv = features.tt_pv && (pv_node || tt_entry.is_some_and(|e| e.pv));
        let mut tt_move = G::Move::NONE;
        if root {
            tt_move = self.root_moves[self.pv_index].mv;
        } else if let Some(e) = tt_entry {
            let m = G::Move::from_bits(e.move_bits);
            if m.is_some() && pos.is_legal_move(m) {
                tt_move = m;
            }
        }
        // The butterfly-history table of each quiet move (`threat_history`): its threat bucket
        // by the opponent's threats, computed once, when first needed (here or by the ordering).
        let threat_history = features.threat_history && G::THREAT_BUCKETS > 1;
        let node_threats = std::cell::OnceCell::new();
        let threat_bucket = |m: G::Move| {
            if threat_history {
                pos.threat_bucket(node_threats.get_or_init(|| pos.threats()), m)
            } else {
                0
            }
        };
        if let (Some(e), Some(v)) = (tt_entry, tt_value) {
            if !pv_node && e.depth >= depth && bound_allows_cutoff(e.bound, v, alpha, beta) {
                if features.tt_cutoff_history
                    && v >= beta
                    && tt_move.is_some()
                    && pos.is_quiet(tt_move)
                {
                    let previous = self.previous_piece_to(ply, features.continuation_ply4);
                    let structure = features
                        .pawn_history
                        .then(|| HistoryTables::<G>::structure_bucket(pos.correction_key()));
                    self.reward_quiet(
                        pos,
                        ply,
                        params.history_bonus(depth),
                        tt_move,
                        (previous, structure),
                        &[],
                        &threat_bucket,
                        features.low_ply_history,
                    );
                }
                return v;
            }
        }

        // Endgame tables decide the node where they can (`tablebase.rs`).
        if !root && !excluded.is_some() {
            let tt_eval = tt_entry.map(|e| e.static_eval);
            if let Some(v) =
                self.probe_tablebase(pos, shared, alpha, beta, depth, ply, tt_eval, in_check)
            {
                return v;
            }
        }

        // The position's check info, computed by the first user (the mate probe, or the move
        // loop: a cutoff before it often makes it unnecessary).
        let mut check_info: Option<G::CheckInfo> = None;
        // In check nothing prunes before the move loop: its evasions are generated here, once,
        // for the mate probe and the loop.
        let mut moves = G::Moves::default();
        let generated_early = !root && in_check;
        if generated_early {
            pos.generate_legal(&mut moves);
        }
        // A table entry of a searched depth means this position was probed before and had no
        // mate in one (a node that finds one returns before storing), so only a position new to
        // the table, or one only quiescence stored, is probed.
        let probed_before = tt_entry.is_some_and(|e| e.depth >= 1);
        if !root && !excluded.is_some() && !probed_before {
            let mate = if generated_early {
                pos.mate_in_one_among(moves.as_slice(), &mut check_info)
            } else {
                pos.mate_in_one_with(&mut check_info)
            };
            if let Some(m) = mate {
                if pos.is_legal_move(m) {
                    self.pv[ply * MAX_PLY] = m;
                    self.pv_len[ply] = 1;
                    return winning_at(ply + 1);
                }
            }
        }

        // Static evaluation (the table keeps it raw; the search corrects it by the correction
        // history), sharpened by the table's bound when it applies.
        let raw_eval = if in_check {
            NO_EVAL
        } else if let Some(e) = tt_entry {
            e.static_eval
        } else {
            self.evaluate(pos)
        };
        // The scaled evaluation is what the correction history corrects.
        let scaled_eval = if in_check {
            NO_EVAL
        } else {
            self.scaled_eval(pos, raw_eval, features, params)
        };
        let static_eval = if in_check {
            NO_EVAL
        } else {
            self.corrected_eval(pos, scaled_eval, correction_keys.as_ref(), features)
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
        // The opponent's quiet move learns how it changed the evaluation (both from the
        // mover's view: its eval before, minus ours now, negated).
        if features.eval_diff_history
            && !in_check
            && !excluded.is_some()
            && ply >= 1
            && self.stack[ply - 1].quiet_move
            && self.stack[ply - 1].static_eval != NO_EVAL
        {
            let change = -(self.stack[ply - 1].static_eval + static_eval);
            let bonus = (EVAL_DIFF_HISTORY_SCALE * change)
                .clamp(-EVAL_DIFF_HISTORY_MAX, EVAL_DIFF_HISTORY_MAX);
            let prior = self.stack[ply - 1].played;
            self.history
                .update_butterfly(pos.side_to_move().flip(), 0, prior, bonus);
        }
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != NO_EVAL
            && static_eval > self.stack[ply - 2].static_eval;
        // The opponent's move worsened its own side's evaluation: ours now is above ours
        // before it (the parent's, negated).
        let opponent_worsening = !in_check
            && ply >= 1
            && self.stack[ply - 1].static_eval != NO_EVAL
            && static_eval > -self.stack[ply - 1].static_eval;
        // Hindsight: how the evaluations turned out says whether the parent's reduction of
        // this node was too much or too little.
        // (Read once: a singular or verification search of this node is no reduced one.)
        let prior_reduction = std::mem::take(&mut self.stack[ply].reduction);
        if features.hindsight_depth
            && prior_reduction >= 2
            && !in_check
            && ply >= 1
            && self.stack[ply - 1].static_eval != NO_EVAL
        {
            let parent_eval = self.stack[ply - 1].static_eval;
            if prior_reduction >= 3 && !opponent_worsening {
                depth += 1;
            } else if depth >= 2 && static_eval + parent_eval > HINDSIGHT_QUIET_MARGIN {
                depth -= 1;
            }
        }
        if ply + 2 < MAX_PLY {
            self.history.clear_killers_at(ply + 2);
        }
        if features.cutoff_count_lmr {
            self.stack[ply + 2].cutoff_count = 0;
        }

        if !pv_node && !in_check && !excluded.is_some() {
            // Razoring: far below alpha at low depth, only captures could save the node.
            if features.razoring
                && depth <= 3
                && eval + params.razor_margin * depth < alpha
                && alpha > -MATE_BOUND
            {
                let value = self.quiescence(pos, shared, main, alpha, alpha + 1, ply);
                if self.stopped {
                    return 0;
                }
                if value <= alpha {
                    return value;
                }
            }
            // Reverse futility: far above beta, a shallow search will not fall below it.
            let rfp_unit = if features.rfp_cut_node && cut_node && tt_entry.is_none() {
                params.rfp_margin * params.rfp_cut_node_percent / 100
            } else {
                params.rfp_margin
            };
            let worsening_deduction = if features.rfp_opponent_worsening && opponent_worsening {
                rfp_unit / 3
            } else {
                0
            };
            if features.forward_pruning
                && depth <= params.rfp_depth
                && eval - rfp_unit * (depth - improving as i32) + worsening_deduction >= beta
                && eval < MATE_BOUND
                && beta > -MATE_BOUND
            {
                return if features.fail_firm_rfp {
                    (eval + beta) / 2
                } else {
                    eval
                };
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
                let reduction = params.nmp_base
                    + depth / params.nmp_depth_divisor
                    + ((eval - beta) / params.nmp_eval_divisor).min(params.nmp_eval_cap);
                let mut child = pos.clone();
                child.make_null_move();
                shared.tt.prefetch(child.hash());
                self.stack[ply].piece_to = None;
                self.stack[ply].quiet_move = false;
                self.stack[ply].played = G::Move::NONE;
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

        if features.probcut
            && !pv_node
            && !in_check
            && !excluded.is_some()
            && depth >= 5
            && beta.abs() < MATE_BOUND
        {
            let probcut_beta = beta + params.probcut_margin;
            // A table entry deep enough that says the node stays below the probcut bound.
            let table_says_no = tt_entry.zip(tt_value).is_some_and(|(e, v)| {
                e.depth >= depth - 3 && v < probcut_beta && e.bound != Bound::Lower
            });
            if !table_says_no {
                if let Some(value) = self.probcut(
                    pos,
                    shared,
                    main,
                    probcut_beta,
                    [static_eval, raw_eval],
                    depth,
                    ply,
                    cut_node,
                    tt_pv,
                ) {
                    return value;
                }
                if self.stopped {
                    return 0;
                }
            }
        }

        // A table entry not much shallower already proves the node far above beta.
        if features.small_probcut && !root && beta.abs() < MATE_BOUND {
            if let (Some(e), Some(v)) = (tt_entry, tt_value) {
                let probcut_beta = beta + params.small_probcut_margin;
                if e.bound != Bound::Upper
                    && e.depth >= depth - 4
                    && v >= probcut_beta
                    && !is_mate_value(v)
                {
                    return probcut_beta;
                }
            }
        }

        // Internal iterative reduction: no table move means this node was never searched well.
        if depth >= 4 && !tt_move.is_some() && (pv_node || cut_node) && !excluded.is_some() {
            depth -= 1;
        }

        let base = ply * self.move_capacity;
        // A legal table move is searched before the other moves are generated: when it cuts
        // off, they never are. The list is then left as the picker would have left it after
        // handing out the table move first, so the search is the same either way. (Needs lazy
        // quiet scoring: eager history scores would be read before the table move's search.)
        let tt_move_first = !root
            && !generated_early
            && tt_move.is_some()
            && !excluded.is_some()
            && features.table_move_first
            && features.lazy_quiet_scoring;
        if root {
            for (i, rm) in self.root_moves[self.pv_index..].iter().enumerate() {
                moves.push(rm.mv);
                self.scores[base + i] = -(i as i32);
            }
        } else if !generated_early && !tt_move_first {
            pos.generate_legal(&mut moves);
        }
        if moves.is_empty() && !tt_move_first {
            return outcome_value(pos.no_moves_outcome(), ply);
        }
        let previous = self.previous_piece_to(ply, features.continuation_ply4);
        let structure = features
            .pawn_history
            .then(|| HistoryTables::<G>::structure_bucket(pos.correction_key()));
        let low_ply = (features.low_ply_history && ply < LOW_PLIES).then_some(ply);
        let mut context = OrderingContext {
            tt_move,
            killers: self.history.killers(ply),
            counter: self.history.counter(previous[0]),
            previous,
            threat_ordering: features.threat_ordering,
            threat_history,
            threats: &node_threats,
            check_ordering: features.check_ordering,
            structure,
            low_ply,
        };
        let mut quiets_pending = false;
        if !root && !tt_move_first {
            let len = moves.len();
            quiets_pending = score_moves(
                pos,
                moves.as_slice(),
                &mut self.scores[base..base + len],
                &context,
                &self.history,
                features.lazy_quiet_scoring,
            );
        }

        let side = pos.side_to_move();
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = G::Move::NONE;
        let mut moves_searched = 0usize;
        let mut quiets_tried = [G::Move::NONE; MAX_QUIETS_TRIED];
        let mut quiet_count = 0;
        let mut noisy_tried = [G::Move::NONE; MAX_NOISY_TRIED];
        let mut noisy_count = 0;
        let mut skip_quiets = false;
        let killers = self.history.killers(ply);
        let tt_capture = features.tt_capture_lmr && tt_move.is_some() && !pos.is_quiet(tt_move);

        let mut next = 0;
        let mut list_ready = !tt_move_first;
        loop {
            if next == 1 && !list_ready {
                // The table move did not cut off: generate and score the rest.
                list_ready = true;
                pos.generate_legal(&mut moves);
                let len = moves.len();
                let scores = &mut self.scores[base..base + len];
                quiets_pending =
                    score_moves(pos, moves.as_slice(), scores, &context, &self.history, true);
                match moves.as_slice().iter().position(|&m| m == tt_move) {
                    Some(k) => {
                        moves.as_mut_slice().swap(0, k);
                        scores.swap(0, k);
                    }
                    None => {
                        debug_assert!(false, "a legal table move is generated");
                        next = 0;
                    }
                }
            }
            let i = next;
            let table_move_now = !list_ready;
            let len = moves.len();
            if !table_move_now && i >= len {
                break;
            }
            next = i + 1;
            // Late-move and futility pruning of quiet moves (below) depend on the node, not on
            // the move, and only grow stricter as moves are searched: once they hold, every
            // quiet move but an exempt check is pruned, so the picker need not score them.
            if !skip_quiets
                && !table_move_now
                && !root
                && features.forward_pruning
                && best > -MATE_BOUND
                && !in_check
            {
                let reduction =
                    self.lmr[depth.min(63) as usize][moves_searched.min(63)] / REDUCTION_GRAIN;
                let lmr_depth = (depth - 1 - reduction).max(0);
                let late_limit =
                    (params.lmp_base + depth * depth) as usize / (2 - improving as usize);
                skip_quiets = moves_searched >= late_limit
                    || (!features.history_pruning_depth
                        && lmr_depth <= 8
                        && static_eval
                            + params.futility_base
                            + params.futility_per_depth * lmr_depth
                            <= alpha);
            }
            let (m, order_score) = if table_move_now {
                (tt_move, TT_MOVE)
            } else {
                let mut picker = PickerState {
                    moves: moves.as_mut_slice(),
                    scores: &mut self.scores[base..base + len],
                    keys: &mut self.sort_keys,
                    quiets_pending,
                    prune_quiets: skip_quiets,
                    keep_checks: !features.check_pruning,
                };
                let picked = next_best(pos, &mut picker, i, &context, &self.history);
                quiets_pending = picker.quiets_pending;
                picked
            };
            if order_score == PRUNED_QUIET {
                // Every move left is a pruned quiet.
                break;
            }
            if m == excluded {
                continue;
            }
            let quiet = pos.is_quiet(m);
            let gives_check =
                pos.gives_check_with(check_info.get_or_insert_with(|| pos.check_info()), m);
            // Checks are exempt unless `check_pruning`: a quiet check may be the best move.
            let exempt_check = gives_check && !features.check_pruning;
            if quiet && skip_quiets && !exempt_check {
                continue;
            }
            let piece_to = self.history.piece_to(pos, m);
            let history_score = if quiet {
                self.history
                    .quiet_score(side, threat_bucket(m), m, piece_to, previous)
                    + self.history.structure_score(structure, piece_to)
            } else {
                0
            };
            let fine_reduction = self.lmr[depth.min(63) as usize][moves_searched.min(63)];
            let reduction = fine_reduction / REDUCTION_GRAIN;

            if !root && features.forward_pruning && best > -MATE_BOUND {
                let lmr_depth = (depth - 1 - reduction).max(0);
                // Late-move and futility pruning were decided for the node before the pick.
                if quiet && !exempt_check && !in_check {
                    if features.history_pruning
                        && depth <= 4
                        && history_score < -HISTORY_PRUNING_MARGIN * depth
                    {
                        continue;
                    }
                    // The move's own pruning depth: its history moves it deeper or shallower.
                    let lmr_depth = if features.history_pruning_depth {
                        let adjusted =
                            depth - 1 - reduction + history_score / params.pruning_history_divisor;
                        if adjusted <= 8
                            && static_eval
                                + params.futility_base
                                + params.futility_per_depth * adjusted.max(0)
                                <= alpha
                        {
                            continue;
                        }
                        adjusted.max(0)
                    } else {
                        lmr_depth
                    };
                    if lmr_depth <= 8 && !pos.see_ge(m, -params.see_quiet * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if !quiet {
                    // A capture that even with its gain and a margin cannot lift the static
                    // evaluation above alpha.
                    if features.noisy_futility
                        && !gives_check
                        && !in_check
                        && lmr_depth < 7
                        && static_eval
                            + params.noisy_futility_base
                            + params.noisy_futility_per_depth * lmr_depth
                            + pos.noisy_gain(m)
                            <= alpha
                    {
                        continue;
                    }
                    // Ordering found SEE ≥ 0 already, which passes the (negative) threshold.
                    if depth <= 8
                        && !is_winning_noisy(order_score)
                        && !pos.see_ge(m, -params.see_noisy * depth)
                    {
                        continue;
                    }
                }
            }

            // The move is searched: its child's table entry starts loading while the move is
            // extended and made (not earlier, so pruned moves never pay for the hash).
            shared.tt.prefetch(pos.hash_after(m));
            let mut extension = 0;
            if !root && ply < 2 * self.root_depth as usize {
                let singular_candidate = features.singular_extensions
                    && m == tt_move
                    && !excluded.is_some()
                    && depth >= params.singular_depth
                    && tt_entry.is_some_and(|e| {
                        e.depth >= depth - 3 && e.bound != Bound::Upper && !is_mate_value(e.score)
                    });
                if singular_candidate {
                    let tt_v = tt_value.unwrap_or(0);
                    let singular_beta = tt_v - params.singular_margin * depth / 2;
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
                    context = OrderingContext {
                        tt_move,
                        killers: self.history.killers(ply),
                        counter: self.history.counter(previous[0]),
                        previous,
                        threat_ordering: features.threat_ordering,
                        threat_history,
                        threats: &node_threats,
                        check_ordering: features.check_ordering,
                        structure,
                        low_ply,
                    };
                    quiets_pending = score_moves(
                        pos,
                        moves.as_slice(),
                        &mut self.scores[base..base + len],
                        &context,
                        &self.history,
                        features.lazy_quiet_scoring,
                    );
                    if value < singular_beta {
                        extension = if features.double_extensions
                            && !pv_node
                            && value < singular_beta - DOUBLE_EXTENSION_MARGIN
                            && self.stack[ply].double_extensions < MAX_DOUBLE_EXTENSIONS
                        {
                            2
                        } else {
                            1
                        };
                    } else if !pv_node && singular_beta >= beta {
                        // Multi-cut: several moves beat beta.
                        return singular_beta;
                    } else if tt_v >= beta {
                        extension = -1;
                    } else if features.negative_extensions {
                        if cut_node {
                            extension = -2;
                        } else if tt_v <= value {
                            extension = -1;
                        }
                    }
                } else if gives_check && features.check_extensions && G::EXTEND_CHECKS {
                    extension = 1;
                }
            }

            let nodes_before = self.nodes;
            let mut child = pos.clone();
            child.make_move(m);
            self.stack[ply].piece_to = Some(piece_to);
            self.stack[ply].quiet_move = quiet;
            self.stack[ply].played = m;
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + (extension >= 2) as u8;
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
            let mut new_depth = depth - 1 + extension;
            let mut value = 0;
            let mut full_null_window;
            // A reduced search beat alpha and the move is searched again at full depth.
            let mut researched = false;
            if features.late_move_reductions
                && depth >= 3
                && moves_searched > root as usize
                && (quiet || is_losing_noisy(order_score))
            {
                // Whole-ply adjustments to the table's reduction.
                let mut r = 0;
                if pv_node || tt_pv {
                    r -= 1;
                }
                if cut_node {
                    r += 1 + features.deep_cut_node_lmr as i32;
                }
                if features.drop_lmr && G::move_from_slot(m) >= G::SQUARES {
                    r -= 1;
                }
                if !improving {
                    r += 1;
                }
                if tt_capture && quiet {
                    r += 1;
                }
                if gives_check && features.check_lmr {
                    r -= 1;
                }
                if m == killers[0] || m == killers[1] {
                    r -= 1;
                }
                if features.cutoff_count_lmr && self.stack[ply + 1].cutoff_count > 3 {
                    r += 1;
                }
                if features.fractional_lmr {
                    // Summed in fractions of a ply, rounded down once.
                    let fine = fine_reduction + r * REDUCTION_GRAIN
                        - history_score * REDUCTION_GRAIN / params.lmr_history_divisor;
                    r = fine.div_euclid(REDUCTION_GRAIN);
                } else {
                    r += reduction - history_score / params.lmr_history_divisor;
                }
                let reduced = (new_depth - r).clamp(1, new_depth.max(1));
                self.stack[ply + 1].reduction = new_depth - reduced;
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
                self.stack[ply + 1].reduction = 0;
                full_null_window = value > alpha && reduced < new_depth;
                researched = full_null_window;
                if full_null_window && features.lmr_deeper_shallower {
                    let deeper = value > best + LMR_DEEPER_MARGIN + 2 * new_depth;
                    let shallower = value < best + new_depth;
                    new_depth += deeper as i32 - shallower as i32;
                    full_null_window = reduced < new_depth;
                }
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
                if researched && quiet && features.lmr_research_history && !self.stopped {
                    let bonus = if value >= beta {
                        params.history_bonus(new_depth)
                    } else if value <= alpha {
                        -params.history_bonus(new_depth)
                    } else {
                        0
                    };
                    if bonus != 0 {
                        self.history.update_continuation(piece_to, previous, bonus);
                    }
                }
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
                self.root_move_searched = true;
                let rm = &mut self.root_moves[index];
                debug_assert!(rm.mv == m);
                rm.nodes += self.nodes - nodes_before;
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
                    // A later move that beat the iteration's best so far: the new best of this
                    // iteration, even if it is never completed.
                    if moves_searched > 1 && value > alpha && self.pv_index == 0 {
                        self.partial_best = Some(*rm);
                        self.root_best_changes += 1;
                    }
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
                        if features.cutoff_count_lmr {
                            self.stack[ply].cutoff_count =
                                self.stack[ply].cutoff_count.saturating_add(1);
                        }
                        if quiet {
                            self.reward_quiet(
                                pos,
                                ply,
                                params.history_bonus(depth),
                                m,
                                (previous, structure),
                                &quiets_tried[..quiet_count],
                                &threat_bucket,
                                features.low_ply_history,
                            );
                        }
                        if features.capture_history {
                            let bonus = params.history_bonus(depth);
                            self.reward_capture(pos, bonus, m, quiet, &noisy_tried[..noisy_count]);
                        }
                        break;
                    }
                    if features.alpha_raise_reduction
                        && !root
                        && depth > 2
                        && depth < 14
                        && !is_mate_value(value)
                    {
                        depth -= 2;
                    }
                    alpha = value;
                }
            }
            if quiet && quiet_count < MAX_QUIETS_TRIED {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            }
            if !quiet && noisy_count < MAX_NOISY_TRIED {
                noisy_tried[noisy_count] = m;
                noisy_count += 1;
            }
        }

        if moves_searched == 0 {
            // Only the excluded move exists: it is singular.
            return alpha;
        }
        let bound = Bound::of_result(best, original_alpha, beta, pv_node);
        // Every move failed low: the opponent's quiet move into this node was a good one.
        if features.prior_countermove_bonus
            && bound == Bound::Upper
            && !excluded.is_some()
            && ply >= 1
            && self.stack[ply - 1].quiet_move
        {
            if let Some(prior) = self.stack[ply - 1].piece_to {
                let before = self.previous_piece_to(ply - 1, features.continuation_ply4);
                self.history
                    .update_continuation(prior, before, params.history_bonus(depth));
            }
        }
        // The correction history learns from results that say more than the static evaluation:
        // exact ones, fail-highs above it and fail-lows below it, with a quiet best move (a
        // capture's gain is no error of the evaluation).
        if let Some(keys) = correction_keys.as_ref().filter(|_| {
            !excluded.is_some()
                && !is_mate_value(best)
                && (!best_move.is_some() || pos.is_quiet(best_move))
                && match bound {
                    Bound::Exact => true,
                    Bound::Lower => best > static_eval,
                    Bound::Upper => best < static_eval,
                }
        }) {
            self.learn_correction(side, keys, depth, best, [raw_eval, scaled_eval], features);
        }
        if !(excluded.is_some() || root && self.pv_index > 0) {
            shared.tt.store(
                hash,
                best_move.to_bits(),
                to_tt(best, ply),
                raw_eval,
                depth,
                bound,
                tt_pv,
            );
        }
        best
    }

    /// Cutoff bookkeeping for a quiet move: killer, counter-move and history `bonus` (in the
    /// continuation tables of `keys.0`, the structure history's bucket `keys.1`, if any, and
    /// the butterfly table of each move's `threat_bucket`, and with `low_ply` the low-ply
    /// history, which keeps only the first `LOW_PLIES` plies); maluses for the quiets tried
    /// before it.
    #[allow(clippy::too_many_arguments)]
    fn reward_quiet(
        &mut self,
        pos: &G,
        ply: usize,
        bonus: i32,
        m: G::Move,
        keys: (ContinuationKeys, Option<usize>),
        tried: &[G::Move],
        threat_bucket: &impl Fn(G::Move) -> usize,
        low_ply: bool,
    ) {
        let (previous, structure) = keys;
        let side = pos.side_to_move();
        let piece_to = self.history.piece_to(pos, m);
        self.history
            .update_quiet(side, threat_bucket(m), m, piece_to, previous, bonus);
        self.history.update_structure(structure, piece_to, bonus);
        if low_ply {
            self.history.update_low_ply(ply, m, bonus);
        }
        for &q in tried {
            let q_piece_to = self.history.piece_to(pos, q);
            self.history
                .update_quiet(side, threat_bucket(q), q, q_piece_to, previous, -bonus);
            self.history.update_structure(structure, q_piece_to, -bonus);
            if low_ply {
                self.history.update_low_ply(ply, q, -bonus);
            }
        }
        self.history.add_killer(ply, m);
        self.history.set_counter(previous[0], m);
    }

    /// Probcut: each capture whose exchange alone could beat `probcut_beta` is verified by
    /// quiescence and a search four plies shallower; the first that holds settles the node
    /// (stored in the table as a lower bound, with the node's raw evaluation). Its own frame keeps the move list off the
    /// main search's stack.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pos: &G,
        shared: &SharedSearch,
        main: &mut Option<&mut MainThreadContext<'_, '_, G::Move>>,
        probcut_beta: i32,
        [static_eval, raw_eval]: [i32; 2],
        depth: i32,
        ply: usize,
        cut_node: bool,
        tt_pv: bool,
    ) -> Option<i32> {
        let mut noisy = G::Moves::default();
        pos.generate_noisy(&mut noisy);
        for &m in noisy.as_slice() {
            if !pos.see_ge(m, probcut_beta - static_eval) {
                continue;
            }
            shared.tt.prefetch(pos.hash_after(m));
            let mut child = pos.clone();
            child.make_move(m);
            self.stack[ply].piece_to = Some(self.history.piece_to(pos, m));
            self.stack[ply].quiet_move = false;
            self.stack[ply].played = m;
            self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
            self.enter_child(pos, &child);
            let mut value = -self.quiescence(
                &child,
                shared,
                main,
                -probcut_beta,
                -probcut_beta + 1,
                ply + 1,
            );
            if value >= probcut_beta && !self.stopped {
                value = -self.negamax(
                    &child,
                    shared,
                    main,
                    -probcut_beta,
                    -probcut_beta + 1,
                    depth - 4,
                    ply + 1,
                    !cut_node,
                );
            }
            self.leave_child();
            if self.stopped {
                return None;
            }
            if value >= probcut_beta {
                shared.tt.store(
                    pos.hash(),
                    m.to_bits(),
                    to_tt(value, ply),
                    raw_eval,
                    depth - 3,
                    Bound::Lower,
                    tt_pv,
                );
                return Some(value);
            }
        }
        None
    }

    /// Capture-history bookkeeping of a cutoff: a bonus for the move if it is noisy, and a
    /// malus for the noisy moves tried before it.
    fn reward_capture(&mut self, pos: &G, bonus: i32, m: G::Move, quiet: bool, tried: &[G::Move]) {
        if !quiet {
            self.history.update_capture(pos, m, bonus);
        }
        for &n in tried {
            self.history.update_capture(pos, n, -bonus);
        }
    }
}

/// Whether a table entry's bound settles the node for this window.
pub(super) fn bound_allows_cutoff(bound: Bound, value: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => value >= beta,
        Bound::Upper => value <= alpha,
    }
}
