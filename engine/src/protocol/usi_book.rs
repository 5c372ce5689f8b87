//! YaneuraOu's standard book format (`.db`, header `#YANEURAOU-DB2016 1.00`): reading it, and
//! choosing a book move for a position under the `Book*` options.
//!
//! The file is text: after the header, each position is a line `sfen <sfen with move number>`
//! followed by one line per book move, `<move> <ponder|none> <eval> <depth> <count>` (eval in
//! centipawns for the side to move, the depth it was searched to, how often it was played).
//! Blank lines and lines starting with `#` or `//` are comments. A position's key is its SFEN
//! without the move number, so transpositions meet; the move number is kept for the ply check.

use super::usi_options::BookSettings;
use crate::game::{Game, Side};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;

/// The header line every YaneuraOu book starts with.
pub const BOOK_HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// One move of a book position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove<M> {
    pub mv: M,
    /// The expected reply (`none` in the file: `None`).
    pub ponder: Option<M>,
    pub eval: i32,
    pub depth: u32,
    pub count: u64,
}

#[derive(Clone, Debug)]
struct BookPosition<M> {
    /// The SFEN move number the position was stored at.
    move_number: u32,
    moves: Vec<BookMove<M>>,
}

/// Why a book file could not be read: the file, the 1-based line, and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("book '{file}' line {line}: {what}")]
pub struct BookError {
    pub file: String,
    pub line: usize,
    pub what: String,
}

/// A book read into memory.
#[derive(Clone, Debug)]
pub struct Book<G: Game> {
    positions: HashMap<String, BookPosition<G::Move>>,
}

/// A SFEN without its move number, and the move number.
fn split_move_number(sfen: &str) -> (String, Option<u32>) {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    match fields.split_last() {
        Some((last, rest)) if rest.len() >= 3 => (rest.join(" "), last.parse().ok()),
        _ => (fields.join(" "), None),
    }
}

/// The book key of a position, and its SFEN move number.
fn key_of<G: Game>(pos: &G) -> (String, u32) {
    let (key, number) = split_move_number(&pos.to_text());
    (key, number.unwrap_or(pos.game_ply() + 1))
}

impl<G: Game> Book<G> {
    /// Reads a book file; the error names the file and line.
    pub fn load(path: &str) -> Result<Self, BookError> {
        let bytes = std::fs::read(path).map_err(|e| BookError {
            file: path.to_string(),
            line: 0,
            what: format!("cannot read it: {e}"),
        })?;
        let text = String::from_utf8_lossy(&bytes);
        Self::parse(&text).map_err(|(line, what)| BookError {
            file: path.to_string(),
            line,
            what,
        })
    }

    /// Parses a book's text; the error is the 1-based line and what is wrong there.
    pub fn parse(text: &str) -> Result<Self, (usize, String)> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut positions: HashMap<String, BookPosition<G::Move>> = HashMap::new();
        let mut current: Option<(String, G)> = None;
        let mut saw_header = false;
        for (index, raw) in text.lines().enumerate() {
            let number = index + 1;
            let line = raw.trim();
            if !saw_header {
                if line.is_empty() {
                    continue;
                }
                if !line.starts_with("#YANEURAOU-DB2016") {
                    return Err((
                        number,
                        format!("not a YaneuraOu book: expected the header '{BOOK_HEADER}'"),
                    ));
                }
                saw_header = true;
                continue;
            }
            if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
                continue;
            }
            if let Some(sfen) = line.strip_prefix("sfen ") {
                let pos = G::from_text(sfen.trim())
                    .map_err(|e| (number, format!("bad position '{}': {e}", sfen.trim())))?;
                let (_, move_number) = split_move_number(sfen);
                let (key, _) = key_of(&pos);
                positions.entry(key.clone()).or_insert(BookPosition {
                    move_number: move_number.unwrap_or(pos.game_ply() + 1),
                    moves: Vec::new(),
                });
                current = Some((key, pos));
                continue;
            }
            let Some((key, pos)) = &current else {
                return Err((number, "a move line before any 'sfen' line".to_string()));
            };
            let entry = parse_move_line(pos, line).map_err(|what| (number, what))?;
            let moves = &mut positions.get_mut(key).expect("inserted above").moves;
            match moves.iter_mut().find(|m| m.mv == entry.mv) {
                Some(existing) => *existing = entry,
                None => moves.push(entry),
            }
        }
        if !saw_header {
            return Err((
                1,
                format!("empty file, expected the header '{BOOK_HEADER}'"),
            ));
        }
        Ok(Self { positions })
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The book moves of `pos` that pass the filters of `settings`, best eval first (the ply
    /// window and the ignore rate are `choose`'s).
    pub fn candidates(&self, pos: &G, settings: &BookSettings) -> Vec<BookMove<G::Move>> {
        let (key, move_number) = key_of(pos);
        let Some(entry) = self.positions.get(&key) else {
            return Vec::new();
        };
        if !settings.ignore_ply && entry.move_number != move_number {
            return Vec::new();
        }
        let side = match pos.side_to_move() {
            Side::First => 0,
            Side::Second => 1,
        };
        let mut moves: Vec<BookMove<G::Move>> = entry
            .moves
            .iter()
            .copied()
            .filter(|m| pos.is_legal_move(m.mv))
            .filter(|m| settings.depth_limit == 0 || m.depth >= settings.depth_limit)
            .filter(|m| m.eval >= settings.eval_limit[side])
            .collect();
        moves.sort_by_key(|m| (std::cmp::Reverse(m.eval), std::cmp::Reverse(m.count)));
        if let Some(best) = moves.first().map(|m| m.eval) {
            moves.retain(|m| m.eval >= best.saturating_sub(settings.eval_diff));
        }
        moves
    }
}

fn parse_move_line<G: Game>(pos: &G, line: &str) -> Result<BookMove<G::Move>, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let mv = pos
        .parse_move(fields[0])
        .map_err(|e| format!("book move: {e} in this position"))?;
    let ponder = match fields.get(1) {
        None | Some(&"none") => None,
        Some(text) => {
            let mut after = pos.clone();
            after.make_move(mv);
            Some(
                after
                    .parse_move(text)
                    .map_err(|e| format!("ponder move: {e} after {}", fields[0]))?,
            )
        }
    };
    let number = |index: usize, name: &str| -> Result<i64, String> {
        match fields.get(index) {
            None => Ok(0),
            Some(text) => text
                .parse::<i64>()
                .map_err(|_| format!("{name} '{text}' is not an integer")),
        }
    };
    let eval = number(2, "eval")?.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    let depth = number(3, "depth")?.clamp(0, u32::MAX as i64) as u32;
    let count = number(4, "count")?.max(0) as u64;
    if fields.len() > 5 {
        return Err(format!(
            "expected '<move> <ponder> <eval> <depth> <count>', found {} fields",
            fields.len()
        ));
    }
    Ok(BookMove {
        mv,
        ponder,
        eval,
        depth,
        count,
    })
}

/// A loaded book (or the reason there is none) and the random source its picks draw from.
#[derive(Debug)]
pub struct BookState<G: Game> {
    /// The path the current `book` was read from (or failed to read from).
    loaded_from: Option<String>,
    book: Option<Book<G>>,
    rng: Xoshiro256PlusPlus,
}

impl<G: Game> Default for BookState<G> {
    fn default() -> Self {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        Self {
            loaded_from: None,
            book: None,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl<G: Game> BookState<G> {
    /// Reads the book `settings` name unless it is the one already read. Returns a message
    /// for the GUI when it read one or failed to.
    pub fn sync(&mut self, settings: &BookSettings) -> Option<String> {
        let wanted = settings.path().map(str::to_string);
        if wanted == self.loaded_from {
            return None;
        }
        self.loaded_from = wanted.clone();
        self.book = None;
        let path = wanted?;
        match Book::<G>::load(&path) {
            Ok(book) => {
                let message = format!("book '{path}': {} positions", book.len());
                self.book = Some(book);
                Some(message)
            }
            Err(error) => Some(format!("{error}; playing without a book")),
        }
    }

    /// The book's move for `pos`, if `settings` allow one there.
    pub fn choose(&mut self, pos: &G, settings: &BookSettings) -> Option<BookMove<G::Move>> {
        let book = self.book.as_ref()?;
        if !settings.own_book || pos.game_ply() + 1 > settings.moves {
            return None;
        }
        let candidates = book.candidates(pos, settings);
        if candidates.is_empty() {
            return None;
        }
        if settings.ignore_rate > 0 && self.rng.next_u64() % 100 < u64::from(settings.ignore_rate) {
            return None;
        }
        let total: u64 = candidates.iter().map(|m| m.count).sum();
        let index = if settings.weighted && total > 0 {
            let mut ticket = self.rng.next_u64() % total;
            candidates
                .iter()
                .position(|m| {
                    if ticket < m.count {
                        true
                    } else {
                        ticket -= m.count;
                        false
                    }
                })
                .unwrap_or(0)
        } else {
            (self.rng.next_u64() % candidates.len() as u64) as usize
        };
        Some(candidates[index])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Position;

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    fn book(text: &str) -> Result<Book<Position>, (usize, String)> {
        Book::parse(text)
    }

    fn loose() -> BookSettings {
        BookSettings {
            eval_diff: 99_999,
            eval_limit: [-99_999, -99_999],
            depth_limit: 0,
            ..BookSettings::default()
        }
    }

    #[test]
    fn reads_positions_and_filters_moves() {
        let text = format!(
            "{BOOK_HEADER}\nsfen {START}\n7g7f 3c3d 50 32 10\n2g2f 8c8d 40 32 5\n\
             5i5h none -300 32 1\n6i7h none 45 4 1\n"
        );
        let b = book(&text).unwrap();
        assert_eq!(b.len(), 1);
        let pos = Position::startpos();
        let all = b.candidates(&pos, &loose());
        assert_eq!(all.len(), 4);
        assert_eq!(pos.format_move(all[0].mv), "7g7f");
        assert_eq!(
            all[0].ponder.map(|p| {
                let mut c = pos;
                c.make_move(all[0].mv);
                c.format_move(p)
            }),
            Some("3c3d".to_string())
        );
        // YaneuraOu's defaults: within 30 of the best, eval >= 0 for black, depth >= 16.
        let defaults = b.candidates(&pos, &BookSettings::default());
        let names: Vec<String> = defaults.iter().map(|m| pos.format_move(m.mv)).collect();
        assert_eq!(names, ["7g7f", "2g2f"]);
        let best_only = BookSettings {
            eval_diff: 0,
            ..BookSettings::default()
        };
        assert_eq!(b.candidates(&pos, &best_only).len(), 1);
    }

    #[test]
    fn the_move_number_must_match_unless_ignored() {
        let text = format!(
            "{BOOK_HEADER}\nsfen {}\n7g7f none 0 32 1\n",
            START.replace(" 1", " 3")
        );
        let b = book(&text).unwrap();
        let pos = Position::startpos();
        assert!(b.candidates(&pos, &loose()).is_empty());
        let ignore = BookSettings {
            ignore_ply: true,
            ..loose()
        };
        assert_eq!(b.candidates(&pos, &ignore).len(), 1);
    }

    #[test]
    fn damaged_books_name_the_line() {
        assert_eq!(book("sfen x\n").unwrap_err().0, 1);
        assert_eq!(book("").unwrap_err().0, 1);
        let cases = [
            (format!("{BOOK_HEADER}\n7g7f none 0 0 1\n"), 2),
            (
                format!("{BOOK_HEADER}\nsfen {START}\n7g7f none 0 32 1\nsfen nonsense b - 1\n"),
                4,
            ),
            (
                format!("{BOOK_HEADER}\nsfen {START}\n7g7f none 0 32 1\n7g7e none 0 32 1\n"),
                4,
            ),
            (
                format!("{BOOK_HEADER}\n\nsfen {START}\n7g7f 3c3d x 32 1\n"),
                4,
            ),
            (
                format!("{BOOK_HEADER}\nsfen {START}\n7g7f 7g7f 0 32 1\n"),
                3,
            ),
            (
                format!("{BOOK_HEADER}\nsfen {START}\n7g7f none 0 32 1 9\n"),
                3,
            ),
        ];
        for (text, line) in cases {
            let error = book(&text).unwrap_err();
            assert_eq!(error.0, line, "{text}: {error:?}");
        }
    }

    #[test]
    fn weighted_picks_follow_the_counts() {
        let text = format!("{BOOK_HEADER}\nsfen {START}\n7g7f none 0 32 3\n2g2f none 0 32 1\n");
        let mut state = BookState::<Position> {
            book: Some(book(&text).unwrap()),
            ..BookState::default()
        };
        let pos = Position::startpos();
        let weighted = BookSettings {
            weighted: true,
            ..loose()
        };
        let mut first = 0;
        for _ in 0..2000 {
            let m = state.choose(&pos, &weighted).unwrap();
            first += usize::from(pos.format_move(m.mv) == "7g7f");
        }
        assert!(
            (1350..1650).contains(&first),
            "{first} of 2000, expected 1500"
        );
        let past = BookSettings {
            moves: 0,
            ..weighted.clone()
        };
        assert!(state.choose(&pos, &past).is_none());
        let ignored = BookSettings {
            ignore_rate: 100,
            ..weighted
        };
        assert!(state.choose(&pos, &ignored).is_none());
    }
}
