//! Shogi rules: bitboards with hands, legal move generation with drops, SFEN, notation, rules.
//!
//! `Position` implements `crate::game::Game` (Black/sente is `Side::First`); `Move` is the 16-bit
//! move; `ClassicalEval` is the hand-written evaluator.
//!
//! Design: squares are `file * 9 + rank` in one `u128` bitboard (each file is 9 contiguous bits;
//! every line has monotonic bit indices, so sliding attacks come from per-square line masks by
//! the obstruction-difference trick, with no large tables). Lowest-bit pops and popcounts work
//! on the 64-bit halves (measured cheaper: `cargo bench -p sente --bench shogi_bitboard`).
//! Generation is fully legal (pins, evasions, uchifuzume) and generic over a `MoveSink`, so
//! perft's last ply only counts. Rule settings (`ShogiRules`) live in the position.

mod attacks;
mod bitboard;
mod check;
pub mod classical;
mod delta;
mod game_impl;
mod hand;
mod legality;
mod mate;
mod movegen;
mod moves;
mod notation;
mod position;
mod rules;
mod see;
mod sfen;
mod threats;
mod types;
mod xboard_notation;
mod zobrist;

pub use bitboard::Bitboard;
pub use check::CheckSquares;
pub use classical::{ClassicalEval, ClassicalParams};
pub use delta::{HandChange, PlacedPiece, ShogiDelta};
pub use hand::Hand;
pub use moves::Move;
pub use position::Position;
pub use rules::{declaration_points, DeclarationCount, EnteringKingRule, ShogiRules};
pub use see::{capture_value, PIECE_VALUE};
pub use sfen::{SfenError, STARTPOS_SFEN};
pub use threats::Threats;
pub use types::{Piece, PieceKind, Square};
pub use xboard_notation::xboard_fen_to_sfen;

/// The move list: 593 is the most legal moves any shogi position has.
pub type ShogiMoves = crate::movelist::ArrayMoveList<Move, 600>;
