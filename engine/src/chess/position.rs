//! The chess position: bitboards per kind and side, a mailbox, side to move, castling rights
//! (as rook squares, so Chess960 works the same), en passant, counters, the incremental Zobrist
//! hash and structure keys, the material on the board, the current checkers and the last move's
//! `Delta`. `make_move` is copy-make friendly:
//! the struct is plain `Copy` data and nothing here allocates.

use super::attacks::{with_sliders, SliderAttacks};
use super::bitboard::{bb, lsb, KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS};
use super::delta::Delta;
use super::moves::Move;
use super::types::*;
use super::zobrist::ZOBRIST;
use crate::game::Side;

/// Each piece kind's value in `Position::material` (the king counts nothing).
const MATERIAL_OF_KIND: [i32; 6] = [100, 300, 300, 500, 900, 0];

/// A chess position. See the module documentation.
#[derive(Clone, Copy)]
pub struct Position {
    pub(crate) by_kind: [u64; 6],
    pub(crate) by_side: [u64; 2],
    pub(crate) board: [Piece; 64],
    pub(crate) hash: u64,
    /// Per side, the Zobrist key of its pieces other than pawns (the correction history's
    /// `Game::piece_keys`), kept up to date by `put` and `remove` like `hash`.
    pub(crate) piece_keys: [u64; 2],
    /// The Zobrist key of both sides' pawns (the correction history's structure key,
    /// `Game::correction_key`), kept up to date the same way.
    pub(crate) pawn_key: u64,
    /// Both sides' material on the board in centipawns (`Game::board_material`: pawn 100,
    /// knight and bishop 300, rook 500, queen 900), kept up to date by `put` and `remove`.
    pub(crate) material: i32,
    /// Pieces of the side not to move that give check to the side to move's king.
    pub(crate) checkers: u64,
    pub(crate) side: Side,
    /// Castling rights, bit `castle_index(side, queen_side)`.
    pub(crate) castling: u8,
    /// The rook square of each castling right (meaningful only while the right is held).
    pub(crate) castle_rooks: [Square; 4],
    /// En-passant target square, set only when an enemy pawn could capture there.
    pub(crate) ep: Square,
    pub(crate) halfmove: u16,
    pub(crate) game_ply: u32,
    pub(crate) chess960: bool,
    pub(crate) delta: Delta,
}

impl Position {
    /// A board with no pieces, White to move (the FEN parser fills it).
    pub(crate) fn empty() -> Position {
        Position {
            by_kind: [0; 6],
            by_side: [0; 2],
            board: [NO_PIECE; 64],
            hash: 0,
            piece_keys: [0; 2],
            pawn_key: 0,
            material: 0,
            checkers: 0,
            side: Side::First,
            castling: 0,
            castle_rooks: [NO_SQUARE; 4],
            ep: NO_SQUARE,
            halfmove: 0,
            game_ply: 0,
            chess960: false,
            delta: Delta::default(),
        }
    }

    /// The piece on a square, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<(Side, PieceKind)> {
        let p = self.board[sq as usize & 63];
        (p != NO_PIECE).then(|| (piece_side(p), piece_kind(p)))
    }

    /// Bitboard of one side's pieces of one kind.
    #[inline(always)]
    pub fn pieces(&self, side: Side, kind: PieceKind) -> u64 {
        self.by_side[side.index()] & self.by_kind[kind.index()]
    }

    /// Bitboard of all pieces of one side.
    #[inline(always)]
    pub fn side_pieces(&self, side: Side) -> u64 {
        self.by_side[side.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.by_side[0] | self.by_side[1]
    }

    /// A side's king square.
    #[inline(always)]
    pub fn king_square(&self, side: Side) -> Square {
        lsb(self.pieces(side, PieceKind::King))
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> u64 {
        self.checkers
    }

    /// Half-moves since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }

    /// The en-passant target square, when a capture there is at least pseudo-legal.
    pub fn en_passant_square(&self) -> Option<Square> {
        (self.ep != NO_SQUARE).then_some(self.ep)
    }

    /// Whether castling moves are written king-takes-rook (UCI_Chess960) and FEN castling
    /// fields as rook files.
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches Chess960 notation on or off (the rules of castling are the same either way).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// Castling rights as bits `side * 2 + queen_side`.
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The rook square of a castling right, if held.
    pub fn castling_rook(&self, side: Side, queen_side: bool) -> Option<Square> {
        let i = castle_index(side, queen_side);
        (self.castling & (1 << i) != 0).then_some(self.castle_rooks[i])
    }

    #[inline(always)]
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        let b = bb(sq);
        self.by_kind[piece_kind(piece) as usize] |= b;
        self.by_side[(piece as usize / 6) & 1] |= b;
        self.board[sq as usize & 63] = piece;
        self.toggle_keys(piece, sq);
        self.material += MATERIAL_OF_KIND[piece_kind(piece) as usize];
    }

    /// Adds or takes out a piece's Zobrist term: of `hash`, and of `pawn_key` (a pawn) or of its
    /// side's `piece_keys`.
    #[inline(always)]
    fn toggle_keys(&mut self, piece: Piece, sq: Square) {
        let term = ZOBRIST.pieces[piece as usize][sq as usize & 63];
        self.hash ^= term;
        let pawn = ((piece_kind(piece) == PieceKind::Pawn) as u64).wrapping_neg();
        self.pawn_key ^= term & pawn;
        self.piece_keys[(piece as usize / 6) & 1] ^= term & !pawn;
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: Square) -> Piece {
        let piece = self.board[sq as usize & 63];
        let b = bb(sq);
        self.by_kind[piece_kind(piece) as usize] &= !b;
        self.by_side[(piece as usize / 6) & 1] &= !b;
        self.board[sq as usize & 63] = NO_PIECE;
        self.toggle_keys(piece, sq);
        self.material -= MATERIAL_OF_KIND[piece_kind(piece) as usize];
        piece
    }

    /// All pieces of both sides that attack `sq` given occupancy `occupied`.
    #[inline(always)]
    pub(crate) fn attackers_to_with<A: SliderAttacks>(
        &self,
        a: A,
        sq: Square,
        occupied: u64,
    ) -> u64 {
        let s = sq as usize & 63;
        let k = &self.by_kind;
        let rooks = k[PieceKind::Rook.index()] | k[PieceKind::Queen.index()];
        let bishops = k[PieceKind::Bishop.index()] | k[PieceKind::Queen.index()];
        (PAWN_ATTACKS[0][s] & self.pieces(Side::Second, PieceKind::Pawn))
            | (PAWN_ATTACKS[1][s] & self.pieces(Side::First, PieceKind::Pawn))
            | (KNIGHT_ATTACKS[s] & k[PieceKind::Knight.index()])
            | (KING_ATTACKS[s] & k[PieceKind::King.index()])
            | (a.rook(sq, occupied) & rooks)
            | (a.bishop(sq, occupied) & bishops)
    }

    /// All pieces of both sides attacking `sq` with the current occupancy.
    pub fn attackers_to(&self, sq: Square, occupied: u64) -> u64 {
        with_sliders!(|a| self.attackers_to_with(a, sq, occupied))
    }

    /// Recomputes the checkers of the side to move.
    #[inline(always)]
    pub(crate) fn compute_checkers<A: SliderAttacks>(&mut self, a: A) {
        let ksq = self.king_square(self.side);
        self.checkers = self.attackers_to_with(a, ksq, self.occupied())
            & self.by_side[self.side.flip().index()];
    }

    /// `material` recomputed from the bitboards.
    pub fn compute_material(&self) -> i32 {
        PieceKind::ALL
            .iter()
            .map(|&kind| {
                self.by_kind[kind.index()].count_ones() as i32 * MATERIAL_OF_KIND[kind as usize]
            })
            .sum()
    }

    /// `pawn_key` and `piece_keys` recomputed from the board.
    pub fn compute_structure_keys(&self) -> (u64, [u64; 2]) {
        let (mut pawns, mut pieces) = (0, [0; 2]);
        for sq in 0..64u8 {
            let p = self.board[sq as usize];
            if p == NO_PIECE {
                continue;
            }
            let term = ZOBRIST.pieces[p as usize][sq as usize];
            if piece_kind(p) == PieceKind::Pawn {
                pawns ^= term;
            } else {
                pieces[piece_side(p).index()] ^= term;
            }
        }
        (pawns, pieces)
    }

    /// Zobrist hash recomputed from the board and state.
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in 0..64u8 {
            let p = self.board[sq as usize];
            if p != NO_PIECE {
                h ^= ZOBRIST.pieces[p as usize][sq as usize];
            }
        }
        if self.side == Side::Second {
            h ^= ZOBRIST.black_to_move;
        }
        h ^= ZOBRIST.castling[self.castling as usize & 15];
        if self.ep != NO_SQUARE {
            h ^= ZOBRIST.en_passant[file_of(self.ep) as usize];
        }
        h
    }

    /// The hash after the legal move `m` without its castling-right and new en-passant terms
    /// (for prefetching; castling itself is hashed as the king and rook moves it makes).
    #[inline]
    pub(crate) fn hash_after_move(&self, m: Move) -> u64 {
        let from = m.from();
        let to = m.to();
        let mut h = self.hash ^ ZOBRIST.black_to_move;
        if self.ep != NO_SQUARE {
            h ^= ZOBRIST.en_passant[file_of(self.ep) as usize];
        }
        let moving = self.board[from as usize & 63];
        if moving == NO_PIECE {
            return h;
        }
        let key = |piece: Piece, sq: Square| ZOBRIST.pieces[piece as usize][sq as usize & 63];
        if m.is_castle() {
            let queen_side = to < from;
            let rank = back_rank(self.side);
            let rook = self.board[to as usize & 63];
            return h
                ^ key(moving, from)
                ^ key(moving, make_square(castle_king_file(queen_side), rank))
                ^ key(rook, to)
                ^ key(rook, make_square(castle_rook_file(queen_side), rank));
        }
        let captured_sq = if m.is_en_passant() { to ^ 8 } else { to };
        let captured = self.board[captured_sq as usize & 63];
        if captured != NO_PIECE {
            h ^= key(captured, captured_sq);
        }
        let placed = match m.promoted() {
            Some(kind) => make_piece(self.side, kind),
            None => moving,
        };
        h ^ key(moving, from) ^ key(placed, to)
    }

    /// Plays a legal move with the given slider back end.
    #[inline(always)]
    pub(crate) fn make_move_with<A: SliderAttacks>(&mut self, a: A, m: Move) {
        let us = self.side;
        let them = us.flip();
        let from = m.from();
        let to = m.to();
        let mut delta = Delta::default();
        if self.ep != NO_SQUARE {
            self.hash ^= ZOBRIST.en_passant[file_of(self.ep) as usize];
            self.ep = NO_SQUARE;
        }
        self.halfmove = self.halfmove.saturating_add(1);
        let moving = self.board[from as usize & 63];
        if m.is_castle() {
            let queen_side = to < from;
            let rank = back_rank(us);
            let king_to = make_square(castle_king_file(queen_side), rank);
            let rook_to = make_square(castle_rook_file(queen_side), rank);
            let king = self.remove(from);
            let rook = self.remove(to);
            self.put(king, king_to);
            self.put(rook, rook_to);
            delta.remove(king, from);
            delta.remove(rook, to);
            delta.add(king, king_to);
            delta.add(rook, rook_to);
        } else {
            let captured_sq = if m.is_en_passant() { to ^ 8 } else { to };
            let captured = self.board[captured_sq as usize & 63];
            if captured != NO_PIECE {
                self.remove(captured_sq);
                delta.remove(captured, captured_sq);
                self.halfmove = 0;
            }
            self.remove(from);
            delta.remove(moving, from);
            let placed = match m.promoted() {
                Some(kind) => make_piece(us, kind),
                None => moving,
            };
            self.put(placed, to);
            delta.add(placed, to);
            if piece_kind(moving) == PieceKind::Pawn {
                self.halfmove = 0;
                if to ^ from == 16 {
                    let ep = (from + to) / 2;
                    if PAWN_ATTACKS[us.index()][ep as usize] & self.pieces(them, PieceKind::Pawn)
                        != 0
                    {
                        self.ep = ep;
                        self.hash ^= ZOBRIST.en_passant[file_of(ep) as usize];
                    }
                }
            }
        }
        if self.castling != 0 {
            let mut rights = self.castling;
            for i in 0..4 {
                if rights & (1 << i) != 0
                    && (self.castle_rooks[i] == from || self.castle_rooks[i] == to)
                {
                    rights &= !(1 << i);
                }
            }
            if piece_kind(moving) == PieceKind::King {
                rights &= !(3 << (2 * us.index()));
            }
            if rights != self.castling {
                self.hash ^= ZOBRIST.castling[self.castling as usize & 15]
                    ^ ZOBRIST.castling[rights as usize & 15];
                self.castling = rights;
            }
        }
        self.side = them;
        self.hash ^= ZOBRIST.black_to_move;
        self.game_ply += 1;
        self.delta = delta;
        self.compute_checkers(a);
    }

    /// Passes the move; the side to move must not be in check.
    pub(crate) fn make_null(&mut self) {
        if self.ep != NO_SQUARE {
            self.hash ^= ZOBRIST.en_passant[file_of(self.ep) as usize];
            self.ep = NO_SQUARE;
        }
        self.halfmove = self.halfmove.saturating_add(1);
        self.side = self.side.flip();
        self.hash ^= ZOBRIST.black_to_move;
        self.game_ply += 1;
        self.delta = Delta::default();
        self.checkers = 0;
    }
}

impl PartialEq for Position {
    /// Same board, side, rights, en passant, counters and notation mode.
    fn eq(&self, other: &Self) -> bool {
        let rooks = |p: &Position| {
            let mut r = [NO_SQUARE; 4];
            for (i, slot) in r.iter_mut().enumerate() {
                if p.castling & (1 << i) != 0 {
                    *slot = p.castle_rooks[i];
                }
            }
            r
        };
        self.board == other.board
            && self.side == other.side
            && self.castling == other.castling
            && rooks(self) == rooks(other)
            && self.ep == other.ep
            && self.halfmove == other.halfmove
            && self.game_ply == other.game_ply
            && self.chess960 == other.chess960
            && self.hash == other.hash
    }
}

impl Eq for Position {}
