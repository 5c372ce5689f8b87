//! Chess rules: bitboards, legal move generation, FEN, notation, results by rule, and the
//! classical evaluator. `Position` implements `crate::game::Game`.

pub mod attacks;
pub mod bitboard;
mod checks;
pub mod classical;
pub mod delta;
mod edit_board;
pub mod fen;
mod game_impl;
pub mod magic;
mod movegen;
pub mod moves;
mod notation;
mod perft;
pub mod pext;
pub mod polyglot;
mod polyglot_random;
mod position;
mod rules;
mod see;
pub mod syzygy;
mod threats;
pub mod types;
mod zobrist;

pub use checks::CheckSquares;
pub use classical::{ClassicalEval, ClassicalParams};
pub use delta::{Delta, PieceOnSquare};
pub use edit_board::EditBoard;
pub use fen::FenError;
pub use game_impl::STARTPOS_FEN;
pub use moves::Move;
pub use position::Position;
pub use see::SEE_VALUES;
pub use threats::Threats;
pub use types::{PieceKind, Square};
