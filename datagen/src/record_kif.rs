//! Shogi game records as KIF (Kakinoki's format, written as UTF-8 `.kifu`): headers for the
//! date, event, players and limits, `手合割：平手` or a board diagram (BOD) for another start,
//! one numbered line per move (`７六歩(77)`, `同　歩(23)`, `５五角打`, `２二角成(88)`), the
//! ending (`投了`, `詰み`, `千日手`, `持将棋`, `切れ負け`, `反則負け`, `入玉勝ち`) and the summary
//! line `まで N手で先手の勝ち`. A non-promotion where promotion was possible is written plainly
//! (without `不成`), as cshogi's reader expects.

use crate::game_record::{GameRecord, RecordEnd};
use crate::record_shogi_board::{Board, MoveInfo, Piece};
use anyhow::{Context, Result};
use sente::game::Side;

const KANJI_PIECES: [&str; 8] = ["歩", "香", "桂", "銀", "金", "角", "飛", "玉"];
const KANJI_PROMOTED: [&str; 7] = ["と", "杏", "圭", "全", "金", "馬", "龍"];
const WIDE_DIGITS: [&str; 10] = ["０", "１", "２", "３", "４", "５", "６", "７", "８", "９"];
const KANJI_NUMBERS: [&str; 19] = [
    "〇", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三",
    "十四", "十五", "十六", "十七", "十八",
];

fn piece_name(piece: Piece) -> &'static str {
    if piece.promoted {
        KANJI_PROMOTED[piece.kind]
    } else {
        KANJI_PIECES[piece.kind]
    }
}

fn move_text(info: &MoveInfo, previous_to: Option<(usize, usize)>) -> String {
    let to = if previous_to == Some((info.to.file, info.to.rank)) {
        "同　".to_string()
    } else {
        format!(
            "{}{}",
            WIDE_DIGITS[info.to.file], KANJI_NUMBERS[info.to.rank]
        )
    };
    let piece = piece_name(info.piece);
    match info.from {
        None => format!("{to}{piece}打"),
        Some(from) => {
            let promote = if info.promotes { "成" } else { "" };
            format!("{to}{piece}{promote}({}{})", from.file, from.rank)
        }
    }
}

/// The hand as KIF writes it (`飛　角二　歩三`, `なし`).
fn hand_text(hand: &[u32; 7]) -> String {
    let order = [6, 5, 4, 3, 2, 1, 0];
    let parts: Vec<String> = order
        .iter()
        .filter(|&&k| hand[k] > 0)
        .map(|&k| {
            let n = hand[k] as usize;
            if n == 1 {
                KANJI_PIECES[k].to_string()
            } else {
                format!("{}{}", KANJI_PIECES[k], KANJI_NUMBERS[n.min(18)])
            }
        })
        .collect();
    if parts.is_empty() {
        "なし".to_string()
    } else {
        parts.join("　")
    }
}

/// A board diagram (BOD) of a start other than the initial position.
fn diagram(board: &Board) -> String {
    let mut out = format!("後手の持駒：{}\n", hand_text(&board.hands[1]));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for (rank, rank_name) in KANJI_NUMBERS.iter().enumerate().take(10).skip(1) {
        out.push('|');
        for file in (1..=9).rev() {
            let sq = crate::record_shogi_board::Square { file, rank };
            match board.at(sq) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.side == 0 { ' ' } else { 'v' });
                    out.push_str(piece_name(p));
                }
            }
        }
        out.push_str(&format!("|{rank_name}\n"));
    }
    out.push_str("+---------------------------+\n");
    out.push_str(&format!("先手の持駒：{}\n", hand_text(&board.hands[0])));
    if board.side == 1 {
        out.push_str("後手番\n");
    }
    out
}

/// The side name of `side` (0: sente).
fn side_name(side: usize) -> &'static str {
    if side == 0 {
        "先手"
    } else {
        "後手"
    }
}

/// The KIF text of a shogi record.
pub fn write_kif(record: &GameRecord) -> Result<String> {
    let mut board = Board::from_sfen(&record.start)?;
    let first_side = board.side;
    let mut out = String::from("#KIF version=2.0 encoding=UTF-8\n");
    out.push_str(&format!("開始日時：{}\n", record.date));
    out.push_str(&format!("棋戦：{}\n", record.event));
    out.push_str(&format!("持ち時間：{}\n", record.limits));
    if board.is_initial() {
        out.push_str("手合割：平手\n");
    } else {
        out.push_str(&diagram(&board));
    }
    // Players: the first mover is sente unless the start has gote to move.
    let (sente, gote) = if first_side == 0 {
        (&record.players[0], &record.players[1])
    } else {
        (&record.players[1], &record.players[0])
    };
    out.push_str(&format!("先手：{sente}\n後手：{gote}\n"));
    out.push_str(&format!(
        "*round {}, {} opening plies, {}\n",
        record.round,
        record.opening_plies,
        record.end.describe()
    ));
    out.push_str("手数----指手---------消費時間--\n");
    let mut previous_to = None;
    for (index, text) in record.moves.iter().enumerate() {
        let info = board
            .play(text)
            .with_context(|| format!("move {} '{text}'", index + 1))?;
        out.push_str(&format!(
            "{:>4} {}\n",
            index + 1,
            move_text(&info, previous_to)
        ));
        previous_to = Some((info.to.file, info.to.rank));
    }
    let played = record.moves.len();
    let winner_side = record.winner.map(|w| {
        if w == Side::First {
            first_side
        } else {
            first_side ^ 1
        }
    });
    let ending = match record.end {
        RecordEnd::Checkmate | RecordEnd::Stalemate => Some("詰み"),
        // The side to move resigns; an adjudication with the winner to move is an interruption
        // (the summary line still names the winner).
        RecordEnd::ResignAdjudication if winner_side == Some(board.side ^ 1) => Some("投了"),
        RecordEnd::ResignAdjudication => Some("中断"),
        RecordEnd::Repetition => Some("千日手"),
        RecordEnd::PerpetualCheck => Some("反則負け"),
        RecordEnd::MaxPlies | RecordEnd::DrawAdjudication => Some("持将棋"),
        RecordEnd::TimeForfeit => Some("切れ負け"),
        RecordEnd::Declaration => Some("入玉勝ち"),
        RecordEnd::Unknown
        | RecordEnd::FiftyMoveRule
        | RecordEnd::InsufficientMaterial
        | RecordEnd::TablebaseAdjudication => Some("中断"),
    };
    if let Some(ending) = ending {
        out.push_str(&format!("{:>4} {ending}\n", played + 1));
    }
    let summary = match (record.end, winner_side) {
        (RecordEnd::Declaration, Some(w)) => format!("{}の入玉勝ち", side_name(w)),
        (RecordEnd::PerpetualCheck, Some(w)) => format!("{}の反則負け", side_name(w ^ 1)),
        (RecordEnd::Unknown, _) => "中断".to_string(),
        (_, Some(w)) => format!("{}の勝ち", side_name(w)),
        (RecordEnd::Repetition, None) => "千日手".to_string(),
        (_, None) => "持将棋".to_string(),
    };
    out.push_str(&format!("まで{played}手で{summary}\n"));
    Ok(out)
}
