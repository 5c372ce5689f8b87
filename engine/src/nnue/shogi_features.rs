//! Shogi feature indexing (`FEATURES_SHOGI_PSQ_HAND_KB`), the one definition the engine, datagen
//! and the tuner share.
//!
//! Per perspective (the side whose accumulator it is), within one king bucket of
//! `INPUTS = 2 × 14 × 81 + 2 × 38` features:
//! - board features `colour * 1134 + kind * 81 + square`, colour 0 for the perspective's own
//!   pieces, kind as `shogi::PieceKind` (14 kinds, promoted ones included), the square rotated
//!   180° for White/gote so every perspective sees its own camp on ranks g–i;
//! - hand features `2268 + colour * 38 + HAND_OFFSET[kind] + (k − 1)`, one per `count ≥ k`
//!   for `k = 1..=min(count, SHOGI_HAND_MAX[kind])` (kinds in hand order pawn, lance, knight,
//!   silver, bishop, rook, gold), so a capture or a drop changes exactly one hand feature;
//! - king region from the perspective's (rotated) king square: inside its own camp (the three
//!   ranks nearest it) by file group, 0 = files 1–3, 1 = files 4–6, 2 = files 7–9 (from that
//!   side's view: furibisha castles, central king, ibisha castles), and 3 = the king has left its
//!   camp (entering-king play, a king chased up the board); the net's `king_buckets` (1, 2 or 4,
//!   read from its header) groups regions into buckets (`region_bucket`). No mirroring in the
//!   engine (shogi openings are not left-right symmetric), but the rules are, so the trainer
//!   also learns from each position's mirror image (`mirrored_feature`). The king key is the
//!   bucket.
//!
//! Output bucket: the number of pieces in both hands, a measure of how far the game has gone
//! (0: the opening, before the first exchange), mapped 0 → 0, 1 → 1, 2 → 2, 3–4 → 3, 5–6 → 4,
//! 7–9 → 5, 10–13 → 6, 14 and more → 7.

use super::arch::{
    SHOGI, SHOGI_BOARD_KINDS, SHOGI_HAND_FEATURES, SHOGI_HAND_MAX, SUPPORTED_KING_BUCKETS,
};
use super::nnue_game::{FeatureChanges, NnueGame, MAX_ACTIVE, MAX_CHANGED};
use crate::game::Side;
use crate::shogi::{ClassicalEval, Piece, PieceKind, Position, ShogiDelta, Square};

/// Board squares.
const SQUARES: usize = 81;
/// Board features per colour.
const BOARD_PER_COLOUR: usize = SHOGI_BOARD_KINDS * SQUARES;
/// First hand feature within a bucket.
const HAND_BASE: usize = 2 * BOARD_PER_COLOUR;
/// Features per king bucket.
pub const INPUTS: usize = HAND_BASE + 2 * SHOGI_HAND_FEATURES;
/// The most king buckets (= king keys) a shogi net may have.
pub const MAX_KING_BUCKETS: usize = 4;

const _: () = assert!(SUPPORTED_KING_BUCKETS[SUPPORTED_KING_BUCKETS.len() - 1] == MAX_KING_BUCKETS);

/// The bucket of king region `region` (own camp files 1–3, 4–6, 7–9, out of the camp) in a net
/// with `king_buckets` buckets: 4 keeps them apart, 2 splits in the camp / out of it, 1 merges
/// them.
#[inline(always)]
pub const fn region_bucket(king_buckets: usize, region: usize) -> usize {
    match king_buckets {
        1 => 0,
        2 => (region == 3) as usize,
        _ => region,
    }
}
/// Output buckets.
pub const OUTPUT_BUCKETS: usize = 8;

const _: () = assert!(SHOGI.inputs == INPUTS);
const _: () = assert!(SHOGI.output_buckets == OUTPUT_BUCKETS);

/// Offset of each hand kind's features within one colour's hand block.
pub const HAND_OFFSET: [usize; 7] = {
    let mut offsets = [0; 7];
    let mut i = 1;
    while i < 7 {
        offsets[i] = offsets[i - 1] + SHOGI_HAND_MAX[i - 1];
        i += 1;
    }
    offsets
};

/// Hand totals (0..=40) to output buckets.
const HAND_TOTAL_BUCKET: [u8; 41] = {
    let mut table = [7u8; 41];
    let mut n = 0;
    while n < 41 {
        table[n] = match n {
            0 => 0,
            1 => 1,
            2 => 2,
            3 | 4 => 3,
            5 | 6 => 4,
            7..=9 => 5,
            10..=13 => 6,
            _ => 7,
        };
        n += 1;
    }
    table
};

/// A square as `perspective` sees it (rotated 180° for White).
#[inline(always)]
const fn relative(perspective: Side, sq: Square) -> usize {
    match perspective {
        Side::First => sq,
        Side::Second => SQUARES - 1 - sq,
    }
}

/// The king region (0–3, as `region_bucket` numbers them) of `perspective` whose king stands on
/// `king_sq`.
#[inline]
pub const fn king_region_for(perspective: Side, king_sq: Square) -> usize {
    let rel = relative(perspective, king_sq);
    let (file, rank) = (rel / 9, rel % 9);
    if rank >= 6 {
        file / 3
    } else {
        3
    }
}

/// The king bucket of `perspective` whose king stands on `king_sq`, in a net with
/// `king_buckets` buckets.
#[inline]
pub const fn king_bucket_for(perspective: Side, king_sq: Square, king_buckets: usize) -> usize {
    region_bucket(king_buckets, king_region_for(perspective, king_sq))
}

/// The king bucket (= king key) of `perspective` in `pos`, in a net with `king_buckets` buckets.
#[inline]
pub fn king_bucket(pos: &Position, perspective: Side, king_buckets: usize) -> usize {
    king_bucket_for(perspective, pos.king_square(perspective), king_buckets)
}

/// The feature of `piece` on `sq` for `perspective` in king bucket `bucket`.
#[inline(always)]
pub const fn board_feature(perspective: Side, bucket: usize, piece: Piece, sq: Square) -> u32 {
    let colour = (piece.side() as usize) ^ (perspective as usize);
    (bucket * INPUTS
        + colour * BOARD_PER_COLOUR
        + piece.kind() as usize * SQUARES
        + relative(perspective, sq)) as u32
}

/// The feature "`owner` holds at least `k` (≥ 1) pieces of hand kind `kind`" for `perspective`
/// in king bucket `bucket`; `None` beyond the kind's maximum.
#[inline(always)]
pub const fn hand_feature(
    perspective: Side,
    bucket: usize,
    owner: Side,
    kind: PieceKind,
    k: usize,
) -> Option<u32> {
    let kind = kind as usize;
    if kind >= 7 || k == 0 || k > SHOGI_HAND_MAX[kind] {
        return None;
    }
    let colour = (owner as usize) ^ (perspective as usize);
    Some(
        (bucket * INPUTS + HAND_BASE + colour * SHOGI_HAND_FEATURES + HAND_OFFSET[kind] + k - 1)
            as u32,
    )
}

/// The training factor of a feature row (see `NnueGame::factor_of`).
pub fn factor_of(feature: u32) -> u32 {
    let index = feature as usize % INPUTS;
    if index < HAND_BASE {
        return (index / SQUARES) as u32;
    }
    let hand = index - HAND_BASE;
    let (colour, within) = (hand / SHOGI_HAND_FEATURES, hand % SHOGI_HAND_FEATURES);
    let kind = (0..7)
        .rev()
        .find(|&k| HAND_OFFSET[k] <= within)
        .unwrap_or(0);
    (2 * SHOGI_BOARD_KINDS + colour * 7 + kind) as u32
}

/// The king bucket of bucket `bucket`'s mirror image in a net with `king_buckets` buckets: the
/// file groups 1–3 and 7–9 swap places (only 4 buckets keep them apart).
pub const fn mirrored_bucket(king_buckets: usize, bucket: usize) -> usize {
    let mut region = 0;
    while region < 4 {
        if region_bucket(king_buckets, region) == bucket {
            let mirrored = if region < 3 { 2 - region } else { 3 };
            return region_bucket(king_buckets, mirrored);
        }
        region += 1;
    }
    bucket
}

/// The feature of the left–right mirror image, in a net with `king_buckets` buckets: the board
/// square's file `f` becomes `8 − f` (the same for both perspectives, since the 180° rotation
/// commutes with the mirror), the king bucket's file group is mirrored, and hand features stay.
pub const fn mirrored_feature(feature: u32, king_buckets: usize) -> u32 {
    let (bucket, index) = (feature as usize / INPUTS, feature as usize % INPUTS);
    let index = if index < HAND_BASE {
        let (base, sq) = (index - index % SQUARES, index % SQUARES);
        base + (8 - sq / 9) * 9 + sq % 9
    } else {
        index
    };
    (mirrored_bucket(king_buckets, bucket) * INPUTS + index) as u32
}

/// Writes the active features of `perspective` (for a net with `king_buckets` king buckets) into
/// `out` and returns their number.
pub fn active_features(
    pos: &Position,
    perspective: Side,
    king_buckets: usize,
    out: &mut [u32; MAX_ACTIVE],
) -> usize {
    let bucket = king_bucket(pos, perspective, king_buckets);
    let mut n = 0;
    for sq in pos.occupied() {
        if n < MAX_ACTIVE {
            out[n] = board_feature(perspective, bucket, pos.piece_on(sq), sq);
            n += 1;
        }
    }
    for owner in [Side::First, Side::Second] {
        let hand = pos.hand(owner);
        for kind in PieceKind::HAND {
            for k in 1..=hand.count(kind) as usize {
                match hand_feature(perspective, bucket, owner, kind, k) {
                    Some(f) if n < MAX_ACTIVE => {
                        out[n] = f;
                        n += 1;
                    }
                    _ => break,
                }
            }
        }
    }
    n
}

/// The features the move recorded in `delta` changed for `perspective` (king bucket unchanged).
pub fn changed_features(
    delta: &ShogiDelta,
    perspective: Side,
    bucket: usize,
    changes: &mut FeatureChanges<MAX_CHANGED>,
) {
    changes.clear();
    for p in delta.removed() {
        let sq = p.square as Square;
        changes
            .removed
            .push(board_feature(perspective, bucket, p.piece, sq));
    }
    if let Some(p) = delta.added {
        let sq = p.square as Square;
        changes
            .added
            .push(board_feature(perspective, bucket, p.piece, sq));
    }
    if let Some(h) = delta.hand {
        let (old, new) = (h.old as usize, h.new as usize);
        if new > old {
            for k in old + 1..=new {
                if let Some(f) = hand_feature(perspective, bucket, h.side, h.kind, k) {
                    changes.added.push(f);
                }
            }
        } else {
            for k in new + 1..=old {
                if let Some(f) = hand_feature(perspective, bucket, h.side, h.kind, k) {
                    changes.removed.push(f);
                }
            }
        }
    }
}

/// The output bucket of `pos`, from the number of pieces in both hands.
#[inline]
pub fn output_bucket(pos: &Position) -> usize {
    let total = pos.hand(Side::First).total() + pos.hand(Side::Second).total();
    HAND_TOTAL_BUCKET[(total as usize).min(40)] as usize
}

/// The pieces of a shogi position: one bitboard per (owner, kind) and both hands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShogiSnapshot {
    pub board: [[u128; SHOGI_BOARD_KINDS]; 2],
    pub hands: [[u8; 7]; 2],
}

impl NnueGame for Position {
    const ARCH: super::Architecture = SHOGI;
    const KING_KEYS: usize = MAX_KING_BUCKETS;
    /// One factor per (colour, board kind) for board pieces (the piece anywhere), then one per
    /// (colour, hand kind) for hand counts (a linear value per piece in hand).
    const FACTORS: usize = 2 * SHOGI_BOARD_KINDS + 2 * 7;

    #[inline]
    fn factor_of(feature: u32) -> u32 {
        factor_of(feature)
    }

    /// Shogi's rules are symmetric left to right (no castling, drops anywhere legal).
    fn mirrored_feature(feature: u32, king_buckets: usize) -> Option<u32> {
        Some(mirrored_feature(feature, king_buckets))
    }
    type Snapshot = ShogiSnapshot;
    type Classical = ClassicalEval;

    #[inline]
    fn region_bucket(king_buckets: usize, region: usize) -> usize {
        region_bucket(king_buckets, region)
    }

    #[inline]
    fn king_key(&self, perspective: Side, king_buckets: usize) -> usize {
        king_bucket(self, perspective, king_buckets)
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
        delta: &ShogiDelta,
        perspective: Side,
        king_key: usize,
        changes: &mut FeatureChanges<MAX_CHANGED>,
    ) {
        changed_features(delta, perspective, king_key, changes)
    }

    fn snapshot(&self) -> ShogiSnapshot {
        let mut s = ShogiSnapshot::default();
        for owner in [Side::First, Side::Second] {
            for kind in PieceKind::ALL {
                s.board[owner.index()][kind.index()] = self.pieces(owner, kind).0;
            }
            s.hands[owner.index()] = self.hand(owner).0;
        }
        s
    }

    fn snapshot_changes(
        old: &ShogiSnapshot,
        new: &ShogiSnapshot,
        perspective: Side,
        bucket: usize,
        changes: &mut FeatureChanges<MAX_ACTIVE>,
    ) {
        changes.clear();
        for owner in [Side::First, Side::Second] {
            let o = owner.index();
            for kind in PieceKind::ALL {
                let piece = Piece::new(owner, kind);
                let (was, is) = (old.board[o][kind.index()], new.board[o][kind.index()]);
                for sq in crate::shogi::Bitboard(was & !is) {
                    changes
                        .removed
                        .push(board_feature(perspective, bucket, piece, sq));
                }
                for sq in crate::shogi::Bitboard(is & !was) {
                    changes
                        .added
                        .push(board_feature(perspective, bucket, piece, sq));
                }
            }
            for kind in PieceKind::HAND {
                let (was, is) = (
                    old.hands[o][kind.index()] as usize,
                    new.hands[o][kind.index()] as usize,
                );
                for k in is + 1..=was {
                    if let Some(f) = hand_feature(perspective, bucket, owner, kind, k) {
                        changes.removed.push(f);
                    }
                }
                for k in was + 1..=is {
                    if let Some(f) = hand_feature(perspective, bucket, owner, kind, k) {
                        changes.added.push(f);
                    }
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
    use crate::game::Game;

    #[test]
    fn factors_group_board_pieces_by_kind_and_hand_counts_by_kind() {
        use crate::nnue::NnueGame;
        let factors = <Position as NnueGame>::FACTORS as u32;
        for bucket in 0..MAX_KING_BUCKETS {
            for owner in [Side::First, Side::Second] {
                for kind in 0..7usize {
                    let pk = PieceKind::HAND[kind];
                    let expected =
                        (2 * SHOGI_BOARD_KINDS + owner as usize * 7 + pk as usize) as u32;
                    for k in 1..=SHOGI_HAND_MAX[pk as usize] {
                        let f = hand_feature(Side::First, bucket, owner, pk, k).unwrap();
                        assert_eq!(factor_of(f), expected);
                    }
                }
            }
        }
        for f in 0..(INPUTS * MAX_KING_BUCKETS) as u32 {
            assert!(factor_of(f) < factors);
        }
        let a = board_feature(Side::First, 0, Piece::new(Side::First, PieceKind::Rook), 3);
        let b = board_feature(Side::First, 0, Piece::new(Side::First, PieceKind::Rook), 70);
        assert_eq!(factor_of(a), factor_of(b));
        assert_eq!(factor_of(a), PieceKind::Rook as u32);
    }

    #[test]
    fn hand_features_fill_their_block_exactly() {
        let mut seen = [false; 2 * SHOGI_HAND_FEATURES];
        for owner in [Side::First, Side::Second] {
            for kind in PieceKind::HAND {
                for k in 1..=SHOGI_HAND_MAX[kind.index()] {
                    let f = hand_feature(Side::First, 0, owner, kind, k).unwrap() as usize;
                    assert!(!std::mem::replace(&mut seen[f - HAND_BASE], true));
                }
                let beyond = SHOGI_HAND_MAX[kind.index()] + 1;
                assert_eq!(hand_feature(Side::First, 0, owner, kind, beyond), None);
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn startpos_kings_are_central_in_their_camps_for_both_sides() {
        let pos = Position::startpos();
        assert_eq!(
            king_region_for(Side::First, pos.king_square(Side::First)),
            1
        );
        assert_eq!(
            king_region_for(Side::Second, pos.king_square(Side::Second)),
            1
        );
        assert_eq!(output_bucket(&pos), 0);
        // 9i (file 9 = index 8, rank i = index 8) is Black's left corner: region 2; for White,
        // its 1a corner (the same corner rotated) is region 2 too.
        assert_eq!(king_region_for(Side::First, 8 * 9 + 8), 2);
        assert_eq!(king_region_for(Side::Second, 0), 2);
        assert_eq!(king_region_for(Side::First, 4 * 9 + 4), 3);
        for &buckets in SUPPORTED_KING_BUCKETS {
            assert_eq!(
                king_bucket(&pos, Side::First, buckets),
                region_bucket(buckets, 1)
            );
            assert_eq!(
                king_bucket_for(Side::First, 4 * 9 + 4, buckets),
                buckets - 1
            );
        }
    }

    #[test]
    fn mirrored_buckets_swap_the_outer_file_groups_only_with_four_buckets() {
        assert_eq!(
            (0..4).map(|b| mirrored_bucket(4, b)).collect::<Vec<_>>(),
            [2, 1, 0, 3]
        );
        assert_eq!(mirrored_bucket(2, 0), 0);
        assert_eq!(mirrored_bucket(2, 1), 1);
        assert_eq!(mirrored_bucket(1, 0), 0);
    }
}
