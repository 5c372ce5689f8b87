//! Feature sets of both games, with every supported number of king buckets: counts and indices
//! in range, distinct, inside the perspective's king bucket; a move's changed features turn the
//! parent's active set into the child's; the refresh-cache snapshot differences do the same
//! between any two positions; and the evaluation
//! is symmetric where it must be (colour flip in both games, left-right mirror in chess).

mod nnue_support;

use nnue_support::*;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sente::eval::Evaluator;
use sente::game::{Game, Side};
use sente::nnue::arch::{CHESS, SUPPORTED_KING_BUCKETS};
use sente::nnue::{
    evaluate_from_scratch, FeatureChanges, NnueEval, NnueGame, SimdLevel, MAX_ACTIVE, MAX_CHANGED,
};
use std::collections::BTreeSet;
use std::sync::Arc;

fn active_set<G: NnueGame>(pos: &G, perspective: Side, buckets: usize) -> BTreeSet<u32> {
    let mut out = [0u32; MAX_ACTIVE];
    let n = pos.active_features(perspective, buckets, &mut out);
    let set: BTreeSet<u32> = out[..n].iter().copied().collect();
    assert_eq!(set.len(), n, "duplicate features at {}", pos.to_text());
    set
}

/// Random positions reached from `starts` (every position of a few random games).
fn positions<G: Game>(starts: &[&str], games: usize, plies: usize, seed: u64) -> Vec<G> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut all = Vec::new();
    for text in starts {
        for _ in 0..games {
            let mut pos = G::from_text(text).unwrap();
            for _ in 0..plies {
                all.push(pos.clone());
                let moves = legal(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[rng.next_u32() as usize % moves.len()]);
            }
        }
    }
    all
}

/// Every `step`-th of `positions(starts, games, plies, seed)`.
fn sampled<G: Game>(step: usize, starts: &[&str], games: usize, plies: usize, seed: u64) -> Vec<G> {
    let all = positions(starts, games, plies, seed);
    all.into_iter().step_by(step).collect()
}

/// Features in range and inside the king bucket; one per piece (chess) or per board piece and
/// hand count (shogi); perspectives with equal counts (the tuner's batches rely on it).
fn check_ranges<G: NnueGame>(pos: &G, expected_count: usize, buckets: usize) {
    let arch = G::ARCH.with_king_buckets(buckets);
    let mut counts = [0; 2];
    for perspective in [Side::First, Side::Second] {
        let set = active_set(pos, perspective, buckets);
        let key = pos.king_key(perspective, buckets);
        assert!(key < G::KING_KEYS);
        let bucket = *set.first().unwrap() as usize / arch.inputs;
        assert!(bucket < buckets, "{}", pos.to_text());
        for &f in &set {
            assert!((f as usize) < arch.feature_rows());
            assert_eq!(f as usize / arch.inputs, bucket, "{}", pos.to_text());
        }
        counts[perspective.index()] = set.len();
        assert!(pos.output_bucket() < arch.output_buckets);
    }
    assert_eq!(counts, [expected_count; 2], "{}", pos.to_text());
}

/// After every move with an unchanged king key, parent − removed + added = child.
fn check_changes<G: NnueGame>(parent: &G, child: &G, buckets: usize) {
    for perspective in [Side::First, Side::Second] {
        let key = parent.king_key(perspective, buckets);
        if child.king_key(perspective, buckets) != key {
            continue;
        }
        let mut changes = FeatureChanges::<MAX_CHANGED>::default();
        G::changed_features(child.delta(), perspective, key, &mut changes);
        let mut set = active_set(parent, perspective, buckets);
        for f in changes.removed.as_slice() {
            assert!(
                set.remove(f),
                "removed an inactive feature at {}",
                child.to_text()
            );
        }
        for f in changes.added.as_slice() {
            assert!(
                set.insert(*f),
                "added an active feature at {}",
                child.to_text()
            );
        }
        assert_eq!(
            set,
            active_set(child, perspective, buckets),
            "{}",
            child.to_text()
        );
    }
}

/// Snapshot differences turn any position's features into any other's (same king key).
fn check_snapshots<G: NnueGame>(a: &G, b: &G, buckets: usize) {
    for perspective in [Side::First, Side::Second] {
        let key = b.king_key(perspective, buckets);
        let mut changes = FeatureChanges::<MAX_ACTIVE>::default();
        G::snapshot_changes(&a.snapshot(), &b.snapshot(), perspective, key, &mut changes);
        // The features of `a` as seen with `b`'s key: from the empty snapshot.
        let mut from_empty = FeatureChanges::<MAX_ACTIVE>::default();
        G::snapshot_changes(
            &G::Snapshot::default(),
            &a.snapshot(),
            perspective,
            key,
            &mut from_empty,
        );
        assert!(from_empty.removed.is_empty());
        let mut set: BTreeSet<u32> = from_empty.added.as_slice().iter().copied().collect();
        for f in changes.removed.as_slice() {
            assert!(set.remove(f));
        }
        for f in changes.added.as_slice() {
            assert!(set.insert(*f));
        }
        assert_eq!(set, active_set(b, perspective, buckets));
    }
}

#[test]
fn chess_features_are_in_range_and_follow_the_moves() {
    let all = positions::<sente::chess::Position>(CHESS_STARTS, 4, 150, 3);
    for &buckets in SUPPORTED_KING_BUCKETS {
        let mut used = BTreeSet::new();
        for (i, pos) in all.iter().enumerate() {
            check_ranges(pos, pos.occupied().count_ones() as usize, buckets);
            if i > 0 && pos.game_ply() == all[i - 1].game_ply() + 1 {
                check_changes(&all[i - 1], pos, buckets);
            }
            check_snapshots(&all[(i * 7919) % all.len()], pos, buckets);
            used.insert(pos.king_key(Side::First, buckets));
        }
        assert_eq!(used.len(), 2 * buckets, "every bucket and mirror: {used:?}");
    }
}

#[test]
fn shogi_features_are_in_range_and_follow_the_moves() {
    let all = positions::<sente::shogi::Position>(SHOGI_STARTS, 4, 200, 4);
    for (i, pos) in all.iter().enumerate() {
        let hands: u32 = [Side::First, Side::Second]
            .iter()
            .map(|&s| pos.hand(s).total())
            .sum();
        for &buckets in SUPPORTED_KING_BUCKETS {
            check_ranges(
                pos,
                pos.occupied().count() as usize + hands as usize,
                buckets,
            );
            if i > 0 && pos.game_ply() == all[i - 1].game_ply() + 1 {
                check_changes(&all[i - 1], pos, buckets);
            }
            check_snapshots(&all[(i * 7919) % all.len()], pos, buckets);
        }
    }
}

#[test]
fn chess_eval_is_the_same_for_the_colour_flipped_and_the_mirrored_position() {
    for &buckets in SUPPORTED_KING_BUCKETS {
        chess_eval_symmetries(buckets);
    }
}

fn chess_eval_symmetries(buckets: usize) {
    let net = net_of_variant::<sente::chess::Position>(CHESS.l1, buckets);
    let mut eval = NnueEval::<sente::chess::Position>::new(Arc::clone(&net)).unwrap();
    let mut score = |fen: &str| {
        let pos = sente::chess::Position::from_text(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        eval.reset(&pos);
        let s = eval.evaluate(&pos);
        assert_eq!(s, evaluate_from_scratch(&net, SimdLevel::Scalar, &pos));
        s
    };
    let mut compared = 0;
    for pos in sampled::<sente::chess::Position>(3, CHESS_STARTS, 2, 120, 5) {
        let fen = pos.to_text();
        if pos.is_chess960() {
            continue;
        }
        let s = score(&fen);
        assert_eq!(s, score(&flip_chess_fen(&fen)), "colour flip of {fen}");
        assert_eq!(s, score(&mirror_chess_fen(&fen)), "mirror of {fen}");
        compared += 1;
    }
    assert!(compared > 100);
    // And the evaluation is not trivially constant.
    let distinct: BTreeSet<i32> = CHESS_STARTS.iter().map(|f| score(f)).collect();
    assert!(distinct.len() > 3, "{distinct:?}");
}

#[test]
fn shogi_eval_is_the_same_for_the_colour_flipped_position() {
    let net = shogi_net();
    let mut eval = NnueEval::<sente::shogi::Position>::new(Arc::clone(&net)).unwrap();
    let mut score = |sfen: &str| {
        let pos = sente::shogi::Position::from_text(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        eval.reset(&pos);
        eval.evaluate(&pos)
    };
    let sample = sampled::<sente::shogi::Position>(3, SHOGI_STARTS, 2, 150, 6);
    assert!(sample.len() > 100);
    for pos in &sample {
        let sfen = pos.to_text();
        assert_eq!(
            score(&sfen),
            score(&flip_shogi_sfen(&sfen)),
            "flip of {sfen}"
        );
    }
    let distinct: BTreeSet<i32> = SHOGI_STARTS.iter().map(|f| score(f)).collect();
    assert!(distinct.len() > 2, "{distinct:?}");
}

#[test]
fn shogi_mirrored_features_are_the_features_of_the_mirrored_position() {
    let mut compared = 0;
    for pos in sampled::<sente::shogi::Position>(2, SHOGI_STARTS, 2, 150, 7) {
        let sfen = pos.to_text();
        let mirror = mirror_shogi_sfen(&sfen);
        if sfen == mirror {
            continue;
        }
        let mirrored =
            sente::shogi::Position::from_text(&mirror).unwrap_or_else(|e| panic!("{mirror}: {e}"));
        for perspective in [Side::First, Side::Second] {
            for &buckets in SUPPORTED_KING_BUCKETS {
                let mapped: BTreeSet<u32> = active_set(&pos, perspective, buckets)
                    .iter()
                    .map(|&f| sente::shogi::Position::mirrored_feature(f, buckets).unwrap())
                    .collect();
                assert_eq!(
                    mapped,
                    active_set(&mirrored, perspective, buckets),
                    "{sfen} / {mirror}, {buckets} buckets"
                );
            }
        }
        assert_eq!(pos.output_bucket(), mirrored.output_bucket());
        compared += 1;
    }
    assert!(compared > 100);
    // Mirroring twice is the identity, and chess has no exact mirror.
    for &buckets in SUPPORTED_KING_BUCKETS {
        let arch = <sente::shogi::Position as NnueGame>::ARCH.with_king_buckets(buckets);
        for f in 0..arch.feature_rows() as u32 {
            let m = sente::shogi::Position::mirrored_feature(f, buckets).unwrap();
            assert!((m as usize) < arch.feature_rows());
            assert_eq!(
                sente::shogi::Position::mirrored_feature(m, buckets),
                Some(f)
            );
        }
    }
    assert_eq!(sente::chess::Position::mirrored_feature(0, 1), None);
}
