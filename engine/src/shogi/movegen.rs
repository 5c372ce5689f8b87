//! Legal move generation: board moves with optional and forced promotions, drops with nifu,
//! dead-square and uchifuzume (pawn-drop mate) rules, check evasions and pins. Also the noisy
//! (captures and promotions) generator for quiescence.

use super::attacks::*;
use super::bitboard::Bitboard;
use super::moves::Move;
use super::position::Position;
use super::types::{PieceKind, Square, SQUARES};
use crate::game::Side;
use crate::movelist::MoveList;

/// Per-side masks built at compile time: promotion zone, last rank, last two ranks.
struct SideMasks {
    zone: [Bitboard; 2],
    last_rank: [Bitboard; 2],
    last_two: [Bitboard; 2],
}

static MASKS: SideMasks = {
    let mut zone = [0u128; 2];
    let mut last_rank = [0u128; 2];
    let mut last_two = [0u128; 2];
    let mut sq = 0;
    while sq < SQUARES {
        let rank = sq % 9;
        let bit = 1u128 << sq;
        if rank <= 2 {
            zone[0] |= bit;
        }
        if rank >= 6 {
            zone[1] |= bit;
        }
        if rank == 0 {
            last_rank[0] |= bit;
        }
        if rank == 8 {
            last_rank[1] |= bit;
        }
        if rank <= 1 {
            last_two[0] |= bit;
        }
        if rank >= 7 {
            last_two[1] |= bit;
        }
        sq += 1;
    }
    SideMasks {
        zone: [Bitboard(zone[0]), Bitboard(zone[1])],
        last_rank: [Bitboard(last_rank[0]), Bitboard(last_rank[1])],
        last_two: [Bitboard(last_two[0]), Bitboard(last_two[1])],
    }
};

/// `side`'s promotion zone.
#[inline]
pub fn zone(side: Side) -> Bitboard {
    MASKS.zone[side as usize]
}

/// Squares where a piece of `kind` owned by `side` would have no further move.
#[inline]
pub fn dead_squares(side: Side, kind: PieceKind) -> Bitboard {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => MASKS.last_rank[side as usize],
        PieceKind::Knight => MASKS.last_two[side as usize],
        _ => Bitboard::EMPTY,
    }
}

/// All squares of the files that hold one of `pawns`.
#[inline]
pub fn files_of(pawns: Bitboard) -> Bitboard {
    let mut out = 0u128;
    let mut file = 0;
    while file < 9 {
        if pawns.file_bits(file) != 0 {
            out |= 0x1FFu128 << (file * 9);
        }
        file += 1;
    }
    Bitboard(out)
}

/// Where generated moves go: a move list, or a counter for bulk-counted perft leaves.
pub trait MoveSink {
    fn push(&mut self, m: Move);

    /// One non-promoting move from `from` to each square of `dests`.
    #[inline(always)]
    fn push_plain(&mut self, from: Square, dests: Bitboard) {
        for to in dests {
            self.push(Move::board(from, to, false));
        }
    }

    /// One non-promoting step to each square of `dests` from the square `offset` away.
    #[inline(always)]
    fn push_plain_shifted(&mut self, dests: Bitboard, offset: isize) {
        for to in dests {
            self.push(Move::board(to.wrapping_add_signed(offset), to, false));
        }
    }

    /// One drop of `kind` on each square of `dests`.
    #[inline(always)]
    fn push_drops(&mut self, kind: PieceKind, dests: Bitboard) {
        for to in dests {
            self.push(Move::drop(kind, to));
        }
    }
}

impl<L: MoveList<Move>> MoveSink for L {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

/// Counts moves instead of storing them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn push_plain(&mut self, _from: Square, dests: Bitboard) {
        self.0 += dests.count() as u64;
    }

    #[inline(always)]
    fn push_plain_shifted(&mut self, dests: Bitboard, _offset: isize) {
        self.0 += dests.count() as u64;
    }

    #[inline(always)]
    fn push_drops(&mut self, _kind: PieceKind, dests: Bitboard) {
        self.0 += dests.count() as u64;
    }
}

/// Pushes the promotion variants of a board move that are legal (and wanted).
#[inline(always)]
fn push_board_move<S: MoveSink>(
    list: &mut S,
    us: Side,
    kind: PieceKind,
    from: Square,
    to: Square,
    noisy: bool,
    capture: bool,
) {
    let zone = zone(us);
    let can_promote = kind.can_promote() && (zone.has(from) || zone.has(to));
    if can_promote {
        list.push(Move::board(from, to, true));
    }
    if dead_squares(us, kind).has(to) {
        return;
    }
    if noisy {
        // Quiescence: captures, and never a dominated non-promotion of pawn, bishop or rook.
        let dominated =
            can_promote && matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook);
        if !capture || dominated {
            return;
        }
    }
    list.push(Move::board(from, to, false));
}

impl Position {
    /// Appends legal moves to `list` (cleared first). With `noisy` and not in check: only
    /// captures, and promotions of pawn, bishop and rook (non-promotions of these are left out
    /// where promoting is possible). In check, `noisy` still gives every evasion.
    pub fn generate_into<L: MoveList<Move>>(&self, list: &mut L, noisy: bool) {
        list.clear();
        self.generate_moves(list, noisy);
    }

    /// Number of legal moves (perft leaves), counted without storing them.
    pub fn count_legal(&self) -> u64 {
        let mut counter = MoveCounter::default();
        self.generate_moves(&mut counter, false);
        counter.0
    }

    /// Sends the legal moves (or the noisy ones, see `generate_into`) to `list`.
    #[inline(always)]
    pub fn generate_moves<S: MoveSink>(&self, list: &mut S, noisy: bool) {
        let us = self.side_to_move_inner();
        let them = us.flip();
        let ksq = self.king_square(us);
        let occ = self.occupied();
        let own = self.pieces_of(us);
        let enemy = self.pieces_of(them);
        let checkers = self.checkers();
        let noisy = noisy && checkers.is_empty();

        // King moves: the destination must not be attacked once the king has left its square.
        let occ_without_king = occ ^ Bitboard::from_square(ksq);
        let king_dests = king_attacks(ksq) & if noisy { enemy } else { !own };
        for to in king_dests {
            if !self.is_attacked_by(them, to, occ_without_king) {
                list.push(Move::board(ksq, to, false));
            }
        }
        if checkers.more_than_one() {
            return;
        }

        let (targets, drop_targets) = if checkers.any() {
            let checker = checkers.lsb();
            let block = between(ksq, checker);
            (block | checkers, block)
        } else if noisy {
            (enemy, Bitboard::EMPTY)
        } else {
            (!own, !occ)
        };
        // In noisy mode pawns, bishops and rooks also go to empty squares where they promote.
        let empty = !occ;
        let promo_targets = if noisy {
            targets | (empty & zone(us))
        } else {
            targets
        };
        let pinned = self.king_blockers(us) & own;

        // Pawns, unpinned, all at once: a pawn's step is one bit toward its last rank.
        let pawns = self.pieces(us, PieceKind::Pawn);
        let free_pawns = pawns.and_not(pinned);
        let pawn_steps = match us {
            Side::First => Bitboard(free_pawns.0 >> 1),
            Side::Second => Bitboard(free_pawns.0 << 1),
        };
        let pawn_dests = pawn_steps & promo_targets;
        let pawn_plain = pawn_dests.and_not(zone(us));
        match us {
            Side::First => list.push_plain_shifted(pawn_plain, 1),
            Side::Second => list.push_plain_shifted(pawn_plain, -1),
        }
        for to in pawn_dests & zone(us) {
            let from = match us {
                Side::First => to + 1,
                Side::Second => to - 1,
            };
            push_board_move(list, us, PieceKind::Pawn, from, to, noisy, enemy.has(to));
        }

        // Every other piece (and pinned pawns) one by one.
        let others = own.and_not(free_pawns) & !Bitboard::from_square(ksq);
        for from in others {
            let kind = self.piece_on(from).kind();
            let wants_promo =
                noisy && matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook);
            let mask = if !wants_promo {
                targets
            } else if zone(us).has(from) {
                // Starting in the zone every move may promote.
                targets | empty
            } else {
                promo_targets
            };
            let mut dests = piece_attacks(us, kind, from, occ) & mask;
            if pinned.has(from) {
                dests &= line_through(ksq, from);
            }
            // Moves that cannot promote (nor land on a dead square) go out in bulk.
            let special = if !kind.can_promote() {
                Bitboard::EMPTY
            } else if zone(us).has(from) {
                dests
            } else {
                dests & zone(us)
            };
            list.push_plain(from, dests.and_not(special));
            for to in special {
                push_board_move(list, us, kind, from, to, noisy, enemy.has(to));
            }
        }

        if drop_targets.is_empty() {
            return;
        }
        self.generate_drops(list, us, drop_targets);
    }

    /// Appends the legal drops of `us` onto `targets` (empty squares).
    #[inline]
    fn generate_drops<S: MoveSink>(&self, list: &mut S, us: Side, targets: Bitboard) {
        let hand = *self.hand(us);
        for kind in PieceKind::HAND {
            if hand.count(kind) == 0 {
                continue;
            }
            let mut squares = targets.and_not(dead_squares(us, kind));
            if kind == PieceKind::Pawn {
                squares = squares.and_not(files_of(self.pieces(us, PieceKind::Pawn)));
                // Only a drop right in front of the enemy king can be a pawn-drop mate.
                let mate_square = pawn_attacks(us.flip(), self.king_square(us.flip())) & squares;
                if mate_square.any() && self.is_pawn_drop_mate(mate_square.lsb()) {
                    squares ^= mate_square;
                }
            }
            list.push_drops(kind, squares);
        }
    }

    /// Whether dropping a pawn of the side to move on `to` (right in front of the enemy king)
    /// would checkmate: uchifuzume, which makes the drop illegal. The defenders' pins and the
    /// squares the king may not step to are taken into account.
    pub fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.side_to_move_inner();
        let them = us.flip();
        let eksq = self.king_square(them);
        if !pawn_attacks(us, to).has(eksq) {
            return false;
        }
        let occ = self.occupied() | Bitboard::from_square(to);
        // Can a defender other than the king take the pawn without exposing its king?
        let defenders = self.attackers_to(them, to, occ) & !Bitboard::from_square(eksq);
        for from in defenders {
            let after = occ ^ Bitboard::from_square(from);
            let exposed = ((lance_attacks(them, eksq, after) & self.pieces_kind(PieceKind::Lance))
                | (bishop_attacks(eksq, after) & self.bishop_movers())
                | (rook_attacks(eksq, after) & self.rook_movers()))
                & self.pieces_of(us);
            if exposed.is_empty() {
                return false;
            }
        }
        // Can the king step away or take the pawn? (The pawn attacks only the king's square.)
        let occ_without_king = occ ^ Bitboard::from_square(eksq);
        let escapes = king_attacks(eksq).and_not(self.pieces_of(them));
        for sq in escapes {
            if !self.is_attacked_by(us, sq, occ_without_king) {
                return false;
            }
        }
        true
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }
}
