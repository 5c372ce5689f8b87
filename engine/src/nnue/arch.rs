//! The network architectures, declared once: every size, the feature set and the quantization
//! that the engine, datagen and the tuner use come from here.
//!
//! Both games share one layer scheme: a sparse feature transformer (`inputs` features per king
//! bucket, `l1` outputs per perspective), the two perspectives concatenated (side to move first),
//! an activation, and one output neuron chosen from `output_buckets`.

use crate::game_kind::GameKind;
use std::fmt;

/// Activation applied to the feature-transformer outputs. The discriminant is the id stored in
/// net files; id 1 (plain clipped ReLU) was reserved but never produced, and is rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// `clamp(x, 0, QA)^2` (squared clipped ReLU).
    SCReLU = 2,
}

impl Activation {
    /// The activation of a stored id, if the engine implements it.
    pub fn from_id(id: u32) -> Option<Self> {
        match id {
            2 => Some(Activation::SCReLU),
            _ => None,
        }
    }
}

/// Game identifiers stored in net files (and data chunks): `GameKind::id`, named for match
/// patterns.
pub const GAME_CHESS: u32 = GameKind::Chess.id();
pub const GAME_SHOGI: u32 = GameKind::Shogi.id();

/// Feature-set identifiers stored in net files.
/// Chess: 768 piece-square features per perspective (colour × piece × square, from the
/// perspective's side, mirrored so the king stands on files e–h), times king buckets.
/// Indexing: `nnue::chess_features`.
pub const FEATURES_CHESS_768_KB: u32 = 1;
/// Shogi: piece-square features for board pieces (colour × 14 kinds × 81 squares) plus hand-count
/// features (colour × kind × count), from the perspective's side, times king-region buckets.
/// Indexing: `nnue::shogi_features`.
pub const FEATURES_SHOGI_PSQ_HAND_KB: u32 = 2;

/// A complete description of one network: what a net file must match to be loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Architecture {
    pub game_id: u32,
    pub feature_set: u32,
    /// Features per king bucket.
    pub inputs: usize,
    pub king_buckets: usize,
    /// Feature-transformer outputs per perspective (a multiple of 32 for the SIMD kernels).
    pub l1: usize,
    pub output_buckets: usize,
    pub activation: Activation,
    /// Quantization of the feature transformer (weights and biases scaled by QA).
    pub qa: i32,
    /// Quantization of the output layer weights.
    pub qb: i32,
    /// Network output × eval_scale = centipawns.
    pub eval_scale: i32,
}

impl Architecture {
    /// Rows of the feature-transformer weight matrix.
    pub const fn feature_rows(&self) -> usize {
        self.inputs * self.king_buckets
    }

    pub const fn game_name(&self) -> &'static str {
        match GameKind::from_id(self.game_id) {
            Some(kind) => kind.name(),
            None => "an unknown game",
        }
    }
}

impl fmt::Display for Architecture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} features#{} ({}x{})->{}x2->{:?}->1x{} qa={} qb={} scale={}",
            self.game_name(),
            self.feature_set,
            self.inputs,
            self.king_buckets,
            self.l1,
            self.activation,
            self.output_buckets,
            self.qa,
            self.qb,
            self.eval_scale
        )
    }
}

/// Sente's chess network (bullet's conventions: SCReLU, QA 255, QB 64, scale 400).
pub const CHESS: Architecture = Architecture {
    game_id: GAME_CHESS,
    feature_set: FEATURES_CHESS_768_KB,
    inputs: 768,
    king_buckets: 1,
    l1: 128,
    output_buckets: 8,
    activation: Activation::SCReLU,
    qa: 255,
    qb: 64,
    eval_scale: 400,
};

/// Shogi piece kinds with a board feature (7 unpromoted + king + 6 promoted).
pub const SHOGI_BOARD_KINDS: usize = 14;
/// Maximum hand count per kind, in the engine's hand-kind order (`shogi::PieceKind::HAND`):
/// pawn, lance, knight, silver, bishop, rook, gold.
pub const SHOGI_HAND_MAX: [usize; 7] = [18, 4, 4, 4, 2, 2, 4];
/// Hand features per colour: one per (kind, count ≥ k).
pub const SHOGI_HAND_FEATURES: usize = 38;

/// Sente's shogi network: compact piece-square + hand-count features, king-region buckets.
pub const SHOGI: Architecture = Architecture {
    game_id: GAME_SHOGI,
    feature_set: FEATURES_SHOGI_PSQ_HAND_KB,
    inputs: 2 * SHOGI_BOARD_KINDS * 81 + 2 * SHOGI_HAND_FEATURES,
    king_buckets: 1,
    l1: 128,
    output_buckets: 8,
    activation: Activation::SCReLU,
    qa: 255,
    qb: 64,
    eval_scale: 400,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_sizes_suit_the_simd_kernels() {
        for arch in [CHESS, SHOGI] {
            assert_eq!(arch.l1 % 32, 0, "{arch}");
        }
        assert_eq!(SHOGI_HAND_MAX.iter().sum::<usize>(), SHOGI_HAND_FEATURES);
    }
}
