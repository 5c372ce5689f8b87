//! The incremental NNUE evaluator equals a full refresh at every node of long random playouts in
//! both games, at every SIMD level the CPU has, at every supported hidden width and with every
//! supported number of king buckets (random nets of the default architecture and of each
//! variant): the accumulators of both perspectives equal the
//! plain scalar sum of the active features' rows, and the evaluation equals the scalar
//! from-scratch evaluation. The playouts branch like a search (children pushed, evaluated or
//! not, popped; null moves) and are checked to contain captures, promotions, castling, en
//! passant, drops and king moves across buckets and the mirror line. Pushes beyond the stack's
//! capacity still evaluate correctly. Only the root and nodes below a king that changed its key
//! are rebuilt from the refresh cache; every other node updates from an ancestor.

mod nnue_support;

use nnue_support::*;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sente::eval::Evaluator;
use sente::game::{Game, Side};
use sente::nnue::arch::{CHESS, SHOGI, SUPPORTED_KING_BUCKETS};
use sente::nnue::evaluator::STACK_PLIES;
use sente::nnue::{evaluate_from_scratch, Network, NnueEval, NnueGame, SimdLevel};
use std::sync::Arc;

/// What a playout exercised.
#[derive(Debug, Default)]
struct Coverage {
    checks: usize,
    king_key_changes: usize,
    kinds: [usize; 8],
}

/// Plays random games from `starts`, mirroring every move into the evaluator and checking it
/// against the references at random nodes (so the lazy materialisation bridges several deltas),
/// with side branches pushed and popped as a search would. `classify` labels each move.
fn run_playouts<G: NnueGame>(
    net: &Arc<Network>,
    level: SimdLevel,
    starts: &[&str],
    games_per_start: usize,
    max_plies: usize,
    seed: u64,
    classify: impl Fn(&G, G::Move, &mut [usize; 8]),
) -> Coverage {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut eval = NnueEval::<G>::new(Arc::clone(net)).expect("net of the game's architecture");
    eval.set_simd_level(level);
    let mut coverage = Coverage::default();
    let buckets = net.arch().king_buckets;
    for text in starts {
        for _ in 0..games_per_start {
            let root = G::from_text(text).expect("start position");
            eval.reset(&root);
            let mut line = vec![root.clone()];
            let mut pos = root;
            for _ in 0..max_plies {
                if rng.next_u32() % 3 == 0 {
                    check_against_reference(&mut eval, net, &pos);
                    coverage.checks += 1;
                }
                let moves = legal(&pos);
                if moves.is_empty() {
                    break;
                }
                // Side branches: a couple of children, evaluated or not, then popped.
                for _ in 0..(rng.next_u32() % 3) {
                    let m = moves[rng.next_u32() as usize % moves.len()];
                    let mut child = pos.clone();
                    child.make_move(m);
                    eval.push(&child);
                    if rng.next_u32() % 2 == 0 {
                        check_against_reference(&mut eval, net, &child);
                        coverage.checks += 1;
                    }
                    eval.pop();
                }
                if !pos.in_check() && rng.next_u32() % 8 == 0 {
                    let mut null = pos.clone();
                    null.make_null_move();
                    eval.push(&null);
                    check_against_reference(&mut eval, net, &null);
                    coverage.checks += 1;
                    eval.pop();
                }
                // A third of the moves are captures or promotions when there are any, so
                // material comes off and promotions and en passant happen.
                let noisy: Vec<G::Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| !pos.is_quiet(m))
                    .collect();
                let m = if !noisy.is_empty() && rng.next_u32() % 3 == 0 {
                    noisy[rng.next_u32() as usize % noisy.len()]
                } else {
                    moves[rng.next_u32() as usize % moves.len()]
                };
                classify(&pos, m, &mut coverage.kinds);
                let mut child = pos.clone();
                child.make_move(m);
                for side in [Side::First, Side::Second] {
                    if child.king_key(side, buckets) != pos.king_key(side, buckets) {
                        coverage.king_key_changes += 1;
                    }
                }
                eval.push(&child);
                line.push(child.clone());
                pos = child;
            }
            // Unwind to the root, checking some ancestors on the way (their accumulators may
            // be stale relative to deeper, already computed nodes).
            while line.len() > 1 {
                line.pop();
                eval.pop();
                if rng.next_u32() % 4 == 0 {
                    check_against_reference(&mut eval, net, line.last().unwrap());
                    coverage.checks += 1;
                }
            }
        }
    }
    coverage
}

/// The kinds of move a playout counts; each indexes `Coverage::kinds`.
#[derive(Clone, Copy, Debug)]
enum MoveKind {
    Castle,
    EnPassant,
    Promotion,
    Capture,
    Drop,
    MirrorChange,
}

fn classify_chess(pos: &sente::chess::Position, m: sente::chess::Move, kinds: &mut [usize; 8]) {
    if m.is_castle() {
        kinds[MoveKind::Castle as usize] += 1;
    }
    if m.is_en_passant() {
        kinds[MoveKind::EnPassant as usize] += 1;
    }
    if m.is_promotion() {
        kinds[MoveKind::Promotion as usize] += 1;
    }
    if !pos.is_quiet(m) && !m.is_promotion() {
        kinds[MoveKind::Capture as usize] += 1;
    }
    let mut child = *pos;
    child.make_move(m);
    for side in [Side::First, Side::Second] {
        // With one bucket the key is the mirror alone.
        if child.king_key(side, 1) != pos.king_key(side, 1) {
            kinds[MoveKind::MirrorChange as usize] += 1;
        }
    }
}

fn classify_shogi(pos: &sente::shogi::Position, m: sente::shogi::Move, kinds: &mut [usize; 8]) {
    if m.is_drop() {
        kinds[MoveKind::Drop as usize] += 1;
    } else if pos.piece_on(m.to()).is_some() {
        kinds[MoveKind::Capture as usize] += 1;
    }
    if m.is_promotion() {
        kinds[MoveKind::Promotion as usize] += 1;
    }
}

fn chess_at(l1: usize, buckets: usize, level: SimdLevel, seed: u64) -> Coverage {
    let net = net_of_variant::<sente::chess::Position>(l1, buckets);
    assert_eq!((net.arch().l1, net.arch().king_buckets), (l1, buckets));
    run_playouts::<sente::chess::Position>(&net, level, CHESS_STARTS, 6, 200, seed, classify_chess)
}

fn shogi_at(l1: usize, buckets: usize, level: SimdLevel, seed: u64) -> Coverage {
    let net = net_of_variant::<sente::shogi::Position>(l1, buckets);
    assert_eq!((net.arch().l1, net.arch().king_buckets), (l1, buckets));
    run_playouts::<sente::shogi::Position>(&net, level, SHOGI_STARTS, 8, 200, seed, classify_shogi)
}

fn check_chess(l1: usize, buckets: usize) {
    for level in SimdLevel::available() {
        let c = chess_at(l1, buckets, level, 11);
        println!("chess l1={l1} buckets={buckets} {level:?}: {c:?}");
        assert!(c.checks > 3000, "{c:?}");
        assert!(c.king_key_changes > 50, "{c:?}");
        for kind in [
            MoveKind::Castle,
            MoveKind::EnPassant,
            MoveKind::Promotion,
            MoveKind::Capture,
            MoveKind::MirrorChange,
        ] {
            assert!(
                c.kinds[kind as usize] > 0,
                "move kind {kind:?} never played: {c:?}"
            );
        }
    }
}

fn check_shogi(l1: usize, buckets: usize) {
    for level in SimdLevel::available() {
        let c = shogi_at(l1, buckets, level, 12);
        println!("shogi l1={l1} buckets={buckets} {level:?}: {c:?}");
        assert!(c.checks > 2000, "{c:?}");
        // With one king bucket a shogi perspective never changes its key; with two, only a
        // king leaving or re-entering its camp does (36 times in these playouts).
        if buckets > 1 {
            assert!(c.king_key_changes > 10 * buckets, "{c:?}");
        } else {
            assert_eq!(c.king_key_changes, 0, "{c:?}");
        }
        for kind in [MoveKind::Promotion, MoveKind::Capture, MoveKind::Drop] {
            assert!(
                c.kinds[kind as usize] > 0,
                "move kind {kind:?} never played: {c:?}"
            );
        }
    }
}

#[test]
fn chess_incremental_equals_full_refresh_at_every_level_and_width() {
    for &l1 in test_widths() {
        check_chess(l1, CHESS.king_buckets);
    }
}

#[test]
fn chess_incremental_equals_full_refresh_with_every_king_bucket_count() {
    for &buckets in SUPPORTED_KING_BUCKETS {
        check_chess(CHESS.l1, buckets);
    }
}

#[test]
fn shogi_incremental_equals_full_refresh_at_every_level_and_width() {
    for &l1 in test_widths() {
        check_shogi(l1, SHOGI.king_buckets);
    }
}

#[test]
fn shogi_incremental_equals_full_refresh_with_every_king_bucket_count() {
    for &buckets in SUPPORTED_KING_BUCKETS {
        check_shogi(SHOGI.l1, buckets);
    }
}

#[test]
fn every_simd_level_gives_the_scalar_evaluation_on_real_positions() {
    for &l1 in test_widths() {
        every_simd_level_gives_the_scalar_evaluation_at_width(l1);
    }
}

fn every_simd_level_gives_the_scalar_evaluation_at_width(l1: usize) {
    let chess = chess_net_of_width(l1);
    let shogi = shogi_net_of_width(l1);
    let mut evals: Vec<(
        NnueEval<sente::chess::Position>,
        NnueEval<sente::shogi::Position>,
    )> = SimdLevel::available()
        .into_iter()
        .map(|level| {
            let mut c = NnueEval::new(Arc::clone(&chess)).unwrap();
            let mut s = NnueEval::new(Arc::clone(&shogi)).unwrap();
            c.set_simd_level(level);
            s.set_simd_level(level);
            (c, s)
        })
        .collect();
    for text in CHESS_STARTS {
        let pos = sente::chess::Position::from_text(text).unwrap();
        for child in legal(&pos).into_iter().map(|m| {
            let mut c = pos;
            c.make_move(m);
            c
        }) {
            let mut scores = Vec::new();
            for (eval, _) in &mut evals {
                eval.reset(&child);
                scores.push(eval.evaluate(&child));
            }
            scores.push(evaluate_from_scratch(&chess, SimdLevel::Scalar, &child));
            assert!(
                scores.windows(2).all(|w| w[0] == w[1]),
                "l1={l1}: {scores:?}"
            );
        }
    }
    for text in SHOGI_STARTS {
        let pos = sente::shogi::Position::from_text(text).unwrap();
        let mut scores = Vec::new();
        for (_, eval) in &mut evals {
            eval.reset(&pos);
            scores.push(eval.evaluate(&pos));
        }
        scores.push(evaluate_from_scratch(&shogi, SimdLevel::Scalar, &pos));
        assert!(
            scores.windows(2).all(|w| w[0] == w[1]),
            "l1={l1}: {scores:?}"
        );
    }
}

#[test]
fn pushes_beyond_the_stack_still_evaluate_correctly() {
    for &l1 in test_widths() {
        pushes_beyond_the_stack_at_width(l1);
    }
}

fn pushes_beyond_the_stack_at_width(l1: usize) {
    let net = chess_net_of_width(l1);
    let mut eval = NnueEval::<sente::chess::Position>::new(Arc::clone(&net)).unwrap();
    let root = sente::chess::Position::startpos();
    eval.reset(&root);
    // Knights shuffle out and back: a game as long as wanted without captures.
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut line = vec![root];
    for i in 0..STACK_PLIES + 40 {
        let mut next = *line.last().unwrap();
        let m = next.parse_move(shuffle[i % 4]).unwrap();
        next.make_move(m);
        eval.push(&next);
        if i % 7 == 0 || i >= STACK_PLIES - 2 {
            check_against_reference(&mut eval, &net, &next);
        }
        line.push(next);
    }
    while line.len() > 1 {
        line.pop();
        eval.pop();
        if line.len() % 5 == 0 || line.len() >= STACK_PLIES - 2 {
            check_against_reference(&mut eval, &net, line.last().unwrap());
        }
    }
    // Unbalanced pops never panic; the root still evaluates.
    eval.pop();
    check_against_reference(&mut eval, &net, &line[0]);
}

/// The root is computed at `reset`, so the children of a root that was never evaluated update
/// from it instead of each going to the refresh cache; a king move across the mirror line is
/// rebuilt from the cache for its own side only.
#[test]
fn only_the_root_and_king_key_changes_go_to_the_refresh_cache() {
    type Chess = sente::chess::Position;
    let net = chess_net();
    let mut eval = NnueEval::<Chess>::new(Arc::clone(&net)).unwrap();
    // White's king on e1 crosses the mirror line with Kd1; Black's king stays.
    let root =
        Chess::from_text("r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w - - 0 1").unwrap();
    eval.reset(&root);
    assert_eq!(eval.refreshes(), 2, "the root, both perspectives");
    let moves = legal(&root);
    assert!(moves.len() > 30);
    for &m in &moves {
        let mut child = root;
        child.make_move(m);
        eval.push(&child);
        check_against_reference(&mut eval, &net, &child);
        eval.pop();
    }
    assert_eq!(
        eval.refreshes(),
        2 + 1,
        "only Kd1 (the one move across the mirror line) is rebuilt from the cache"
    );
    // A second search from the same root: the root again, nothing else.
    eval.reset(&root);
    let mut child = root;
    child.make_move(child.parse_move("a2a3").unwrap());
    eval.push(&child);
    check_against_reference(&mut eval, &net, &child);
    assert_eq!(eval.refreshes(), 3 + 2);
}

#[test]
fn a_net_of_the_other_game_is_refused() {
    let err = NnueEval::<sente::chess::Position>::new(shogi_net()).unwrap_err();
    assert!(err.to_string().contains("chess"), "{err}");
    let err = NnueEval::<sente::chess::Position>::new(shogi_net_of_width(256)).unwrap_err();
    assert!(err.to_string().contains("chess"), "{err}");
}

#[test]
fn the_evaluator_takes_its_sizes_from_the_net() {
    for &l1 in test_widths() {
        let net = chess_net_of_width(l1);
        let mut eval = NnueEval::<sente::chess::Position>::new(Arc::clone(&net)).unwrap();
        let pos = sente::chess::Position::startpos();
        eval.reset(&pos);
        let (first, second) = eval.accumulators(&pos);
        assert_eq!((first.len(), second.len()), (l1, l1));
        assert_eq!(eval.network().arch().l1, l1);
    }
}

#[test]
fn a_position_that_was_not_pushed_still_gets_its_own_evaluation() {
    for &l1 in test_widths() {
        a_position_that_was_not_pushed_at_width(l1);
    }
}

fn a_position_that_was_not_pushed_at_width(l1: usize) {
    let net = shogi_net_of_width(l1);
    let mut eval = NnueEval::<sente::shogi::Position>::new(Arc::clone(&net)).unwrap();
    let positions: Vec<sente::shogi::Position> = SHOGI_STARTS
        .iter()
        .map(|s| sente::shogi::Position::from_text(s).unwrap())
        .collect();
    // Without any reset, then in the middle of a line: each evaluation is the position's own.
    for pos in &positions {
        check_against_reference(&mut eval, &net, pos);
    }
    eval.reset(&positions[0]);
    let mut child = positions[0];
    child.make_move(legal(&child)[0]);
    eval.push(&child);
    check_against_reference(&mut eval, &net, &positions[1]);
    check_against_reference(&mut eval, &net, &child);
}
