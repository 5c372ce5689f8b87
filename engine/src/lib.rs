//! Sente: a chess and shogi engine. The library holds the rules of both games, the game-generic
//! search, the evaluators and the protocol sessions; the `sente` binary, `datagen` and `tuner`
//! are thin front ends over it.

// The protocol tests include the integration tests' tic-tac-toe, which names this crate `sente`.
#[cfg(test)]
extern crate self as sente;

pub mod bench;
pub mod chess;
pub mod console;
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
pub mod utc_time;
pub mod xorshift;
