//! Sente's training data, for every program that writes or reads it: the on-disk format
//! (checksummed chunks of stored games), the readers that find every intact chunk of a file, and
//! what turns command-line data arguments (data files, run directories, pools) into data files.
//! `datagen` writes these files and `tuner` reads them; neither depends on the other. See
//! `docs/data-format.md`.

pub mod chunk;
pub mod data_paths;
pub mod file;
pub mod pool;
pub mod read;
pub mod scan;
pub mod shard;
pub mod stored_game;
