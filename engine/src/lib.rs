//! Sente: a chess and shogi engine. The library holds the rules of both games, the game-generic
//! search, the evaluators and the protocol adapters; the `sente` binary, `datagen` and `tuner`
//! are thin front ends over it.

pub mod bench;
pub mod chess;
pub mod eval;
pub mod game;
pub mod game_kind;
pub mod mate;
pub mod movelist;
pub mod nnue;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod selfplay;
pub mod shogi;
