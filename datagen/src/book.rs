//! Opening books for `datagen run --book`: a text file of start positions, one per line. A line
//! is a FEN / SFEN (EPD-style extra fields after it are ignored), optionally followed by
//! `moves M1 M2 …`; or `startpos [moves …]`; or just moves from the start position (UCI / USI
//! notation). `#` comments and blank lines are skipped. Every line is checked (legal moves, game
//! not over) when the book is loaded, so a bad book is refused before any game is played.

use sente::game::{Game, HistoryEntry};
use sente::movelist::MoveList;
use sente::selfplay::{random_opening, Opening};
use std::path::Path;

/// Most whitespace-separated fields a position text has (chess FEN: 6; SFEN: 4).
const MAX_POSITION_FIELDS: usize = 6;

/// Why a book could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("reading the book {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} line {line}: {problem}")]
    BadLine {
        path: String,
        line: usize,
        problem: String,
    },
    #[error("the book {0} holds no positions")]
    Empty(String),
}

/// The positions of a book, in file order, with the moves (and history) that reached them.
#[derive(Clone, Debug)]
pub struct Book<G: Game> {
    entries: Vec<Opening<G>>,
    checksum: u64,
}

/// What identifies a book's content in a run's manifest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookSummary {
    /// FNV-1a 64 of the positions' FEN / SFEN texts, one per line, in book order.
    pub checksum: u64,
    pub positions: usize,
}

impl<G: Game> Book<G> {
    /// Reads and checks a book file.
    pub fn load(path: &Path) -> Result<Self, BookError> {
        // A device or FIFO given as the book would be read forever (or block).
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            return Err(BookError::Io {
                path: path.display().to_string(),
                source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file"),
            });
        }
        let text = std::fs::read_to_string(path).map_err(|source| BookError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text, &path.display().to_string())
    }

    /// Parses a book's text; `name` is used in error messages.
    pub fn parse(text: &str, name: &str) -> Result<Self, BookError> {
        let mut entries = Vec::new();
        let mut normalized = String::new();
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let opening = parse_line::<G>(line).map_err(|problem| BookError::BadLine {
                path: name.to_string(),
                line: index + 1,
                problem,
            })?;
            normalized.push_str(&opening.position.to_text());
            normalized.push('\n');
            entries.push(opening);
        }
        if entries.is_empty() {
            return Err(BookError::Empty(name.to_string()));
        }
        Ok(Self {
            entries,
            checksum: sente::nnue::format::fnv1a64(normalized.as_bytes()),
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entry `index` modulo the book's length.
    pub fn entry(&self, index: u64) -> &Opening<G> {
        &self.entries[(index % self.entries.len() as u64) as usize]
    }

    /// Book line `line_seed % len`, then `plies` random plies (seeded by `ply_seed`) on top; the
    /// moves and history run from the line's own start.
    pub fn opening(&self, line_seed: u64, plies: u32, ply_seed: u64) -> Opening<G> {
        let line = self.entry(line_seed);
        let on_top = random_opening(&line.position, plies, ply_seed);
        Opening {
            start: line.start.clone(),
            position: on_top.position,
            moves: line.moves.iter().chain(&on_top.moves).copied().collect(),
            history: line
                .history
                .iter()
                .chain(&on_top.history)
                .copied()
                .collect(),
        }
    }

    pub fn entries(&self) -> &[Opening<G>] {
        &self.entries
    }

    pub fn summary(&self) -> BookSummary {
        BookSummary {
            checksum: self.checksum,
            positions: self.entries.len(),
        }
    }
}

/// One book line to an opening, or what is wrong with it.
fn parse_line<G: Game>(line: &str) -> Result<Opening<G>, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let start = G::startpos();
    let (position, move_texts) = match tokens[0] {
        "startpos" => (start, after_moves_keyword(&tokens[1..])?),
        first if start.parse_move(first).is_ok() => (start, &tokens[..]),
        _ => {
            // `fen` / `sfen` prefixes as in UCI / USI `position` commands.
            let fields = match tokens[0] {
                "fen" | "sfen" => &tokens[1..],
                _ => &tokens[..],
            };
            let moves_at = fields
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(fields.len());
            let position = parse_position::<G>(&fields[..moves_at])?;
            let rest = &fields[moves_at..];
            (position, rest.get(1..).unwrap_or(&[]))
        }
    };
    let mut opening = Opening {
        start: position.clone(),
        position,
        moves: Vec::new(),
        history: Vec::new(),
    };
    for (number, text) in move_texts.iter().enumerate() {
        let m = opening
            .position
            .parse_move(text)
            .map_err(|e| format!("move {} ({text}): {e}", number + 1))?;
        opening.history.push(HistoryEntry {
            hash: opening.position.hash(),
            in_check: opening.position.in_check(),
        });
        opening.position.make_move(m);
        opening.moves.push(m);
    }
    let mut legal = G::Moves::default();
    opening.position.generate_legal(&mut legal);
    if legal.is_empty()
        || opening
            .position
            .rule_outcome(&opening.history, false)
            .is_some()
    {
        return Err(format!(
            "the game is already over in {}",
            opening.position.to_text()
        ));
    }
    Ok(opening)
}

/// The moves after `startpos`: nothing, or `moves M1 M2 …`.
fn after_moves_keyword<'a>(tokens: &'a [&'a str]) -> Result<&'a [&'a str], String> {
    match tokens.first() {
        None => Ok(tokens),
        Some(&"moves") => Ok(&tokens[1..]),
        Some(other) => Err(format!(
            "expected 'moves' after 'startpos', found '{other}'"
        )),
    }
}

/// The longest leading run of fields (up to a full FEN) that parses as a position, so EPD
/// operations and other trailing fields are ignored. Fails with the longest attempt's error.
fn parse_position<G: Game>(fields: &[&str]) -> Result<G, String> {
    let longest = fields.len().min(MAX_POSITION_FIELDS);
    let mut first_error = None;
    for count in (1..=longest).rev() {
        match G::from_text(&fields[..count].join(" ")) {
            Ok(position) => return Ok(position),
            Err(e) => {
                first_error.get_or_insert_with(|| e.to_string());
            }
        }
    }
    Err(format!(
        "not a position: {}",
        first_error.unwrap_or_else(|| "no position text".to_string())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente::chess::Position as Chess;
    use sente::shogi::Position as Shogi;

    const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn chess_lines_of_every_form() {
        let text = format!(
            "# a comment\n\n{START_FEN}\n\
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"epd\";\n\
             e2e4 e7e5 g1f3\n\
             startpos moves d2d4\n\
             startpos\n\
             fen {START_FEN} moves c2c4 c7c5\n"
        );
        let book = Book::<Chess>::parse(&text, "t").unwrap();
        assert_eq!(book.len(), 6);
        let e = book.entries();
        assert_eq!(e[0].position.to_text(), START_FEN);
        assert!(e[1]
            .position
            .to_text()
            .starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP"));
        assert_eq!(e[2].moves.len(), 3);
        assert_eq!(e[2].history.len(), 3);
        assert_eq!(e[3].moves.len(), 1);
        assert_eq!(e[4].position.to_text(), START_FEN);
        assert_eq!(e[5].moves.len(), 2);
        let mut replayed = Chess::startpos();
        for &m in &e[2].moves {
            replayed.make_move(m);
        }
        assert_eq!(replayed.to_text(), e[2].position.to_text());
    }

    #[test]
    fn shogi_lines_of_every_form() {
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let text = format!("{sfen}\nsfen {sfen} moves 7g7f\n7g7f 3c3d\n{sfen} extra field\n");
        let book = Book::<Shogi>::parse(&text, "t").unwrap();
        assert_eq!(book.len(), 4);
        assert_eq!(book.entries()[1].moves.len(), 1);
        assert_eq!(book.entries()[2].moves.len(), 2);
    }

    #[test]
    fn bad_lines_are_named() {
        let cases = [
            ("e2e4\n\n# c\nnot a fen at all\n", 4, "not a position"),
            ("e2e4 e2e4\n", 1, "move 2"),
            ("startpos moves e2e5\n", 1, "e2e5"),
            ("startpos e2e4\n", 1, "expected 'moves'"),
            // Fool's mate: checkmate, nothing to play.
            ("f2f3 e7e5 g2g4 d8h4\n", 1, "already over"),
        ];
        for (text, line, needle) in cases {
            let error = Book::<Chess>::parse(text, "book.txt").unwrap_err();
            let message = error.to_string();
            assert!(
                message.starts_with(&format!("book.txt line {line}: ")) && message.contains(needle),
                "{text:?}: {message}"
            );
        }
        assert!(matches!(
            Book::<Chess>::parse("# only comments\n\n", "b"),
            Err(BookError::Empty(_))
        ));
    }

    #[test]
    fn the_checksum_follows_the_positions_not_the_comments() {
        let a = Book::<Chess>::parse("e2e4\nd2d4\n", "a").unwrap();
        let b = Book::<Chess>::parse("# x\ne2e4\n\nd2d4   \n", "b").unwrap();
        let c = Book::<Chess>::parse("d2d4\ne2e4\n", "c").unwrap();
        assert_eq!(a.summary(), b.summary());
        assert_ne!(a.summary(), c.summary());
        assert_eq!(a.summary().positions, 2);
    }
}
