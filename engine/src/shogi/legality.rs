//! Legality of a single move given as arbitrary 16 bits (transposition-table moves, killers):
//! decodes, checks the piece rules, then checks that the mover's king is safe afterwards.

use super::attacks::*;
use super::bitboard::Bitboard;
use super::movegen::{dead_squares, files_of, zone};
use super::moves::Move;
use super::position::Position;
use super::types::PieceKind;

impl Position {
    /// Whether `m` is legal here; any bit pattern is accepted and judged.
    pub fn is_legal(&self, m: Move) -> bool {
        if !m.is_well_formed() {
            return false;
        }
        let us = self.side_to_move_now();
        let them = us.flip();
        let to = m.to();
        let occ = self.occupied();
        let ksq = self.king_square(us);
        let checkers = self.checkers();
        if m.is_drop() {
            let kind = m.drop_kind();
            if self.hand(us).count(kind) == 0 || occ.has(to) || dead_squares(us, kind).has(to) {
                return false;
            }
            if checkers.any() && (checkers.more_than_one() || !between(ksq, checkers.lsb()).has(to))
            {
                return false;
            }
            if kind == PieceKind::Pawn
                && (files_of(self.pieces(us, PieceKind::Pawn)).has(to)
                    || self.is_pawn_drop_mate(to))
            {
                return false;
            }
            return true;
        }
        let from = m.from();
        let pc = self.piece_on(from);
        if pc.is_none() || pc.side() != us || self.pieces_of(us).has(to) {
            return false;
        }
        let kind = pc.kind();
        if !piece_attacks(us, kind, from, occ).has(to) {
            return false;
        }
        if m.is_promotion() {
            let zone = zone(us);
            if !kind.can_promote() || !(zone.has(from) || zone.has(to)) {
                return false;
            }
        } else if dead_squares(us, kind).has(to) {
            return false;
        }
        let from_bit = Bitboard::from_square(from);
        if kind == PieceKind::King {
            return !self.is_attacked_by(them, to, occ ^ from_bit);
        }
        if !self.has_king(us) {
            return true; // no king to expose
        }
        let to_bit = Bitboard::from_square(to);
        let after = (occ ^ from_bit) | to_bit;
        self.attackers_to(them, ksq, after)
            .and_not(to_bit)
            .is_empty()
    }
}
