//! A checked decoder of one `.binpack` chunk's payload into `sfbinpack` entries: the same walk as
//! `sfbinpack::parse_chunk` (stems, then each chain's bit-packed moves and scores), built on the
//! crate's own chess types, but every read is bounds-checked and every position and move is
//! validated before it is played, so damaged bytes give an error with the payload offset of
//! the chain instead of a panic inside the crate.

use sfbinpack::chess::attacks;
use sfbinpack::chess::bitboard::Bitboard;
use sfbinpack::chess::castling_rights::{CastleType, CastlingRights, CastlingTraits};
use sfbinpack::chess::color::Color;
use sfbinpack::chess::coords::{FlatSquareOffset, Rank, Square};
use sfbinpack::chess::piece::Piece;
use sfbinpack::chess::piecetype::PieceType;
use sfbinpack::chess::position::Position;
use sfbinpack::chess::r#move::{Move, MoveType};
use sfbinpack::TrainingDataEntry;

/// Bytes of a chain's stem (position, move, score, ply and result, rule-50 counter).
const STEM_BYTES: usize = 32;

/// A payload that does not decode: the byte offset (within the payload) of the chain it
/// happened in, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkError {
    pub offset: usize,
    pub reason: String,
}

/// Decodes every entry of `chunk` (a chunk's payload, without its 8-byte header) in order,
/// calling `visit(entry, offset)` with the payload offset of the entry's chain.
pub fn decode_binpack_chunk(
    chunk: &[u8],
    mut visit: impl FnMut(TrainingDataEntry, usize),
) -> Result<(), ChunkError> {
    decode_binpack_chunk_from(chunk, 0, |entry, offset| {
        visit(entry, offset);
        true
    })
    .map(|_| ())
}

/// Decodes the entries of `chunk` from the stem at payload offset `start` on, while
/// `visit(entry, offset)` returns true; returns whether the payload's end was reached (no
/// `visit` said stop).
pub fn decode_binpack_chunk_from(
    chunk: &[u8],
    start: usize,
    mut visit: impl FnMut(TrainingDataEntry, usize) -> bool,
) -> Result<bool, ChunkError> {
    let mut offset = start;
    while offset + STEM_BYTES + 2 <= chunk.len() {
        let fail = |reason: String| ChunkError { offset, reason };
        let stem = &chunk[offset..offset + STEM_BYTES];
        let mut entry = unpack_stem(stem).map_err(fail)?;
        let plies =
            u16::from_be_bytes([chunk[offset + STEM_BYTES], chunk[offset + STEM_BYTES + 1]]);
        if !visit(entry, offset) {
            return Ok(false);
        }
        let movetext = &chunk[offset + STEM_BYTES + 2..];
        let mut reader = BitReader::new(movetext);
        let mut last_score = -entry.score;
        for _ in 0..plies {
            check_move(&entry.pos, entry.mv).map_err(fail)?;
            entry.pos.do_move(entry.mv);
            check_position(&entry.pos).map_err(fail)?;
            let mv = decode_move(&entry.pos, &mut reader).map_err(fail)?;
            let delta = unsigned_to_signed(reader.vle16(4).map_err(fail)?);
            let score = last_score.wrapping_add(delta);
            last_score = -score;
            entry.mv = mv;
            entry.score = score;
            entry.ply = entry.ply.wrapping_add(1);
            entry.result = -entry.result;
            if !visit(entry, offset) {
                return Ok(false);
            }
        }
        offset += STEM_BYTES + 2 + reader.bytes_read();
    }
    Ok(true)
}

/// The entry of a stem, as `sfbinpack` unpacks it, after checking that its position is one the
/// crate can play on.
fn unpack_stem(stem: &[u8]) -> Result<TrainingDataEntry, String> {
    let occupied = u64::from_be_bytes(stem[..8].try_into().expect("8 bytes"));
    let mut pos = Position::empty();
    pos.set_castling_rights(CastlingRights::NONE);
    let mut squares = Bitboard::new(occupied).iter();
    'nibbles: for &byte in &stem[8..24] {
        for nibble in [byte & 0xF, byte >> 4] {
            let Some(sq) = squares.next() else {
                break 'nibbles;
            };
            match nibble {
                0..=11 => pos.place(Piece::from_id(nibble as i32), sq),
                12 if sq.rank() == Rank::FOURTH => {
                    pos.place(Piece::WHITE_PAWN, sq);
                    pos.set_ep_square_unchecked(sq + FlatSquareOffset::new(0, -1));
                }
                12 if sq.rank() == Rank::FIFTH => {
                    pos.place(Piece::BLACK_PAWN, sq);
                    pos.set_ep_square_unchecked(sq + FlatSquareOffset::new(0, 1));
                }
                12 => return Err(format!("en-passant pawn on {sq}")),
                13 | 14 => {
                    // A rook that can still castle, on its corner.
                    let (rook, long_corner, long, short) = if nibble == 13 {
                        let rights = (
                            CastlingRights::WHITE_QUEEN_SIDE,
                            CastlingRights::WHITE_KING_SIDE,
                        );
                        (Piece::WHITE_ROOK, Square::A1, rights.0, rights.1)
                    } else {
                        let rights = (
                            CastlingRights::BLACK_QUEEN_SIDE,
                            CastlingRights::BLACK_KING_SIDE,
                        );
                        (Piece::BLACK_ROOK, Square::A8, rights.0, rights.1)
                    };
                    pos.place(rook, sq);
                    pos.add_castling_rights(if sq == long_corner { long } else { short });
                }
                _ => {
                    pos.place(Piece::BLACK_KING, sq);
                    pos.set_side_to_move(Color::Black);
                }
            }
        }
    }
    check_position(&pos)?;
    let packed = u16::from_be_bytes([stem[24], stem[25]]);
    let mv = if packed == 0 {
        Move::null()
    } else {
        let mtype = MoveType::from_ordinal((packed >> 14) as u8);
        let from = Square::new(((packed >> 8) & 63) as u32);
        let to = Square::new(((packed >> 2) & 63) as u32);
        let promoted = if mtype == MoveType::Promotion {
            let color = if to.rank() == Rank::FIRST {
                Color::Black
            } else {
                Color::White
            };
            Piece::new(
                PieceType::from_ordinal((packed & 3) as u8 + PieceType::Knight.ordinal()),
                color,
            )
        } else {
            Piece::none()
        };
        Move::new(from, to, mtype, promoted)
    };
    let score = unsigned_to_signed(u16::from_be_bytes([stem[26], stem[27]]));
    let ply_result = u16::from_be_bytes([stem[28], stem[29]]);
    let ply = ply_result & 0x3FFF;
    pos.set_ply(ply);
    pos.set_rule50_counter(u16::from_be_bytes([stem[30], stem[31]]));
    Ok(TrainingDataEntry {
        pos,
        mv,
        score,
        ply,
        result: unsigned_to_signed(ply_result >> 14),
    })
}

/// One king of each colour, no pawn on the first or last rank, an en-passant square on the
/// board: what the crate's move decoding and `do_move` rely on.
fn check_position(pos: &Position) -> Result<(), String> {
    for color in [Color::White, Color::Black] {
        let kings = pos.pieces_bb_color(color, PieceType::King).count();
        if kings != 1 {
            return Err(format!("{kings} {color:?} kings"));
        }
    }
    let back_ranks = Bitboard::from_rank(0).bits() | Bitboard::from_rank(7).bits();
    if pos.pieces_bb_type(PieceType::Pawn).bits() & back_ranks != 0 {
        return Err("a pawn on the first or last rank".to_string());
    }
    let ep = pos.ep_square();
    if ep != Square::NONE && ep.index() >= 64 {
        return Err("en-passant square off the board".to_string());
    }
    Ok(())
}

/// A move that `do_move` can play: a piece of the side to move on its from-square.
fn check_move(pos: &Position, mv: Move) -> Result<(), String> {
    let piece = pos.piece_at(mv.from());
    if piece == Piece::none() || piece.color() != pos.side_to_move() {
        return Err(format!(
            "move {} does not move a piece of the side to move",
            mv.as_uci()
        ));
    }
    if mv.mtype() == MoveType::Castle && piece.piece_type() != PieceType::King {
        return Err(format!("castling move {} without the king", mv.as_uci()));
    }
    Ok(())
}

/// The next move of a chain's movetext in `pos` (EBNF `EncodedMove`): the index of the moving
/// piece among the mover's pieces, then of its destination.
fn decode_move(pos: &Position, reader: &mut BitReader) -> Result<Move, String> {
    let stm = pos.side_to_move();
    let ours = pos.pieces_bb(stm);
    let occupied = ours | pos.pieces_bb(!stm);
    let piece_id = reader.bits(used_bits(ours.count() as u64))?;
    let from = Square::new(nth_set_bit(ours.bits(), piece_id as u32)?);
    match pos.piece_at(from).piece_type() {
        PieceType::Pawn => {
            let forward = FlatSquareOffset::forward(stm);
            let ep = pos.ep_square();
            let mut targets = pos.pieces_bb(!stm);
            if ep != Square::NONE {
                targets |= Bitboard::from_square(ep);
            }
            let mut destinations = attacks::pawn(stm, from) & targets;
            let step = from + forward;
            if !occupied.sq_set(step) {
                destinations |= Bitboard::from_square(step);
                if from.rank() == Rank::last_pawn_rank(!stm) {
                    let double = step + forward;
                    if !occupied.sq_set(double) {
                        destinations |= Bitboard::from_square(double);
                    }
                }
            }
            let count = destinations.count() as u64;
            if from.rank() == Rank::last_pawn_rank(stm) {
                let id = reader.bits(used_bits(count * 4))?;
                let kind = PieceType::from_ordinal(PieceType::Knight.ordinal() + id % 4);
                let to = Square::new(nth_set_bit(destinations.bits(), id as u32 / 4)?);
                Ok(Move::promotion(from, to, Piece::new(kind, stm)))
            } else {
                let id = reader.bits(used_bits(count))?;
                let to = Square::new(nth_set_bit(destinations.bits(), id as u32)?);
                Ok(if to == ep {
                    Move::en_passant(from, to)
                } else {
                    Move::normal(from, to)
                })
            }
        }
        PieceType::King => {
            let rights = pos.castling_rights();
            let king_moves = attacks::king(from) & !ours;
            let castlings = (rights & CastlingRights::castling_rights(stm)).count_ones();
            let size = king_moves.count();
            let id = reader.bits(used_bits((size + castlings) as u64))? as u32;
            if id >= size + castlings {
                return Err(format!("king move {id} of {}", size + castlings));
            }
            if id >= size {
                let long = CastlingTraits::castling_rights(stm, CastleType::Long);
                let kind = if id == size && rights.contains(long) {
                    CastleType::Long
                } else {
                    CastleType::Short
                };
                Ok(Move::from_castle(kind, stm))
            } else {
                Ok(Move::normal(
                    from,
                    Square::new(nth_set_bit(king_moves.bits(), id)?),
                ))
            }
        }
        kind => {
            let destinations = attacks::piece_attacks(kind, from, occupied) & !ours;
            let id = reader.bits(used_bits(destinations.count() as u64))?;
            let to = Square::new(nth_set_bit(destinations.bits(), id as u32)?);
            Ok(Move::normal(from, to))
        }
    }
}

/// The square of the `n`-th set bit of `bits`; an error when it has fewer.
fn nth_set_bit(bits: u64, n: u32) -> Result<u32, String> {
    let mut rest = bits;
    for _ in 0..n {
        rest &= rest.wrapping_sub(1);
    }
    if rest == 0 {
        return Err(format!("index {n} of {} choices", bits.count_ones()));
    }
    Ok(rest.trailing_zeros())
}

/// Bits needed to write an index below `n`.
fn used_bits(n: u64) -> usize {
    if n == 0 {
        0
    } else {
        (64 - (n - 1).leading_zeros()) as usize
    }
}

/// The binpack zig-zag form of a signed value.
fn unsigned_to_signed(r: u16) -> i16 {
    let mut v = r.rotate_right(1);
    if v & 0x8000 != 0 {
        v ^= 0x7FFF;
    }
    v as i16
}

/// Reads the movetext's bits most significant first, as `sfbinpack`'s bit reader does, failing
/// at the end of the payload.
struct BitReader<'a> {
    bytes: &'a [u8],
    offset: usize,
    bits_left: usize,
}

impl<'a> BitReader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            offset: 0,
            bits_left: 8,
        }
    }

    fn byte(&self, at: usize) -> Result<u8, String> {
        self.bytes
            .get(at)
            .copied()
            .ok_or_else(|| "movetext runs past the end of the chunk".to_string())
    }

    fn bits(&mut self, count: usize) -> Result<u8, String> {
        if count == 0 {
            return Ok(0);
        }
        if self.bits_left == 0 {
            self.offset += 1;
            self.bits_left = 8;
        }
        let byte = self.byte(self.offset)? << (8 - self.bits_left);
        let mut bits = byte >> (8 - count);
        if count > self.bits_left {
            let spill = count - self.bits_left;
            bits |= self.byte(self.offset + 1)? >> (8 - spill);
            self.bits_left += 8;
            self.offset += 1;
        }
        self.bits_left -= count;
        Ok(bits)
    }

    fn vle16(&mut self, block: usize) -> Result<u16, String> {
        let mask = (1u16 << block) - 1;
        let mut value = 0u16;
        let mut shift = 0;
        loop {
            let part = self.bits(block + 1)? as u16;
            value |= (part & mask) << shift;
            if part >> block == 0 {
                return Ok(value);
            }
            shift += block;
            if shift >= 16 {
                return Err("score longer than 16 bits".to_string());
            }
        }
    }

    fn bytes_read(&self) -> usize {
        self.offset + (self.bits_left != 8) as usize
    }
}
