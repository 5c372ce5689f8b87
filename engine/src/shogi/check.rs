//! Check detection for a move before it is played (direct and discovered checks), and the
//! mate-in-one search built on it.

use super::attacks::*;
use super::bitboard::Bitboard;
use super::moves::Move;
use super::position::Position;
use super::types::{PieceKind, Square};
use super::ShogiMoves;
use crate::movelist::MoveList;

impl Position {
    /// Whether the legal move `m` gives check.
    pub fn move_gives_check(&self, m: Move) -> bool {
        let us = self.side_to_move_now();
        let them = us.flip();
        let eksq = self.king_square(them);
        let to = m.to();
        let to_bit = Bitboard::from_square(to);
        let (kind, after, from_bit) = if m.is_drop() {
            (m.drop_kind(), self.occupied() | to_bit, Bitboard::EMPTY)
        } else {
            let from_bit = Bitboard::from_square(m.from());
            let kind = self.piece_on(m.from()).kind();
            let kind = if m.is_promotion() {
                kind.promoted()
            } else {
                kind
            };
            (kind, (self.occupied() ^ from_bit) | to_bit, from_bit)
        };
        // Sliders first test the empty-board line (a table lookup), which most moves miss.
        let slides_to = |rays: Bitboard, attacks: fn(Square, Bitboard) -> Bitboard| {
            rays.has(eksq) && attacks(to, after).has(eksq)
        };
        let direct = match kind {
            PieceKind::Lance => {
                lance_ray(us, to).has(eksq) && lance_attacks(us, to, after).has(eksq)
            }
            PieceKind::Bishop => slides_to(bishop_rays(to), bishop_attacks),
            PieceKind::Rook => slides_to(rook_rays(to), rook_attacks),
            PieceKind::Horse => {
                king_attacks(to).has(eksq) || slides_to(bishop_rays(to), bishop_attacks)
            }
            PieceKind::Dragon => {
                king_attacks(to).has(eksq) || slides_to(rook_rays(to), rook_attacks)
            }
            _ => piece_attacks(us, kind, to, after).has(eksq),
        };
        if direct {
            return true;
        }
        // A discovered check needs the vacated square on a line through the king.
        if from_bit.is_empty() || !(rook_rays(eksq) | bishop_rays(eksq)).has(m.from()) {
            return false;
        }
        // Discovered check: a slider of ours behind the moved piece now sees the king.
        let snipers = self.slider_snipers(us, eksq).and_not(from_bit);
        if snipers.is_empty() {
            return false;
        }
        ((lance_attacks(them, eksq, after) & self.pieces_kind(PieceKind::Lance))
            | (bishop_attacks(eksq, after) & self.bishop_movers())
            | (rook_attacks(eksq, after) & self.rook_movers()))
        .and(snipers)
        .any()
    }

    /// A checking move after which the opponent has no legal move, if there is one.
    pub fn find_mate_in_one(&self) -> Option<Move> {
        let mut moves = ShogiMoves::default();
        self.generate_into(&mut moves, false);
        for &m in moves.as_slice() {
            if !self.move_gives_check(m) {
                continue;
            }
            let mut child = *self;
            child.play(m);
            if !child.has_legal_move() {
                return Some(m);
            }
        }
        None
    }
}
