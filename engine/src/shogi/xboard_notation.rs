//! xboard's shogi notation for CECP: moves (`c3c4`, `c3c4+`, `c3c4=`, `P@e5`) and xboard's
//! shogi FEN (`board[holdings] w ...`, the first player White and uppercase), which `setboard`
//! may send instead of an SFEN.

use super::movegen::zone;
use super::moves::Move;
use super::notation::CoordinateNotation;
use super::position::Position;
use super::sfen::SfenError;
use super::types::{parse_xboard_square, xboard_square};
use crate::game::MoveParseError;

/// xboard's shogi move notation.
const XBOARD_NOTATION: CoordinateNotation = CoordinateNotation {
    drop_marker: b'@',
    square: parse_xboard_square,
    upper_case_drops: false,
    equals_declines: true,
};

impl Position {
    /// Parses xboard shogi notation; a trailing `=` or no suffix is a non-promotion.
    pub fn parse_xboard(&self, text: &str) -> Result<Move, MoveParseError> {
        self.parse_coordinate_move(text, &XBOARD_NOTATION)
    }

    /// Writes a move in xboard shogi notation: `+` for a promotion, `=` for a declined optional
    /// promotion.
    pub fn format_xboard(&self, m: Move) -> String {
        if m.is_drop() {
            return format!("{}@{}", m.drop_kind().letter(), xboard_square(m.to()));
        }
        let (from, to) = (m.from(), m.to());
        let suffix = if m.is_promotion() {
            "+"
        } else {
            let pc = self.piece_on(from);
            let zone = zone(self.side_to_move_now());
            let could = pc.is_some() && pc.kind().can_promote() && (zone.has(from) || zone.has(to));
            if could {
                "="
            } else {
                ""
            }
        };
        format!("{}{}{}", xboard_square(from), xboard_square(to), suffix)
    }

    /// Parses a CECP `setboard` text: an SFEN, or xboard's shogi FEN. An error is the SFEN's.
    pub fn from_xboard_text(text: &str) -> Result<Position, SfenError> {
        match Position::from_sfen(text) {
            Ok(pos) => Ok(pos),
            Err(error) => match xboard_fen_to_sfen(text) {
                Some(sfen) => Position::from_sfen(&sfen),
                None => Err(error),
            },
        }
    }
}

/// Converts xboard's shogi FEN (`board[holdings] w ...`, first player = White = uppercase) to
/// SFEN. Returns `None` when the text is not in that form.
pub fn xboard_fen_to_sfen(text: &str) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xboard_shogi_fen_converts() {
        let text = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[PPb] w 0 1";
        assert_eq!(
            xboard_fen_to_sfen(text).unwrap(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2Pb 1"
        );
        assert!(xboard_fen_to_sfen("8/8 w").is_none());
    }

    #[test]
    fn setboard_takes_sfen_or_xboard_fen() {
        // A pawn each in hand, taken off each side's eighth file.
        let xboard = "lnsgkgsnl/1r5b1/p1ppppppp/9/9/9/PPPPPPP1P/1B5R1/LNSGKGSNL[Pp] b 0 1";
        let from_xboard = Position::from_xboard_text(xboard).unwrap();
        assert_eq!(
            from_xboard.to_sfen(),
            "lnsgkgsnl/1r5b1/p1ppppppp/9/9/9/PPPPPPP1P/1B5R1/LNSGKGSNL w Pp 1"
        );
        let sfen = super::super::STARTPOS_SFEN;
        assert_eq!(Position::from_xboard_text(sfen).unwrap().to_sfen(), sfen);
        assert_eq!(
            Position::from_xboard_text("banana"),
            Err(Position::from_sfen("banana").unwrap_err())
        );
    }
}
