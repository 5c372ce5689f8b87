//! Check detection for a move before it is played (direct and discovered checks), per move or
//! from squares computed once per position (`CheckSquares`, which the mate-in-one search in
//! `mate.rs` also uses).

use super::attacks::*;
use super::bitboard::Bitboard;
use super::moves::Move;
use super::position::Position;
use super::types::{PieceKind, Square, KINDS};

/// Where each kind of the side to move would give check, and which of its pieces would
/// uncover a check by moving off their line: computed once, it answers "does this move check?"
/// for every move of the position with two bit tests.
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    /// Per kind (after promotion): the squares from which that kind attacks the enemy king.
    pub(super) squares: [Bitboard; KINDS],
    /// Our pieces that alone stand between one of our sliders and the enemy king.
    pub(super) discoverers: Bitboard,
    pub(super) enemy_king: Square,
}

impl Position {
    /// The check squares of the side to move. A piece moving away cannot open a line for
    /// itself (the king would already be in check), so the current occupancy is exact.
    pub fn check_squares(&self) -> CheckSquares {
        let us = self.side_to_move_now();
        let them = us.flip();
        if !self.has_king(them) {
            // Nothing to check: no square gives check, no piece discovers one.
            return CheckSquares {
                squares: [Bitboard::EMPTY; KINDS],
                discoverers: Bitboard::EMPTY,
                enemy_king: 0,
            };
        }
        let eksq = self.king_square(them);
        let occ = self.occupied();
        // Each attack set once; promoted kinds share them (horse and dragon add king steps).
        let gold = gold_attacks(them, eksq);
        let king = king_attacks(eksq);
        let bishop = bishop_attacks(eksq, occ);
        let rook = rook_attacks(eksq, occ);
        let mut squares = [gold; KINDS];
        squares[PieceKind::Pawn.index()] = pawn_attacks(them, eksq);
        squares[PieceKind::Lance.index()] = lance_attacks(them, eksq, occ);
        squares[PieceKind::Knight.index()] = knight_attacks(them, eksq);
        squares[PieceKind::Silver.index()] = silver_attacks(them, eksq);
        squares[PieceKind::Bishop.index()] = bishop;
        squares[PieceKind::Rook.index()] = rook;
        squares[PieceKind::King.index()] = Bitboard::EMPTY;
        squares[PieceKind::Horse.index()] = bishop | king;
        squares[PieceKind::Dragon.index()] = rook | king;
        CheckSquares {
            squares,
            discoverers: self.king_blockers(them) & self.pieces_of(us),
            enemy_king: eksq,
        }
    }

    /// Whether the legal move `m` gives check, from the position's `check_squares()`.
    #[inline]
    pub fn gives_check_with(&self, info: &CheckSquares, m: Move) -> bool {
        let to = m.to();
        if m.is_drop() {
            return info.squares[m.drop_kind().index()].has(to);
        }
        let from = m.from();
        info.squares[self.placed_kind(m).index()].has(to)
            || (info.discoverers.has(from) && !line_through(from, info.enemy_king).has(to))
    }

    /// Whether the legal move `m` gives check.
    pub fn move_gives_check(&self, m: Move) -> bool {
        let us = self.side_to_move_now();
        let them = us.flip();
        if !self.has_king(them) {
            return false;
        }
        let eksq = self.king_square(them);
        let to = m.to();
        let (kind, after) = (self.placed_kind(m), self.occupied_after(m));
        let from_bit = if m.is_drop() {
            Bitboard::EMPTY
        } else {
            Bitboard::from_square(m.from())
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
}
