//! Whether a move gives check, worked out from the board without playing the move: a direct
//! check by the moved (or promoted) piece, or a discovered check by a slider behind it
//! (including the rank opened by an en-passant capture and the rook of a castling move), per
//! move or from check squares computed once per position.

use super::attacks::{with_sliders, SliderAttacks};
use super::bitboard::{bb, line, BISHOP_RAYS, KNIGHT_ATTACKS, PAWN_ATTACKS, ROOK_RAYS};
use super::movegen::line_blockers;
use super::moves::Move;
use super::position::Position;
use super::types::*;

/// Where each kind of the side to move would give check and which of its pieces would uncover
/// a check by leaving their line (Stockfish's check squares and blockers): computed once, it
/// answers "does this move check?" for ordinary moves with two bit tests.
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    /// Per kind (pawn .. king): the squares from which that kind attacks the enemy king.
    squares: [u64; 6],
    /// Our pieces that alone stand between one of our sliders and the enemy king.
    discoverers: u64,
    enemy_king: Square,
}

impl Position {
    /// Whether the legal move `m` checks the opponent's king.
    pub fn move_gives_check(&self, m: Move) -> bool {
        with_sliders!(|a| self.gives_check_from_board(a, m))
    }

    /// The check squares of the side to move.
    pub fn check_squares(&self) -> CheckSquares {
        with_sliders!(|a| self.check_squares_with(a))
    }

    #[inline(always)]
    fn check_squares_with<A: SliderAttacks>(&self, a: A) -> CheckSquares {
        let us = self.side;
        let them = us.flip();
        let ksq = self.king_square(them);
        let occ = self.occupied();
        let bishops = a.bishop(ksq, occ);
        let rooks = a.rook(ksq, occ);
        let squares = [
            PAWN_ATTACKS[them.index()][ksq as usize & 63],
            KNIGHT_ATTACKS[ksq as usize & 63],
            bishops,
            rooks,
            bishops | rooks,
            0,
        ];
        CheckSquares {
            squares,
            discoverers: line_blockers(self, them, us),
            enemy_king: ksq,
        }
    }

    /// Whether the legal move `m` gives check, from the position's `check_squares()`. Castling,
    /// en passant and promotions (whose new piece may see through its own origin) take the
    /// full test.
    #[inline]
    pub fn gives_check_with(&self, info: &CheckSquares, m: Move) -> bool {
        if m.is_castle() || m.is_en_passant() || m.promoted().is_some() {
            return self.move_gives_check(m);
        }
        let (from, to) = (m.from(), m.to());
        let kind = self.piece_at(from).map_or(PieceKind::Pawn, |(_, k)| k);
        info.squares[kind.index()] & bb(to) != 0
            || (info.discoverers & bb(from) != 0 && line(from, info.enemy_king) & bb(to) == 0)
    }

    #[inline(always)]
    fn gives_check_from_board<A: SliderAttacks>(&self, a: A, m: Move) -> bool {
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
