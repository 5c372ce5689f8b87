//! The main alpha-beta search of a worker: principal variation search with the transposition
//! table, mate-distance pruning, reverse futility, null move (verified at high depth), internal
//! iterative reduction, futility / late-move / SEE pruning, singular and check extensions, and
//! late-move reductions driven by history. Game rules are asked at every node.

use super::events::{ScoreBound, SearchEvent};
use super::history::ContinuationKeys;
use super::ordering::{
    is_losing_noisy, is_winning_noisy, next_best, score_moves, OrderingContext, PickerState,
    PRUNED_QUIET, TT_MOVE,
};
use super::params::REDUCTION_GRAIN;
use super::tree_stats::{self, TreeStat};
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
/// `hindsight_depth`: both sides' static evaluations summing above this (the position
/// looked better to each side on its turn) makes a reduced node a ply shallower.
const HINDSIGHT_QUIET_MARGIN: i32 = 85;

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
        // A re-search started after the search stopped is no node (a node limit counts exactly).
        if self.stopped {
            return 0;
        }
        self.nodes += 1;
        tree_stats::record(TreeStat::MainNodes, depth);
        if self.should_stop(shared, main) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        let excluded = self.stack[ply].excluded;
        let features = &shared.features;

        if !root {
            if let Some(outcome) = pos.rule_outcome(self.rule_history(pos), true) {
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

        // The correction history's keys, once per node: for the static evaluation's correction
        // and the history's update when the node ends. Their entries start loading now, beside
        // the table probe's.
        let correction_keys = self.prefetched_correction_keys(pos, ply, in_check);
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
        // The butterfly-history table of each quiet move: its threat bucket by the opponent's
        // threats, computed once, when first needed (here or by the ordering).
        let node_threats = std::cell::OnceCell::new();
        let threat_bucket = |m: G::Move| {
            if G::THREAT_BUCKETS > 1 {
                pos.threat_bucket(node_threats.get_or_init(|| pos.threats()), m)
            } else {
                0
            }
        };
        if let (Some(e), Some(v)) = (tt_entry, tt_value) {
            if !pv_node && e.depth >= depth && bound_allows_cutoff(e.bound, v, alpha, beta) {
                tree_stats::record(TreeStat::TableCutoffs, depth);
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
            self.corrected_eval(pos, scaled_eval, correction_keys.as_ref())
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
            // The opponent's move worsened its own side's evaluation: ours now is above ours
            // before it (the parent's, negated).
            let opponent_worsening = static_eval > -parent_eval;
            if prior_reduction >= 3 && !opponent_worsening {
                depth += 1;
            } else if depth >= 2 && static_eval + parent_eval > HINDSIGHT_QUIET_MARGIN {
                depth -= 1;
            }
        }
        if ply + 2 < MAX_PLY {
            self.history.clear_killers_at(ply + 2);
        }

        if !pv_node && !in_check && !excluded.is_some() {
            // Reverse futility: far above beta, a shallow search will not fall below it.
            if depth <= params.rfp_depth
                && eval - params.rfp_margin * (depth - improving as i32) >= beta
                && eval < MATE_BOUND
                && beta > -MATE_BOUND
            {
                tree_stats::record(TreeStat::ReverseFutility, depth);
                return eval;
            }
            // Null move: if passing still beats beta, the position is good enough.
            if depth >= 3
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
                        tree_stats::record(TreeStat::NullMoveCutoffs, depth);
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
                        tree_stats::record(TreeStat::NullMoveCutoffs, depth);
                        return value;
                    }
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
        // handing out the table move first, so the search is the same either way.
        let tt_move_first = !root && !generated_early && tt_move.is_some() && !excluded.is_some();
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
        let previous = self.previous_piece_to(ply);
        let mut context = OrderingContext {
            tt_move,
            killers: self.history.killers(ply),
            counter: self.history.counter(previous[0]),
            previous,
            threats: &node_threats,
        };
        let mut quiets_pending = false;
        if !root && !tt_move_first {
            let len = moves.len();
            quiets_pending = score_moves(
                pos,
                moves.as_slice(),
                &mut self.scores[base..base + len],
                &context,
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

        let mut next = 0;
        let mut list_ready = !tt_move_first;
        tree_stats::record(TreeStat::MoveLoops, depth);
        loop {
            if next == 1 && !list_ready {
                // The table move did not cut off: generate and score the rest.
                list_ready = true;
                pos.generate_legal(&mut moves);
                let len = moves.len();
                let scores = &mut self.scores[base..base + len];
                quiets_pending = score_moves(pos, moves.as_slice(), scores, &context);
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
            if !skip_quiets && !table_move_now && !root && best > -MATE_BOUND && !in_check {
                let reduction =
                    self.lmr[depth.min(63) as usize][moves_searched.min(63)] / REDUCTION_GRAIN;
                let lmr_depth = (depth - 1 - reduction).max(0);
                let late_limit =
                    (params.lmp_base + depth * depth) as usize / (2 - improving as usize);
                skip_quiets = moves_searched >= late_limit
                    || (lmr_depth <= 8
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
            // Checks are exempt: a quiet check may be the best move.
            if quiet && skip_quiets && !gives_check {
                continue;
            }
            let piece_to = self.history.piece_to(pos, m);
            let history_score = if quiet {
                self.history
                    .quiet_score(side, threat_bucket(m), m, piece_to, previous)
            } else {
                0
            };
            let fine_reduction = self.lmr[depth.min(63) as usize][moves_searched.min(63)];
            let reduction = fine_reduction / REDUCTION_GRAIN;

            if !root && best > -MATE_BOUND {
                let lmr_depth = (depth - 1 - reduction).max(0);
                // Late-move and futility pruning were decided for the node before the pick.
                if quiet && !gives_check && !in_check {
                    if lmr_depth <= 8 && !pos.see_ge(m, -params.see_quiet * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if !quiet {
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
                let singular_candidate = m == tt_move
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
                        threats: &node_threats,
                    };
                    quiets_pending = score_moves(
                        pos,
                        moves.as_slice(),
                        &mut self.scores[base..base + len],
                        &context,
                    );
                    if value < singular_beta {
                        extension = 1;
                    } else if !pv_node && singular_beta >= beta {
                        // Multi-cut: several moves beat beta.
                        tree_stats::record(TreeStat::MultiCuts, depth);
                        return singular_beta;
                    } else if tt_v >= beta {
                        extension = -1;
                    }
                } else if gives_check && G::EXTEND_CHECKS {
                    extension = 1;
                }
            }

            let nodes_before = self.nodes;
            let mut child = pos.clone();
            child.make_move(m);
            tree_stats::record(TreeStat::MovesSearched, depth);
            self.stack[ply].piece_to = Some(piece_to);
            self.enter_child(pos, &child);
            if root && main.is_some() && self.id == 0 {
                if let Some(main) = main.as_deref_mut() {
                    if main.reported_lines > 0 && main.time.elapsed_ms() > 1000 {
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
            if depth >= 3
                && moves_searched > root as usize
                && (quiet || is_losing_noisy(order_score))
            {
                // Whole-ply adjustments to the table's reduction.
                let mut r = 0;
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
                if G::FRACTIONAL_LMR {
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
                if reduced < new_depth {
                    tree_stats::record(TreeStat::Reduced, depth);
                    if full_null_window {
                        tree_stats::record(TreeStat::ReducedResearched, depth);
                    }
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
                        if quiet {
                            self.reward_quiet(
                                pos,
                                ply,
                                params.history_bonus(depth),
                                m,
                                previous,
                                &quiets_tried[..quiet_count],
                                &threat_bucket,
                            );
                        }
                        tree_stats::record(TreeStat::FailHighs, depth);
                        tree_stats::add(TreeStat::FailHighMoves, depth, moves_searched as u64);
                        if moves_searched == 1 {
                            tree_stats::record(TreeStat::FailHighFirst, depth);
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
        if !best_move.is_some() && !excluded.is_some() {
            tree_stats::record(TreeStat::FailLows, depth);
            tree_stats::add(TreeStat::FailLowMoves, depth, moves_searched as u64);
        }
        let bound = Bound::of_result(best, original_alpha, beta, pv_node);
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
            self.learn_correction(side, keys, depth, best, scaled_eval);
        }
        if !(excluded.is_some() || root && self.pv_index > 0) {
            shared.tt.store(
                hash,
                best_move.to_bits(),
                to_tt(best, ply),
                raw_eval,
                depth,
                bound,
            );
        }
        best
    }

    /// Cutoff bookkeeping for a quiet move: killer, counter-move and history `bonus` (in the
    /// continuation tables of `previous` and the butterfly table of each move's
    /// `threat_bucket`); maluses for the quiets tried before it.
    #[allow(clippy::too_many_arguments)]
    fn reward_quiet(
        &mut self,
        pos: &G,
        ply: usize,
        bonus: i32,
        m: G::Move,
        previous: ContinuationKeys,
        tried: &[G::Move],
        threat_bucket: &impl Fn(G::Move) -> usize,
    ) {
        let side = pos.side_to_move();
        let piece_to = self.history.piece_to(pos, m);
        self.history
            .update_quiet(side, threat_bucket(m), m, piece_to, previous, bonus);
        for &q in tried {
            let q_piece_to = self.history.piece_to(pos, q);
            self.history
                .update_quiet(side, threat_bucket(q), q, q_piece_to, previous, -bonus);
        }
        self.history.add_killer(ply, m);
        self.history.set_counter(previous[0], m);
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
