//! What the protocols need of a game beyond the `Game` trait: its search backend, how protocol
//! rule options apply to its positions, and a few CECP specifics. Implemented once per game.

use super::backend::SearchBackend;
use super::options::{EnteringKingRule, RuleSettings};
use crate::game::{Game, Side};
use crate::nnue::{EvalChoice, GameEval, NnueGame};
use crate::search::Searcher;

/// A game the protocol layer can play.
pub trait ProtocolGame: Game {
    /// The search engine used for this game.
    type Backend: SearchBackend<Self>;

    /// A fresh search engine (16 MB table, one thread, the game's default evaluator).
    fn new_backend() -> Self::Backend;

    /// Switches the backend to the evaluator `EvalFile` names (empty: the default, i.e. the
    /// embedded net or the classical evaluator). Returns a description of the evaluation in use,
    /// or the error (the previous evaluator stays).
    fn load_evaluator(backend: &mut Self::Backend, eval_file: &str) -> Result<String, String>;

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

    /// How CECP result comments name a side ("White", "Black"; shogi "Sente", "Gote").
    fn side_name(side: Side) -> &'static str;

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
}

/// A chess board as CECP's edit mode changes it: `squares[rank][file]`, rank 0 = rank 1,
/// holding FEN piece letters (uppercase White).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EditBoard {
    pub squares: [[Option<char>; 8]; 8],
}

impl EditBoard {
    /// Reads the board field of a FEN.
    pub fn from_fen_board(board: &str) -> Option<Self> {
        let mut squares = [[None; 8]; 8];
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 8 {
            return None;
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = 7 - i;
            let mut file = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                } else {
                    *squares[rank].get_mut(file)? = Some(c);
                    file += 1;
                }
            }
            if file != 8 {
                return None;
            }
        }
        Some(Self { squares })
    }

    /// The board field of a FEN.
    pub fn to_fen_board(&self) -> String {
        let mut text = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.squares[rank][file] {
                    Some(c) => {
                        if empty > 0 {
                            text.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        text.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                text.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                text.push('/');
            }
        }
        text
    }

    /// Castling rights implied by kings and rooks on their home squares (CECP edit rule).
    pub fn castling_rights(&self) -> String {
        let mut rights = String::new();
        let at = |rank: usize, file: usize| self.squares[rank][file];
        if at(0, 4) == Some('K') {
            if at(0, 7) == Some('R') {
                rights.push('K');
            }
            if at(0, 0) == Some('R') {
                rights.push('Q');
            }
        }
        if at(7, 4) == Some('k') {
            if at(7, 7) == Some('r') {
                rights.push('k');
            }
            if at(7, 0) == Some('r') {
                rights.push('q');
            }
        }
        if rights.is_empty() {
            rights.push('-');
        }
        rights
    }

    /// A full FEN of this board.
    pub fn to_fen(&self, side: Side) -> String {
        let stm = if side == Side::First { 'w' } else { 'b' };
        format!(
            "{} {stm} {} - 0 1",
            self.to_fen_board(),
            self.castling_rights()
        )
    }

    /// Parses an edit-mode square like `e4` into (rank, file).
    pub fn square(text: &str) -> Option<(usize, usize)> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].checked_sub(b'a')? as usize;
        let rank = bytes[1].checked_sub(b'1')? as usize;
        (file < 8 && rank < 8).then_some((rank, file))
    }
}

/// Converts xboard's shogi FEN (`board[holdings] w ...`, first player = White = uppercase) to
/// SFEN. Returns `None` when the text is not in that form.
pub fn xboard_shogi_fen_to_sfen(text: &str) -> Option<String> {
    let open = text.find('[')?;
    let close = text[open..].find(']')? + open;
    let board = text[..open].trim();
    let holdings = &text[open + 1..close];
    let mut fields = text[close + 1..].split_whitespace();
    let side = match fields.next()? {
        "w" => "b",
        "b" => "w",
        _ => return None,
    };
    let mut hand = String::new();
    for order in ["RBGSNLP", "rbgsnlp"] {
        for piece in order.chars() {
            let count = holdings.chars().filter(|&c| c == piece).count();
            match count {
                0 => {}
                1 => hand.push(piece),
                n => hand.push_str(&format!("{n}{piece}")),
            }
        }
    }
    if hand.is_empty() {
        hand.push('-');
    }
    Some(format!("{board} {side} {hand} 1"))
}

// ----- the two games -----

/// `EvalFile` for a game with NNUE support: an evaluator name (`EvalChoice::from_name`: a net
/// file, `classical` for the classical evaluator, or the default evaluation when empty).
fn load_game_eval<G: NnueGame>(
    searcher: &mut Searcher<G, GameEval<G>>,
    eval_file: &str,
) -> Result<String, String> {
    let eval =
        GameEval::<G>::select(EvalChoice::from_name(eval_file)).map_err(|e| e.to_string())?;
    let description = eval.describe();
    searcher.set_evaluator(eval);
    Ok(description)
}

impl ProtocolGame for crate::chess::Position {
    type Backend = Searcher<crate::chess::Position, GameEval<crate::chess::Position>>;

    fn new_backend() -> Self::Backend {
        Searcher::new(GameEval::default())
    }

    fn load_evaluator(backend: &mut Self::Backend, eval_file: &str) -> Result<String, String> {
        load_game_eval(backend, eval_file)
    }

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

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "White",
            Side::Second => "Black",
        }
    }

    fn with_side_to_move(&self, side: Side) -> Option<Self> {
        let text = self.to_text();
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 4 {
            return None;
        }
        fields[1] = if side == Side::First { "w" } else { "b" };
        fields[3] = "-";
        let mut pos = Self::from_text(&fields.join(" ")).ok()?;
        if self.is_chess960() {
            pos.set_chess960(true);
        }
        Some(pos)
    }

    fn edit_board(&self) -> Option<EditBoard> {
        EditBoard::from_fen_board(self.to_text().split_whitespace().next()?)
    }

    fn from_edit_board(board: &EditBoard, side: Side) -> Option<Self> {
        Self::from_text(&board.to_fen(side)).ok()
    }
}

impl ProtocolGame for crate::shogi::Position {
    type Backend = Searcher<crate::shogi::Position, GameEval<crate::shogi::Position>>;

    fn new_backend() -> Self::Backend {
        Searcher::new(GameEval::default())
    }

    fn load_evaluator(backend: &mut Self::Backend, eval_file: &str) -> Result<String, String> {
        load_game_eval(backend, eval_file)
    }

    fn apply_rules(&mut self, rules: &RuleSettings) {
        use crate::shogi::{EnteringKingRule as Declaration, ShogiRules};
        let entering_king = match rules.entering_king {
            EnteringKingRule::NoEnteringKing => Declaration::None,
            EnteringKingRule::CsaRule24 => Declaration::Points24,
            EnteringKingRule::CsaRule27 => Declaration::Points27,
        };
        self.set_rules(ShogiRules {
            entering_king,
            max_plies: rules.max_plies,
        });
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

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "Sente",
            Side::Second => "Gote",
        }
    }

    fn with_side_to_move(&self, side: Side) -> Option<Self> {
        let text = self.to_text();
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 3 {
            return None;
        }
        fields[1] = if side == Side::First { "b" } else { "w" };
        let mut pos = Self::from_text(&fields.join(" ")).ok()?;
        pos.set_rules(self.rules());
        Some(pos)
    }

    fn from_cecp_text(text: &str) -> Result<Self, Self::ParseError> {
        match Self::from_text(text) {
            Ok(pos) => Ok(pos),
            Err(error) => match xboard_shogi_fen_to_sfen(text) {
                Some(sfen) => Self::from_text(&sfen),
                None => Err(error),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

    #[test]
    fn edit_board_round_trips_and_finds_castling() {
        let board = EditBoard::from_fen_board(START).unwrap();
        assert_eq!(board.to_fen_board(), START);
        assert_eq!(board.castling_rights(), "KQkq");
        assert_eq!(board.to_fen(Side::Second), format!("{START} b KQkq - 0 1"));
        assert!(EditBoard::from_fen_board("8/8/8").is_none());
        assert!(EditBoard::from_fen_board("9/8/8/8/8/8/8/8").is_none());
        assert_eq!(EditBoard::square("e4"), Some((3, 4)));
        assert_eq!(EditBoard::square("j4"), None);
        assert_eq!(EditBoard::square("e9"), None);
    }

    #[test]
    fn xboard_shogi_fen_converts() {
        let text = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[PPb] w 0 1";
        assert_eq!(
            xboard_shogi_fen_to_sfen(text).unwrap(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2Pb 1"
        );
        assert!(xboard_shogi_fen_to_sfen("8/8 w").is_none());
    }
}
