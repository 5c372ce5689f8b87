//! Sente's self-play data: the generator and match runner built on the engine's self-play
//! harness, rescoring with a newer evaluator, data pools, and inspection tools. The training-data
//! format itself (chunks, stored games, readers, pool manifests) is the `sente-data` crate, shared
//! with the tuner.

pub mod adjudication_args;
pub mod book;
pub mod cli;
pub mod digest;
pub mod export;
pub mod game_record;
pub mod generate;
pub mod generate_run;
pub mod inspect;
pub mod loop_config;
pub mod loop_efficiency;
pub mod loop_efficiency_report;
pub mod loop_match;
pub mod loop_publish;
pub mod loop_rescore;
pub mod loop_runner;
pub mod loop_state;
pub mod match_play;
pub mod match_records;
pub mod match_result;
pub mod net_name;
pub mod node_odds;
pub mod players;
pub mod pool;
pub mod progress;
pub mod record_csa;
pub mod record_kif;
pub mod record_pgn;
pub mod record_shogi_board;
pub mod record_writer;
pub mod records_command;
pub mod rescore;
pub mod results_table;
pub mod run_info;
pub mod run_lock;
pub mod side_searchers;
pub mod slurm_jobs;
pub mod tablebases;
pub mod tune;
