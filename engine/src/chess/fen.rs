//! FEN reading and writing: standard FEN, X-FEN (`KQkq` meaning the outermost rook, or rook
//! file letters) and Shredder-FEN (rook file letters) castling fields, with Chess960 detection.
//! Malformed or impossible positions give a `FenError` naming the problem.

use super::attacks::with_sliders;
use super::bitboard::{bb, BACK_RANKS, PAWN_ATTACKS, RANK_1};
use super::position::Position;
use super::types::*;
use crate::game::Side;

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("FEN is empty")]
    Empty,
    #[error(
        "FEN has {0} fields; expected 4 to 6 (placement, side, castling, en passant, counters)"
    )]
    FieldCount(usize),
    #[error("FEN placement has {0} ranks; expected 8")]
    RankCount(usize),
    #[error("FEN rank {rank} covers {width} squares; expected 8")]
    RankWidth { rank: u8, width: u32 },
    #[error("unknown piece letter '{0}' in FEN placement")]
    UnknownPiece(char),
    #[error("{side} has {count} kings; expected exactly 1")]
    KingCount { side: &'static str, count: u32 },
    #[error("pawn on the first or last rank at {0}")]
    PawnOnBackRank(String),
    #[error("{side} has {count} pawns; at most 8")]
    TooManyPawns { side: &'static str, count: u32 },
    #[error(
        "{side} has {extra} pieces beyond the initial set but only {missing} missing pawns to \
         promote"
    )]
    TooManyPromotedPieces {
        side: &'static str,
        extra: u32,
        missing: u32,
    },
    #[error("the side to move is in check by {0} pieces; at most 2 are possible")]
    TooManyCheckers(u32),
    #[error("side to move '{0}' is not 'w' or 'b'")]
    SideToMove(String),
    #[error("the side not to move is in check")]
    OpponentInCheck,
    #[error("bad castling field '{0}'")]
    Castling(String),
    #[error("castling right '{right}' has no matching king and rook")]
    CastlingWithoutPieces { right: char },
    #[error("bad en-passant field '{0}'")]
    EnPassant(String),
    #[error("bad half-move clock '{0}'")]
    HalfmoveClock(String),
    #[error("bad full-move number '{0}'")]
    FullmoveNumber(String),
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "white",
        Side::Second => "black",
    }
}

/// Largest half-move clock accepted (far beyond any game; keeps counters in range).
const MAX_HALFMOVE: u32 = 10_000;
/// Largest full-move number accepted.
const MAX_FULLMOVE: u32 = 100_000;

/// Parses a FEN / X-FEN / Shredder-FEN position.
pub fn parse_fen(text: &str) -> Result<Position, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if fields.len() < 4 || fields.len() > 6 {
        return Err(FenError::FieldCount(fields.len()));
    }
    let mut pos = Position::empty();
    parse_placement(&mut pos, fields[0])?;
    pos.side = match fields[1] {
        "w" => Side::First,
        "b" => Side::Second,
        other => return Err(FenError::SideToMove(other.to_string())),
    };
    parse_castling(&mut pos, fields[2])?;
    parse_en_passant(&mut pos, fields[3])?;
    let halfmove = parse_counter(fields.get(4), 0, MAX_HALFMOVE, FenError::HalfmoveClock)?;
    let fullmove = parse_counter(fields.get(5), 1, MAX_FULLMOVE, FenError::FullmoveNumber)?.max(1);
    pos.halfmove = halfmove as u16;
    pos.game_ply = 2 * (fullmove - 1) + pos.side.index() as u32;

    // The side that just moved must not be left in check.
    let them = pos.side.flip();
    let their_king = pos.king_square(them);
    let attackers = pos.attackers_to(their_king, pos.occupied()) & pos.side_pieces(pos.side);
    if attackers != 0 {
        return Err(FenError::OpponentInCheck);
    }
    with_sliders!(|a| pos.compute_checkers(a));
    // No move gives more than a double check (a discovered check and the moved piece's).
    let checkers = pos.checkers().count_ones();
    if checkers > 2 {
        return Err(FenError::TooManyCheckers(checkers));
    }
    pos.hash = pos.compute_hash();
    Ok(pos)
}

/// A FEN move-counter field: `default` when the field is absent, else its number up to `max`,
/// or `error(field)` for anything else.
fn parse_counter(
    field: Option<&&str>,
    default: u32,
    max: u32,
    error: fn(String) -> FenError,
) -> Result<u32, FenError> {
    match field {
        None => Ok(default),
        Some(t) => t
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= max)
            .ok_or_else(|| error(t.to_string())),
    }
}

/// The line loop of the FEN-answering commands (`sente polyglot`, `sente syzygy`): for each
/// line of `input` that is neither blank nor a `#` comment, `answer(position)` for a FEN that
/// parses, or `error ...` for one that does not, written to `output` as one line (trailing white
/// space trimmed). Returns how many FENs parsed.
pub(crate) fn answer_fen_lines(
    input: impl std::io::BufRead,
    mut output: impl std::io::Write,
    mut answer: impl FnMut(&Position) -> String,
) -> Result<usize, String> {
    let mut count = 0;
    for line in input.lines() {
        let line = line.map_err(|e| format!("reading positions: {e}"))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let answer = match parse_fen(text) {
            Err(error) => format!("error {error}"),
            Ok(pos) => {
                count += 1;
                answer(&pos)
            }
        };
        writeln!(output, "{}", answer.trim_end()).map_err(|e| format!("writing: {e}"))?;
    }
    Ok(count)
}

/// The material no game can reach: more than 8 pawns a side, or more pieces beyond the initial
/// set (a second queen, a third rook, bishop or knight) than the side has missing pawns to
/// have promoted (so never more than 16 men a side).
fn check_material(pos: &Position) -> Result<(), FenError> {
    for side in [Side::First, Side::Second] {
        let count = |kind| pos.pieces(side, kind).count_ones();
        let pawns = count(PieceKind::Pawn);
        if pawns > 8 {
            return Err(FenError::TooManyPawns {
                side: side_name(side),
                count: pawns,
            });
        }
        let extra = count(PieceKind::Queen).saturating_sub(1)
            + count(PieceKind::Rook).saturating_sub(2)
            + count(PieceKind::Bishop).saturating_sub(2)
            + count(PieceKind::Knight).saturating_sub(2);
        let missing = 8 - pawns;
        if extra > missing {
            return Err(FenError::TooManyPromotedPieces {
                side: side_name(side),
                extra,
                missing,
            });
        }
    }
    Ok(())
}

fn parse_placement(pos: &mut Position, field: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u32;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(FenError::RankWidth {
                        rank: rank + 1,
                        width: file + d,
                    });
                }
                file += d;
            } else {
                let kind = PieceKind::from_letter(c).ok_or(FenError::UnknownPiece(c))?;
                let side = if c.is_ascii_uppercase() {
                    Side::First
                } else {
                    Side::Second
                };
                if file < 8 {
                    pos.put(make_piece(side, kind), make_square(file as u8, rank));
                }
                file += 1;
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            return Err(FenError::RankWidth {
                rank: rank + 1,
                width: file,
            });
        }
    }
    for side in [Side::First, Side::Second] {
        let count = pos.pieces(side, PieceKind::King).count_ones();
        if count != 1 {
            return Err(FenError::KingCount {
                side: side_name(side),
                count,
            });
        }
    }
    let bad_pawns = pos.by_kind[PieceKind::Pawn.index()] & BACK_RANKS;
    if bad_pawns != 0 {
        let [f, r] = square_name(bad_pawns.trailing_zeros() as Square);
        return Err(FenError::PawnOnBackRank(format!("{f}{r}")));
    }
    check_material(pos)
}

fn parse_castling(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    if field.is_empty() || field.len() > 4 {
        return Err(FenError::Castling(field.to_string()));
    }
    let mut chess960 = false;
    for c in field.chars() {
        let side = if c.is_ascii_uppercase() {
            Side::First
        } else {
            Side::Second
        };
        let rank = back_rank(side);
        let king = pos.king_square(side);
        let missing = FenError::CastlingWithoutPieces { right: c };
        if rank_of(king) != rank {
            return Err(missing);
        }
        let own_rooks = pos.pieces(side, PieceKind::Rook);
        let rook_file = match c.to_ascii_lowercase() {
            // X-FEN: the outermost rook on that wing.
            'k' => (file_of(king) + 1..8)
                .rev()
                .find(|&f| own_rooks & bb(make_square(f, rank)) != 0)
                .ok_or(missing.clone())?,
            'q' => (0..file_of(king))
                .find(|&f| own_rooks & bb(make_square(f, rank)) != 0)
                .ok_or(missing.clone())?,
            l @ 'a'..='h' => {
                chess960 = true;
                l as u8 - b'a'
            }
            _ => return Err(FenError::Castling(field.to_string())),
        };
        let rook = make_square(rook_file, rank);
        if own_rooks & bb(rook) == 0 || rook_file == file_of(king) {
            return Err(missing);
        }
        let queen_side = rook_file < file_of(king);
        let i = castle_index(side, queen_side);
        if pos.castling & (1 << i) != 0 {
            return Err(FenError::Castling(field.to_string()));
        }
        pos.castling |= 1 << i;
        pos.castle_rooks[i] = rook;
        let standard_rook = if queen_side { 0 } else { 7 };
        if file_of(king) != 4 || rook_file != standard_rook {
            chess960 = true;
        }
    }
    pos.chess960 = chess960;
    Ok(())
}

fn parse_en_passant(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let bad = || FenError::EnPassant(field.to_string());
    let ep = parse_square(field).ok_or_else(bad)?;
    let us = pos.side;
    let them = us.flip();
    let expected_rank = if us == Side::First { 5 } else { 2 };
    if rank_of(ep) != expected_rank {
        return Err(bad());
    }
    // The pawn that just made the double step stands in front of the square, which (like the
    // square it came from) is empty.
    let pawn_sq = ep ^ 8;
    let origin = if us == Side::First { ep + 8 } else { ep - 8 };
    let pawn_there = pos.pieces(them, PieceKind::Pawn) & bb(pawn_sq) != 0;
    if !pawn_there || pos.occupied() & (bb(ep) | bb(origin)) != 0 {
        return Err(bad());
    }
    // Kept only when a capture is possible at all, as `make_move` does.
    if PAWN_ATTACKS[them.index()][ep as usize] & pos.pieces(us, PieceKind::Pawn) != 0 {
        pos.ep = ep;
    }
    Ok(())
}

/// Writes the position as FEN; castling as `KQkq` normally (X-FEN: a rook file letter when the
/// castling rook is not the outermost one) and as rook files (Shredder-FEN) in Chess960 mode.
pub fn write_fen(pos: &Position) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            let p = pos.board[make_square(file, rank) as usize];
            if p == NO_PIECE {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push((b'0' + empty) as char);
                    empty = 0;
                }
                s.push(piece_char(p));
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push_str(if pos.side == Side::First {
        " w "
    } else {
        " b "
    });
    if pos.castling == 0 {
        s.push('-');
    }
    for side in [Side::First, Side::Second] {
        for queen_side in [false, true] {
            if let Some(rook) = pos.castling_rook(side, queen_side) {
                // X-FEN `K`/`Q` mean the outermost rook; another rook further out needs the
                // file letter even outside Chess960 mode.
                let own_rooks = pos.pieces(side, PieceKind::Rook) & (RANK_1 << (8 * rank_of(rook)));
                let outer = if queen_side {
                    own_rooks & (bb(rook) - 1)
                } else {
                    // The squares above the rook; `(bb << 1) - 1` would overflow for h8.
                    own_rooks & !(bb(rook) | (bb(rook) - 1))
                };
                let c = if pos.chess960 || outer != 0 {
                    (b'a' + file_of(rook)) as char
                } else if queen_side {
                    'q'
                } else {
                    'k'
                };
                s.push(if side == Side::First {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
    }
    s.push(' ');
    match pos.en_passant_square() {
        Some(ep) => s.extend(square_name(ep)),
        None => s.push('-'),
    }
    let fullmove = pos.game_ply / 2 + 1;
    s.push_str(&format!(" {} {}", pos.halfmove, fullmove));
    s
}
