//! The network architectures, declared once: every size, the feature set and the quantization
//! that the engine, datagen and the tuner use come from here.
//!
//! Both games share one layer scheme: a sparse feature transformer (`inputs` features per king
//! bucket, `l1` outputs per perspective), the two perspectives concatenated (side to move first),
//! an activation, and one output neuron chosen from `output_buckets`.
//!
//! Each game has one *default* architecture (`CHESS`, `SHOGI`) and its *variants*: the same
//! network with another hidden width `l1` (one of `SUPPORTED_L1`) and/or another number of king
//! buckets (one of `SUPPORTED_KING_BUCKETS`). A wider net, or one with more buckets, learns more
//! from more data; width also costs more per evaluation, buckets only memory and some refreshes.
//! Every other part (feature set, output buckets, activation, quantization) is the game's. Nets
//! carry both in the header, and the engine sizes its buffers and indexes its features from the
//! net it loads (`Architecture::check_variant` says what it accepts); the tuner trains any
//! supported variant (`tuner train --l1 N --king-buckets K`).

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
    /// Feature-transformer outputs per perspective, the hidden width (a multiple of 32 for the
    /// SIMD kernels). The game's default is `DEFAULT_L1`; a net may have any of `SUPPORTED_L1`.
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

    /// This architecture with hidden width `l1`: its width variant, all else (game, feature
    /// set, buckets, activation, quantization) unchanged. Whether the engine runs it is
    /// `SUPPORTED_L1`'s to say (`check_variant`).
    pub const fn with_l1(self, l1: usize) -> Self {
        Self { l1, ..self }
    }

    /// This architecture with `king_buckets` king buckets (the king regions grouped into that
    /// many sets of feature rows), all else unchanged. Whether the engine runs it is
    /// `SUPPORTED_KING_BUCKETS`'s to say (`check_variant`).
    pub const fn with_king_buckets(self, king_buckets: usize) -> Self {
        Self {
            king_buckets,
            ..self
        }
    }

    /// Whether a net with `king_buckets` buckets can be run (and trained): one of
    /// `SUPPORTED_KING_BUCKETS`.
    pub fn is_supported_king_buckets(king_buckets: usize) -> bool {
        SUPPORTED_KING_BUCKETS.contains(&king_buckets)
    }

    /// Whether a net `l1` wide can be run (and trained): one of `SUPPORTED_L1`.
    pub fn is_supported_l1(l1: usize) -> bool {
        SUPPORTED_L1.contains(&l1)
    }

    /// The supported widths as text, for messages: `128, 256, 384, …`.
    pub fn supported_l1_text() -> String {
        SUPPORTED_L1
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether the quantization constants (what `Network::output_as` uses) are this one's.
    pub const fn same_quantization(&self, other: &Architecture) -> bool {
        self.qa == other.qa && self.qb == other.qb && self.eval_scale == other.eval_scale
    }

    /// Checks that a net of architecture `net` can run where this architecture is expected
    /// (`self` is normally a game's default, `NnueGame::ARCH`): `net` is `self` itself, or a
    /// variant of it — identical in game, feature set, inputs, output buckets, activation, QA, QB
    /// and scale, with `l1` one of `SUPPORTED_L1` and `king_buckets` one of
    /// `SUPPORTED_KING_BUCKETS`. `Err` says what differs, for
    /// `NetFormatError::WrongArchitecture`.
    pub fn check_variant(&self, net: &Architecture) -> Result<(), String> {
        if net == self {
            return Ok(());
        }
        let mut differences = Vec::new();
        let mut differ = |field: &str, found: String, expected: String| {
            if found != expected {
                differences.push(format!("{field} {found}, expected {expected}"));
            }
        };
        differ("game", net.game_name().into(), self.game_name().into());
        differ(
            "feature set",
            format!("#{}", net.feature_set),
            format!("#{}", self.feature_set),
        );
        differ("inputs", net.inputs.to_string(), self.inputs.to_string());
        differ(
            "output buckets",
            net.output_buckets.to_string(),
            self.output_buckets.to_string(),
        );
        differ(
            "activation",
            format!("{:?}", net.activation),
            format!("{:?}", self.activation),
        );
        differ("qa", net.qa.to_string(), self.qa.to_string());
        differ("qb", net.qb.to_string(), self.qb.to_string());
        differ(
            "scale",
            net.eval_scale.to_string(),
            self.eval_scale.to_string(),
        );
        if net.l1 != self.l1 && !Self::is_supported_l1(net.l1) {
            differences.push(format!(
                "hidden width l1={} is not supported (supported widths: {})",
                net.l1,
                Self::supported_l1_text()
            ));
        }
        if net.king_buckets != self.king_buckets
            && !Self::is_supported_king_buckets(net.king_buckets)
        {
            differences.push(format!(
                "{} king buckets are not supported (supported: {})",
                net.king_buckets,
                SUPPORTED_KING_BUCKETS
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if differences.is_empty() {
            return Ok(());
        }
        Err(format!(
            "{}; file: {net}; engine: {self} or its width and king-bucket variants",
            differences.join("; ")
        ))
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

/// The hidden widths (`Architecture::l1`) the engine runs and the tuner trains, smallest first.
/// Every one is a multiple of 32, the step of the SIMD kernels (16 lanes for AVX2, 32 for
/// AVX-512, over whole 64-byte rows). The output layer's sum wraps in `i32` the same way at every
/// SIMD level; at QA 255 and output weights within ±127 (the tuner's clip) no trained net comes
/// near that, and the tuner warns when a quantized bucket could.
pub const SUPPORTED_L1: &[usize] = &[128, 256, 384, 512, 768, 1024];

/// The king-bucket counts (`Architecture::king_buckets`) the engine runs and the tuner trains, in
/// both games: each game's feature indexing sorts the perspective's king into one of four
/// regions, and the bucket count groups them (1: one set of feature rows for every king square,
/// 2: two groups, 4: each region its own; `nnue::chess_features`, `nnue::shogi_features`). Every
/// net shipped before the king-bucket variants has 1.
pub const SUPPORTED_KING_BUCKETS: &[usize] = &[1, 2, 4];

/// The default hidden width of both games' nets, what `tuner train` makes without `--l1`: every
/// shogi net and chess gens 1–9 are this wide. Wider variants are for larger pools: chess gen 10
/// on is 256 wide, trained with `--l1 256` once the pool held 22M positions
/// (`docs/retraining.md`).
pub const DEFAULT_L1: usize = 128;

/// Sente's default chess network (bullet's conventions: SCReLU, QA 255, QB 64, scale 400),
/// `DEFAULT_L1` wide: what `tuner train --game chess` trains without `--l1` (chess gens 1–9; gen 10
/// on is its 256-wide variant). `CHESS.with_l1(n)` names its width variants.
pub const CHESS: Architecture = Architecture {
    game_id: GAME_CHESS,
    feature_set: FEATURES_CHESS_768_KB,
    inputs: 768,
    king_buckets: 1,
    l1: DEFAULT_L1,
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

/// Sente's default shogi network: compact piece-square + hand-count features, king-region
/// buckets, `DEFAULT_L1` wide (as every shogi net shipped so far); `SHOGI.with_l1(n)` names its
/// width variants.
pub const SHOGI: Architecture = Architecture {
    game_id: GAME_SHOGI,
    feature_set: FEATURES_SHOGI_PSQ_HAND_KB,
    inputs: 2 * SHOGI_BOARD_KINDS * 81 + 2 * SHOGI_HAND_FEATURES,
    // One king bucket, `DEFAULT_L1` wide, eight output buckets, SCReLU and bullet's
    // quantisation, as chess's.
    ..CHESS
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_sizes_suit_the_simd_kernels() {
        for arch in [CHESS, SHOGI] {
            assert_eq!(arch.l1 % 32, 0, "{arch}");
            assert_eq!(arch.l1, DEFAULT_L1);
        }
        assert!(SUPPORTED_L1.contains(&DEFAULT_L1));
        assert!(SUPPORTED_L1.windows(2).all(|w| w[0] < w[1]));
        assert!(SUPPORTED_L1.iter().all(|l1| l1 % 32 == 0));
        assert_eq!(SHOGI_HAND_MAX.iter().sum::<usize>(), SHOGI_HAND_FEATURES);
    }

    #[test]
    fn width_and_bucket_variants_are_accepted_and_anything_else_is_refused_with_its_reason() {
        for arch in [CHESS, SHOGI] {
            for &l1 in SUPPORTED_L1 {
                assert_eq!(arch.check_variant(&arch.with_l1(l1)), Ok(()), "{l1}");
                assert_eq!(arch.with_l1(l1).l1, l1);
            }
            for l1 in [0, 32, 96, 160, 200, 2048] {
                let error = arch.check_variant(&arch.with_l1(l1)).unwrap_err();
                assert!(
                    error.contains(&format!("l1={l1} is not supported")),
                    "{error}"
                );
                assert!(error.contains("128, 256"), "{error}");
            }
        }
        let error = CHESS.check_variant(&SHOGI.with_l1(256)).unwrap_err();
        assert!(error.contains("game shogi, expected chess"), "{error}");
        let other_features = Architecture {
            feature_set: 9,
            ..CHESS.with_l1(256)
        };
        let error = CHESS.check_variant(&other_features).unwrap_err();
        assert!(error.contains("feature set #9, expected #1"), "{error}");
        assert!(!error.contains("l1="), "{error}");
        let other_quantization = Architecture { qa: 127, ..CHESS };
        let error = CHESS.check_variant(&other_quantization).unwrap_err();
        assert!(error.contains("qa 127, expected 255"), "{error}");
        for arch in [CHESS, SHOGI] {
            for &buckets in SUPPORTED_KING_BUCKETS {
                let variant = arch.with_l1(256).with_king_buckets(buckets);
                assert_eq!(arch.check_variant(&variant), Ok(()), "{buckets}");
                assert_eq!(variant.feature_rows(), arch.inputs * buckets);
            }
            for buckets in [0, 3, 8] {
                let error = arch
                    .check_variant(&arch.with_king_buckets(buckets))
                    .unwrap_err();
                assert!(
                    error.contains(&format!("{buckets} king buckets are not supported"))
                        && error.contains("1, 2, 4"),
                    "{error}"
                );
            }
        }
        // An architecture accepts itself even at a width outside the set (test nets, 32 wide).
        let tiny = CHESS.with_l1(32);
        assert_eq!(tiny.check_variant(&tiny), Ok(()));
    }
}
