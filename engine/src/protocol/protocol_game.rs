//! What the protocols need of a game beyond the `Game` trait: its search backend type, how
//! protocol rule options apply to its positions, and a few CECP specifics. Implemented once per game; the
//! game logic behind it (edit boards, xboard's shogi FEN, side switches) lives in the game's own
//! folder (`chess/edit_board.rs`, `shogi/xboard_notation.rs`, `shogi/sfen.rs`).

use super::backend::SearchBackend;
use super::options::RuleSettings;
use crate::chess::polyglot::PolyglotBook;
use crate::chess::EditBoard;
use crate::game::{Game, Side};
use crate::nnue::GameEval;
use crate::search::Searcher;

/// A game the protocol layer can play.
pub trait ProtocolGame: Game {
    /// The search engine used for this game (`Searcher` with the game's `GameEval`).
    type Backend: SearchBackend<Self>;

    /// Applies the protocol's rule settings (chess: Chess960; shogi: entering king, max plies).
    fn apply_rules(&mut self, rules: &RuleSettings);

    /// Why a parsed position cannot be played under `rules` (chess: castling rights that only
    /// Chess960 allows while `UCI_Chess960` is off); `None` when it can.
    fn rules_conflict(&self, rules: &RuleSettings) -> Option<String> {
        let _ = rules;
        None
    }

    /// Why the alpha-beta search (and its evaluation) cannot play this position, which only the
    /// mate solver takes (shogi: a tsume without the attacker's king); `None` when it can.
    fn search_refusal(&self) -> Option<String> {
        None
    }

    /// How CECP result comments name the sides, first player first ("White", "Black"; shogi
    /// "Sente", "Gote").
    const SIDE_NAMES: [&'static str; 2];

    /// The name of `side` in CECP result comments.
    fn side_name(side: Side) -> &'static str {
        Self::SIDE_NAMES[side.index()]
    }

    /// The same board with `side` to move (CECP `white` / `black` / edit mode), if legal.
    fn with_side_to_move(&self, side: Side) -> Option<Self>;

    /// Parses a CECP `setboard` text (chess: FEN, X-FEN, Shredder-FEN; shogi: SFEN or xboard's
    /// shogi FEN).
    fn from_cecp_text(text: &str) -> Result<Self, Self::ParseError> {
        Self::from_text(text)
    }

    /// CECP v1 `edit` mode: the board as rows of piece letters (`None` for games whose edit
    /// mode the engine does not support).
    fn edit_board(&self) -> Option<EditBoard> {
        None
    }

    /// Builds a position from an edited board with `side` to move.
    fn from_edit_board(board: &EditBoard, side: Side) -> Option<Self> {
        let _ = (board, side);
        None
    }

    /// The Polyglot book's legal moves here with their weights (none for a game without).
    fn book_moves(&self, book: &PolyglotBook) -> Vec<(Self::Move, u16)> {
        let _ = book;
        Vec::new()
    }

    /// The book move to play: the heaviest (`best`) or a weighted pick by `random`.
    fn book_choice(&self, book: &PolyglotBook, best: bool, random: u64) -> Option<Self::Move> {
        let _ = (book, best, random);
        None
    }
}

impl ProtocolGame for crate::chess::Position {
    type Backend = Searcher<Self, GameEval<Self>>;
    const SIDE_NAMES: [&'static str; 2] = ["White", "Black"];

    fn apply_rules(&mut self, rules: &RuleSettings) {
        // FEN parsing switches Chess960 on by itself for Shredder/X-FEN castling letters; the
        // option only ever adds it.
        if rules.chess960 {
            self.set_chess960(true);
        }
    }

    fn rules_conflict(&self, rules: &RuleSettings) -> Option<String> {
        // As Stockfish: in standard chess a castling right needs the king on e1/e8 and its rook
        // in the corner; anything else is Chess960 and needs UCI_Chess960.
        (!rules.chess960 && self.is_chess960()).then(|| {
            "castling rights that need Chess960 (king or castling rook off its standard square, \
             or Shredder-FEN letters) while UCI_Chess960 is false"
                .to_string()
        })
    }

    fn with_side_to_move(&self, side: Side) -> Option<Self> {
        crate::chess::Position::with_side_to_move(self, side)
    }

    fn edit_board(&self) -> Option<EditBoard> {
        Some(crate::chess::Position::edit_board(self))
    }

    fn from_edit_board(board: &EditBoard, side: Side) -> Option<Self> {
        crate::chess::Position::from_edit_board(board, side)
    }

    fn book_moves(&self, book: &PolyglotBook) -> Vec<(Self::Move, u16)> {
        book.moves(self)
    }

    fn book_choice(&self, book: &PolyglotBook, best: bool, random: u64) -> Option<Self::Move> {
        book.choose(self, best, random)
    }
}

impl ProtocolGame for crate::shogi::Position {
    type Backend = Searcher<Self, GameEval<Self>>;
    const SIDE_NAMES: [&'static str; 2] = ["Sente", "Gote"];

    fn apply_rules(&mut self, rules: &RuleSettings) {
        self.set_rules(rules.shogi);
    }

    fn search_refusal(&self) -> Option<String> {
        [Side::First, Side::Second]
            .into_iter()
            .find(|&side| !self.has_king(side))
            .map(|side| {
                format!(
                    "{} has no king: only go mate (tsume) solves such a position",
                    Self::side_name(side)
                )
            })
    }

    fn with_side_to_move(&self, side: Side) -> Option<Self> {
        crate::shogi::Position::with_side_to_move(self, side)
    }

    fn from_cecp_text(text: &str) -> Result<Self, Self::ParseError> {
        Self::from_xboard_text(text)
    }
}
