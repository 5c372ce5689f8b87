//! Correction history: how far the static evaluation of positions with the same slow-changing
//! structure (`Game::correction_key`: chess pawns, shogi pawns and hands) has erred from the
//! search results below them, learned per side to move and added to later static evaluations.
//! Three more keys learn the same error: each side's pieces other than pawns
//! (`Game::piece_keys`) and the last two moves, and the correction is the weighted blend of the
//! four tables. Used in games with `Game::CORRECTION_HISTORY`. Fixed-size tables per search
//! thread; never allocated during search.

use super::prefetch::prefetch;
use crate::game::{mix_key, Side};

/// Entries per side (a power of two: the key's low bits index it).
const ENTRIES: usize = 16_384;
/// Entries hold the error in 1/GRAIN centipawns, so small updates are not rounded away.
const GRAIN: i32 = 256;
/// Largest correction (centipawns).
const MAX_CORRECTION: i32 = 128;
/// Weights are out of this; a search of depth d weighs min(d + 1, MAX_WEIGHT).
const WEIGHT_SCALE: i32 = 256;
const MAX_WEIGHT: i32 = 16;

/// The tables of the blend: structure, first side's pieces, second
/// side's pieces, last two moves.
const TABLES: usize = 4;
/// Each table's weight in the blend, out of `BLEND_SCALE`: the structure key alone is the
/// plain correction; the blend weighs it most and sums to a little more than one, as tables
/// that agree should move the evaluation further than one alone.
const BLEND: [i32; TABLES] = [3, 2, 2, 2];
const BLEND_SCALE: i32 = 8;

/// The keys a position's correction is looked up by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionKeys {
    /// `Game::correction_key`.
    pub structure: u64,
    /// `Game::piece_keys`.
    pub pieces: [u64; 2],
    /// A key of the last two moves ((piece, to) one and two plies back).
    pub moves: u64,
}

impl CorrectionKeys {
    /// The key of the moves one and two plies back (`None`: none there, or a null move).
    pub fn of_moves(last: Option<usize>, before: Option<usize>) -> u64 {
        let code = |p: Option<usize>| p.map_or(0, |p| p as u64 + 1);
        mix_key(code(last), code(before))
    }

    fn key(&self, table: usize) -> u64 {
        match table {
            0 => self.structure,
            1 => self.pieces[0],
            2 => self.pieces[1],
            _ => self.moves,
        }
    }
}

pub struct CorrectionHistory {
    /// `[table][side][key % ENTRIES]`: the running weighted mean of (search result − raw eval).
    table: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self {
            table: vec![0; TABLES * 2 * ENTRIES],
        }
    }
}

impl CorrectionHistory {
    fn index(table: usize, side: Side, key: u64) -> usize {
        (table * 2 + side.index()) * ENTRIES + (key as usize & (ENTRIES - 1))
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// The correction (centipawns) to add to a static evaluation: the weighted blend of all
    /// tables.
    #[inline]
    pub fn correction(&self, side: Side, keys: &CorrectionKeys) -> i32 {
        let sum: i32 = (0..TABLES)
            .map(|t| BLEND[t] * self.table[Self::index(t, side, keys.key(t))])
            .sum();
        sum / (BLEND_SCALE * GRAIN)
    }

    /// Starts loading the entries `correction` will read, so that their cache misses overlap
    /// the node's table probe and evaluation instead of following them.
    #[inline]
    pub fn prefetch(&self, side: Side, keys: &CorrectionKeys) {
        for t in 0..TABLES {
            prefetch(&self.table[Self::index(t, side, keys.key(t))]);
        }
    }

    /// Moves every table's entry toward `error` (search result − the corrected static eval
    /// before its correction, centipawns), by more for deeper searches.
    pub fn update(&mut self, side: Side, keys: &CorrectionKeys, depth: i32, error: i32) {
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let target = error.clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        for t in 0..TABLES {
            let entry = &mut self.table[Self::index(t, side, keys.key(t))];
            let updated = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
            *entry = updated.clamp(-MAX_CORRECTION * GRAIN, MAX_CORRECTION * GRAIN);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(structure: u64) -> CorrectionKeys {
        CorrectionKeys {
            structure,
            pieces: [structure + 100, structure + 200],
            moves: CorrectionKeys::of_moves(Some(structure as usize), None),
        }
    }

    #[test]
    fn entries_learn_the_mean_error_within_bounds() {
        let mut h = CorrectionHistory::default();
        assert_eq!(h.correction(Side::First, &keys(7)), 0);
        // Every table learns: the blend reaches 9/8 of the error.
        for _ in 0..200 {
            h.update(Side::First, &keys(7), 8, 80);
        }
        assert!((87..=90).contains(&h.correction(Side::First, &keys(7))));
        // Other sides and keys are untouched; huge errors are capped.
        assert_eq!(h.correction(Side::Second, &keys(7)), 0);
        assert_eq!(h.correction(Side::First, &keys(8)), 0);
        for _ in 0..500 {
            h.update(Side::Second, &keys(9), 20, -10_000);
        }
        let capped = h.correction(Side::Second, &keys(9));
        let bound = MAX_CORRECTION * 9 / 8;
        assert!((-bound..=-bound + 3).contains(&capped), "{capped}");
        h.clear();
        assert_eq!(h.correction(Side::Second, &keys(9)), 0);
    }

    #[test]
    fn the_blend_weighs_every_table() {
        let mut h = CorrectionHistory::default();
        for _ in 0..200 {
            h.update(Side::First, &keys(7), 8, 80);
        }
        // A position sharing only the move key sees that table's part (2/8).
        let other = CorrectionKeys {
            structure: 1_000,
            pieces: [2_000, 3_000],
            moves: keys(7).moves,
        };
        assert!((18..=20).contains(&h.correction(Side::First, &other)));
        // One sharing the structure key alone sees 3/8.
        let structure_only = CorrectionKeys {
            structure: 7,
            pieces: [4_000, 5_000],
            moves: 6_000,
        };
        assert!((28..=30).contains(&h.correction(Side::First, &structure_only)));
    }

    #[test]
    fn move_keys_tell_the_order_and_absence_of_moves_apart() {
        let k = CorrectionKeys::of_moves;
        assert_ne!(k(Some(1), Some(2)), k(Some(2), Some(1)));
        assert_ne!(k(None, Some(0)), k(Some(0), None));
        assert_ne!(k(None, None), k(Some(0), Some(0)));
    }
}
