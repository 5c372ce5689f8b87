//! The session's opening book: reading the Polyglot file `BookFile` names (when it changes, or
//! when `OwnBook` is switched on), telling the user what was read or what is wrong with it
//! (the engine then plays without a book), and answering from it: the book move to play
//! within `BookDepth` plies (the heaviest with `BookBestMove`, else a pick weighted by the
//! weights), and the list CECP's `bk` shows.

use super::protocol_game::ProtocolGame;
use super::session_core::SessionCore;
use crate::chess::polyglot::PolyglotBook;
use std::sync::Arc;

/// The book in use and the file it was read from.
#[derive(Clone, Debug, Default)]
pub struct LoadedBook {
    pub book: Option<Arc<PolyglotBook>>,
    /// The `BookFile` value last read (successfully or not).
    pub path: Option<String>,
}

impl<G: ProtocolGame> SessionCore<G> {
    /// Reads the book `BookFile` names if that changed and `OwnBook` is on.
    pub fn sync_book(&mut self) {
        let wanted = self.settings.book.file.trim().to_string();
        if !self.settings.book.enabled || self.loaded_book.path.as_deref() == Some(&wanted) {
            return;
        }
        self.loaded_book.path = Some(wanted.clone());
        self.loaded_book.book = None;
        if wanted.is_empty() {
            self.warn("OwnBook is on but BookFile is empty; playing without a book");
            return;
        }
        match PolyglotBook::open(&wanted) {
            Ok(book) => {
                self.note(&format!("Book: {} entries from {wanted}", book.len()));
                self.loaded_book.book = Some(Arc::new(book));
            }
            Err(error) => self.warn(&format!("BookFile: {error}; playing without a book")),
        }
    }

    /// The book's move for the current position, when the book is on, the game is within
    /// `BookDepth` plies and the book has a move; tells the user which move and its weight.
    pub fn book_move(&mut self) -> Option<G::Move> {
        self.sync_book();
        let settings = &self.settings.book;
        if !settings.enabled || self.settings.analyse_mode {
            return None;
        }
        let book = self.loaded_book.book.clone()?;
        let pos = self.history.current();
        if pos.game_ply() >= settings.max_plies {
            return None;
        }
        let random = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ pos.hash();
        let chosen = pos.book_choice(&book, settings.best_move, random)?;
        let moves = pos.book_moves(&book);
        let total: u32 = moves.iter().map(|&(_, w)| u32::from(w)).sum();
        let weight = moves
            .iter()
            .find(|&&(m, _)| m == chosen)
            .map_or(0, |&(_, w)| w);
        self.note(&format!(
            "book move {} (weight {weight} of {total})",
            pos.format_move(chosen)
        ));
        Some(chosen)
    }

    /// CECP `bk`: the book moves of the current position with their shares, one a line
    /// (`None` without a book).
    pub fn book_listing(&mut self) -> Option<Vec<String>> {
        if self.settings.book.file.trim().is_empty() {
            return None;
        }
        let on = self.settings.book.enabled;
        self.settings.book.enabled = true;
        self.sync_book();
        self.settings.book.enabled = on;
        let book = self.loaded_book.book.clone()?;
        let pos = self.history.current();
        let moves = pos.book_moves(&book);
        let total: u32 = moves.iter().map(|&(_, w)| u32::from(w)).sum::<u32>().max(1);
        Some(
            moves
                .iter()
                .map(|&(m, w)| {
                    format!(
                        "{} {:.1}% (weight {w})",
                        pos.format_move_cecp(m),
                        100.0 * f64::from(w) / f64::from(total)
                    )
                })
                .collect(),
        )
    }
}
