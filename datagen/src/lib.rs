//! Sente's self-play data: the on-disk training-data format (chunked, checksummed game records),
//! the generator and match runner built on the engine's self-play harness, and inspection tools.

pub mod book;
pub mod format;
pub mod generate;
pub mod inspect;
pub mod players;
pub mod progress;
