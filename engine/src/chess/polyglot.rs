//! Polyglot opening books (`.bin`): the format's position key (`polyglot_key`, from the
//! Random64 array in `polyglot_random.rs`), reading and checking a book file (16-byte entries,
//! big-endian key, move, weight and learn fields, sorted by key), the book moves of a position
//! with their weights, and the choice of one: the heaviest, or a pick weighted by the weights.

use super::fen::answer_fen_lines;
use super::polyglot_random::RANDOM64;
use super::types::{file_of, make_square, PieceKind};
use super::Position;
use crate::game::{Game, Side};
use crate::movelist::MoveList;

/// Offsets into `RANDOM64` after the 768 piece numbers.
const CASTLING_OFFSET: usize = 768;
const EN_PASSANT_OFFSET: usize = 772;
const TURN_OFFSET: usize = 780;
/// Bytes per book entry.
const ENTRY_BYTES: usize = 16;

/// The Polyglot key of a position.
pub fn polyglot_key(pos: &Position) -> u64 {
    let mut key = 0u64;
    for side in [Side::First, Side::Second] {
        for kind in PieceKind::ALL {
            // Kinds interleave black and white: black pawn 0, white pawn 1, black knight 2, ...
            let piece = 2 * kind.index() + usize::from(side == Side::First);
            let mut bits = pos.pieces(side, kind);
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                key ^= RANDOM64[64 * piece + sq];
            }
        }
    }
    let rights = pos.castling_rights();
    for bit in 0..4 {
        if rights & (1 << bit) != 0 {
            key ^= RANDOM64[CASTLING_OFFSET + bit];
        }
    }
    // The engine keeps an en passant square only where a pawn can capture (pseudo-legally),
    // which is the format's rule too.
    if let Some(ep) = pos.en_passant_square() {
        key ^= RANDOM64[EN_PASSANT_OFFSET + file_of(ep) as usize];
    }
    if pos.side_to_move() == Side::First {
        key ^= RANDOM64[TURN_OFFSET];
    }
    key
}

/// One book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    pub key: u64,
    /// The format's move bits: to file, to rank, from file, from rank (3 bits each), then the
    /// promotion piece (0 none, 1 knight … 4 queen); castling as the king taking its rook.
    pub mv: u16,
    pub weight: u16,
    pub learn: u32,
}

/// A book file read into memory.
#[derive(Clone, Debug)]
pub struct PolyglotBook {
    entries: Vec<BookEntry>,
    path: String,
}

impl PolyglotBook {
    /// Reads and checks a book: its length must be a whole number of entries and its keys
    /// sorted; the error names the file and, for unsorted keys, the entry's byte offset.
    pub fn open(path: &str) -> Result<PolyglotBook, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
        Self::from_bytes(&bytes, path)
    }

    /// As `open`, from the file's bytes.
    pub fn from_bytes(bytes: &[u8], path: &str) -> Result<PolyglotBook, String> {
        if bytes.is_empty() {
            return Err(format!("'{path}' is empty"));
        }
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(format!(
                "'{path}': {} bytes is not a whole number of 16-byte entries (a truncated \
                 book?); the last entry would start at offset {}",
                bytes.len(),
                bytes.len() / ENTRY_BYTES * ENTRY_BYTES
            ));
        }
        let mut entries = Vec::with_capacity(bytes.len() / ENTRY_BYTES);
        for (i, chunk) in bytes.chunks_exact(ENTRY_BYTES).enumerate() {
            let entry = BookEntry {
                key: u64::from_be_bytes(chunk[0..8].try_into().unwrap_or_default()),
                mv: u16::from_be_bytes([chunk[8], chunk[9]]),
                weight: u16::from_be_bytes([chunk[10], chunk[11]]),
                learn: u32::from_be_bytes(chunk[12..16].try_into().unwrap_or_default()),
            };
            if let Some(previous) = entries.last() {
                let previous: &BookEntry = previous;
                if entry.key < previous.key {
                    return Err(format!(
                        "'{path}': entry at offset {} is out of key order (not a Polyglot book?)",
                        i * ENTRY_BYTES
                    ));
                }
            }
            entries.push(entry);
        }
        Ok(PolyglotBook {
            entries,
            path: path.to_string(),
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    /// The entries of `key`, in file order.
    pub fn entries_of(&self, key: u64) -> &[BookEntry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The book's legal moves in `pos` with their weights, in file order (entries whose move is
    /// not legal here are skipped).
    pub fn moves(&self, pos: &Position) -> Vec<(super::Move, u16)> {
        self.entries_of(polyglot_key(pos))
            .iter()
            .filter_map(|e| decode_move(pos, e.mv).map(|m| (m, e.weight)))
            .collect()
    }

    /// The move to play: the heaviest (`best`), or one drawn with probability proportional to
    /// its weight by `random` (a number in 0..2^64). `None` without a book move of weight > 0.
    pub fn choose(&self, pos: &Position, best: bool, random: u64) -> Option<super::Move> {
        let moves: Vec<(super::Move, u16)> = self
            .moves(pos)
            .into_iter()
            .filter(|&(_, w)| w > 0)
            .collect();
        if best {
            // The first of the heaviest, as books list their main move first.
            let top = moves.iter().map(|&(_, w)| w).max()?;
            return moves.iter().find(|&&(_, w)| w == top).map(|&(m, _)| m);
        }
        let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
        if total == 0 {
            return None;
        }
        let mut pick = random % total;
        for &(m, w) in &moves {
            if pick < u64::from(w) {
                return Some(m);
            }
            pick -= u64::from(w);
        }
        None
    }
}

/// The legal move a book entry's move bits name in `pos`, if any.
pub fn decode_move(pos: &Position, bits: u16) -> Option<super::Move> {
    let to = make_square((bits & 7) as u8, ((bits >> 3) & 7) as u8);
    let from = make_square(((bits >> 6) & 7) as u8, ((bits >> 9) & 7) as u8);
    let promotion = match (bits >> 12) & 7 {
        0 => None,
        1 => Some(PieceKind::Knight),
        2 => Some(PieceKind::Bishop),
        3 => Some(PieceKind::Rook),
        4 => Some(PieceKind::Queen),
        _ => return None,
    };
    let mut legal = <Position as Game>::Moves::default();
    pos.generate_legal(&mut legal);
    // Castling is written as the king taking its own rook, as the engine keeps it.
    legal
        .as_slice()
        .iter()
        .copied()
        .find(|&m| m.from() == from && m.to() == to && m.promoted() == promotion)
}

/// `sente polyglot BOOK`: for each FEN line of `input`, the position's Polyglot key and the
/// book's legal moves with their weights, as `key HEX moves MOVE:WEIGHT ...` (UCI notation),
/// or `error ...` for a bad FEN.
pub fn probe_lines(
    path: &str,
    input: impl std::io::BufRead,
    output: impl std::io::Write,
) -> Result<usize, String> {
    let book = PolyglotBook::open(path)?;
    answer_fen_lines(input, output, |pos| {
        let moves: Vec<String> = book
            .moves(pos)
            .iter()
            .map(|&(m, w)| format!("{}:{w}", pos.format_move(m)))
            .collect();
        format!("key {:016x} moves {}", polyglot_key(pos), moves.join(" "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys the format's specification lists for its test positions.
    #[test]
    fn keys_of_the_specification_test_positions() {
        let cases = [
            ("", 0x463b96181691fc9c),
            ("e2e4", 0x823c9b50fd114196),
            ("e2e4 d7d5", 0x0756b94461c50fb0),
            ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
            ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
            ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
            ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
            ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
            ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
        ];
        for (moves, key) in cases {
            let mut pos = Position::startpos();
            for text in moves.split_whitespace() {
                let m = pos.parse_move(text).unwrap();
                pos.make_move(m);
            }
            assert_eq!(polyglot_key(&pos), key, "after '{moves}'");
        }
    }

    fn entry(key: u64, mv: u16, weight: u16) -> [u8; 16] {
        let mut bytes = [0u8; 16];
        bytes[0..8].copy_from_slice(&key.to_be_bytes());
        bytes[8..10].copy_from_slice(&mv.to_be_bytes());
        bytes[10..12].copy_from_slice(&weight.to_be_bytes());
        bytes
    }

    #[test]
    fn moves_weights_castling_and_choices() {
        let start = Position::startpos();
        let key = polyglot_key(&start);
        // e2e4 (from e2 = file 4 rank 1, to e4 = file 4 rank 3), d2d4, and an illegal e2e5.
        let bits = |ff: u16, fr: u16, tf: u16, tr: u16| tf | tr << 3 | ff << 6 | fr << 9;
        let mut bytes = Vec::new();
        bytes.extend(entry(key, bits(4, 1, 4, 3), 30));
        bytes.extend(entry(key, bits(3, 1, 3, 3), 10));
        bytes.extend(entry(key, bits(4, 1, 4, 4), 99));
        let book = PolyglotBook::from_bytes(&bytes, "test").unwrap();
        let moves: Vec<(String, u16)> = book
            .moves(&start)
            .into_iter()
            .map(|(m, w)| (start.format_move(m), w))
            .collect();
        assert_eq!(moves, [("e2e4".to_string(), 30), ("d2d4".to_string(), 10)]);
        assert_eq!(
            start.format_move(book.choose(&start, true, 0).unwrap()),
            "e2e4"
        );
        // Weighted: 0..30 picks e2e4, 30..40 d2d4.
        assert_eq!(
            start.format_move(book.choose(&start, false, 35).unwrap()),
            "d2d4"
        );
        assert_eq!(
            start.format_move(book.choose(&start, false, 29).unwrap()),
            "e2e4"
        );
        // Castling written as e1h1.
        let pos = Position::from_text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let book =
            PolyglotBook::from_bytes(&entry(polyglot_key(&pos), bits(4, 0, 7, 0), 1), "t").unwrap();
        assert_eq!(pos.format_move(book.moves(&pos)[0].0), "e1g1");
    }

    #[test]
    fn damaged_books_are_refused_with_the_offset() {
        let mut bytes = entry(5, 0, 1).to_vec();
        bytes.extend(entry(3, 0, 1));
        let error = PolyglotBook::from_bytes(&bytes, "b.bin").unwrap_err();
        assert!(error.contains("offset 16"), "{error}");
        let error = PolyglotBook::from_bytes(&bytes[..20], "b.bin").unwrap_err();
        assert!(
            error.contains("20 bytes") && error.contains("b.bin"),
            "{error}"
        );
        assert!(PolyglotBook::open("/nonexistent/book.bin").is_err());
    }
}
