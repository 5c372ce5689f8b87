//! Whether a move gives check, worked out from the board without playing the move: a direct
//! check by the moved (or promoted) piece, or a discovered check by a slider behind it
//! (including the rank opened by an en-passant capture and the rook of a castling move).

use super::attacks::{with_sliders, SliderAttacks};
use super::bitboard::{bb, BISHOP_RAYS, KNIGHT_ATTACKS, PAWN_ATTACKS, ROOK_RAYS};
use super::moves::Move;
use super::position::Position;
use super::types::*;

impl Position {
    /// Whether the legal move `m` checks the opponent's king.
    pub fn move_gives_check(&self, m: Move) -> bool {
        with_sliders!(|a| self.gives_check_with(a, m))
    }

    #[inline(always)]
    fn gives_check_with<A: SliderAttacks>(&self, a: A, m: Move) -> bool {
        let us = self.side;
        let them = us.flip();
        let ksq = self.king_square(them);
        let king = bb(ksq);
        let from = m.from();
        let to = m.to();
        let occ = self.occupied();
        if m.is_castle() {
            // The rook from its new square, or any slider the king and rook uncovered.
            let queen_side = to < from;
            let rank = back_rank(us);
            let king_to = make_square(castle_king_file(queen_side), rank);
            let rook_to = make_square(castle_rook_file(queen_side), rank);
            let after = (occ ^ bb(from) ^ bb(to)) | bb(king_to) | bb(rook_to);
            let queens = self.pieces(us, PieceKind::Queen);
            let straight = ((self.pieces(us, PieceKind::Rook) | queens) & !bb(to)) | bb(rook_to);
            let diagonal = self.pieces(us, PieceKind::Bishop) | queens;
            return (a.rook(ksq, after) & straight) | (a.bishop(ksq, after) & diagonal) != 0;
        }
        let mut after = (occ ^ bb(from)) | bb(to);
        if m.is_en_passant() {
            after ^= bb(to ^ 8);
        }
        let kind = match m.promoted() {
            Some(k) => k,
            None => self.piece_at(from).map_or(PieceKind::Pawn, |(_, k)| k),
        };
        let direct = match kind {
            PieceKind::Pawn => PAWN_ATTACKS[us.index()][to as usize & 63],
            PieceKind::Knight => KNIGHT_ATTACKS[to as usize & 63],
            PieceKind::Bishop => a.bishop(to, after),
            PieceKind::Rook => a.rook(to, after),
            PieceKind::Queen => a.queen(to, after),
            PieceKind::King => 0,
        };
        if direct & king != 0 {
            return true;
        }
        // A discovered check needs a vacated square (the origin, or the pawn taken en passant)
        // and one of our sliders on the same line through the king: most moves have neither, and
        // skip the slider lookups.
        let vacated = bb(from) | (occ & !after);
        let queens = self.pieces(us, PieceKind::Queen);
        let straight = (self.pieces(us, PieceKind::Rook) | queens) & !bb(from);
        let diagonal = (self.pieces(us, PieceKind::Bishop) | queens) & !bb(from);
        let (rook_lines, bishop_lines) = (ROOK_RAYS[ksq as usize], BISHOP_RAYS[ksq as usize]);
        (vacated & rook_lines != 0
            && straight & rook_lines != 0
            && a.rook(ksq, after) & straight != 0)
            || (vacated & bishop_lines != 0
                && diagonal & bishop_lines != 0
                && a.bishop(ksq, after) & diagonal != 0)
    }
}
