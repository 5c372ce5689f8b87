//! Chess feature indexing (`FEATURES_CHESS_768_KB`), the one definition the engine, datagen and
//! the tuner share.
//!
//! Per perspective (the side whose accumulator it is):
//! - squares are flipped vertically for Black (rank 1 is always the perspective's back rank),
//!   then mirrored horizontally when the perspective's king stands on files a–d, so the king is
//!   always on files e–h;
//! - a feature is `bucket * 768 + colour * 384 + kind * 64 + square`, colour 0 for the
//!   perspective's own pieces and 1 for the opponent's, kind pawn..king as `PieceKind`;
//! - the king region comes from the perspective's (flipped, mirrored) king square:
//!   0 = back rank on files f–h (a castled king: short, or long after the mirror),
//!   1 = back rank on file e (a king on its home square, d or e), 2 = second or third rank,
//!   3 = anywhere further up; the net's `king_buckets` (1, 2 or 4, read from its header) groups
//!   regions into buckets (`region_bucket`);
//! - the king key is `bucket * 2 + mirror` (the refresh cache holds one accumulator per key), so
//!   a key names its bucket and mirror whatever the net's bucket count.
//!
//! Output bucket: `(pieces on the board − 2) / 4`, clamped to 0..7.

use super::arch::{CHESS, SUPPORTED_KING_BUCKETS};
use super::nnue_game::{FeatureChanges, NnueGame, MAX_ACTIVE, MAX_CHANGED};
use crate::chess::bitboard::pop_lsb;
use crate::chess::types::{file_of, piece_kind, piece_side, rank_of, PieceKind, Square};
use crate::chess::{ClassicalEval, Delta, Position};
use crate::game::Side;

/// Features per king bucket.
pub const INPUTS: usize = 768;
/// The most king buckets a chess net may have.
pub const MAX_KING_BUCKETS: usize = 4;
/// King keys at the most buckets: bucket × mirror.
pub const KING_KEYS: usize = 2 * MAX_KING_BUCKETS;

const _: () = assert!(SUPPORTED_KING_BUCKETS[SUPPORTED_KING_BUCKETS.len() - 1] == MAX_KING_BUCKETS);

/// The bucket of king region `region` (0 back rank f–h, 1 back rank e, 2 ranks 2–3, 3 further
/// up) in a net with `king_buckets` buckets: 4 keeps the regions apart, 2 splits the back rank from
/// the rest of the board, 1 merges them (only the mirror is left).
#[inline(always)]
pub const fn region_bucket(king_buckets: usize, region: usize) -> usize {
    match king_buckets {
        1 => 0,
        2 => region / 2,
        _ => region,
    }
}
/// Output buckets.
pub const OUTPUT_BUCKETS: usize = 8;

const _: () = assert!(CHESS.inputs == INPUTS);
const _: () = assert!(CHESS.output_buckets == OUTPUT_BUCKETS);

/// XOR that flips a square vertically for Black's perspective.
#[inline(always)]
const fn flip(perspective: Side) -> u8 {
    match perspective {
        Side::First => 0,
        Side::Second => 56,
    }
}

/// The king key of `perspective` whose king stands on `king_sq`, in a net with `king_buckets`
/// king buckets.
#[inline]
pub const fn king_key_for(perspective: Side, king_sq: Square, king_buckets: usize) -> usize {
    let rel = king_sq ^ flip(perspective);
    let mirror = file_of(rel) < 4;
    let rel = if mirror { rel ^ 7 } else { rel };
    let region = match rank_of(rel) {
        0 if file_of(rel) >= 5 => 0,
        0 => 1,
        1 | 2 => 2,
        _ => 3,
    };
    region_bucket(king_buckets, region) * 2 + mirror as usize
}

/// The feature of a piece (`owner`, `kind`) on `sq` for `perspective` with king key `king_key`.
#[inline(always)]
pub const fn feature(
    perspective: Side,
    king_key: usize,
    owner: Side,
    kind: PieceKind,
    sq: Square,
) -> u32 {
    let (mirror, bucket) = ((king_key as u8 & 1) * 7, king_key >> 1);
    let rel = (sq ^ flip(perspective) ^ mirror) as usize;
    let colour = (owner as usize) ^ (perspective as usize);
    (bucket * INPUTS + colour * 384 + kind as usize * 64 + rel) as u32
}

/// The king key of `perspective` in `pos`, in a net with `king_buckets` king buckets.
#[inline]
pub fn king_key(pos: &Position, perspective: Side, king_buckets: usize) -> usize {
    king_key_for(perspective, pos.king_square(perspective), king_buckets)
}

/// Writes the active features of `perspective` (for a net with `king_buckets` king buckets) into
/// `out` and returns their number.
pub fn active_features(
    pos: &Position,
    perspective: Side,
    king_buckets: usize,
    out: &mut [u32; MAX_ACTIVE],
) -> usize {
    let key = king_key(pos, perspective, king_buckets);
    let mut n = 0;
    for owner in [Side::First, Side::Second] {
        for kind in PieceKind::ALL {
            let mut b = pos.pieces(owner, kind);
            while b != 0 && n < MAX_ACTIVE {
                out[n] = feature(perspective, key, owner, kind, pop_lsb(&mut b));
                n += 1;
            }
        }
    }
    n
}

/// The features the move recorded in `delta` changed for `perspective` (king key unchanged).
pub fn changed_features(
    delta: &Delta,
    perspective: Side,
    king_key: usize,
    changes: &mut FeatureChanges<MAX_CHANGED>,
) {
    changes.clear();
    for p in delta.removed() {
        let (owner, kind) = (piece_side(p.piece), piece_kind(p.piece));
        changes
            .removed
            .push(feature(perspective, king_key, owner, kind, p.square));
    }
    for p in delta.added() {
        let (owner, kind) = (piece_side(p.piece), piece_kind(p.piece));
        changes
            .added
            .push(feature(perspective, king_key, owner, kind, p.square));
    }
}

/// The output bucket of `pos`: `(pieces − 2) / 4` clamped to 0..7.
#[inline]
pub fn output_bucket(pos: &Position) -> usize {
    let pieces = pos.occupied().count_ones() as usize;
    (pieces.saturating_sub(2) / 4).min(OUTPUT_BUCKETS - 1)
}

/// The pieces of a chess position: one bitboard per (owner, kind).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChessSnapshot(pub [[u64; 6]; 2]);

impl NnueGame for Position {
    const ARCH: super::Architecture = CHESS;
    const KING_KEYS: usize = KING_KEYS;
    /// One factor per (colour, kind): the piece's value on any square, in any bucket.
    const FACTORS: usize = 12;

    #[inline]
    fn factor_of(feature: u32) -> u32 {
        (feature % INPUTS as u32) / 64
    }
    type Snapshot = ChessSnapshot;
    type Classical = ClassicalEval;

    #[inline]
    fn region_bucket(king_buckets: usize, region: usize) -> usize {
        region_bucket(king_buckets, region)
    }

    #[inline]
    fn king_key(&self, perspective: Side, king_buckets: usize) -> usize {
        king_key(self, perspective, king_buckets)
    }

    fn active_features(
        &self,
        perspective: Side,
        king_buckets: usize,
        out: &mut [u32; MAX_ACTIVE],
    ) -> usize {
        active_features(self, perspective, king_buckets, out)
    }

    #[inline]
    fn changed_features(
        delta: &Delta,
        perspective: Side,
        king_key: usize,
        changes: &mut FeatureChanges<MAX_CHANGED>,
    ) {
        changed_features(delta, perspective, king_key, changes)
    }

    fn snapshot(&self) -> ChessSnapshot {
        let mut s = ChessSnapshot::default();
        for owner in [Side::First, Side::Second] {
            for kind in PieceKind::ALL {
                s.0[owner.index()][kind.index()] = self.pieces(owner, kind);
            }
        }
        s
    }

    fn snapshot_changes(
        old: &ChessSnapshot,
        new: &ChessSnapshot,
        perspective: Side,
        king_key: usize,
        changes: &mut FeatureChanges<MAX_ACTIVE>,
    ) {
        changes.clear();
        for owner in [Side::First, Side::Second] {
            for kind in PieceKind::ALL {
                let (was, is) = (
                    old.0[owner.index()][kind.index()],
                    new.0[owner.index()][kind.index()],
                );
                let mut gone = was & !is;
                while gone != 0 {
                    let sq = pop_lsb(&mut gone);
                    changes
                        .removed
                        .push(feature(perspective, king_key, owner, kind, sq));
                }
                let mut came = is & !was;
                while came != 0 {
                    let sq = pop_lsb(&mut came);
                    changes
                        .added
                        .push(feature(perspective, king_key, owner, kind, sq));
                }
            }
        }
    }

    #[inline]
    fn output_bucket(&self) -> usize {
        output_bucket(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::types::make_square;

    #[test]
    fn king_keys_follow_the_documented_buckets_and_mirror() {
        let sq = |name: &str| crate::chess::types::parse_square(name).unwrap();
        for &buckets in SUPPORTED_KING_BUCKETS {
            let key = |region: usize, mirror: usize| region_bucket(buckets, region) * 2 + mirror;
            let first = |name: &str| king_key_for(Side::First, sq(name), buckets);
            // White: g1 / f1 castled, e1 home, f3 low, h5 up the board; files a-d mirror.
            assert_eq!(first("g1"), key(0, 0));
            assert_eq!(first("f1"), key(0, 0));
            assert_eq!(first("e1"), key(1, 0));
            assert_eq!(first("f3"), key(2, 0));
            assert_eq!(first("h5"), key(3, 0));
            assert_eq!(first("b1"), key(0, 1));
            assert_eq!(first("d1"), key(1, 1));
            // Black sees its own back rank as rank 1.
            let second = |name: &str| king_key_for(Side::Second, sq(name), buckets);
            assert_eq!(second("g8"), key(0, 0));
            assert_eq!(second("c8"), key(0, 1));
            assert_eq!(second("e1"), key(3, 0));
            // Every key is in range, and every bucket and mirror is used.
            let keys: std::collections::HashSet<usize> = (0..64u8)
                .map(|s| king_key_for(Side::First, s, buckets))
                .collect();
            assert_eq!(keys.len(), 2 * buckets, "{buckets} buckets");
            assert!(keys.iter().all(|&k| k < 2 * buckets && k < KING_KEYS));
        }
        // One bucket: the key is the mirror alone, as in every net before bucket variants.
        assert_eq!(king_key_for(Side::First, sq("g1"), 1), 0);
        assert_eq!(king_key_for(Side::First, sq("a8"), 1), 1);
        // Two buckets: back rank (f-h and e) against the rest.
        assert_eq!(region_bucket(2, 1), 0);
        assert_eq!(region_bucket(2, 2), 1);
    }

    #[test]
    fn bucketed_features_of_one_position_differ_only_in_their_bucket_block() {
        let pos = crate::chess::fen::parse_fen("r3k2r/pp3ppp/8/3q4/8/5N2/PPP1KPPP/R6R w kq - 0 1")
            .unwrap();
        let mut one = [0u32; MAX_ACTIVE];
        let mut four = [0u32; MAX_ACTIVE];
        for perspective in [Side::First, Side::Second] {
            let n = active_features(&pos, perspective, 1, &mut one);
            let m = active_features(&pos, perspective, 4, &mut four);
            assert_eq!(n, m);
            let bucket = king_key(&pos, perspective, 4) >> 1;
            for (a, b) in one[..n].iter().zip(&four[..n]) {
                assert_eq!(
                    *b as usize,
                    bucket * INPUTS + *a as usize,
                    "{perspective:?}"
                );
            }
        }
        // White's king on e2 is in region 2 (ranks 2-3); Black's on e8 in region 1.
        assert_eq!(king_key(&pos, Side::First, 4) >> 1, 2);
        assert_eq!(king_key(&pos, Side::Second, 4) >> 1, 1);
    }

    #[test]
    fn factors_group_features_by_colour_and_kind() {
        let sq = |name: &str| crate::chess::types::parse_square(name).unwrap();
        for key in 0..KING_KEYS {
            for owner in [Side::First, Side::Second] {
                for kind in PieceKind::ALL {
                    let factors: std::collections::HashSet<u32> = (0..64u8)
                        .map(|s| Position::factor_of(feature(Side::First, key, owner, kind, s)))
                        .collect();
                    assert_eq!(factors.len(), 1);
                    let factor = *factors.iter().next().unwrap();
                    assert_eq!(factor as usize, owner as usize * 6 + kind as usize);
                }
            }
        }
        let own_pawn = feature(Side::Second, 0, Side::Second, PieceKind::Pawn, sq("e7"));
        assert_eq!(Position::factor_of(own_pawn), 0);
    }

    #[test]
    fn features_are_relative_to_the_perspective() {
        // A white pawn on e2 seen by White equals a black pawn on e7 seen by Black.
        let e2 = make_square(4, 1);
        let e7 = make_square(4, 6);
        assert_eq!(
            feature(Side::First, 1, Side::First, PieceKind::Pawn, e2),
            feature(Side::Second, 1, Side::Second, PieceKind::Pawn, e7)
        );
        // The opponent's pieces live in the upper half of a bucket.
        assert!(feature(Side::First, 0, Side::Second, PieceKind::Pawn, e7) >= 384);
        // Mirrored keys mirror files: a2 with the mirror is h2 without it.
        assert_eq!(
            feature(Side::First, 2 * 2 + 1, Side::First, PieceKind::Rook, 8),
            feature(Side::First, 2 * 2, Side::First, PieceKind::Rook, 15)
        );
    }
}
