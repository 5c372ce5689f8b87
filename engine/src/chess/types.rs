//! Small value types of the chess board: squares, piece kinds, coloured pieces, castling rights.

use crate::game::Side;

/// A square index, a1 = 0, b1 = 1, ..., h8 = 63.
pub type Square = u8;

/// Marker for "no square" (no en-passant square, empty slot).
pub const NO_SQUARE: Square = 64;

/// File (0 = a) of a square.
#[inline(always)]
pub const fn file_of(sq: Square) -> u8 {
    sq & 7
}

/// Rank (0 = first rank) of a square.
#[inline(always)]
pub const fn rank_of(sq: Square) -> u8 {
    sq >> 3
}

/// Square from file and rank (both 0..8).
#[inline(always)]
pub const fn make_square(file: u8, rank: u8) -> Square {
    rank * 8 + file
}

/// The square as text, e.g. "e4".
pub fn square_name(sq: Square) -> [char; 2] {
    [(b'a' + file_of(sq)) as char, (b'1' + rank_of(sq)) as char]
}

/// Parses "e4" style text (exactly two characters) into a square.
pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let file = b[0].wrapping_sub(b'a');
    let rank = b[1].wrapping_sub(b'1');
    (file < 8 && rank < 8).then(|| make_square(file, rank))
}

/// Kinds of chess pieces, in value order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceKind {
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    /// The kind with index `i` (0..6); larger values give `King`.
    #[inline(always)]
    pub const fn from_index(i: u8) -> PieceKind {
        match i {
            0 => PieceKind::Pawn,
            1 => PieceKind::Knight,
            2 => PieceKind::Bishop,
            3 => PieceKind::Rook,
            4 => PieceKind::Queen,
            _ => PieceKind::King,
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Upper-case SAN letter ('P' for pawns).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Pawn => 'P',
            PieceKind::Knight => 'N',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Queen => 'Q',
            PieceKind::King => 'K',
        }
    }

    /// Kind from a letter of either case.
    pub fn from_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceKind::Pawn),
            'N' => Some(PieceKind::Knight),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'Q' => Some(PieceKind::Queen),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }
}

/// A coloured piece packed in a byte: `side * 6 + kind` (0..12); `NO_PIECE` (12) for empty.
pub type Piece = u8;

/// The empty-square marker of the mailbox.
pub const NO_PIECE: Piece = 12;

/// Packs side and kind.
#[inline(always)]
pub const fn make_piece(side: Side, kind: PieceKind) -> Piece {
    side as u8 * 6 + kind as u8
}

/// Kind of a (non-empty) piece.
#[inline(always)]
pub const fn piece_kind(p: Piece) -> PieceKind {
    KIND_OF_PIECE[p as usize]
}

/// `piece_kind` for every byte value (`p % 6`), so the hot lookup is one load.
static KIND_OF_PIECE: [PieceKind; 256] = {
    let mut table = [PieceKind::Pawn; 256];
    let mut p = 0;
    while p < 256 {
        table[p] = PieceKind::from_index((p % 6) as u8);
        p += 1;
    }
    table
};

/// Side of a (non-empty) piece.
#[inline(always)]
pub const fn piece_side(p: Piece) -> Side {
    if p >= 6 {
        Side::Second
    } else {
        Side::First
    }
}

/// FEN letter of a piece: upper case for White.
pub fn piece_char(p: Piece) -> char {
    let c = piece_kind(p).letter();
    if piece_side(p) == Side::First {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

/// Castling right index: `side * 2 + wing`, wing 0 = king side (towards h), 1 = queen side.
#[inline(always)]
pub const fn castle_index(side: Side, queen_side: bool) -> usize {
    side as usize * 2 + queen_side as usize
}

/// Destination file of the king when castling on a wing (g or c).
#[inline(always)]
pub const fn castle_king_file(queen_side: bool) -> u8 {
    if queen_side {
        2
    } else {
        6
    }
}

/// Destination file of the rook when castling on a wing (f or d).
#[inline(always)]
pub const fn castle_rook_file(queen_side: bool) -> u8 {
    if queen_side {
        3
    } else {
        5
    }
}

/// The rank index (0 or 7) of a side's back rank.
#[inline(always)]
pub const fn back_rank(side: Side) -> u8 {
    match side {
        Side::First => 0,
        Side::Second => 7,
    }
}
