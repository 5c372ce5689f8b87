//! Setting a position up by hand, as xboard's edit mode (CECP v1 `edit`) and its `white` /
//! `black` commands do: `EditBoard` is the 8×8 board of FEN piece letters that the edit commands
//! change, read from and written back to a FEN's placement field, with the castling rights that
//! kings and rooks on their home squares imply.

use super::fen::{parse_fen, write_fen};
use super::position::Position;
use crate::game::Side;

/// A chess board as edit mode changes it: `squares[rank][file]`, rank 0 = rank 1, holding FEN
/// piece letters (uppercase White).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EditBoard {
    squares: [[Option<char>; 8]; 8],
}

impl EditBoard {
    /// Reads the placement field of a FEN.
    fn from_fen_board(board: &str) -> Option<Self> {
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

    /// The placement field of a FEN.
    fn to_fen_board(self) -> String {
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

    /// Castling rights implied by kings and rooks on their home squares (xboard's edit rule).
    fn castling_rights(&self) -> String {
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

    /// A full FEN of this board with `side` to move.
    fn to_fen(self, side: Side) -> String {
        let stm = if side == Side::First { 'w' } else { 'b' };
        format!(
            "{} {stm} {} - 0 1",
            self.to_fen_board(),
            self.castling_rights()
        )
    }

    /// Applies one edit-mode piece command: `Pe4` (any of `PNBRQK`, either case) puts a piece of
    /// the colour being edited (`white`) on e4, `xe4` empties e4. `false`, with the board
    /// unchanged, when `command` is no such command.
    pub fn apply(&mut self, command: &str, white: bool) -> bool {
        let mut chars = command.chars();
        let (Some(letter), Some((rank, file))) = (chars.next(), Self::square(chars.as_str()))
        else {
            return false;
        };
        self.squares[rank][file] = match letter.to_ascii_uppercase() {
            'X' => None,
            piece if "PNBRQK".contains(piece) && white => Some(piece),
            piece if "PNBRQK".contains(piece) => Some(piece.to_ascii_lowercase()),
            _ => return false,
        };
        true
    }

    /// Parses an edit-mode square like `e4` into (rank, file).
    fn square(text: &str) -> Option<(usize, usize)> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].checked_sub(b'a')? as usize;
        let rank = bytes[1].checked_sub(b'1')? as usize;
        (file < 8 && rank < 8).then_some((rank, file))
    }
}

impl Position {
    /// The board of this position as edit mode starts from it.
    pub fn edit_board(&self) -> EditBoard {
        let fen = write_fen(self);
        let placement = fen.split_whitespace().next().unwrap_or_default();
        EditBoard::from_fen_board(placement).expect("a written FEN has a valid placement")
    }

    /// The position of an edited board with `side` to move, if it is a legal one.
    pub fn from_edit_board(board: &EditBoard, side: Side) -> Option<Self> {
        parse_fen(&board.to_fen(side)).ok()
    }

    /// The same board with `side` to move (xboard's `white` / `black`): the en-passant square
    /// is cleared, castling rights and Chess960 stay. `None` when that side cannot be to move
    /// (the other one would be in check).
    pub fn with_side_to_move(&self, side: Side) -> Option<Self> {
        let text = write_fen(self);
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        fields[1] = if side == Side::First { "w" } else { "b" };
        fields[3] = "-";
        let mut pos = parse_fen(&fields.join(" ")).ok()?;
        if self.is_chess960() {
            pos.set_chess960(true);
        }
        Some(pos)
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
    fn edit_commands_place_and_remove_pieces() {
        let mut board = EditBoard::default();
        assert!(board.apply("Ke1", true));
        assert!(board.apply("ke8", false));
        assert!(board.apply("Ra1", false));
        assert!(board.apply("pe4", true));
        assert_eq!(board.to_fen_board(), "4k3/8/8/8/4P3/8/8/r3K3");
        assert!(board.apply("xa1", true));
        assert_eq!(board.to_fen_board(), "4k3/8/8/8/4P3/8/8/4K3");
        for not_a_command in ["Ze4", "Ke9", "K", "c", "#", ".", "go"] {
            assert!(!board.apply(not_a_command, true), "{not_a_command}");
        }
        assert_eq!(board.to_fen_board(), "4k3/8/8/8/4P3/8/8/4K3");
    }

    #[test]
    fn positions_go_to_the_edit_board_and_back() {
        let start = parse_fen(&format!("{START} w KQkq - 0 1")).unwrap();
        let board = start.edit_board();
        assert_eq!(board, EditBoard::from_fen_board(START).unwrap());
        let back = Position::from_edit_board(&board, Side::First).unwrap();
        assert_eq!(write_fen(&back), write_fen(&start));
        // Both kings gone: no position.
        assert!(Position::from_edit_board(&EditBoard::default(), Side::First).is_none());
    }

    #[test]
    fn side_switches_clear_en_passant_and_refuse_a_king_in_check() {
        let after_e4 =
            parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
        let white = after_e4.with_side_to_move(Side::First).unwrap();
        assert_eq!(
            write_fen(&white),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"
        );
        // Black is in check: White cannot be to move.
        let black_in_check = parse_fen("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1").unwrap();
        assert!(black_in_check.with_side_to_move(Side::First).is_none());
    }
}
