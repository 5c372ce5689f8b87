//! Sente's self-play data: the on-disk training-data format (chunked, checksummed game records)
//! and the generator and match runner built on the engine's self-play harness.

pub mod format;
