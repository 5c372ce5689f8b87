//! The game-generic face of a feature set: what the NNUE evaluator (and the tuner) needs of a
//! game's feature indexing — active features, the features a move changed, king keys, the piece
//! snapshots of the refresh cache and the output bucket. Each game implements `NnueGame` next to
//! its indexing (`chess_features`, `shogi_features`).

use super::arch::Architecture;
use crate::eval::Evaluator;
use crate::game::{Game, Side};

/// Upper bound of active features of one perspective in any position either game's parser
/// accepts (chess: at most 64 pieces; shogi: 81 board squares plus 2 × 38 hand features).
pub const MAX_ACTIVE: usize = 160;

/// Most features one move adds or removes for one perspective (chess castling: two each; shogi
/// capture: mover, captured piece and a hand count).
pub const MAX_CHANGED: usize = 4;

/// A fixed-capacity list of feature indices (rows of the feature transformer, bucket included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureList<const N: usize> {
    indices: [u32; N],
    len: usize,
}

impl<const N: usize> Default for FeatureList<N> {
    fn default() -> Self {
        Self {
            indices: [0; N],
            len: 0,
        }
    }
}

impl<const N: usize> FeatureList<N> {
    /// Appends a feature; beyond the capacity the feature is dropped (never happens for the
    /// positions the parsers accept; `MAX_ACTIVE` and `MAX_CHANGED` are proven bounds).
    #[inline]
    pub fn push(&mut self, feature: u32) {
        debug_assert!(self.len < N, "feature list overflow");
        if self.len < N {
            self.indices[self.len] = feature;
            self.len += 1;
        }
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[u32] {
        &self.indices[..self.len]
    }
}

/// Features one move (or one refresh) adds and removes for one perspective.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FeatureChanges<const N: usize> {
    pub added: FeatureList<N>,
    pub removed: FeatureList<N>,
}

impl<const N: usize> FeatureChanges<N> {
    #[inline]
    pub fn clear(&mut self) {
        self.added.clear();
        self.removed.clear();
    }
}

/// King regions per perspective in both games' feature sets: the finest king bucketing, which
/// every supported bucket count groups (`NnueGame::region_bucket`).
pub const KING_REGIONS: usize = 4;

/// A game with an NNUE feature set.
///
/// A perspective's features depend on its *king key* (king bucket, and for chess the horizontal
/// mirror) and on the pieces. While the key stays the same, a move's `Delta` gives the changed
/// features; when it changes, the perspective is rebuilt from the refresh cache, which keeps one
/// accumulator per key together with the `Snapshot` of pieces it was computed for.
pub trait NnueGame: Game {
    /// The default architecture of this game's nets. A net may also be any width or king-bucket
    /// variant of it (`Architecture::check_variant`), so sizes come from the net, not from here.
    const ARCH: Architecture;
    /// Number of distinct king keys per perspective at the most king buckets
    /// (`SUPPORTED_KING_BUCKETS`): the refresh cache's entries. A net with fewer buckets uses
    /// the first keys only.
    const KING_KEYS: usize;
    /// The pieces (board and hands) in a form cheap to compare with another snapshot.
    type Snapshot: Copy + Default + std::fmt::Debug + Send + Sync;
    /// This game's classical evaluator (the default until a net is loaded).
    type Classical: Evaluator<Self> + Default + std::fmt::Debug + Sync;

    /// The bucket of king region `region` (`< KING_REGIONS`) in a net with `king_buckets` king
    /// buckets (one of `SUPPORTED_KING_BUCKETS`). Each bucket count groups whole buckets of the
    /// next larger one, so a net with more buckets can start as an exact copy of one with fewer
    /// (`tuner train --init NET --king-buckets N`).
    fn region_bucket(king_buckets: usize, region: usize) -> usize;
    /// The king key (`< KING_KEYS`) of `perspective` in this position, for a net with
    /// `king_buckets` king buckets (one of `SUPPORTED_KING_BUCKETS`). The key names the bucket
    /// itself (and any mirror), so the feature functions below need no bucket count.
    fn king_key(&self, perspective: Side, king_buckets: usize) -> usize;
    /// Writes the active features of `perspective` (rows, bucket included) for a net with
    /// `king_buckets` king buckets and returns how many.
    fn active_features(
        &self,
        perspective: Side,
        king_buckets: usize,
        out: &mut [u32; MAX_ACTIVE],
    ) -> usize;
    /// The features that the move described by `delta` added and removed for `perspective`,
    /// whose king key is `king_key` both before and after the move.
    fn changed_features(
        delta: &Self::Delta,
        perspective: Side,
        king_key: usize,
        changes: &mut FeatureChanges<MAX_CHANGED>,
    );
    /// The current pieces as a snapshot.
    fn snapshot(&self) -> Self::Snapshot;
    /// The features to add and remove to turn the accumulator of `old` into that of `new`, for
    /// `perspective` with king key `king_key`. `Snapshot::default()` is the empty board.
    fn snapshot_changes(
        old: &Self::Snapshot,
        new: &Self::Snapshot,
        perspective: Side,
        king_key: usize,
        changes: &mut FeatureChanges<MAX_ACTIVE>,
    );
    /// The output bucket (`< ARCH.output_buckets`).
    fn output_bucket(&self) -> usize;

    /// Training-only "factor" features: each real feature also feeds one virtual feature shared
    /// by many real ones (e.g. a piece kind on any square), so a small data set still learns
    /// what the real features have in common. The trainer adds a factor's weights to every
    /// real feature it covers and folds them into those rows when it quantizes; nets and the
    /// engine never see factors.
    const FACTORS: usize;
    /// The factor (`< FACTORS`) that feature row `feature` belongs to.
    fn factor_of(feature: u32) -> u32;

    /// The feature row that `feature` becomes when the position is mirrored left to right, for
    /// games where that mirror is an exact symmetry of the rules and of the feature set (the
    /// trainer then also learns from each position's mirror image). `None`: no such symmetry
    /// (chess: castling rights are not symmetric; its features mirror by the king's file anyway).
    /// `king_buckets` is the net's bucket count (the mirror may move a king to another bucket).
    fn mirrored_feature(feature: u32, king_buckets: usize) -> Option<u32> {
        let _ = (feature, king_buckets);
        None
    }
}
