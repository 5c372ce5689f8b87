//! Sente's training data, for every program that writes or reads it: the on-disk format
//! (checksummed chunks of stored games), the readers that find every intact chunk of a file, and
//! what turns command-line data arguments (data files, run directories, pools) into data files;
//! the position filters shared by the trainer and the exporter; and the foreign formats other
//! trainers read (text, bulletformat, viriformat, binpack, psv, hcpe). `datagen` writes these
//! files and `tuner` reads them; neither depends on the other. See `docs/data-format.md`.

pub mod binpack_chunk;
pub mod chunk;
pub mod data_paths;
pub mod file;
pub mod format_chess_records;
pub mod format_kind;
pub mod format_reader;
pub mod format_shogi_records;
pub mod format_text;
pub mod format_writer;
pub mod imported;
pub mod pool;
pub mod position_filter;
pub mod read;
pub mod scan;
pub mod shard;
pub mod shogi_packed_board;
pub mod stored_game;
