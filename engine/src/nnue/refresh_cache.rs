//! The refresh cache ("Finny table"): per perspective and king key, an accumulator together with
//! the piece snapshot it was computed for. Rebuilding a perspective after its king key changed
//! costs only the difference between that snapshot and the current pieces, not a full refresh.

use super::aligned_buffer::AlignedBuffer;
use super::network::Network;
use super::nnue_game::{FeatureChanges, NnueGame, MAX_ACTIVE};
use super::simd::{self, SimdLevel};
use crate::game::Side;

/// Rows combined per kernel call.
const ROWS_PER_PASS: usize = 8;

/// Fills `rows` with the weight rows of pass `pass` over `features`; returns how many.
#[inline]
fn rows_of_pass<'n>(
    weights: &'n [i16],
    l1: usize,
    features: &[u32],
    pass: usize,
    rows: &mut [&'n [i16]; ROWS_PER_PASS],
) -> usize {
    let start = (pass * ROWS_PER_PASS).min(features.len());
    let end = (start + ROWS_PER_PASS).min(features.len());
    for (slot, &f) in rows.iter_mut().zip(&features[start..end]) {
        let at = f as usize * l1;
        *slot = &weights[at..at + l1];
    }
    end - start
}

/// `dst = src + rows(added) − rows(removed)`, in passes of at most `ROWS_PER_PASS` added and
/// removed rows.
pub(crate) fn apply_changes(
    net: &Network,
    level: SimdLevel,
    dst: &mut [i16],
    src: &[i16],
    added: &[u32],
    removed: &[u32],
) {
    let (weights, l1) = (net.ft_weights(), net.arch().l1);
    // The usual incremental updates (a move's one or two pieces) take the unrolled kernels.
    let row = |f: u32| {
        let at = f as usize * l1;
        &weights[at..at + l1]
    };
    match (added, removed) {
        ([a], [r]) => return simd::update_fixed(level, dst, src, &[row(*a)], &[row(*r)]),
        ([a], [r, s]) => {
            return simd::update_fixed(level, dst, src, &[row(*a)], &[row(*r), row(*s)])
        }
        ([a, b], [r]) => {
            return simd::update_fixed(level, dst, src, &[row(*a), row(*b)], &[row(*r)])
        }
        ([a, b], [r, s]) => {
            return simd::update_fixed(level, dst, src, &[row(*a), row(*b)], &[row(*r), row(*s)])
        }
        _ => {}
    }
    let mut add_rows: [&[i16]; ROWS_PER_PASS] = [&[]; ROWS_PER_PASS];
    let mut sub_rows: [&[i16]; ROWS_PER_PASS] = [&[]; ROWS_PER_PASS];
    let passes = added
        .len()
        .div_ceil(ROWS_PER_PASS)
        .max(removed.len().div_ceil(ROWS_PER_PASS))
        .max(1);
    for pass in 0..passes {
        let n_add = rows_of_pass(weights, l1, added, pass, &mut add_rows);
        let n_sub = rows_of_pass(weights, l1, removed, pass, &mut sub_rows);
        if pass == 0 {
            simd::update(level, dst, src, &add_rows[..n_add], &sub_rows[..n_sub]);
        } else {
            // In place: add the next rows to what `dst` already holds.
            simd::update_in_place(level, dst, &add_rows[..n_add], &sub_rows[..n_sub]);
        }
    }
}

/// One accumulator and snapshot per (perspective, king key).
#[derive(Clone, Debug)]
pub(crate) struct RefreshCache<G: NnueGame> {
    l1: usize,
    accumulators: AlignedBuffer,
    snapshots: Vec<G::Snapshot>,
    changes: Box<FeatureChanges<MAX_ACTIVE>>,
}

impl<G: NnueGame> RefreshCache<G> {
    /// Every entry starts as the empty board (the bias alone).
    pub(crate) fn new(net: &Network) -> Self {
        let l1 = net.arch().l1;
        let entries = 2 * G::KING_KEYS;
        let mut accumulators = AlignedBuffer::zeroed(entries * l1);
        for entry in accumulators.as_mut_slice().chunks_exact_mut(l1) {
            entry.copy_from_slice(net.ft_bias());
        }
        Self {
            l1,
            accumulators,
            snapshots: vec![G::Snapshot::default(); entries],
            changes: Box::default(),
        }
    }

    /// Writes the accumulator of `perspective` in `pos` into `dst`, bringing the cache entry of
    /// its king key up to date on the way. Returns the king key.
    pub(crate) fn refresh(
        &mut self,
        net: &Network,
        level: SimdLevel,
        pos: &G,
        perspective: Side,
        dst: &mut [i16],
    ) -> usize {
        let key = pos.king_key(perspective, net.arch().king_buckets);
        let slot = perspective.index() * G::KING_KEYS + key;
        let snapshot = pos.snapshot();
        G::snapshot_changes(
            &self.snapshots[slot],
            &snapshot,
            perspective,
            key,
            &mut self.changes,
        );
        let entry = &mut self.accumulators.as_mut_slice()[slot * self.l1..(slot + 1) * self.l1];
        apply_changes(
            net,
            level,
            dst,
            entry,
            self.changes.added.as_slice(),
            self.changes.removed.as_slice(),
        );
        entry.copy_from_slice(dst);
        self.snapshots[slot] = snapshot;
        key
    }
}
