//! Chess game records as PGN: the seven-tag roster, `FEN`/`SetUp` for a start other than the
//! initial position, `Termination` and Sente's own `SenteEnd` / `Limits` tags, SAN movetext
//! with the reason as a final comment.

use crate::game_record::{GameRecord, RecordEnd};
use anyhow::{Context, Result};
use sente::chess::Position;
use sente::game::{Game, Side};

/// `1-0`, `0-1` or `1/2-1/2` (`*` when unknown); `first_is_white`: the first mover is white.
fn result_token(record: &GameRecord, first_is_white: bool) -> &'static str {
    if !record.decided() {
        return "*";
    }
    match record.winner {
        None => "1/2-1/2",
        Some(side) => {
            if (side == Side::First) == first_is_white {
                "1-0"
            } else {
                "0-1"
            }
        }
    }
}

/// PGN's `Termination` values.
fn termination(end: RecordEnd) -> &'static str {
    match end {
        RecordEnd::ResignAdjudication
        | RecordEnd::DrawAdjudication
        | RecordEnd::MaxPlies
        | RecordEnd::TablebaseAdjudication => "adjudication",
        RecordEnd::TimeForfeit => "time forfeit",
        RecordEnd::Unknown => "unterminated",
        _ => "normal",
    }
}

fn quoted(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The PGN text of a chess record.
pub fn write_pgn(record: &GameRecord) -> Result<String> {
    let mut pos = Position::from_text(&record.start)
        .map_err(|e| anyhow::anyhow!("start position '{}': {e}", record.start))?;
    let first_is_white = pos.side_to_move() == Side::First;
    let (white, black) = (&record.players[0], &record.players[1]);
    let result = result_token(record, first_is_white);
    let date = record
        .date
        .get(..10)
        .unwrap_or("????/??/??")
        .replace('/', ".");
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", quoted(value)));
    };
    tag("Event", &record.event);
    tag("Site", "Sente datagen");
    tag("Date", &date);
    tag("Round", &record.round.to_string());
    tag("White", white);
    tag("Black", black);
    tag("Result", result);
    if record.start != Position::startpos().to_text() {
        tag("SetUp", "1");
        tag("FEN", &record.start);
    }
    tag("PlyCount", &record.moves.len().to_string());
    tag("Termination", termination(record.end));
    tag("SenteEnd", record.end.describe());
    tag("Limits", &record.limits);
    tag("OpeningPlies", &record.opening_plies.to_string());
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    let full_move = |pos: &Position| pos.game_ply() / 2 + 1;
    for (index, text) in record.moves.iter().enumerate() {
        let m = pos
            .parse_move(text)
            .with_context(|| format!("move {} '{text}'", index + 1))?;
        if pos.side_to_move() == Side::First {
            words.push(format!("{}.", full_move(&pos)));
        } else if index == 0 {
            words.push(format!("{}...", full_move(&pos)));
        }
        words.push(pos.to_san(m));
        pos.make_move(m);
    }
    words.push(format!("{{{}}}", record.end.describe()));
    words.push(result.to_string());
    // Movetext lines of at most 79 characters.
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    Ok(out)
}
