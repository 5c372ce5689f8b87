//! Correction history: how far the static evaluation of positions with the same slow-changing
//! structure (`Game::correction_key`: chess pawns, shogi pawns and hands) has erred from the
//! search results below them, learned per side to move and added to later static evaluations.
//! One fixed-size table per search thread; never allocated during search.

use crate::game::Side;

/// Entries per side (a power of two: the key's low bits index it).
const ENTRIES: usize = 16_384;
/// Entries hold the error in 1/GRAIN centipawns, so small updates are not rounded away.
const GRAIN: i32 = 256;
/// Largest correction (centipawns).
const MAX_CORRECTION: i32 = 128;
/// Weights are out of this; a search of depth d weighs min(d + 1, MAX_WEIGHT).
const WEIGHT_SCALE: i32 = 256;
const MAX_WEIGHT: i32 = 16;

pub struct CorrectionHistory {
    /// `[side][key % ENTRIES]`: the running weighted mean of (search result − raw eval).
    table: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self {
            table: vec![0; 2 * ENTRIES],
        }
    }
}

impl CorrectionHistory {
    fn index(side: Side, key: u64) -> usize {
        side.index() * ENTRIES + (key as usize & (ENTRIES - 1))
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// The correction (centipawns) to add to a raw static evaluation.
    #[inline]
    pub fn correction(&self, side: Side, key: u64) -> i32 {
        self.table[Self::index(side, key)] / GRAIN
    }

    /// Moves the entry toward `error` (search result − raw static eval, centipawns), by more
    /// for deeper searches.
    pub fn update(&mut self, side: Side, key: u64, depth: i32, error: i32) {
        let entry = &mut self.table[Self::index(side, key)];
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let target = error.clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let updated = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        *entry = updated.clamp(-MAX_CORRECTION * GRAIN, MAX_CORRECTION * GRAIN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_learn_the_mean_error_within_bounds() {
        let mut h = CorrectionHistory::default();
        assert_eq!(h.correction(Side::First, 7), 0);
        for _ in 0..200 {
            h.update(Side::First, 7, 8, 40);
        }
        assert!((38..=40).contains(&h.correction(Side::First, 7)));
        // Other sides and keys are untouched; huge errors are capped.
        assert_eq!(h.correction(Side::Second, 7), 0);
        assert_eq!(h.correction(Side::First, 8), 0);
        for _ in 0..500 {
            h.update(Side::Second, 9, 20, -10_000);
        }
        assert!((-MAX_CORRECTION..=-MAX_CORRECTION + 2).contains(&h.correction(Side::Second, 9)));
        h.clear();
        assert_eq!(h.correction(Side::Second, 9), 0);
    }
}
