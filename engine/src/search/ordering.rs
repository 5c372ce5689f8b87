//! Move ordering: scores each generated move (TT move, winning captures by MVV, killers,
//! counter-move, quiets by history, losing captures last) and hands them out best first by
//! partial selection sort, so a cutoff after a few moves never pays for a full sort. Quiet moves
//! get their history scores only when the picker reaches them: a cutoff by the table move, a
//! capture, a killer or the counter-move never pays for scoring the quiets.

use super::history::{ContinuationKeys, HistoryTables};
use crate::game::{Game, GameMove};
use std::cell::OnceCell;

/// Moves handed out by selection before the rest of the list is sorted at once (most cutoffs
/// come from the first few moves; a node that goes on usually looks at most of them).
pub const SELECTION_PICKS: usize = 4;

/// The table move's ordering score (above every other).
pub const TT_MOVE: i32 = 1 << 30;
const GOOD_NOISY: i32 = 1 << 24;
const KILLER_0: i32 = 900_000;
const KILLER_1: i32 = 899_000;
const COUNTER: i32 = 898_000;
const BAD_NOISY: i32 = -(1 << 24);
/// Placeholder of a quiet move not scored yet: below the killers and the counter-move, above
/// every history score (at most three tables of ±`HISTORY_MAX` and a threat adjustment) and
/// every losing capture.
const QUIET_PENDING: i32 = 800_000;

/// The score of a quiet move the node has already pruned (`PickerState::prune_quiets`): below
/// every other score, so once it is picked nothing that is searched is left.
pub const PRUNED_QUIET: i32 = i32::MIN / 2;

/// Whether an ordering score marks a capture/promotion that does not lose material by SEE (the
/// table move's score says nothing about it).
pub fn is_winning_noisy(score: i32) -> bool {
    (GOOD_NOISY / 2..TT_MOVE).contains(&score)
}

/// Whether an ordering score marks a capture/promotion that loses material by SEE.
pub fn is_losing_noisy(score: i32) -> bool {
    score < BAD_NOISY / 2
}

/// Everything the scorer needs about the node besides the position.
pub struct OrderingContext<'a, G: Game> {
    pub tt_move: G::Move,
    pub killers: [G::Move; 2],
    pub counter: G::Move,
    /// (piece, to) of the earlier moves whose continuation histories score quiets (see
    /// `ContinuationKeys`).
    pub previous: ContinuationKeys,
    /// The node's `Game::threats`, computed by whoever needs them first (the scorer or the
    /// search's history lookups) and shared: quiets are scored by the butterfly table of their
    /// `Game::threat_bucket` and, under `Game::THREAT_ORDERING`, by `Game::threat_order`.
    pub threats: &'a OnceCell<G::Threats>,
}

/// Writes an ordering score for each move into `scores` (same indices): every move but the plain
/// quiets, which get `QUIET_PENDING`, resolved by `next_best` when nothing better is left.
/// Returns whether any quiet is pending.
pub fn score_moves<G: Game>(
    pos: &G,
    moves: &[G::Move],
    scores: &mut [i32],
    context: &OrderingContext<'_, G>,
) -> bool {
    let mut pending = false;
    for (&m, score) in moves.iter().zip(scores.iter_mut()) {
        *score = if m == context.tt_move {
            TT_MOVE
        } else if !pos.is_quiet(m) {
            let order = noisy_order(pos, m);
            if pos.see_ge(m, 0) {
                GOOD_NOISY + order
            } else {
                BAD_NOISY + order
            }
        } else if m == context.killers[0] {
            KILLER_0
        } else if m == context.killers[1] {
            KILLER_1
        } else if m == context.counter {
            COUNTER
        } else {
            pending = true;
            QUIET_PENDING
        };
    }
    pending
}

/// The order of a noisy move among the noisy moves: its gain (most valuable victim first).
#[inline]
fn noisy_order<G: Game>(pos: &G, m: G::Move) -> i32 {
    pos.noisy_gain(m) * 8
}

/// Replaces the `QUIET_PENDING` scores of `moves[from..]` by the quiets' history scores. With
/// `only_checks` (a node that prunes its quiet moves) only the checks get their scores, the
/// other pending quiets `PRUNED_QUIET`.
fn score_pending_quiets<G: Game>(
    pos: &G,
    moves: &[G::Move],
    scores: &mut [i32],
    from: usize,
    context: &OrderingContext<'_, G>,
    history: &HistoryTables<G>,
    only_checks: bool,
) {
    if only_checks {
        let check_info = pos.check_info();
        let mut checks = false;
        for (&m, score) in moves[from..].iter().zip(scores[from..].iter_mut()) {
            if *score == QUIET_PENDING {
                if pos.gives_check_with(&check_info, m) {
                    checks = true;
                } else {
                    *score = PRUNED_QUIET;
                }
            }
        }
        if !checks {
            return;
        }
    }
    let rows = history.quiet_rows(pos.side_to_move(), context.previous);
    let threat_history = G::THREAT_BUCKETS > 1;
    let threats = (G::THREAT_ORDERING || threat_history)
        .then(|| *context.threats.get_or_init(|| pos.threats()));
    for (&m, score) in moves[from..].iter().zip(scores[from..].iter_mut()) {
        if *score == QUIET_PENDING {
            let bucket = match &threats {
                Some(threats) if threat_history => pos.threat_bucket(threats, m),
                _ => 0,
            };
            *score = rows.score(m, history.piece_to(pos, m), bucket);
            if let (Some(threats), true) = (&threats, G::THREAT_ORDERING) {
                *score += pos.threat_order(threats, m);
            }
        }
    }
}

/// The list and scores of one node and whether quiets still wait for their scores.
pub struct PickerState<'a, M> {
    pub moves: &'a mut [M],
    pub scores: &'a mut [i32],
    /// Scratch for the sort of the tail, at least as long as `moves`.
    pub keys: &'a mut [u64],
    pub quiets_pending: bool,
    /// The node prunes every quiet move but the checks: pending quiets that are needed are then
    /// not scored but marked `PRUNED_QUIET`, the checks scored as usual.
    pub prune_quiets: bool,
}

/// Puts the `i`-th best move at index `i` (the first `SELECTION_PICKS` by selection, the rest by
/// one sort) and returns it with its score, scoring pending quiets once they are needed. Call with
/// `i` = 0, 1, 2, ... in order.
pub fn next_best<G: Game>(
    pos: &G,
    state: &mut PickerState<'_, G::Move>,
    i: usize,
    context: &OrderingContext<'_, G>,
    history: &HistoryTables<G>,
) -> (G::Move, i32) {
    let PickerState {
        moves,
        scores,
        keys,
        quiets_pending,
        prune_quiets,
    } = state;
    let resolve = |moves: &[G::Move], scores: &mut [i32]| {
        score_pending_quiets(pos, moves, scores, i, context, history, *prune_quiets);
    };
    if i < SELECTION_PICKS {
        let mut best = best_index(scores, i);
        if *quiets_pending && scores[best] == QUIET_PENDING {
            resolve(moves, scores);
            *quiets_pending = false;
            best = best_index(scores, i);
        }
        moves.swap(i, best);
        scores.swap(i, best);
    } else if i == SELECTION_PICKS {
        if *quiets_pending {
            resolve(moves, scores);
            *quiets_pending = false;
        }
        sort_rest(moves, scores, i, keys);
    } else if *quiets_pending {
        // Re-scored after the list was sorted (singular search): keep the order, fill the scores.
        score_pending_quiets(pos, moves, scores, i, context, history, false);
        *quiets_pending = false;
    }
    (moves[i], scores[i])
}

/// Scores for quiescence: TT move, then captures by gain (MVV), then quiets (evasions) by history.
pub fn score_noisy_first<G: Game>(
    pos: &G,
    moves: &[G::Move],
    scores: &mut [i32],
    tt_move: G::Move,
    history: &HistoryTables<G>,
) {
    let side = pos.side_to_move();
    for (&m, score) in moves.iter().zip(scores.iter_mut()) {
        *score = if m == tt_move {
            TT_MOVE
        } else if !pos.is_quiet(m) {
            GOOD_NOISY + noisy_order(pos, m)
        } else {
            history.butterfly(side, 0, m)
        };
    }
}

/// Index of the first highest score in `scores[from..]`.
#[inline]
fn best_index(scores: &[i32], from: usize) -> usize {
    // The maximum first (a reduction the compiler vectorises), then its first position.
    let rest = &scores[from..];
    let best_score = rest.iter().copied().max().unwrap_or(i32::MIN);
    from + rest.iter().position(|&s| s == best_score).unwrap_or(0)
}

/// Swaps the best-scored move of `moves[from..]` to `from` and returns it.
pub fn pick_best<M: Copy>(moves: &mut [M], scores: &mut [i32], from: usize) -> (M, i32) {
    let best = best_index(&scores[..moves.len()], from);
    moves.swap(from, best);
    scores.swap(from, best);
    (moves[from], scores[from])
}

/// Sorts `moves[from..]` (with their scores) by descending score, ties by move bits, using
/// `keys` (at least as long as the list) as scratch space.
pub fn sort_rest<M: GameMove>(moves: &mut [M], scores: &mut [i32], from: usize, keys: &mut [u64]) {
    let n = moves.len().saturating_sub(from);
    for k in 0..n {
        let biased = (scores[from + k] as i64 - i32::MIN as i64) as u64;
        keys[k] = biased << 16 | moves[from + k].to_bits() as u64;
    }
    keys[..n].sort_unstable_by(|a, b| b.cmp(a));
    for k in 0..n {
        moves[from + k] = M::from_bits(keys[k] as u16);
        scores[from + k] = ((keys[k] >> 16) as i64 + i32::MIN as i64) as i32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Move;

    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    struct Bits(u16);

    impl GameMove for Bits {
        const NONE: Self = Bits(0);
        fn to_bits(self) -> u16 {
            self.0
        }
        fn from_bits(bits: u16) -> Self {
            Bits(bits)
        }
    }

    #[test]
    fn sort_rest_orders_the_tail_and_keeps_pairs() {
        let mut moves = [Bits(9), Bits(1), Bits(2), Bits(3), Bits(4)];
        let mut scores = [100, -5, i32::MIN + 1, 1 << 30, -5];
        let mut keys = [0u64; 5];
        sort_rest(&mut moves, &mut scores, 1, &mut keys);
        assert_eq!(moves, [Bits(9), Bits(3), Bits(4), Bits(1), Bits(2)]);
        assert_eq!(scores, [100, 1 << 30, -5, -5, i32::MIN + 1]);
    }

    /// A chess node's ordering context with no hints (no table move, killers, counter-move or
    /// earlier moves), its threats computed on demand into `threats`.
    fn context_without_hints(
        threats: &OnceCell<crate::chess::Threats>,
    ) -> OrderingContext<'_, crate::chess::Position> {
        OrderingContext {
            tt_move: Move::NONE,
            killers: [Move::NONE; 2],
            counter: Move::NONE,
            previous: [None; 2],
            threats,
        }
    }

    /// The first move the picker hands out in `pos` (no table move, killers or counter-move) with
    /// its score.
    fn first_pick(
        pos: &crate::chess::Position,
        history: &HistoryTables<crate::chess::Position>,
    ) -> (Move, i32) {
        use crate::movelist::MoveList;
        let mut generated = <crate::chess::Position as Game>::Moves::default();
        pos.generate_legal(&mut generated);
        let threats = OnceCell::new();
        let context = context_without_hints(&threats);
        let mut list = generated.as_slice().to_vec();
        let mut scores = vec![0; list.len()];
        let mut keys = vec![0; list.len()];
        score_moves(pos, &list, &mut scores, &context);
        let mut state = PickerState {
            moves: &mut list,
            scores: &mut scores,
            keys: &mut keys,
            quiets_pending: true,
            prune_quiets: false,
        };
        next_best(pos, &mut state, 0, &context, history)
    }

    #[test]
    fn threats_order_fresh_quiets() {
        use crate::chess::Position;
        const { assert!(<Position as Game>::THREAT_ORDERING) };
        // The white knight on e5 is attacked by the d6 pawn. Empty histories: every fresh quiet
        // scores 0 on its own, so the threat order decides.
        let pos = Position::from_text("4k3/8/3p4/4N3/8/8/8/4K2R w - - 0 1").unwrap();
        let history = HistoryTables::<Position>::new(8);
        let knight = pos.parse_uci("e5d3").unwrap().from();
        let (first, score) = first_pick(&pos, &history);
        assert_eq!(first.from(), knight, "the knight escapes first");
        assert_eq!(score, pos.threat_order(&pos.threats(), first));
        assert!(score > 0);
    }

    #[test]
    fn threat_history_scores_a_quiet_by_its_own_bucket_s_table() {
        use crate::chess::Position;
        // The knight on e5 is attacked by the d6 pawn: Nd3 goes from an attacked square to a
        // safe one (bucket 2); Kd1 stays between safe squares (bucket 0).
        let pos = Position::from_text("4k3/8/3p4/4N3/8/8/8/4K2R w - - 0 1").unwrap();
        let escape = pos.parse_uci("e5d3").unwrap();
        let king = pos.parse_uci("e1d1").unwrap();
        let threats = pos.threats();
        assert_eq!(
            [
                pos.threat_bucket(&threats, escape),
                pos.threat_bucket(&threats, king)
            ],
            [2, 0]
        );
        let mut history = HistoryTables::<Position>::new(8);
        let side = pos.side_to_move();
        // Learned in another bucket, a value does not score the escape.
        history.update_butterfly(side, 0, escape, -3000);
        history.update_butterfly(side, 2, escape, 3000);
        history.update_butterfly(side, 0, king, 1000);
        let bonus = pos.threat_order(&threats, escape);
        assert_eq!(first_pick(&pos, &history), (escape, 3000 + bonus));
    }

    #[test]
    fn a_node_that_prunes_its_quiets_hands_out_only_checks_then_losing_captures() {
        use crate::chess::Position;
        use crate::movelist::MoveList;
        // Quiet checks: Rh8, Qe2, Qa8 and more; Qxd5 loses the queen to the c6 pawn; every
        // other move is a plain quiet.
        let pos = Position::from_text("4k3/8/2p5/3p4/8/8/Q7/4K2R w - - 0 1").unwrap();
        let history = HistoryTables::<Position>::new(8);
        let threats = OnceCell::new();
        let context = context_without_hints(&threats);
        let mut generated = <Position as Game>::Moves::default();
        pos.generate_legal(&mut generated);
        let hand_out = || {
            let mut list = generated.as_slice().to_vec();
            let mut scores = vec![0; list.len()];
            let mut keys = vec![0; list.len()];
            let pending = score_moves(&pos, &list, &mut scores, &context);
            let mut state = PickerState {
                moves: &mut list,
                scores: &mut scores,
                keys: &mut keys,
                quiets_pending: pending,
                prune_quiets: true,
            };
            let mut out = Vec::new();
            for i in 0..generated.len() {
                let (m, score) = next_best(&pos, &mut state, i, &context, &history);
                if score == PRUNED_QUIET {
                    // Sorted last: everything after is pruned too.
                    assert!(state.scores[i..].iter().all(|&s| s == PRUNED_QUIET));
                    break;
                }
                out.push(m);
            }
            out
        };
        let checks: Vec<Move> = generated
            .as_slice()
            .iter()
            .copied()
            .filter(|&m| pos.is_quiet(m) && pos.gives_check(m))
            .collect();
        let noisy: Vec<Move> = generated
            .as_slice()
            .iter()
            .copied()
            .filter(|&m| !pos.is_quiet(m))
            .collect();
        assert!(
            checks.len() >= 2 && !noisy.is_empty(),
            "{checks:?} {noisy:?}"
        );
        let with_checks = hand_out();
        assert_eq!(with_checks.len(), checks.len() + noisy.len());
        // The checks come first (quiets rank above losing captures), then the noisy moves.
        let (first, rest) = with_checks.split_at(checks.len());
        assert!(first.iter().all(|m| checks.contains(m)), "{with_checks:?}");
        assert!(rest.iter().all(|m| noisy.contains(m)), "{with_checks:?}");
    }

    #[test]
    fn pick_best_hands_out_in_descending_order_stably() {
        let mut moves = [10, 20, 30, 40, 50];
        let mut scores = [3, 9, 3, 7, 9];
        let picked: Vec<_> = (0..5)
            .map(|i| pick_best(&mut moves, &mut scores, i).0)
            .collect();
        assert_eq!(picked[..3], [20, 50, 40]);
        let mut rest = picked[3..].to_vec();
        rest.sort();
        assert_eq!(rest, [10, 30]);
    }
}
