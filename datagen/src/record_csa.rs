//! Shogi game records in CSA's standard format (V2.2): `N+`/`N-` players, `$EVENT`,
//! `$START_TIME`, `$TIME_LIMIT`-like limits as a comment, `PI` for the initial position or
//! `P1`..`P9` and hand lines for another, one `+7776FU` line per move (the piece after the
//! move), and the ending as the side to move's special move (`%TORYO` also for a mated side,
//! `%SENNICHITE`, `%KACHI`, `%TIME_UP`, `%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION`, `%MAX_MOVES`,
//! `%HIKIWAKE`, `%CHUDAN`), the reason and result in a final comment.

use crate::game_record::{GameRecord, RecordEnd};
use crate::record_shogi_board::{Board, Piece, Square};
use anyhow::{Context, Result};
use sente::game::Side;

const CSA_PIECES: [&str; 8] = ["FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU"];
const CSA_PROMOTED: [&str; 7] = ["TO", "NY", "NK", "NG", "KI", "UM", "RY"];

fn piece_code(piece: Piece) -> &'static str {
    if piece.promoted {
        CSA_PROMOTED[piece.kind]
    } else {
        CSA_PIECES[piece.kind]
    }
}

fn sign(side: usize) -> char {
    if side == 0 {
        '+'
    } else {
        '-'
    }
}

/// `P1`..`P9`, the hands and the side to move of a start other than the initial position.
fn position_lines(board: &Board) -> String {
    let mut out = String::new();
    for rank in 1..=9 {
        out.push_str(&format!("P{rank}"));
        for file in (1..=9).rev() {
            match board.at(Square { file, rank }) {
                None => out.push_str(" * "),
                Some(p) => {
                    out.push(sign(p.side));
                    out.push_str(piece_code(p));
                }
            }
        }
        out.push('\n');
    }
    for side in 0..2 {
        let mut line = format!("P{}", sign(side));
        for kind in (0..7).rev() {
            for _ in 0..board.hands[side][kind] {
                line.push_str(&format!("00{}", CSA_PIECES[kind]));
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push(sign(board.side));
    out.push('\n');
    out
}

/// The CSA text of a shogi record.
pub fn write_csa(record: &GameRecord) -> Result<String> {
    let mut board = Board::from_sfen(&record.start)?;
    let first_side = board.side;
    let (sente, gote) = if first_side == 0 {
        (&record.players[0], &record.players[1])
    } else {
        (&record.players[1], &record.players[0])
    };
    let mut out = String::from("V2.2\n");
    out.push_str(&format!("N+{sente}\nN-{gote}\n"));
    out.push_str(&format!("$EVENT:{}\n", record.event));
    out.push_str(&format!("$START_TIME:{}\n", record.date));
    out.push_str(&format!("'limits: {}\n", record.limits));
    out.push_str(&format!(
        "'round {}, {} opening plies\n",
        record.round, record.opening_plies
    ));
    if board.is_initial() {
        out.push_str("PI\n+\n");
    } else {
        out.push_str(&position_lines(&board));
    }
    for (index, text) in record.moves.iter().enumerate() {
        let side = board.side;
        let info = board
            .play(text)
            .with_context(|| format!("move {} '{text}'", index + 1))?;
        let from = info
            .from
            .map_or("00".to_string(), |f| format!("{}{}", f.file, f.rank));
        let after = Piece {
            promoted: info.piece.promoted || info.promotes,
            ..info.piece
        };
        out.push_str(&format!(
            "{}{from}{}{}{}\n",
            sign(side),
            info.to.file,
            info.to.rank,
            piece_code(after)
        ));
    }
    let winner_side = record.winner.map(|w| {
        if w == Side::First {
            first_side
        } else {
            first_side ^ 1
        }
    });
    let ending = match record.end {
        // A mated side resigns, as servers record it (readers take `%TSUMI` for no result).
        RecordEnd::Checkmate | RecordEnd::Stalemate => "%TORYO".to_string(),
        // CSA's special moves are the side to move's: a loser to move resigns; a game
        // adjudicated with the winner to move is recorded as interrupted, with the result in a
        // comment.
        RecordEnd::ResignAdjudication if winner_side == Some(board.side ^ 1) => {
            "%TORYO".to_string()
        }
        RecordEnd::Repetition => "%SENNICHITE".to_string(),
        RecordEnd::PerpetualCheck => match winner_side {
            Some(w) => format!("%{}ILLEGAL_ACTION", sign(w ^ 1)),
            None => "%SENNICHITE".to_string(),
        },
        RecordEnd::Declaration => "%KACHI".to_string(),
        RecordEnd::TimeForfeit => "%TIME_UP".to_string(),
        RecordEnd::MaxPlies => "%MAX_MOVES".to_string(),
        RecordEnd::DrawAdjudication => "%HIKIWAKE".to_string(),
        _ => "%CHUDAN".to_string(),
    };
    out.push_str(&ending);
    out.push('\n');
    out.push_str(&format!("'{}", record.end.describe()));
    match winner_side {
        Some(w) => out.push_str(&format!(
            ", {} wins\n",
            if w == 0 { "sente" } else { "gote" }
        )),
        None => out.push_str(", draw\n"),
    }
    Ok(out)
}
