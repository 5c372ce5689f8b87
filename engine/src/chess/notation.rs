//! Move text: UCI coordinates (king-takes-rook castling in Chess960 mode, `e1g1` otherwise,
//! both accepted on input), SAN out and in, and the CECP forms (coordinates, `O-O`, SAN).

use super::moves::Move;
use super::position::Position;
use super::types::*;
use crate::game::{Game, MoveParseError};
use crate::movelist::MoveList;

impl Position {
    /// Where the king lands when castling with `m` (a castling move).
    fn castle_king_target(&self, m: Move) -> Square {
        let queen_side = m.to() < m.from();
        make_square(castle_king_file(queen_side), rank_of(m.from()))
    }

    /// UCI text of a move.
    pub fn format_uci(&self, m: Move) -> String {
        let to = if m.is_castle() && !self.chess960 {
            self.castle_king_target(m)
        } else {
            m.to()
        };
        let mut s = String::with_capacity(5);
        s.extend(square_name(m.from()));
        s.extend(square_name(to));
        if let Some(kind) = m.promoted() {
            s.push(kind.letter().to_ascii_lowercase());
        }
        s
    }

    /// Parses UCI coordinates (`e2e4`, `e7e8q`; castling as king-takes-rook or as the king's
    /// two-square move in either mode) and checks legality.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveParseError> {
        let malformed = || MoveParseError::Malformed(text.to_string());
        let t = text.trim();
        if !t.is_ascii() || !(t.len() == 4 || t.len() == 5) {
            return Err(malformed());
        }
        let from = parse_square(&t[0..2]).ok_or_else(malformed)?;
        let to = parse_square(&t[2..4]).ok_or_else(malformed)?;
        let promo = match t.chars().nth(4) {
            None => None,
            Some(c) => match PieceKind::from_letter(c) {
                Some(
                    k
                    @ (PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen),
                ) => Some(k),
                _ => return Err(malformed()),
            },
        };
        let mut moves = <Position as Game>::Moves::default();
        self.generate_legal(&mut moves);
        let exact = moves.as_slice().iter().copied().find(|&m| {
            m.from() == from
                && m.promoted() == promo
                && if m.is_castle() {
                    to == if self.chess960 {
                        m.to()
                    } else {
                        self.castle_king_target(m)
                    }
                } else {
                    m.to() == to
                }
        });
        if let Some(m) = exact {
            return Ok(m);
        }
        moves
            .as_slice()
            .iter()
            .copied()
            .find(|&m| {
                m.is_castle()
                    && promo.is_none()
                    && m.from() == from
                    && (to == m.to() || to == self.castle_king_target(m))
            })
            .ok_or_else(|| MoveParseError::Illegal(text.to_string()))
    }

    /// Standard algebraic notation, with `+` / `#`.
    pub fn to_san(&self, m: Move) -> String {
        let mut s = String::with_capacity(8);
        let mut moves = <Position as Game>::Moves::default();
        self.generate_legal(&mut moves);
        if m.is_castle() {
            s.push_str(if m.to() < m.from() { "O-O-O" } else { "O-O" });
        } else {
            let kind = self.piece_at(m.from()).map_or(PieceKind::Pawn, |(_, k)| k);
            let capture = m.is_en_passant() || self.piece_at(m.to()).is_some();
            if kind == PieceKind::Pawn {
                if capture {
                    s.push((b'a' + file_of(m.from())) as char);
                }
            } else {
                s.push(kind.letter());
                let rivals: Vec<Move> = moves
                    .as_slice()
                    .iter()
                    .copied()
                    .filter(|&o| {
                        !o.is_castle()
                            && o.to() == m.to()
                            && o.from() != m.from()
                            && self.piece_at(o.from()).map(|(_, k)| k) == Some(kind)
                    })
                    .collect();
                if !rivals.is_empty() {
                    let same_file = rivals
                        .iter()
                        .any(|o| file_of(o.from()) == file_of(m.from()));
                    let same_rank = rivals
                        .iter()
                        .any(|o| rank_of(o.from()) == rank_of(m.from()));
                    let [f, r] = square_name(m.from());
                    if !same_file {
                        s.push(f);
                    } else if !same_rank {
                        s.push(r);
                    } else {
                        s.push(f);
                        s.push(r);
                    }
                }
            }
            if capture {
                s.push('x');
            }
            s.extend(square_name(m.to()));
            if let Some(p) = m.promoted() {
                s.push('=');
                s.push(p.letter());
            }
        }
        let mut child = *self;
        child.make_move(m);
        if child.in_check() {
            let mut replies = <Position as Game>::Moves::default();
            child.generate_legal(&mut replies);
            s.push(if replies.is_empty() { '#' } else { '+' });
        }
        s
    }

    /// Parses SAN (also lenient forms: `0-0`, lowercase promotion letters, missing `=`, extra
    /// `x`, `+`, `#`, `!`, `?`).
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveParseError> {
        let malformed = || MoveParseError::Malformed(text.to_string());
        let illegal = || MoveParseError::Illegal(text.to_string());
        let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
        if !t.is_ascii() || t.is_empty() {
            return Err(malformed());
        }
        let mut moves = <Position as Game>::Moves::default();
        self.generate_legal(&mut moves);
        let castle = match t {
            "O-O" | "0-0" | "o-o" => Some(false),
            "O-O-O" | "0-0-0" | "o-o-o" => Some(true),
            _ => None,
        };
        if let Some(queen_side) = castle {
            return moves
                .as_slice()
                .iter()
                .copied()
                .find(|&m| m.is_castle() && (m.to() < m.from()) == queen_side)
                .ok_or_else(illegal);
        }
        let bytes = t.as_bytes();
        let (kind, rest) = match bytes[0] {
            b'N' | b'B' | b'R' | b'Q' | b'K' => (
                PieceKind::from_letter(bytes[0] as char).unwrap_or(PieceKind::Pawn),
                &t[1..],
            ),
            b'P' => (PieceKind::Pawn, &t[1..]),
            _ => (PieceKind::Pawn, t),
        };
        let mut body: String = rest
            .chars()
            .filter(|&c| !matches!(c, 'x' | 'X' | ':' | '-'))
            .collect();
        let mut promo = None;
        if let Some(eq) = body.find('=') {
            let p = &body[eq + 1..];
            let mut chars = p.chars();
            promo = match (chars.next().and_then(PieceKind::from_letter), chars.next()) {
                (Some(k), None) => Some(k),
                _ => return Err(malformed()),
            };
            body.truncate(eq);
        } else if body.len() >= 3 {
            let last = body.as_bytes()[body.len() - 1];
            let before = body.as_bytes()[body.len() - 2];
            if before.is_ascii_digit()
                && matches!(last.to_ascii_uppercase(), b'N' | b'B' | b'R' | b'Q')
            {
                promo = PieceKind::from_letter(last as char);
                body.truncate(body.len() - 1);
            }
        }
        if matches!(promo, Some(PieceKind::Pawn | PieceKind::King))
            || body.len() < 2
            || body.len() > 4
        {
            return Err(malformed());
        }
        let to = parse_square(&body[body.len() - 2..]).ok_or_else(malformed)?;
        let mut from_file = None;
        let mut from_rank = None;
        for c in body[..body.len() - 2].bytes() {
            match c {
                b'a'..=b'h' if from_file.is_none() => from_file = Some(c - b'a'),
                b'1'..=b'8' if from_rank.is_none() => from_rank = Some(c - b'1'),
                _ => return Err(malformed()),
            }
        }
        let mut found = None;
        for &m in moves.as_slice() {
            let moving = self.piece_at(m.from()).map(|(_, k)| k);
            if m.is_castle()
                || moving != Some(kind)
                || m.to() != to
                || m.promoted() != promo
                || from_file.is_some_and(|f| f != file_of(m.from()))
                || from_rank.is_some_and(|r| r != rank_of(m.from()))
            {
                continue;
            }
            if found.is_some() {
                return Err(illegal());
            }
            found = Some(m);
        }
        found.ok_or_else(illegal)
    }

    /// Parses a move as CECP may send it: coordinates (also castling as king-takes-rook or
    /// `e1g1`), `O-O` / `O-O-O` / `0-0`, or SAN.
    pub fn parse_cecp(&self, text: &str) -> Result<Move, MoveParseError> {
        let t = text.trim();
        let looks_coordinate = t.len() >= 4
            && t.len() <= 5
            && parse_square(t.get(0..2).unwrap_or("")).is_some()
            && parse_square(t.get(2..4).unwrap_or("")).is_some();
        if looks_coordinate {
            return self.parse_uci(t);
        }
        self.parse_san(t)
    }

    /// CECP text of a move: coordinates; castling as `e1g1`, or `O-O` / `O-O-O` in Chess960.
    pub fn format_cecp(&self, m: Move) -> String {
        if m.is_castle() {
            if self.chess960 {
                return if m.to() < m.from() { "O-O-O" } else { "O-O" }.to_string();
            }
            let mut s = String::with_capacity(4);
            s.extend(square_name(m.from()));
            s.extend(square_name(self.castle_king_target(m)));
            return s;
        }
        self.format_uci(m)
    }
}
