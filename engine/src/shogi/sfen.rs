//! SFEN reading and writing, with a typed error for every malformed or impossible position.

use super::hand::MAX_PER_KIND;
use super::movegen::dead_squares;
use super::position::Position;
use super::types::{square, usi_square, Piece, PieceKind, HAND_KINDS};
use crate::game::Side;

/// The initial position.
pub const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Why an SFEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SfenError {
    #[error("empty SFEN")]
    Empty,
    #[error("SFEN needs 3 or 4 fields (board, side, hand[, move number]), found {0}")]
    FieldCount(usize),
    #[error("SFEN board needs 9 ranks, found {0}")]
    RankCount(usize),
    #[error("SFEN rank {rank} describes {width} squares instead of 9")]
    RankWidth { rank: usize, width: usize },
    #[error("unknown piece letter '{0}' in SFEN")]
    UnknownPiece(char),
    #[error("'+' must be followed by a promotable piece (P, L, N, S, B, R), found '{0}'")]
    BadPromotion(String),
    #[error("side to move must be 'b' or 'w', found '{0}'")]
    SideToMove(String),
    #[error("malformed pieces in hand '{0}'")]
    Hand(String),
    #[error("too many pieces of kind {kind}: {count}, at most {max}")]
    TooManyPieces { kind: char, count: u32, max: u32 },
    #[error("{0:?} has no king")]
    MissingKing(Side),
    #[error("{0:?} has more than one king")]
    ExtraKing(Side),
    #[error("nifu: {side:?} has two unpromoted pawns on file {file}")]
    Nifu { side: Side, file: usize },
    #[error("piece {piece} on {square} could never move")]
    DeadPiece { piece: String, square: String },
    #[error("the side to move is in check by {0} pieces; at most 2 are possible")]
    TooManyCheckers(u32),
    #[error("the side not to move is in check")]
    OpponentInCheck,
    #[error("malformed move number '{0}'")]
    MoveNumber(String),
}

fn parse_board(board: &str, pos: &mut Position) -> Result<(), SfenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::RankCount(ranks.len()));
    }
    for (rank, text) in ranks.iter().enumerate() {
        let mut width = 0usize;
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(SfenError::RankWidth {
                        rank: rank + 1,
                        width,
                    });
                }
                width += d as usize;
                continue;
            }
            let (promoted, letter) = if c == '+' {
                match chars.next() {
                    Some(l) => (true, l),
                    None => return Err(SfenError::BadPromotion("end of rank".into())),
                }
            } else {
                (false, c)
            };
            let kind = match PieceKind::from_letter(letter) {
                Some(k) if letter.is_ascii_alphabetic() => k,
                _ if promoted => return Err(SfenError::BadPromotion(letter.to_string())),
                _ => return Err(SfenError::UnknownPiece(letter)),
            };
            let kind = if promoted {
                if !kind.can_promote() {
                    return Err(SfenError::BadPromotion(letter.to_string()));
                }
                kind.promoted()
            } else {
                kind
            };
            if width >= 9 {
                return Err(SfenError::RankWidth {
                    rank: rank + 1,
                    width: width + 1,
                });
            }
            let side = if letter.is_ascii_uppercase() {
                Side::First
            } else {
                Side::Second
            };
            // SFEN lists files 9 to 1.
            pos.put_piece(square(8 - width, rank), Piece::new(side, kind));
            width += 1;
        }
        if width != 9 {
            return Err(SfenError::RankWidth {
                rank: rank + 1,
                width,
            });
        }
    }
    Ok(())
}

fn parse_hand(text: &str, pos: &mut Position) -> Result<(), SfenError> {
    if text == "-" {
        return Ok(());
    }
    let bad = || SfenError::Hand(text.to_string());
    let mut seen = [[false; HAND_KINDS]; 2];
    let mut count: Option<u32> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 18 || (n == 0 && count.is_none()) {
                return Err(bad());
            }
            count = Some(n);
            continue;
        }
        let kind = match PieceKind::from_letter(c) {
            Some(k) if k != PieceKind::King && c.is_ascii_alphabetic() => k,
            _ => return Err(bad()),
        };
        let n = count.take().unwrap_or(1);
        if n < 1 {
            return Err(bad());
        }
        let side = if c.is_ascii_uppercase() {
            Side::First
        } else {
            Side::Second
        };
        if std::mem::replace(&mut seen[side as usize][kind as usize], true) {
            return Err(bad());
        }
        pos.set_hand_count(side, kind, n as u8);
    }
    if count.is_some() || text.is_empty() {
        return Err(bad());
    }
    Ok(())
}

/// Checks piece counts, kings, nifu, dead pieces and the side not to move not being in check.
fn validate(pos: &Position) -> Result<(), SfenError> {
    // A tsume problem may leave out the attacker's (the side to move's) king; the defender
    // always needs one.
    let attacker = pos.side_to_move_now();
    for side in [Side::First, Side::Second] {
        match pos.pieces(side, PieceKind::King).count() {
            0 if side == attacker => {}
            0 => return Err(SfenError::MissingKing(side)),
            1 => {}
            _ => return Err(SfenError::ExtraKing(side)),
        }
    }
    for kind in PieceKind::HAND {
        let mut count = pos.pieces_kind(kind).count();
        if kind.can_promote() {
            count += pos.pieces_kind(kind.promoted()).count();
        }
        for side in [Side::First, Side::Second] {
            count += pos.hand(side).count(kind) as u32;
        }
        let max = MAX_PER_KIND[kind as usize] as u32;
        if count > max {
            return Err(SfenError::TooManyPieces {
                kind: kind.letter(),
                count,
                max,
            });
        }
    }
    for side in [Side::First, Side::Second] {
        let pawns = pos.pieces(side, PieceKind::Pawn);
        for file in 0..9 {
            if pawns.file_bits(file).count_ones() > 1 {
                return Err(SfenError::Nifu {
                    side,
                    file: file + 1,
                });
            }
        }
        for kind in [PieceKind::Pawn, PieceKind::Lance, PieceKind::Knight] {
            let dead = pos.pieces(side, kind) & dead_squares(side, kind);
            if dead.any() {
                let sq = dead.lsb();
                return Err(SfenError::DeadPiece {
                    piece: pos.piece_on(sq).sfen(),
                    square: usi_square(sq),
                });
            }
        }
    }
    let us = pos.side_to_move_now();
    let them = us.flip();
    if pos.is_attacked_by(us, pos.king_square(them), pos.occupied()) {
        return Err(SfenError::OpponentInCheck);
    }
    Ok(())
}

impl Position {
    /// Parses an SFEN (an optional leading `sfen` token and the move number may be left out).
    pub fn from_sfen(text: &str) -> Result<Position, SfenError> {
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        if fields.first() == Some(&"sfen") {
            fields.remove(0);
        }
        if fields.is_empty() {
            return Err(SfenError::Empty);
        }
        if !(3..=4).contains(&fields.len()) {
            return Err(SfenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        parse_board(fields[0], &mut pos)?;
        let side = match fields[1] {
            "b" => Side::First,
            "w" => Side::Second,
            other => return Err(SfenError::SideToMove(other.to_string())),
        };
        pos.set_side(side);
        parse_hand(fields[2], &mut pos)?;
        if let Some(number) = fields.get(3) {
            let n: u32 = number
                .parse()
                .map_err(|_| SfenError::MoveNumber(number.to_string()))?;
            if n > 1_000_000 {
                return Err(SfenError::MoveNumber(number.to_string()));
            }
            pos.set_ply(n.saturating_sub(1));
        }
        validate(&pos)?;
        pos.refresh_checkers();
        // No move gives more than a double check (a discovered check and the moved piece's).
        let checkers = pos.checkers().count();
        if checkers > 2 {
            return Err(SfenError::TooManyCheckers(checkers));
        }
        Ok(pos)
    }

    /// Writes the position as SFEN (with the move number).
    pub fn to_sfen(&self) -> String {
        let mut out = String::with_capacity(96);
        for rank in 0..9 {
            if rank > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for file in (0..9).rev() {
                let pc = self.piece_on(square(file, rank));
                if pc.is_none() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push_str(&pc.sfen());
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
        }
        out.push(' ');
        out.push(match self.side_to_move_now() {
            Side::First => 'b',
            Side::Second => 'w',
        });
        out.push(' ');
        let mut hand = String::new();
        for side in [Side::First, Side::Second] {
            for kind in [
                PieceKind::Rook,
                PieceKind::Bishop,
                PieceKind::Gold,
                PieceKind::Silver,
                PieceKind::Knight,
                PieceKind::Lance,
                PieceKind::Pawn,
            ] {
                let n = self.hand(side).count(kind);
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                let letter = kind.letter();
                hand.push(if side == Side::First {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                });
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        out.push_str(&hand);
        out.push(' ');
        out.push_str(&(self.ply() + 1).to_string());
        out
    }

    /// The same board, hands and rules with `side` to move (xboard's `white` / `black`); `None`
    /// when that side cannot be to move (the other one would be in check).
    pub fn with_side_to_move(&self, side: Side) -> Option<Position> {
        let text = self.to_sfen();
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        fields[1] = if side == Side::First { "b" } else { "w" };
        let mut pos = Position::from_sfen(&fields.join(" ")).ok()?;
        pos.set_rules(self.rules());
        Some(pos)
    }
}
