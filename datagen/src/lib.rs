//! Sente's self-play data: the generator and match runner built on the engine's self-play
//! harness, rescoring with a newer evaluator, data pools, and inspection tools. The training-data
//! format itself (chunks, stored games, readers, pool manifests) is the `sente-data` crate, shared
//! with the tuner.

pub mod adjudication_args;
pub mod book;
pub mod digest;
pub mod export;
pub mod generate;
pub mod inspect;
pub mod match_result;
pub mod players;
pub mod pool;
pub mod progress;
pub mod rescore;
pub mod run_info;
pub mod run_lock;
pub mod tune;
