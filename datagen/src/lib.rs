//! Sente's self-play data: the on-disk training-data format (chunked, checksummed game records),
//! the generator and match runner built on the engine's self-play harness, and inspection tools.

pub mod book;
pub mod digest;
pub mod format;
pub mod generate;
pub mod inspect;
pub mod match_result;
pub mod players;
pub mod pool;
pub mod progress;
pub mod run_info;
pub mod shard;
