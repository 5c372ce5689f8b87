//! USI move notation (`7g7f`, `4e3c+`, `P*3d`). xboard's shogi notation is in
//! `xboard_notation`.

use super::moves::Move;
use super::position::Position;
use super::types::{parse_usi_square, usi_square, PieceKind, Square};
use crate::game::MoveParseError;

/// What sets a coordinate move notation apart: USI's (`7g7f`, `4e3c+`, `P*3d`) and xboard's
/// (`c3c4`, `c3c4=`, `P@e5`) moves share one shape, read by `Position::parse_coordinate_move`.
pub(super) struct CoordinateNotation {
    /// The byte between a drop's piece letter and its square (`*` or `@`).
    pub drop_marker: u8,
    /// Reads one square's two bytes.
    pub square: fn(&[u8]) -> Option<Square>,
    /// Whether a drop's piece letter must be upper case.
    pub upper_case_drops: bool,
    /// Whether a trailing `=` declines a promotion (else it is malformed).
    pub equals_declines: bool,
}

/// USI's move notation.
const USI_NOTATION: CoordinateNotation = CoordinateNotation {
    drop_marker: b'*',
    square: parse_usi_square,
    upper_case_drops: true,
    equals_declines: false,
};

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
        self.parse_coordinate_move(text, &USI_NOTATION)
    }

    /// Parses a move in the coordinate notation `notation` describes and checks that it is
    /// legal here: a drop (`P*3d`), or a from square, a to square and an optional suffix (`+`
    /// promotes; `=`, where allowed, declines).
    pub(super) fn parse_coordinate_move(
        &self,
        text: &str,
        notation: &CoordinateNotation,
    ) -> Result<Move, MoveParseError> {
        let malformed = || MoveParseError::Malformed(text.to_string());
        let bytes = text.trim().as_bytes();
        if bytes.len() == 4 && bytes[1] == notation.drop_marker {
            let kind = PieceKind::from_letter(bytes[0] as char)
                .filter(|k| {
                    *k != PieceKind::King
                        && (!notation.upper_case_drops || bytes[0].is_ascii_uppercase())
                })
                .ok_or_else(malformed)?;
            let to = (notation.square)(&bytes[2..4]).ok_or_else(malformed)?;
            return self.checked(Move::drop(kind, to), text);
        }
        let promote = match bytes.len() {
            4 => false,
            5 if bytes[4] == b'+' => true,
            5 if bytes[4] == b'=' && notation.equals_declines => false,
            _ => return Err(malformed()),
        };
        let from = (notation.square)(&bytes[0..2]).ok_or_else(malformed)?;
        let to = (notation.square)(&bytes[2..4]).ok_or_else(malformed)?;
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
