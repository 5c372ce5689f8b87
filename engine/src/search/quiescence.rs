//! Quiescence search: captures and promotions (all evasions when in check) until the position
//! is quiet, with stand-pat, delta and SEE pruning, so that leaf evaluations are not taken in
//! the middle of an exchange.

use super::alpha_beta::bound_allows_cutoff;
use super::ordering::{pick_best, score_noisy_first};
use super::tt::Bound;
use super::value::{from_tt, is_mate_value, outcome_value, to_tt, INFINITE, MATE_BOUND, MAX_PLY};
use super::worker::{MainThreadContext, SharedSearch, Worker, NO_EVAL};
use crate::eval::Evaluator;
use crate::game::{Game, GameMove};
use crate::movelist::MoveList;

/// Quiet evasions searched in check once a line escapes mate (`Game::QS_EVASION_PRUNING`).
const QS_QUIET_EVASIONS: usize = 2;

impl<G: Game, E: Evaluator<G>> Worker<G, E> {
    /// Quiescence: captures and promotions (all evasions when in check) until the position is
    /// quiet, with stand-pat, delta and SEE pruning.
    pub(super) fn quiescence(
        &mut self,
        pos: &G,
        shared: &SharedSearch,
        main: &mut Option<&mut MainThreadContext<'_, '_, G::Move>>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.stopped {
            return 0;
        }
        self.nodes += 1;
        super::tree_stats::record(super::tree_stats::TreeStat::QuiescenceNodes, 0);
        if self.should_stop(shared, main) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        if let Some(outcome) = pos.rule_outcome(self.rule_history(pos), true) {
            return outcome_value(outcome, ply);
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos) };
        }

        // The correction history's entries start loading beside the table probe's.
        let correction_keys = self.prefetched_correction_keys(pos, ply, in_check);
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

        // The table keeps raw evaluations; the search works with corrected ones.
        let raw_eval;
        let static_eval;
        let mut best;
        if in_check {
            raw_eval = NO_EVAL;
            static_eval = NO_EVAL;
            best = -INFINITE;
        } else {
            raw_eval = match tt_entry {
                Some(e) => e.static_eval,
                None => self.evaluate(pos),
            };
            static_eval = self.adjusted_eval(
                pos,
                raw_eval,
                correction_keys.as_ref(),
                &shared.features,
                &shared.params,
            );
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
                        .store(hash, 0, to_tt(best, ply), raw_eval, -1, Bound::Lower);
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

        // Every child's table bucket starts loading now: the later moves' probes then find
        // theirs in the cache instead of waiting on memory after each make.
        if !in_check {
            for &m in moves.as_slice() {
                shared.tt.prefetch(pos.hash_after(m));
            }
        }

        let original_alpha = alpha;
        let mut best_move = G::Move::NONE;
        let mut quiet_evasions = 0;
        for i in 0..len {
            let (m, _) = pick_best(moves.as_mut_slice(), &mut self.scores[base..base + len], i);
            if in_check && pos.is_quiet(m) {
                // Once a line escapes mate, two quiet evasions (moves, interpositions, drops)
                // are enough: the rest rarely change the result and can multiply without end.
                if G::QS_EVASION_PRUNING
                    && best > -MATE_BOUND
                    && quiet_evasions >= QS_QUIET_EVASIONS
                {
                    continue;
                }
                quiet_evasions += 1;
            }
            if !in_check {
                if static_eval + pos.noisy_gain(m) + shared.params.qs_futility <= alpha
                    && !pos.gives_check(m)
                {
                    continue;
                }
                if !pos.see_ge(m, 0) {
                    continue;
                }
            }
            if in_check {
                // (Outside check every child's entry was prefetched before the loop.)
                shared.tt.prefetch(pos.hash_after(m));
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

        let bound = Bound::of_result(best, original_alpha, beta, pv_node);
        shared.tt.store(
            hash,
            best_move.to_bits(),
            to_tt(best, ply),
            raw_eval,
            0,
            bound,
        );
        best
    }
}
