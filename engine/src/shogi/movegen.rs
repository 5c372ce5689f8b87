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
fn push_board_move<S: MoveSink, const NOISY: bool>(
    list: &mut S,
    us: Side,
    kind: PieceKind,
    from: Square,
    to: Square,
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
    if NOISY {
        // Quiescence: captures, and never a dominated non-promotion of pawn, bishop or rook.
        let dominated =
            can_promote && matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook);
        if !capture || dominated {
            return;
        }
    }
    list.push(Move::board(from, to, false));
}

/// What the per-piece generation needs to know about the position.
struct GenContext {
    us: Side,
    occ: Bitboard,
    enemy: Bitboard,
    zone: Bitboard,
    /// Destinations for ordinary moves (all but own pieces, evasion squares, or captures).
    targets: Bitboard,
    /// Destinations of a pawn, bishop or rook outside / inside the zone (noisy mode adds
    /// quiet promotions).
    promo_targets_outside: Bitboard,
    promo_targets_inside: Bitboard,
}

impl GenContext {
    /// Moves of all the given unpinned pieces of one promotable kind.
    #[inline(always)]
    fn promotable_kind<S: MoveSink, const NOISY: bool>(
        &self,
        list: &mut S,
        kind: PieceKind,
        pieces: Bitboard,
    ) {
        for from in pieces & self.zone {
            self.promotable::<S, NOISY>(list, kind, from, true, Bitboard::ALL);
        }
        for from in pieces.and_not(self.zone) {
            self.promotable::<S, NOISY>(list, kind, from, false, Bitboard::ALL);
        }
    }

    /// Moves of a piece that may promote (pawn, lance, knight, silver, bishop, rook) standing
    /// on `from`, restricted to `line` (a pin line, or everything).
    #[inline(always)]
    fn promotable<S: MoveSink, const NOISY: bool>(
        &self,
        list: &mut S,
        kind: PieceKind,
        from: Square,
        from_in_zone: bool,
        line: Bitboard,
    ) {
        let pbr = matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook);
        let mask = if NOISY && pbr {
            if from_in_zone {
                self.promo_targets_inside
            } else {
                self.promo_targets_outside
            }
        } else {
            self.targets
        };
        let dests = piece_attacks(self.us, kind, from, self.occ) & mask & line;
        // Moves that can neither promote nor land on a dead square go out in bulk.
        let special = if from_in_zone {
            dests
        } else {
            dests & self.zone
        };
        list.push_plain(from, dests.and_not(special));
        for to in special {
            push_board_move::<S, NOISY>(list, self.us, kind, from, to, self.enemy.has(to));
        }
    }
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
        if noisy && self.checkers().is_empty() {
            self.generate_with::<S, true, true>(list);
        } else {
            self.generate_with::<S, false, true>(list);
        }
    }

    #[inline(always)]
    fn generate_with<S: MoveSink, const NOISY: bool, const DROPS: bool>(&self, list: &mut S) {
        let us = self.side_to_move_now();
        let them = us.flip();
        let ksq = self.king_square(us);
        let occ = self.occupied();
        let own = self.pieces_of(us);
        let enemy = self.pieces_of(them);
        let checkers = self.checkers();

        // King moves: the destination must not be attacked once the king has left its square.
        if self.has_king(us) {
            let occ_without_king = occ ^ Bitboard::from_square(ksq);
            let king_dests = king_attacks(ksq) & if NOISY { enemy } else { !own };
            if king_dests.any() {
                let attacked = self.attacked_among(them, king_dests, occ_without_king);
                list.push_plain(ksq, king_dests.and_not(attacked));
            }
        }
        if checkers.more_than_one() {
            return;
        }

        let (targets, drop_targets) = if checkers.any() {
            let checker = checkers.lsb();
            let block = between(ksq, checker);
            (block | checkers, block)
        } else if NOISY {
            (enemy, Bitboard::EMPTY)
        } else {
            (!own, !occ)
        };
        let zone = zone(us);
        let ctx = GenContext {
            us,
            occ,
            enemy,
            zone,
            targets,
            // Noisy mode: pawns, bishops and rooks also go to empty squares where they promote
            // (from inside the zone that is every square).
            promo_targets_outside: if NOISY {
                targets | (!occ & zone)
            } else {
                targets
            },
            promo_targets_inside: if NOISY { targets | !occ } else { targets },
        };
        let pinned = self.king_blockers(us) & own;
        let free = own.and_not(pinned);

        // Pawns, unpinned, all at once: a pawn's step is one bit toward its last rank.
        let free_pawns = self.pieces_kind(PieceKind::Pawn) & free;
        let pawn_steps = match us {
            Side::First => Bitboard(free_pawns.0 >> 1),
            Side::Second => Bitboard(free_pawns.0 << 1),
        };
        let pawn_dests = pawn_steps & ctx.promo_targets_outside;
        let pawn_plain = pawn_dests.and_not(zone);
        match us {
            Side::First => list.push_plain_shifted(pawn_plain, 1),
            Side::Second => list.push_plain_shifted(pawn_plain, -1),
        }
        for to in pawn_dests & zone {
            let from = match us {
                Side::First => to + 1,
                Side::Second => to - 1,
            };
            push_board_move::<S, NOISY>(list, us, PieceKind::Pawn, from, to, enemy.has(to));
        }

        // Unpinned pieces kind by kind, so each loop knows its attack function.
        ctx.promotable_kind::<S, NOISY>(
            list,
            PieceKind::Lance,
            self.pieces_kind(PieceKind::Lance) & free,
        );
        ctx.promotable_kind::<S, NOISY>(
            list,
            PieceKind::Knight,
            self.pieces_kind(PieceKind::Knight) & free,
        );
        ctx.promotable_kind::<S, NOISY>(
            list,
            PieceKind::Silver,
            self.pieces_kind(PieceKind::Silver) & free,
        );
        ctx.promotable_kind::<S, NOISY>(
            list,
            PieceKind::Bishop,
            self.pieces_kind(PieceKind::Bishop) & free,
        );
        ctx.promotable_kind::<S, NOISY>(
            list,
            PieceKind::Rook,
            self.pieces_kind(PieceKind::Rook) & free,
        );
        for from in self.gold_movers() & free {
            list.push_plain(from, gold_attacks(us, from) & targets);
        }
        for from in self.pieces_kind(PieceKind::Horse) & free {
            list.push_plain(
                from,
                piece_attacks(us, PieceKind::Horse, from, occ) & targets,
            );
        }
        for from in self.pieces_kind(PieceKind::Dragon) & free {
            list.push_plain(
                from,
                piece_attacks(us, PieceKind::Dragon, from, occ) & targets,
            );
        }

        // Pinned pieces move only along the line through their king.
        for from in pinned {
            let kind = self.piece_on(from).kind();
            let line = line_through(ksq, from);
            if kind.can_promote() {
                ctx.promotable::<S, NOISY>(list, kind, from, zone.has(from), line);
            } else {
                list.push_plain(from, piece_attacks(us, kind, from, occ) & targets & line);
            }
        }

        if !DROPS || drop_targets.is_empty() {
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
                let mate_square = if self.has_king(us.flip()) {
                    pawn_attacks(us.flip(), self.king_square(us.flip())) & squares
                } else {
                    Bitboard::EMPTY
                };
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
        let us = self.side_to_move_now();
        let them = us.flip();
        if !self.has_king(them) {
            return false;
        }
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
        // A safe king step is the usual answer; try it before generating everything.
        let us = self.side_to_move_now();
        if self.has_king(us) {
            let ksq = self.king_square(us);
            let occ_without_king = self.occupied() ^ Bitboard::from_square(ksq);
            for to in king_attacks(ksq).and_not(self.pieces_of(us)) {
                if !self.is_attacked_by(us.flip(), to, occ_without_king) {
                    return true;
                }
            }
        }
        self.count_legal() > 0
    }
}
