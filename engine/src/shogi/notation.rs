//! USI move notation (`7g7f`, `4e3c+`, `P*3d`). xboard's shogi notation is in
//! `xboard_notation`.

use super::moves::Move;
use super::position::Position;
use super::types::{parse_usi_square, usi_square, PieceKind};
use crate::game::MoveParseError;

impl Position {
    /// `m` if it is legal here, else the error naming `text`.
    pub(super) fn checked(&self, m: Move, text: &str) -> Result<Move, MoveParseError> {
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveParseError::Illegal(text.to_string()))
        }
    }

    /// Parses a USI move and checks that it is legal here.
    pub fn parse_usi(&self, text: &str) -> Result<Move, MoveParseError> {
        let malformed = || MoveParseError::Malformed(text.to_string());
        let bytes = text.trim().as_bytes();
        if bytes.len() == 4 && bytes[1] == b'*' {
            let kind = PieceKind::from_letter(bytes[0] as char)
                .filter(|k| *k != PieceKind::King && bytes[0].is_ascii_uppercase())
                .ok_or_else(malformed)?;
            let to = parse_usi_square(&bytes[2..4]).ok_or_else(malformed)?;
            return self.checked(Move::drop(kind, to), text);
        }
        let promote = match bytes.len() {
            4 => false,
            5 if bytes[4] == b'+' => true,
            _ => return Err(malformed()),
        };
        let from = parse_usi_square(&bytes[0..2]).ok_or_else(malformed)?;
        let to = parse_usi_square(&bytes[2..4]).ok_or_else(malformed)?;
        if from == to {
            return Err(malformed());
        }
        self.checked(Move::board(from, to, promote), text)
    }

    /// Writes a move in USI notation.
    pub fn format_usi(m: Move) -> String {
        if m.is_drop() {
            format!("{}*{}", m.drop_kind().letter(), usi_square(m.to()))
        } else {
            format!(
                "{}{}{}",
                usi_square(m.from()),
                usi_square(m.to()),
                if m.is_promotion() { "+" } else { "" }
            )
        }
    }
}
