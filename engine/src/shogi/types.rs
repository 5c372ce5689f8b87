//! Squares, piece kinds and coloured pieces of shogi, with the small facts about them that every
//! other module needs (promotion, hand kinds, zones, last ranks).

use crate::game::Side;

/// Number of board squares.
pub const SQUARES: usize = 81;

/// A board square: `file * 9 + rank`, where file 0..9 is USI file 1..9 and rank 0..9 is USI rank
/// a..i (a is White's back rank, the top of the diagram).
pub type Square = usize;

/// Builds a square from a 0-based file (USI file - 1) and a 0-based rank (USI letter - 'a').
#[inline]
pub const fn square(file: usize, rank: usize) -> Square {
    file * 9 + rank
}

/// 0-based file (USI file - 1) of a square.
#[inline]
pub const fn file_of(sq: Square) -> usize {
    sq / 9
}

/// 0-based rank (USI letter - 'a') of a square.
#[inline]
pub const fn rank_of(sq: Square) -> usize {
    sq % 9
}

/// Piece kinds, unpromoted first in hand order (pawn .. gold), then king and the promoted kinds.
/// `kind | 8` promotes and `kind & 7` unpromotes a promotable kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    Pawn = 0,
    Lance = 1,
    Knight = 2,
    Silver = 3,
    Bishop = 4,
    Rook = 5,
    Gold = 6,
    King = 7,
    ProPawn = 8,
    ProLance = 9,
    ProKnight = 10,
    ProSilver = 11,
    Horse = 12,
    Dragon = 13,
}

/// Number of piece kinds.
pub const KINDS: usize = 14;
/// Number of kinds that can be held in hand (pawn .. gold).
pub const HAND_KINDS: usize = 7;

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; KINDS] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// Kinds that can be held in hand, in index order: the first `HAND_KINDS` of `ALL` (pawn ..
    /// gold).
    pub const HAND: [PieceKind; HAND_KINDS] = *Self::ALL.first_chunk::<HAND_KINDS>().unwrap();

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with index `i` (`i < KINDS`).
    #[inline]
    pub const fn from_index(i: usize) -> PieceKind {
        PieceKind::ALL[i]
    }

    /// Pawn, lance, knight, silver, bishop and rook may promote.
    #[inline]
    pub const fn can_promote(self) -> bool {
        (self as u8) < 6
    }

    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 8
    }

    /// The promoted kind (only for kinds that `can_promote`).
    #[inline]
    pub const fn promoted(self) -> PieceKind {
        PieceKind::ALL[(self as usize) | 8]
    }

    /// The kind a captured piece becomes in hand (kings stay kings).
    #[inline]
    pub const fn unpromoted(self) -> PieceKind {
        PieceKind::ALL[(self as usize) & 7]
    }

    /// SFEN letter of Black's piece of this (unpromoted) kind.
    pub const fn letter(self) -> char {
        match self.unpromoted() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Gold => 'G',
            _ => 'K',
        }
    }

    /// The unpromoted kind named by an SFEN/USI letter (either case).
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'P' => PieceKind::Pawn,
            'L' => PieceKind::Lance,
            'N' => PieceKind::Knight,
            'S' => PieceKind::Silver,
            'B' => PieceKind::Bishop,
            'R' => PieceKind::Rook,
            'G' => PieceKind::Gold,
            'K' => PieceKind::King,
            _ => return None,
        })
    }
}

/// `PieceKind::ALL` padded to 16 entries, so `Piece::kind` needs no bounds check (the two extra
/// entries are never read for a real piece).
static KIND_OF_LOW_BITS: [PieceKind; 16] = {
    let mut table = [PieceKind::King; 16];
    let mut i = 0;
    while i < KINDS {
        table[i] = PieceKind::ALL[i];
        i += 1;
    }
    table
};

/// A coloured piece, or `Piece::NONE` for an empty square: `side * 16 + kind`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Default for Piece {
    fn default() -> Self {
        Piece::NONE
    }
}

impl Piece {
    /// The empty square.
    pub const NONE: Piece = Piece(0xFF);

    #[inline]
    pub const fn new(side: Side, kind: PieceKind) -> Piece {
        Piece(((side as u8) << 4) | kind as u8)
    }

    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0xFF
    }

    #[inline]
    pub const fn is_some(self) -> bool {
        self.0 != 0xFF
    }

    /// Kind of a real piece.
    #[inline]
    pub const fn kind(self) -> PieceKind {
        debug_assert!(self.0 & 15 < KINDS as u8, "kind of an empty square");
        KIND_OF_LOW_BITS[(self.0 & 15) as usize]
    }

    /// Owner of a real piece.
    #[inline]
    pub const fn side(self) -> Side {
        if self.0 & 16 == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    /// Dense index `side * 14 + kind`, `< 28`.
    #[inline]
    pub const fn slot(self) -> usize {
        self.side() as usize * KINDS + self.kind() as usize
    }

    /// SFEN text of the piece (`P`, `+p`, ...); empty for `NONE`.
    pub fn sfen(self) -> String {
        if self.is_none() {
            return String::new();
        }
        let kind = self.kind();
        let mut letter = kind.letter();
        if self.side() == Side::Second {
            letter = letter.to_ascii_lowercase();
        }
        if kind.is_promoted() {
            format!("+{letter}")
        } else {
            letter.to_string()
        }
    }
}

impl std::fmt::Debug for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_none() {
            write!(f, ".")
        } else {
            write!(f, "{}", self.sfen())
        }
    }
}

/// USI name of a square, e.g. `7g`.
pub fn usi_square(sq: Square) -> String {
    format!("{}{}", file_of(sq) + 1, (b'a' + rank_of(sq) as u8) as char)
}

/// Parses a USI square (`7g`).
pub fn parse_usi_square(text: &[u8]) -> Option<Square> {
    if text.len() != 2 {
        return None;
    }
    let file = text[0].checked_sub(b'1')? as usize;
    let rank = text[1].checked_sub(b'a')? as usize;
    (file < 9 && rank < 9).then(|| square(file, rank))
}

/// xboard name of a square (`c3` for USI `7g`): files a..i run from USI file 9 to 1, ranks 1..9
/// from USI rank i to a.
pub fn xboard_square(sq: Square) -> String {
    format!(
        "{}{}",
        (b'a' + (8 - file_of(sq)) as u8) as char,
        9 - rank_of(sq)
    )
}

/// Parses an xboard square (`c3`).
pub fn parse_xboard_square(text: &[u8]) -> Option<Square> {
    if text.len() != 2 {
        return None;
    }
    let col = text[0].checked_sub(b'a')? as usize;
    let row = text[1].checked_sub(b'1')? as usize;
    (col < 9 && row < 9).then(|| square(8 - col, 8 - row))
}
