//! Sente's CPU trainer: turns datagen records into NNUE nets in the engine's format. The network
//! architecture, feature indexing and quantization come from `sente::nnue`; nothing is declared
//! twice.

pub mod adamw;
pub mod batch;
pub mod checkpoint;
pub mod cli;
pub mod data;
pub mod elo_history;
pub mod evaluate;
pub mod fit_classical;
pub mod init_net;
pub mod model;
pub mod plot;
pub mod quantize;
pub mod record_set;
pub mod schedule;
pub mod trainer;
pub mod training;
