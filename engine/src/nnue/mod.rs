//! NNUE evaluation: the architectures and feature sets (declared once, imported by datagen and
//! the tuner), the net file format, loading (memory-mapped or embedded), the SIMD kernels, the
//! incremental evaluator, the classical/NNUE switch the protocols use, and the `eval` report.

mod aligned_buffer;
pub mod arch;
pub mod chess_features;
pub mod embedded;
pub mod eval_report;
pub mod evaluator;
pub mod format;
pub mod game_eval;
pub mod network;
pub mod nnue_game;
pub mod random_net;
mod refresh_cache;
pub mod shogi_features;
pub mod simd;

pub use arch::{Activation, Architecture};
pub use embedded::default_network;
pub use eval_report::{eval_report, EvalReportError};
pub use evaluator::{evaluate_from_scratch, evaluate_from_scratch_in, NnueEval};
pub use format::NetFormatError;
pub use game_eval::{EvalChoice, GameEval};
pub use network::{NetLoadError, Network};
pub use nnue_game::{FeatureChanges, FeatureList, NnueGame, KING_REGIONS, MAX_ACTIVE, MAX_CHANGED};
pub use simd::SimdLevel;
