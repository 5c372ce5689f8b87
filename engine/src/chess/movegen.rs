//! Legal move generation with check and pin masks (no make-and-test), generic over the slider
//! back end and over what happens to the moves (`MoveSink`: push to a list, count, or look for
//! one move). Nothing here allocates.

use super::attacks::SliderAttacks;
use super::bitboard::*;
use super::moves::Move;
use super::position::Position;
use super::types::*;
use crate::game::Side;
use crate::movelist::MoveList;

/// Receives generated moves in bulk.
pub(crate) trait MoveSink {
    /// Normal moves of the piece on `from` to each square of `targets`.
    fn piece(&mut self, from: Square, targets: u64);
    /// Normal pawn moves to each square of `targets`, each from `to - shift`.
    fn pawns(&mut self, targets: u64, shift: i8);
    /// Promotions to each square of `targets` from `to - shift`: queen only, or all four kinds.
    fn promotions(&mut self, targets: u64, shift: i8, queen_only: bool);
    /// Castling and en passant.
    fn special(&mut self, m: Move);
}

#[inline(always)]
fn from_of(to: Square, shift: i8) -> Square {
    (to as i8 - shift) as Square
}

/// Appends moves to a move list.
pub(crate) struct ListSink<'a, L: MoveList<Move>>(pub &'a mut L);

impl<L: MoveList<Move>> MoveSink for ListSink<'_, L> {
    #[inline(always)]
    fn piece(&mut self, from: Square, mut targets: u64) {
        while targets != 0 {
            self.0.push(Move::normal(from, pop_lsb(&mut targets)));
        }
    }

    #[inline(always)]
    fn pawns(&mut self, mut targets: u64, shift: i8) {
        while targets != 0 {
            let to = pop_lsb(&mut targets);
            self.0.push(Move::normal(from_of(to, shift), to));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, mut targets: u64, shift: i8, queen_only: bool) {
        while targets != 0 {
            let to = pop_lsb(&mut targets);
            let from = from_of(to, shift);
            self.0.push(Move::promotion(from, to, PieceKind::Queen));
            if !queen_only {
                self.0.push(Move::promotion(from, to, PieceKind::Knight));
                self.0.push(Move::promotion(from, to, PieceKind::Rook));
                self.0.push(Move::promotion(from, to, PieceKind::Bishop));
            }
        }
    }

    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.0.push(m);
    }
}

/// Counts moves without building them (perft leaves).
#[derive(Default)]
pub(crate) struct CountSink(pub u64);

impl MoveSink for CountSink {
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: u64) {
        self.0 += targets.count_ones() as u64;
    }

    #[inline(always)]
    fn pawns(&mut self, targets: u64, _shift: i8) {
        self.0 += targets.count_ones() as u64;
    }

    #[inline(always)]
    fn promotions(&mut self, targets: u64, _shift: i8, queen_only: bool) {
        self.0 += targets.count_ones() as u64 * if queen_only { 1 } else { 4 };
    }

    #[inline(always)]
    fn special(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Looks for one particular move among the generated ones.
pub(crate) struct FindSink {
    pub wanted: Move,
    pub found: bool,
}

impl MoveSink for FindSink {
    fn piece(&mut self, from: Square, targets: u64) {
        let m = self.wanted;
        self.found |= m.is_normal() && m.from() == from && targets & bb(m.to()) != 0;
    }

    fn pawns(&mut self, targets: u64, shift: i8) {
        let m = self.wanted;
        self.found |=
            m.is_normal() && targets & bb(m.to()) != 0 && from_of(m.to(), shift) == m.from();
    }

    fn promotions(&mut self, targets: u64, shift: i8, queen_only: bool) {
        let m = self.wanted;
        self.found |= m.is_promotion()
            && targets & bb(m.to()) != 0
            && from_of(m.to(), shift) == m.from()
            && (!queen_only || m.promoted() == Some(PieceKind::Queen));
    }

    fn special(&mut self, m: Move) {
        self.found |= m == self.wanted;
    }
}

/// Pieces of the side to move pinned to their own king.
#[inline(always)]
pub(crate) fn pinned_pieces<A: SliderAttacks>(pos: &Position, _a: A, side: Side) -> u64 {
    line_blockers(pos, side, side)
}

/// `owner`'s pieces that alone stand between `king_side`'s king and a slider of the other
/// side: pins when `owner` is `king_side`, discovered-check candidates otherwise.
#[inline(always)]
pub(crate) fn line_blockers(pos: &Position, king_side: Side, owner: Side) -> u64 {
    let ksq = pos.king_square(king_side);
    let them = king_side.flip();
    let occ = pos.occupied();
    let queens = pos.pieces(them, PieceKind::Queen);
    let mut snipers = (ROOK_RAYS[ksq as usize] & (pos.pieces(them, PieceKind::Rook) | queens))
        | (BISHOP_RAYS[ksq as usize] & (pos.pieces(them, PieceKind::Bishop) | queens));
    let mut pinned = 0;
    while snipers != 0 {
        let s = pop_lsb(&mut snipers);
        let blockers = between(ksq, s) & occ;
        if blockers != 0 && !more_than_one(blockers) {
            pinned |= blockers & pos.side_pieces(owner);
        }
    }
    pinned
}

/// Generates the legal moves of the pieces on `from_mask`: all of them, or with `NOISY` only
/// captures (promotion captures to a queen only) and queen push-promotions.
#[inline(always)]
pub(crate) fn generate<A: SliderAttacks, S: MoveSink, const NOISY: bool>(
    pos: &Position,
    a: A,
    sink: &mut S,
    from_mask: u64,
) {
    let us = pos.side;
    let them = us.flip();
    let ours = pos.side_pieces(us);
    let theirs = pos.side_pieces(them);
    let occ = ours | theirs;
    let ksq = pos.king_square(us);
    let checkers = pos.checkers;

    if from_mask & bb(ksq) != 0 {
        let mut targets = KING_ATTACKS[ksq as usize] & !ours;
        if NOISY {
            targets &= theirs;
        }
        let without_king = occ ^ bb(ksq);
        let mut legal = 0;
        while targets != 0 {
            let to = pop_lsb(&mut targets);
            if pos.attackers_to_with(a, to, without_king) & theirs == 0 {
                legal |= bb(to);
            }
        }
        sink.piece(ksq, legal);
    }
    if more_than_one(checkers) {
        return;
    }

    let target = if checkers != 0 {
        between(ksq, lsb(checkers)) | checkers
    } else {
        !ours
    };
    let piece_target = if NOISY { target & theirs } else { target };
    let pinned = pinned_pieces(pos, a, us);
    let movable = ours & from_mask & if checkers != 0 { !pinned } else { !0 };

    let mut knights = pos.pieces(us, PieceKind::Knight) & movable & !pinned;
    while knights != 0 {
        let from = pop_lsb(&mut knights);
        sink.piece(from, KNIGHT_ATTACKS[from as usize] & piece_target);
    }
    let queens = pos.pieces(us, PieceKind::Queen);
    let mut diagonal = (pos.pieces(us, PieceKind::Bishop) | queens) & movable;
    while diagonal != 0 {
        let from = pop_lsb(&mut diagonal);
        let mut t = a.bishop(from, occ) & piece_target;
        if pinned & bb(from) != 0 {
            t &= line(ksq, from);
        }
        sink.piece(from, t);
    }
    let mut straight = (pos.pieces(us, PieceKind::Rook) | queens) & movable;
    while straight != 0 {
        let from = pop_lsb(&mut straight);
        let mut t = a.rook(from, occ) & piece_target;
        if pinned & bb(from) != 0 {
            t &= line(ksq, from);
        }
        sink.piece(from, t);
    }

    generate_pawns::<A, S, NOISY>(pos, a, sink, movable, pinned, target, ksq);

    if !NOISY && checkers == 0 && from_mask & bb(ksq) != 0 {
        generate_castling(pos, a, sink, ksq, occ, theirs);
    }
}

#[inline(always)]
fn generate_pawns<A: SliderAttacks, S: MoveSink, const NOISY: bool>(
    pos: &Position,
    a: A,
    sink: &mut S,
    movable: u64,
    pinned: u64,
    target: u64,
    ksq: Square,
) {
    let us = pos.side;
    let them = us.flip();
    let theirs = pos.side_pieces(them);
    let occ = pos.occupied();
    let empty = !occ;
    let pawns = pos.pieces(us, PieceKind::Pawn) & movable;
    let free = pawns & !pinned;
    let (up, promo_rank, double_from_rank, west_shift, east_shift) = match us {
        Side::First => (8i8, RANK_8, RANK_3, 7i8, 9i8),
        Side::Second => (-8i8, RANK_1, RANK_6, -9i8, -7i8),
    };

    let single = forward(us, free) & empty;
    let pushes = single & target;
    sink.promotions(pushes & promo_rank, up, NOISY);
    if !NOISY {
        sink.pawns(pushes & !promo_rank, up);
        let double = forward(us, single & double_from_rank) & empty & target;
        sink.pawns(double, 2 * up);
    }
    let capture_target = theirs & target;
    let west = match us {
        Side::First => (free & !FILE_A) << 7,
        Side::Second => (free & !FILE_A) >> 9,
    } & capture_target;
    let east = match us {
        Side::First => (free & !FILE_H) << 9,
        Side::Second => (free & !FILE_H) >> 7,
    } & capture_target;
    sink.promotions(west & promo_rank, west_shift, NOISY);
    sink.promotions(east & promo_rank, east_shift, NOISY);
    sink.pawns(west & !promo_rank, west_shift);
    sink.pawns(east & !promo_rank, east_shift);

    // Pinned pawns (never when in check: `movable` excludes them then) move along the pin.
    let mut pinned_pawns = pawns & pinned;
    while pinned_pawns != 0 {
        let from = pop_lsb(&mut pinned_pawns);
        let along = line(ksq, from);
        let one = forward(us, bb(from)) & empty & along;
        if one != 0 {
            if one & promo_rank != 0 {
                sink.promotions(one, up, NOISY);
            } else if !NOISY {
                sink.pawns(one, up);
                let two = forward(us, one & double_from_rank) & empty;
                sink.pawns(two, 2 * up);
            }
        }
        let caps = PAWN_ATTACKS[us.index()][from as usize] & theirs & along & target;
        let mut c = caps;
        while c != 0 {
            let to = pop_lsb(&mut c);
            let shift = to as i8 - from as i8;
            if bb(to) & promo_rank != 0 {
                sink.promotions(bb(to), shift, NOISY);
            } else {
                sink.pawns(bb(to), shift);
            }
        }
    }

    if pos.ep != NO_SQUARE {
        let ep = pos.ep;
        let captured = ep ^ 8;
        let mut capturers = PAWN_ATTACKS[them.index()][ep as usize] & pawns;
        while capturers != 0 {
            let from = pop_lsb(&mut capturers);
            let after = (occ ^ bb(from) ^ bb(captured)) | bb(ep);
            let attackers = pos.attackers_to_with(a, ksq, after) & theirs & !bb(captured);
            if attackers == 0 {
                sink.special(Move::en_passant(from, ep));
            }
        }
    }
}

#[inline(always)]
fn generate_castling<A: SliderAttacks, S: MoveSink>(
    pos: &Position,
    a: A,
    sink: &mut S,
    ksq: Square,
    occ: u64,
    theirs: u64,
) {
    let us = pos.side;
    for queen_side in [false, true] {
        let i = castle_index(us, queen_side);
        if pos.castling & (1 << i) == 0 {
            continue;
        }
        let rook = pos.castle_rooks[i];
        let rank = back_rank(us);
        let king_to = make_square(castle_king_file(queen_side), rank);
        let rook_to = make_square(castle_rook_file(queen_side), rank);
        let must_be_empty =
            (between(ksq, king_to) | bb(king_to) | between(rook, rook_to) | bb(rook_to))
                & !(bb(ksq) | bb(rook));
        if occ & must_be_empty != 0 {
            continue;
        }
        let without = occ ^ bb(ksq) ^ bb(rook);
        let mut path = between(ksq, king_to) | bb(king_to);
        let mut safe = true;
        while path != 0 {
            let sq = pop_lsb(&mut path);
            if pos.attackers_to_with(a, sq, without) & theirs != 0 {
                safe = false;
                break;
            }
        }
        if safe {
            sink.special(Move::castle(ksq, rook));
        }
    }
}
