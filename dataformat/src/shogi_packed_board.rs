//! The shogi board as the Huffman-packed formats see it (squares `file * 9 + rank`, file 0 the
//! 1-file, rank 0 rank a; kinds pawn, lance, knight, silver, bishop, rook, gold, king), read from
//! and written to SFEN, and packed into 256 bits with YaneuraOu's code (`PackedSfen`, psv) or
//! Apery's (`HuffmanCodedPos`, hcpe). Moves are carried as USI text.

use anyhow::{anyhow, bail, Result};

pub const PAWN: u8 = 1;
pub const GOLD: u8 = 7;
pub const KING: u8 = 8;
const LETTERS: &[u8; 8] = b"PLNSBRGK";

/// One piece: kind 1..=8, promoted, colour (0 black/sente, 1 white/gote).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub kind: u8,
    pub promoted: bool,
    pub white: bool,
}

/// A position: board, hands (counts by kind 1..=7), side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub squares: [Option<Piece>; 81],
    pub hands: [[u8; 8]; 2],
    pub white_to_move: bool,
}

/// Which Huffman code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packing {
    /// YaneuraOu's `PackedSfen`: board piece = code, promoted bit, colour bit.
    Yaneuraou,
    /// Apery's `HuffmanCodedPos`: board piece = code, colour bit, promoted bit.
    Apery,
}

/// Board codes by kind (value written low bit first, bits), empty square = one 0 bit.
const fn board_code(packing: Packing, kind: u8) -> (u32, u32) {
    match (kind, packing) {
        (1, _) => (0b01, 2),
        (2, _) => (0b0011, 4),
        (3, Packing::Yaneuraou) | (4, Packing::Apery) => (0b1011, 4),
        (4, Packing::Yaneuraou) | (3, Packing::Apery) => (0b0111, 4),
        (5, _) => (0b01_1111, 6),
        (6, _) => (0b11_1111, 6),
        _ => (0b0_1111, 5),
    }
}

/// Hand codes (black's; white adds the top bit) of Apery's table, by kind.
const fn apery_hand_code(kind: u8) -> (u32, u32) {
    match kind {
        1 => (0b000, 3),
        2 => (0b00001, 5),
        3 => (0b00011, 5),
        4 => (0b00101, 5),
        7 => (0b00111, 5),
        5 => (0b001_1111, 7),
        _ => (0b011_1111, 7),
    }
}

/// The index of a board piece (not a king) in `SQUARE_CODES`.
fn square_code_index(p: &Piece) -> usize {
    p.kind as usize | (p.promoted as usize) << 3 | (p.white as usize) << 4
}

/// A board piece's whole code (kind code, then the packing's flags), low bit first, and its
/// length, by `square_code_index`; YaneuraOu's table, then Apery's.
static SQUARE_CODES: [[(u8, u8); 32]; 2] = [
    square_codes(Packing::Yaneuraou),
    square_codes(Packing::Apery),
];

const fn square_codes(packing: Packing) -> [(u8, u8); 32] {
    let mut table = [(0u8, 0u8); 32];
    let mut i = 0;
    while i < 32 {
        let (kind, promoted, white) = ((i & 7) as u8, (i >> 3 & 1) as u32, (i >> 4) as u32);
        if kind >= 1 && kind < KING {
            let (code, bits) = board_code(packing, kind);
            let (flags, flag_bits) = if kind == GOLD {
                (white, 1)
            } else if matches!(packing, Packing::Yaneuraou) {
                (promoted | white << 1, 2)
            } else {
                (white | promoted << 1, 2)
            };
            table[i] = ((code | flags << bits) as u8, (bits + flag_bits) as u8);
        }
        i += 1;
    }
    table
}

/// A hand piece's code and length, by side and kind (1..=7); YaneuraOu's table, then Apery's.
static HAND_CODES: [[[(u8, u8); 8]; 2]; 2] =
    [hand_codes(Packing::Yaneuraou), hand_codes(Packing::Apery)];

const fn hand_codes(packing: Packing) -> [[(u8, u8); 8]; 2] {
    let mut table = [[(0u8, 0u8); 8]; 2];
    let mut side = 0;
    while side < 2 {
        let mut kind = 1;
        while kind < KING {
            table[side][kind as usize] = match packing {
                Packing::Yaneuraou => {
                    // The board code without its low bit, a 0 (promoted) bit but for golds,
                    // then the side.
                    let (code, bits) = board_code(packing, kind);
                    let (code, bits) = (code >> 1, bits - 1);
                    let bits = if kind == GOLD { bits } else { bits + 1 };
                    ((code | (side as u32) << bits) as u8, bits as u8 + 1)
                }
                Packing::Apery => {
                    let (code, bits) = apery_hand_code(kind);
                    ((code | (side as u32) << (bits - 1)) as u8, bits as u8)
                }
            };
            kind += 1;
        }
        side += 1;
    }
    table
}

/// Hand kinds in each packing's order.
fn hand_order(packing: Packing) -> [u8; 7] {
    match packing {
        Packing::Yaneuraou => [1, 2, 3, 4, 5, 6, 7],
        Packing::Apery => [1, 2, 3, 4, 7, 5, 6],
    }
}

struct BitWriter {
    bytes: [u8; 32],
    at: u32,
    /// More than 256 bits were put (the rest were dropped).
    overflow: bool,
}

impl BitWriter {
    /// Appends the low `bits` bits of `value` (at most 8), low bit first.
    #[inline]
    fn put(&mut self, value: u32, bits: u32) {
        if self.at + bits > 256 {
            self.overflow = true;
            return;
        }
        let value = value & ((1 << bits) - 1);
        let (byte, shift) = ((self.at / 8) as usize, self.at % 8);
        let spread = (value as u16) << shift;
        self.bytes[byte] |= spread as u8;
        if shift + bits > 8 {
            self.bytes[byte + 1] |= (spread >> 8) as u8;
        }
        self.at += bits;
    }
}

struct BitReader<'a> {
    bytes: &'a [u8; 32],
    at: u32,
}

impl BitReader<'_> {
    fn bit(&mut self) -> Result<u32> {
        if self.at >= 256 {
            bail!("runs past 256 bits");
        }
        let b = (self.bytes[(self.at / 8) as usize] >> (self.at % 8)) & 1;
        self.at += 1;
        Ok(b as u32)
    }
    fn bits(&mut self, n: u32) -> Result<u32> {
        let mut v = 0;
        for i in 0..n {
            v |= self.bit()? << i;
        }
        Ok(v)
    }
    /// Reads a code of `table` (kind -> (value, bits)), bit by bit; the kind whose code matches.
    fn code(&mut self, kinds: &[u8], table: impl Fn(u8) -> (u32, u32)) -> Result<u8> {
        let (mut value, mut n) = (0u32, 0u32);
        while n < 8 {
            value |= self.bit()? << n;
            n += 1;
            if let Some(&k) = kinds.iter().find(|&&k| table(k) == (value, n)) {
                return Ok(k);
            }
        }
        bail!("no piece has code {value:#b}")
    }
}

impl Board {
    /// Parses the board, side and hands of an SFEN (`sfen` prefix and move number optional).
    pub fn from_sfen(text: &str) -> Result<Board> {
        let mut fields = text.split_whitespace();
        let mut first = fields.next().ok_or_else(|| anyhow!("empty SFEN"))?;
        if first == "sfen" {
            first = fields.next().ok_or_else(|| anyhow!("empty SFEN"))?;
        }
        let mut board = Board {
            squares: [None; 81],
            hands: [[0; 8]; 2],
            white_to_move: false,
        };
        let ranks: Vec<&str> = first.split('/').collect();
        if ranks.len() != 9 {
            bail!("SFEN board {first:?} has {} ranks, not 9", ranks.len());
        }
        for (rank, row) in ranks.iter().enumerate() {
            let mut file = 9i32;
            let mut promoted = false;
            for c in row.bytes() {
                if c.is_ascii_digit() {
                    file -= (c - b'0') as i32;
                } else if c == b'+' {
                    promoted = true;
                } else {
                    let kind =
                        kind_of(c).ok_or_else(|| anyhow!("bad SFEN piece {:?}", c as char))?;
                    file -= 1;
                    if file < 0 {
                        bail!("SFEN rank {row:?} is too long");
                    }
                    board.squares[file as usize * 9 + rank] = Some(Piece {
                        kind,
                        promoted,
                        white: c.is_ascii_lowercase(),
                    });
                    promoted = false;
                }
            }
            if file != 0 {
                bail!("SFEN rank {row:?} does not have 9 files");
            }
        }
        board.white_to_move = match fields.next() {
            Some("b") => false,
            Some("w") => true,
            other => bail!("bad SFEN side to move {other:?}"),
        };
        let hands = fields.next().unwrap_or("-");
        if hands != "-" {
            let mut count = 0u32;
            for c in hands.bytes() {
                if c.is_ascii_digit() {
                    count = count * 10 + (c - b'0') as u32;
                } else {
                    let kind = kind_of(c)
                        .filter(|&k| k != KING)
                        .ok_or_else(|| anyhow!("bad SFEN hand piece {:?}", c as char))?;
                    let side = c.is_ascii_lowercase() as usize;
                    board.hands[side][kind as usize] += count.max(1) as u8;
                    count = 0;
                }
            }
        }
        Ok(board)
    }

    /// The board of a Sente shogi position (as `from_sfen` of its SFEN, without the text).
    pub fn from_position(pos: &sente::shogi::Position) -> Board {
        use sente::game::Side;
        let mut board = Board {
            squares: [None; 81],
            hands: [[0; 8]; 2],
            white_to_move: pos.side_to_move_now() == Side::Second,
        };
        for (sq, square) in board.squares.iter_mut().enumerate() {
            let piece = pos.piece_on(sq);
            if piece.is_some() {
                let kind = piece.kind();
                *square = Some(Piece {
                    kind: kind.unpromoted().index() as u8 + 1,
                    promoted: kind.is_promoted(),
                    white: piece.side() == Side::Second,
                });
            }
        }
        for (side, hand) in [Side::First, Side::Second]
            .into_iter()
            .zip(&mut board.hands)
        {
            for kind in sente::shogi::PieceKind::HAND {
                hand[kind.index() + 1] = pos.hand(side).count(kind);
            }
        }
        board
    }

    /// SFEN of the board with move number `move_number`.
    pub fn to_sfen(&self, move_number: u32) -> String {
        let mut out = Vec::with_capacity(96);
        self.write_sfen(move_number, &mut out);
        String::from_utf8(out).expect("SFEN is ASCII")
    }

    /// Appends [`Board::to_sfen`] to `out`.
    pub fn write_sfen(&self, move_number: u32, out: &mut Vec<u8>) {
        use std::io::Write;
        let letter = |kind: u8, white: bool| letter(kind, white) as u8;
        for rank in 0..9 {
            let mut empty = 0;
            for file in (0..9).rev() {
                match self.squares[file * 9 + rank] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push(b'0' + empty);
                            empty = 0;
                        }
                        if p.promoted {
                            out.push(b'+');
                        }
                        out.push(letter(p.kind, p.white));
                    }
                }
            }
            if empty > 0 {
                out.push(b'0' + empty);
            }
            if rank < 8 {
                out.push(b'/');
            }
        }
        out.extend_from_slice(if self.white_to_move { b" w " } else { b" b " });
        let mut any = false;
        for side in 0..2 {
            for kind in [6u8, 5, 7, 4, 3, 2, 1] {
                let n = self.hands[side][kind as usize];
                if n > 0 {
                    if n > 1 {
                        write!(out, "{n}").expect("writing to a Vec does not fail");
                    }
                    out.push(letter(kind, side == 1));
                    any = true;
                }
            }
        }
        if !any {
            out.push(b'-');
        }
        write!(out, " {move_number}").expect("writing to a Vec does not fail");
    }

    /// Packs the position into 256 bits.
    pub fn pack(&self, packing: Packing) -> Result<[u8; 32]> {
        let table = match packing {
            Packing::Yaneuraou => &SQUARE_CODES[0],
            Packing::Apery => &SQUARE_CODES[1],
        };
        let mut w = BitWriter {
            bytes: [0; 32],
            // Side to move (bit 0) and the two kings' squares (bits 1..15) are put at the end.
            at: 15,
            overflow: false,
        };
        let mut kings = [[None, None]; 2];
        for (sq, p) in self.squares.iter().enumerate() {
            let Some(p) = p else {
                w.put(0, 1);
                continue;
            };
            if p.kind == KING {
                let found = &mut kings[p.white as usize];
                found[found[0].is_some() as usize].get_or_insert(sq);
                continue;
            }
            let (code, bits) = table[square_code_index(p)];
            w.put(code as u32, bits as u32);
        }
        let king = |white: bool| -> Result<usize> {
            match kings[white as usize] {
                [_, Some(_)] => bail!("two kings of one side"),
                [Some(sq), None] => Ok(sq),
                _ => bail!("no {} king", if white { "white" } else { "black" }),
            }
        };
        let kings = [king(false)?, king(true)?];
        let hand_codes = match packing {
            Packing::Yaneuraou => &HAND_CODES[0],
            Packing::Apery => &HAND_CODES[1],
        };
        for (codes, hand) in hand_codes.iter().zip(&self.hands) {
            for kind in hand_order(packing) {
                let (code, bits) = codes[kind as usize];
                for _ in 0..hand[kind as usize] {
                    w.put(code as u32, bits as u32);
                }
            }
        }
        if w.overflow {
            bail!("position needs more than 256 bits (too many pieces)");
        }
        if w.at != 256 {
            bail!(
                "position packs into {} bits, not 256 (pieces missing)",
                w.at
            );
        }
        let end = w.at;
        w.at = 0;
        w.put(self.white_to_move as u32, 1);
        w.put(kings[0] as u32, 7);
        w.put(kings[1] as u32, 7);
        w.at = end;
        Ok(w.bytes)
    }

    /// Unpacks 256 bits; fails on codes no piece has, a bad king square or a wrong piece count.
    pub fn unpack(bytes: &[u8; 32], packing: Packing) -> Result<Board> {
        let mut r = BitReader { bytes, at: 0 };
        let mut board = Board {
            squares: [None; 81],
            hands: [[0; 8]; 2],
            white_to_move: r.bit()? == 1,
        };
        let kings = [r.bits(7)? as usize, r.bits(7)? as usize];
        if kings[0] >= 81 || kings[1] >= 81 || kings[0] == kings[1] {
            bail!("bad king squares {} and {}", kings[0], kings[1]);
        }
        for (i, &sq) in kings.iter().enumerate() {
            board.squares[sq] = Some(Piece {
                kind: KING,
                promoted: false,
                white: i == 1,
            });
        }
        let mut counts = [0u8; 8];
        let board_kinds = [0u8, 1, 2, 3, 4, 5, 6, 7];
        for sq in 0..81 {
            if kings.contains(&sq) {
                continue;
            }
            let kind = r.code(&board_kinds, |k| {
                if k == 0 {
                    (0, 1)
                } else {
                    board_code(packing, k)
                }
            })?;
            if kind == 0 {
                continue;
            }
            let (promoted, white) = if kind == GOLD {
                (false, r.bit()? == 1)
            } else {
                let (a, b) = (r.bit()? == 1, r.bit()? == 1);
                match packing {
                    Packing::Yaneuraou => (a, b),
                    Packing::Apery => (b, a),
                }
            };
            counts[kind as usize] += 1;
            board.squares[sq] = Some(Piece {
                kind,
                promoted,
                white,
            });
        }
        let hand_kinds = hand_order(packing);
        while r.at < 256 {
            let (kind, white) = match packing {
                Packing::Yaneuraou => {
                    let kind = r.code(&hand_kinds, |k| {
                        let (c, b) = board_code(packing, k);
                        (c >> 1, b - 1)
                    })?;
                    if kind != GOLD && r.bit()? == 1 {
                        bail!("a promoted piece in hand");
                    }
                    (kind, r.bit()? == 1)
                }
                Packing::Apery => {
                    let kind = r.code(&hand_kinds, |k| {
                        let (c, b) = apery_hand_code(k);
                        (c, b - 1)
                    })?;
                    (kind, r.bit()? == 1)
                }
            };
            counts[kind as usize] += 1;
            board.hands[white as usize][kind as usize] += 1;
        }
        const FULL: [u8; 8] = [0, 18, 4, 4, 4, 2, 2, 4];
        if counts[1..] != FULL[1..] {
            bail!("wrong piece counts {:?}", &counts[1..]);
        }
        Ok(board)
    }
}

fn kind_of(c: u8) -> Option<u8> {
    LETTERS
        .iter()
        .position(|&l| l == c.to_ascii_uppercase())
        .map(|i| i as u8 + 1)
}

fn letter(kind: u8, white: bool) -> char {
    let c = LETTERS[kind as usize - 1] as char;
    if white {
        c.to_ascii_lowercase()
    } else {
        c
    }
}

/// The square index of a USI square (`7g`).
fn usi_square(text: &[u8]) -> Option<u32> {
    let file = text.first()?.wrapping_sub(b'1');
    let rank = text.get(1)?.wrapping_sub(b'a');
    (file < 9 && rank < 9).then_some(file as u32 * 9 + rank as u32)
}

fn square_usi(sq: u32, out: &mut String) {
    out.push((b'1' + (sq / 9) as u8) as char);
    out.push((b'a' + (sq % 9) as u8) as char);
}

/// A move's parts: destination, origin square or dropped kind, promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveParts {
    pub to: u32,
    /// `Ok(square)` for a board move, `Err(kind)` for a drop.
    pub from: Result<u32, u8>,
    pub promote: bool,
}

impl MoveParts {
    /// The parts of a Sente shogi move (as `from_usi` of its USI text).
    pub fn from_move(m: sente::shogi::Move) -> MoveParts {
        MoveParts {
            to: m.to() as u32,
            from: if m.is_drop() {
                Err(m.drop_kind().index() as u8 + 1)
            } else {
                Ok(m.from() as u32)
            },
            promote: !m.is_drop() && m.is_promotion(),
        }
    }

    pub fn from_usi(text: &str) -> Result<MoveParts> {
        let b = text.as_bytes();
        let bad = || anyhow!("bad USI move {text:?}");
        if b.get(1) == Some(&b'*') {
            let kind = kind_of(b[0]).filter(|&k| k != KING).ok_or_else(bad)?;
            return Ok(MoveParts {
                to: usi_square(&b[2..]).ok_or_else(bad)?,
                from: Err(kind),
                promote: false,
            });
        }
        Ok(MoveParts {
            from: Ok(usi_square(b).ok_or_else(bad)?),
            to: usi_square(b.get(2..).ok_or_else(bad)?).ok_or_else(bad)?,
            promote: b.get(4) == Some(&b'+'),
        })
    }

    pub fn to_usi(self) -> String {
        let mut out = String::with_capacity(5);
        match self.from {
            Ok(sq) => square_usi(sq, &mut out),
            Err(kind) => {
                out.push(letter(kind, false));
                out.push('*');
            }
        }
        square_usi(self.to, &mut out);
        if self.promote {
            out.push('+');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sfen_packs_and_unpacks_in_both_codes() {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4",
            "1n3kg2/1rsg5/1pppP2pl/1P3spbp/2Pl1n2P/l1G1KpP2/B2P3PN/2G2+pS2/1NS2P2L b 2Pr 81",
        ] {
            let board = Board::from_sfen(sfen).unwrap();
            let move_number: u32 = sfen.rsplit(' ').next().unwrap().parse().unwrap();
            assert_eq!(board.to_sfen(move_number), sfen);
            for packing in [Packing::Yaneuraou, Packing::Apery] {
                let bytes = board.pack(packing).unwrap();
                assert_eq!(Board::unpack(&bytes, packing).unwrap(), board, "{sfen}");
            }
        }
        for usi in ["7g7f", "P*5e", "8h2b+"] {
            assert_eq!(MoveParts::from_usi(usi).unwrap().to_usi(), usi);
        }
    }

    /// `from_position` and `from_move` agree with the SFEN and USI texts along random games
    /// (promotions, drops and hands included).
    #[test]
    fn positions_and_moves_convert_as_their_texts_do() {
        use sente::game::Game;
        use sente::movelist::MoveList;
        use sente::shogi::Position;
        let mut rng = 0x1234_5678_9abc_def0u64;
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                let board = Board::from_position(&pos);
                assert_eq!(board, Board::from_sfen(&pos.to_text()).unwrap());
                assert_eq!(board.to_sfen(pos.game_ply() + 1), pos.to_text());
                let mut list = <Position as Game>::Moves::default();
                pos.generate_legal(&mut list);
                let moves = list.as_slice().to_vec();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let usi = MoveParts::from_usi(&pos.format_move(m)).unwrap();
                    assert_eq!(MoveParts::from_move(m), usi);
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                pos.make_move(moves[(rng % moves.len() as u64) as usize]);
            }
        }
    }
}
