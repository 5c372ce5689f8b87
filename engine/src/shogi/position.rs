//! The shogi position: mailbox plus bitboards, hands, side to move, incremental Zobrist hash,
//! checkers, rule settings and the last move's delta. Plain `Copy` data for copy-make.

use super::attacks::*;
use super::bitboard::Bitboard;
use super::delta::{HandChange, PlacedPiece, ShogiDelta};
use super::hand::Hand;
use super::moves::Move;
use super::rules::ShogiRules;
use super::types::{Piece, PieceKind, Square, KINDS, SQUARES};
use super::zobrist::{KEYS, MAX_HAND_COUNT};
use crate::game::Side;

/// A shogi position. See the module documentation.
#[derive(Clone, Copy)]
pub struct Position {
    by_kind: [Bitboard; KINDS],
    by_side: [Bitboard; 2],
    checkers: Bitboard,
    board: [Piece; SQUARES],
    hands: [Hand; 2],
    king_sq: [u8; 2],
    side: Side,
    hash: u64,
    /// Plies since the game started (SFEN move number - 1, plus moves made).
    ply: u32,
    rules: ShogiRules,
    delta: ShogiDelta,
}

impl PartialEq for Position {
    /// Same board, hands, side to move, ply and rules (the last move's delta is ignored).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.hands == other.hands
            && self.side == other.side
            && self.ply == other.ply
            && self.rules == other.rules
    }
}

impl Eq for Position {}

/// `king_sq` of a side without a king (tsume problems leave out the attacker's king).
const NO_KING: u8 = u8::MAX;

impl Position {
    /// An empty board, Black to move, nothing in hand (kings must be added before use).
    pub(crate) fn empty() -> Position {
        Position {
            by_kind: [Bitboard::EMPTY; KINDS],
            by_side: [Bitboard::EMPTY; 2],
            checkers: Bitboard::EMPTY,
            board: [Piece::NONE; SQUARES],
            hands: [Hand::default(); 2],
            king_sq: [NO_KING; 2],
            side: Side::First,
            hash: 0,
            ply: 0,
            rules: ShogiRules::default(),
            delta: ShogiDelta::default(),
        }
    }

    // ----- setup helpers (used by SFEN parsing) -----

    pub(crate) fn set_side(&mut self, side: Side) {
        if self.side != side {
            self.hash ^= KEYS.white_to_move;
        }
        self.side = side;
    }

    pub(crate) fn set_ply(&mut self, ply: u32) {
        self.ply = ply;
    }

    pub(crate) fn set_hand_count(&mut self, side: Side, kind: PieceKind, count: u8) {
        let old = self.hands[side as usize].0[kind as usize];
        self.hash ^= KEYS.hand[side as usize][kind as usize][old as usize];
        self.hash ^= KEYS.hand[side as usize][kind as usize][count as usize];
        self.hands[side as usize].0[kind as usize] = count;
    }

    /// Recomputes the checkers of the side to move (after setup).
    pub(crate) fn refresh_checkers(&mut self) {
        let us = self.side;
        self.checkers = if self.has_king(us) {
            self.attackers_to(us.flip(), self.king_square(us), self.occupied())
        } else {
            Bitboard::EMPTY
        };
    }

    #[inline]
    pub(crate) fn put_piece(&mut self, sq: Square, pc: Piece) {
        let bit = Bitboard::from_square(sq);
        self.board[sq] = pc;
        self.by_kind[pc.kind() as usize] |= bit;
        self.by_side[pc.side() as usize] |= bit;
        self.hash ^= KEYS.piece[pc.slot()][sq];
        if pc.kind() == PieceKind::King {
            self.king_sq[pc.side() as usize] = sq as u8;
        }
    }

    #[inline]
    fn remove_piece(&mut self, sq: Square) -> Piece {
        let pc = self.board[sq];
        let bit = Bitboard::from_square(sq);
        self.board[sq] = Piece::NONE;
        self.by_kind[pc.kind() as usize] ^= bit;
        self.by_side[pc.side() as usize] ^= bit;
        self.hash ^= KEYS.piece[pc.slot()][sq];
        pc
    }

    // ----- queries -----

    /// The side to move (also `Game::side_to_move`).
    #[inline]
    pub fn side_to_move_now(&self) -> Side {
        self.side
    }

    #[inline]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq]
    }

    #[inline]
    pub fn hand(&self, side: Side) -> &Hand {
        &self.hands[side as usize]
    }

    /// The square of `side`'s king; only for a side that has one (see `has_king`).
    #[inline]
    pub fn king_square(&self, side: Side) -> Square {
        self.king_sq[side as usize] as Square
    }

    /// Whether `side` has a king. Only a tsume problem's attacker may lack one: it then has no
    /// king to protect (never in check, no pins), and the other side can never give check.
    #[inline]
    pub fn has_king(&self, side: Side) -> bool {
        self.king_sq[side as usize] != NO_KING
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_side[0] | self.by_side[1]
    }

    #[inline]
    pub fn pieces_of(&self, side: Side) -> Bitboard {
        self.by_side[side as usize]
    }

    /// Pieces of one kind, both sides.
    #[inline]
    pub fn pieces_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind as usize]
    }

    #[inline]
    pub fn pieces(&self, side: Side, kind: PieceKind) -> Bitboard {
        self.by_kind[kind as usize] & self.by_side[side as usize]
    }

    /// Pieces (both sides) that move like a gold.
    #[inline]
    pub fn gold_movers(&self) -> Bitboard {
        self.by_kind[PieceKind::Gold as usize]
            | self.by_kind[PieceKind::ProPawn as usize]
            | self.by_kind[PieceKind::ProLance as usize]
            | self.by_kind[PieceKind::ProKnight as usize]
            | self.by_kind[PieceKind::ProSilver as usize]
    }

    /// Pieces (both sides) with a rook's lines.
    #[inline]
    pub fn rook_movers(&self) -> Bitboard {
        self.by_kind[PieceKind::Rook as usize] | self.by_kind[PieceKind::Dragon as usize]
    }

    /// Pieces (both sides) with a bishop's lines.
    #[inline]
    pub fn bishop_movers(&self) -> Bitboard {
        self.by_kind[PieceKind::Bishop as usize] | self.by_kind[PieceKind::Horse as usize]
    }

    /// Pieces (both sides) with a king's steps (king, horse, dragon).
    #[inline]
    pub fn king_steppers(&self) -> Bitboard {
        self.by_kind[PieceKind::King as usize]
            | self.by_kind[PieceKind::Horse as usize]
            | self.by_kind[PieceKind::Dragon as usize]
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline]
    pub fn rules(&self) -> ShogiRules {
        self.rules
    }

    /// Sets the rule settings (entering king, game-length limit); copies carry them.
    pub fn set_rules(&mut self, rules: ShogiRules) {
        self.rules = rules;
    }

    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    #[inline]
    pub fn hash_key(&self) -> u64 {
        self.hash
    }

    #[inline]
    pub fn last_delta(&self) -> &ShogiDelta {
        &self.delta
    }

    /// The kind the legal move `m` puts on its destination: the dropped kind, or the moving
    /// piece's kind, promoted when the move promotes.
    #[inline]
    pub fn placed_kind(&self, m: Move) -> PieceKind {
        if m.is_drop() {
            return m.drop_kind();
        }
        let kind = self.board[m.from()].kind();
        if m.is_promotion() {
            kind.promoted()
        } else {
            kind
        }
    }

    /// The occupancy after the legal move `m` (a capture leaves its square occupied).
    #[inline]
    pub fn occupied_after(&self, m: Move) -> Bitboard {
        let to_bit = Bitboard::from_square(m.to());
        if m.is_drop() {
            self.occupied() | to_bit
        } else {
            (self.occupied() ^ Bitboard::from_square(m.from())) | to_bit
        }
    }

    /// Pieces of `side` attacking `sq` with occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, side: Side, sq: Square, occ: Bitboard) -> Bitboard {
        let them = side.flip();
        let step = (pawn_attacks(them, sq) & self.by_kind[PieceKind::Pawn as usize])
            | (knight_attacks(them, sq) & self.by_kind[PieceKind::Knight as usize])
            | (silver_attacks(them, sq) & self.by_kind[PieceKind::Silver as usize])
            | (gold_attacks(them, sq) & self.gold_movers())
            | (king_attacks(sq) & self.king_steppers());
        let own = self.by_side[side as usize];
        let mut attackers = step & own;
        // Sliding attacks only for lines that hold one of the side's sliders.
        let lances = self.by_kind[PieceKind::Lance as usize] & own;
        if (lance_ray(them, sq) & lances).any() {
            attackers |= lance_attacks(them, sq, occ) & lances;
        }
        let bishops = self.bishop_movers() & own;
        if (bishop_rays(sq) & bishops).any() {
            attackers |= bishop_attacks(sq, occ) & bishops;
        }
        let rooks = self.rook_movers() & own;
        if (rook_rays(sq) & rooks).any() {
            attackers |= rook_attacks(sq, occ) & rooks;
        }
        attackers
    }

    /// Whether any piece of `side` attacks `sq` with occupancy `occ`.
    #[inline]
    pub fn is_attacked_by(&self, side: Side, sq: Square, occ: Bitboard) -> bool {
        let them = side.flip();
        let own = self.by_side[side as usize];
        // Stepping attackers can only stand on a neighbour or a knight square: usually none do.
        let near = step_reach(side, sq) & own;
        if near.any() {
            let step = (pawn_attacks(them, sq) & self.by_kind[PieceKind::Pawn as usize])
                | (knight_attacks(them, sq) & self.by_kind[PieceKind::Knight as usize])
                | (silver_attacks(them, sq) & self.by_kind[PieceKind::Silver as usize])
                | (gold_attacks(them, sq) & self.gold_movers())
                | (king_attacks(sq) & self.king_steppers());
            if (step & near).any() {
                return true;
            }
        }
        // Only compute sliding attacks for lines that hold one of the side's sliders.
        let lances = self.by_kind[PieceKind::Lance as usize] & own;
        if (lance_ray(them, sq) & lances).any() && (lance_attacks(them, sq, occ) & lances).any() {
            return true;
        }
        let bishops = self.bishop_movers() & own;
        if (bishop_rays(sq) & bishops).any() && (bishop_attacks(sq, occ) & bishops).any() {
            return true;
        }
        let rooks = self.rook_movers() & own;
        (rook_rays(sq) & rooks).any() && (rook_attacks(sq, occ) & rooks).any()
    }

    /// The squares of `targets` that `side` attacks with occupancy `occ`: one pass over the
    /// pieces that can reach them (for a king's destinations, cheaper than a test per square).
    #[inline]
    pub fn attacked_among(&self, side: Side, targets: Bitboard, occ: Bitboard) -> Bitboard {
        let own = self.by_side[side as usize];
        let mut reach = Bitboard::EMPTY;
        for sq in targets {
            reach |= step_reach(side, sq);
        }
        let mut attacked = Bitboard::EMPTY;
        // Stepping moves (horse and dragon steps included; their lines are added below).
        for from in reach & own {
            let kind = self.board[from].kind();
            let steps = match kind {
                PieceKind::Lance | PieceKind::Bishop | PieceKind::Rook => Bitboard::EMPTY,
                PieceKind::Horse | PieceKind::Dragon => king_attacks(from),
                _ => piece_attacks(side, kind, from, occ),
            };
            attacked |= steps;
        }
        // Lines, only from sliders whose empty-board lines meet the targets.
        let lances = self.by_kind[PieceKind::Lance as usize] & own;
        for from in lances {
            if (lance_ray(side, from) & targets).any() {
                attacked |= lance_attacks(side, from, occ);
            }
        }
        for from in self.bishop_movers() & own {
            if (bishop_rays(from) & targets).any() {
                attacked |= bishop_attacks(from, occ);
            }
        }
        for from in self.rook_movers() & own {
            if (rook_rays(from) & targets).any() {
                attacked |= rook_attacks(from, occ);
            }
        }
        attacked & targets
    }

    /// Sliding pieces of `side` that would attack `sq` on an empty board (candidate pinners
    /// or discoverers).
    #[inline]
    pub fn slider_snipers(&self, side: Side, sq: Square) -> Bitboard {
        ((lance_ray(side.flip(), sq) & self.by_kind[PieceKind::Lance as usize])
            | (bishop_rays(sq) & self.bishop_movers())
            | (rook_rays(sq) & self.rook_movers()))
            & self.by_side[side as usize]
    }

    /// Pieces (of either side) that alone stand between `side`'s king and an enemy slider.
    /// Restricted to `side`'s pieces these are its pinned pieces.
    #[inline]
    pub fn king_blockers(&self, side: Side) -> Bitboard {
        if !self.has_king(side) {
            return Bitboard::EMPTY;
        }
        let ksq = self.king_square(side);
        let occ = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for sniper in self.slider_snipers(side.flip(), ksq) {
            let b = between(ksq, sniper) & occ;
            if b.any() && !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    // ----- making moves -----

    /// The hash after the legal move `m`, without playing it (for prefetching).
    #[inline]
    pub fn hash_after_move(&self, m: Move) -> u64 {
        let us = self.side;
        let to = m.to();
        let mut h = self.hash ^ KEYS.white_to_move;
        if m.is_drop() {
            let kind = m.drop_kind();
            let old = self.hands[us as usize].0[kind as usize] as usize;
            if old == 0 {
                return h;
            }
            let hand = &KEYS.hand[us as usize][kind as usize];
            return h ^ hand[old] ^ hand[old - 1] ^ KEYS.piece[Piece::new(us, kind).slot()][to];
        }
        let from = m.from();
        let pc = self.board[from];
        if pc.is_none() {
            return h;
        }
        let captured = self.board[to];
        if captured.is_some() {
            let kind = captured.kind().unpromoted();
            let old = self.hands[us as usize].0[kind as usize] as usize;
            let hand = &KEYS.hand[us as usize][kind as usize];
            h ^= KEYS.piece[captured.slot()][to] ^ hand[old] ^ hand[(old + 1).min(MAX_HAND_COUNT)];
        }
        let placed = if m.is_promotion() {
            Piece::new(us, pc.kind().promoted())
        } else {
            pc
        };
        h ^ KEYS.piece[pc.slot()][from] ^ KEYS.piece[placed.slot()][to]
    }

    /// Plays a legal move (copy-make: the caller keeps the parent if it needs it).
    #[inline]
    pub fn play(&mut self, m: Move) {
        let us = self.side;
        let to = m.to();
        let mut delta = ShogiDelta::default();
        if m.is_drop() {
            let kind = m.drop_kind();
            let hand = &mut self.hands[us as usize].0[kind as usize];
            let old = *hand;
            *hand = old - 1;
            self.hash ^= KEYS.hand[us as usize][kind as usize][old as usize]
                ^ KEYS.hand[us as usize][kind as usize][old as usize - 1];
            let pc = Piece::new(us, kind);
            self.put_piece(to, pc);
            delta.added = Some(PlacedPiece::new(to, pc));
            delta.hand = Some(HandChange {
                side: us,
                kind,
                old,
                new: old - 1,
            });
        } else {
            let from = m.from();
            let pc = self.remove_piece(from);
            delta.removed[0] = PlacedPiece::new(from, pc);
            delta.removed_len = 1;
            if self.board[to].is_some() {
                let captured = self.remove_piece(to);
                delta.removed[1] = PlacedPiece::new(to, captured);
                delta.removed_len = 2;
                let kind = captured.kind().unpromoted();
                let hand = &mut self.hands[us as usize].0[kind as usize];
                let old = *hand;
                *hand = old + 1;
                self.hash ^= KEYS.hand[us as usize][kind as usize][old as usize]
                    ^ KEYS.hand[us as usize][kind as usize][old as usize + 1];
                delta.hand = Some(HandChange {
                    side: us,
                    kind,
                    old,
                    new: old + 1,
                });
            }
            let placed = if m.is_promotion() {
                Piece::new(us, pc.kind().promoted())
            } else {
                pc
            };
            self.put_piece(to, placed);
            delta.added = Some(PlacedPiece::new(to, placed));
        }
        self.delta = delta;
        self.side = us.flip();
        self.hash ^= KEYS.white_to_move;
        self.ply += 1;
        self.checkers = self.checkers_after(m);
    }

    /// The pieces of the side that just played `m` that now attack the other king: the moved
    /// piece directly, and sliders uncovered on the line through the square it left. (Nothing
    /// else can: the other king was not in check before the move.)
    #[inline]
    fn checkers_after(&self, m: Move) -> Bitboard {
        let mover = self.side.flip();
        if !self.has_king(self.side) {
            return Bitboard::EMPTY;
        }
        let ksq = self.king_square(self.side);
        let to = m.to();
        let occ = self.occupied();
        let mut checkers = Bitboard::EMPTY;
        if piece_attacks(mover, self.board[to].kind(), to, occ).has(ksq) {
            checkers = Bitboard::from_square(to);
        }
        if !m.is_drop() && line_through(ksq, m.from()).any() {
            let own = self.by_side[mover as usize];
            checkers |= ((lance_attacks(self.side, ksq, occ)
                & self.by_kind[PieceKind::Lance as usize])
                | (bishop_attacks(ksq, occ) & self.bishop_movers())
                | (rook_attacks(ksq, occ) & self.rook_movers()))
                & own;
        }
        checkers
    }

    /// Passes (only when not in check).
    pub fn play_null(&mut self) {
        self.delta = ShogiDelta::default();
        self.side = self.side.flip();
        self.hash ^= KEYS.white_to_move;
        self.ply += 1;
        self.checkers = Bitboard::EMPTY;
    }

    /// The Zobrist hash recomputed from the board, hands and side to move.
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in 0..SQUARES {
            let pc = self.board[sq];
            if pc.is_some() {
                h ^= KEYS.piece[pc.slot()][sq];
            }
        }
        for side in [Side::First, Side::Second] {
            for kind in PieceKind::HAND {
                h ^= KEYS.hand[side as usize][kind as usize][self.hand(side).count(kind) as usize];
            }
        }
        if self.side == Side::Second {
            h ^= KEYS.white_to_move;
        }
        h
    }

    /// Checks the internal invariants (bitboards agree with the mailbox, king squares, hash).
    pub fn is_consistent(&self) -> bool {
        let mut by_kind = [Bitboard::EMPTY; KINDS];
        let mut by_side = [Bitboard::EMPTY; 2];
        for sq in 0..SQUARES {
            let pc = self.board[sq];
            if pc.is_some() {
                by_kind[pc.kind() as usize] |= Bitboard::from_square(sq);
                by_side[pc.side() as usize] |= Bitboard::from_square(sq);
            }
        }
        let king_ok = |side: Side| {
            let kings = by_kind[PieceKind::King as usize] & by_side[side as usize];
            if self.has_king(side) {
                self.piece_on(self.king_square(side)) == Piece::new(side, PieceKind::King)
            } else {
                kings.is_empty()
            }
        };
        let checkers = if self.has_king(self.side) {
            self.attackers_to(
                self.side.flip(),
                self.king_square(self.side),
                self.occupied(),
            )
        } else {
            Bitboard::EMPTY
        };
        by_kind == self.by_kind
            && by_side == self.by_side
            && king_ok(Side::First)
            && king_ok(Side::Second)
            && self.hash == self.compute_hash()
            && self.checkers == checkers
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}
