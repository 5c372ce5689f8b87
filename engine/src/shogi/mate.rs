//! The mate-in-one probe: a checking move after which the opponent has no legal move. Checking
//! drops come straight from the check squares, checking board moves from the pieces that can reach
//! one, and a candidate is only played when the king has no escape square known to stay safe.

use super::attacks::*;
use super::bitboard::Bitboard;
use super::check::CheckSquares;
use super::movegen::{dead_squares, zone};
use super::moves::Move;
use super::position::Position;
use super::types::{PieceKind, Square};
use super::ShogiMoves;
use crate::movelist::MoveList;

/// The enemy king's escape squares, each learnt at most once to be attacked or not by the side
/// to move (before its move). A move that leaves one of the unattacked ones unattacked cannot
/// mate, which saves playing it and generating the replies.
struct Escapes {
    king: Square,
    /// Squares next to the king without a piece of its own.
    squares: Bitboard,
    safe: Bitboard,
    attacked: Bitboard,
}

impl Escapes {
    fn new(pos: &Position, info: &CheckSquares) -> Escapes {
        let them = pos.side_to_move_now().flip();
        Escapes {
            king: info.enemy_king,
            squares: king_attacks(info.enemy_king).and_not(pos.pieces_of(them)),
            safe: Bitboard::EMPTY,
            attacked: Bitboard::EMPTY,
        }
    }

    /// Whether the king surely has a safe square after the legal move `m` of `pos`. Only the
    /// moved piece can attack a square that was not attacked, directly from its destination or
    /// by opening a line through the square it left; a square on such a line is not relied on.
    fn surely_escapes(&mut self, pos: &Position, m: Move) -> bool {
        let us = pos.side_to_move_now();
        let to = m.to();
        let to_bit = Bitboard::from_square(to);
        let king_bit = Bitboard::from_square(self.king);
        let opened = if m.is_drop() {
            Bitboard::EMPTY
        } else {
            rook_rays(m.from()) | bishop_rays(m.from())
        };
        let covered = piece_attacks(us, pos.placed_kind(m), to, pos.occupied_after(m) ^ king_bit);
        let open = self.squares.and_not(to_bit | covered | opened);
        if (open & self.safe).any() {
            return true;
        }
        let occ_without_king = pos.occupied() ^ king_bit;
        for sq in open.and_not(self.attacked) {
            if pos.is_attacked_by(us, sq, occ_without_king) {
                self.attacked |= Bitboard::from_square(sq);
            } else {
                self.safe |= Bitboard::from_square(sq);
                return true;
            }
        }
        false
    }
}

impl Position {
    /// A checking move after which the opponent has no legal move, if there is one.
    pub fn find_mate_in_one(&self) -> Option<Move> {
        self.find_mate_in_one_with(&mut None)
    }

    /// `find_mate_in_one`, taking the check squares from `check_info` (computing them into it
    /// when they are not there yet).
    pub fn find_mate_in_one_with(&self, check_info: &mut Option<CheckSquares>) -> Option<Move> {
        if self.checkers().any() {
            // Evasions are few and every one must be legal: test them all.
            let mut moves = ShogiMoves::default();
            self.generate_into(&mut moves, false);
            return self.find_mating_evasion(moves.as_slice(), check_info);
        }
        let info = *check_info.get_or_insert_with(|| self.check_squares());
        let mut escapes = Escapes::new(self, &info);
        // Checking drops, found directly: a piece dropped on a square that the same kind of
        // the defender's would attack from the king's square. A pawn-drop mate is illegal
        // (uchifuzume), so pawns are left out; dead squares keep lances and knights legal.
        let us = self.side_to_move_now();
        let empty = !self.occupied();
        let hand = *self.hand(us);
        for kind in PieceKind::HAND {
            if kind == PieceKind::Pawn || hand.count(kind) == 0 {
                continue;
            }
            let squares = (info.squares[kind.index()] & empty).and_not(dead_squares(us, kind));
            let drops = squares.into_iter().map(|to| Move::drop(kind, to));
            if let Some(m) = self.first_mating(drops, |_| true, &mut escapes) {
                return Some(m);
            }
        }
        self.mating_board_move(&info, &mut escapes)
    }

    /// In check: the first of the legal moves `evasions` (all of them) that checks and mates.
    pub fn find_mating_evasion(
        &self,
        evasions: &[Move],
        check_info: &mut Option<CheckSquares>,
    ) -> Option<Move> {
        let info = *check_info.get_or_insert_with(|| self.check_squares());
        let checks = |m: Move| self.gives_check_with(&info, m);
        let mut escapes = Escapes::new(self, &info);
        self.first_mating(evasions.iter().copied(), checks, &mut escapes)
    }

    /// The first legal board move that checks and mates (not in check). Each piece tries only
    /// the squares where it, or its promoted form, would attack the enemy king, unless it is a
    /// discoverer: then every move it has is tried. The king can only check by discovery.
    fn mating_board_move(&self, info: &CheckSquares, escapes: &mut Escapes) -> Option<Move> {
        let us = self.side_to_move_now();
        let them = us.flip();
        let ksq = self.king_square(us);
        let occ = self.occupied();
        let own = self.pieces_of(us);
        let zone = zone(us);
        let pinned = self.king_blockers(us) & own;
        let mut mates = |m: Move| self.mates(m, escapes);

        // A stepping piece checks directly only from next to the king, so it must start within
        // two squares of it (a knight: two files and four ranks); sliders and discoverers may
        // check from anywhere.
        let eksq = info.enemy_king;
        let steppers = self.pieces_kind(PieceKind::Pawn)
            | self.pieces_kind(PieceKind::Silver)
            | self.gold_movers();
        let candidates = ((steppers & near_box(eksq))
            | (self.pieces_kind(PieceKind::Knight) & knight_box(eksq))
            | self.pieces_kind(PieceKind::Lance)
            | self.bishop_movers()
            | self.rook_movers()
            | info.discoverers)
            & own.and_not(Bitboard::from_square(ksq));
        for from in candidates {
            let kind = self.piece_on(from).kind();
            let mut dests = piece_attacks(us, kind, from, occ).and_not(own);
            if pinned.has(from) {
                dests &= line_through(ksq, from);
            }
            if !info.discoverers.has(from) {
                let mut direct = info.squares[kind.index()];
                if kind.can_promote() {
                    let promoted = info.squares[kind.promoted().index()];
                    direct |= if zone.has(from) {
                        promoted
                    } else {
                        promoted & zone
                    };
                }
                dests &= direct;
            }
            for to in dests {
                // The promotion variants the move generator gives.
                if kind.can_promote() && (zone.has(from) || zone.has(to)) {
                    let m = Move::board(from, to, true);
                    if self.gives_check_with(info, m) && mates(m) {
                        return Some(m);
                    }
                }
                if !dead_squares(us, kind).has(to) {
                    let m = Move::board(from, to, false);
                    if self.gives_check_with(info, m) && mates(m) {
                        return Some(m);
                    }
                }
            }
        }

        if info.discoverers.has(ksq) {
            let occ_without_king = occ ^ Bitboard::from_square(ksq);
            let dests = king_attacks(ksq)
                .and_not(own)
                .and_not(line_through(ksq, info.enemy_king));
            for to in dests {
                if !self.is_attacked_by(them, to, occ_without_king) {
                    let m = Move::board(ksq, to, false);
                    if mates(m) {
                        return Some(m);
                    }
                }
            }
        }
        None
    }

    /// The first of the legal `moves` that checks and leaves the opponent no legal move.
    fn first_mating(
        &self,
        moves: impl Iterator<Item = Move>,
        checks: impl Fn(Move) -> bool,
        escapes: &mut Escapes,
    ) -> Option<Move> {
        moves
            .filter(|&m| checks(m))
            .find(|&m| self.mates(m, escapes))
    }

    /// Whether the legal checking move `m` leaves the opponent no legal move.
    fn mates(&self, m: Move, escapes: &mut Escapes) -> bool {
        if escapes.surely_escapes(self, m) {
            return false;
        }
        let mut child = *self;
        child.play(m);
        !child.has_legal_move()
    }
}
