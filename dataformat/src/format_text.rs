//! The text form, one position a line: `FEN | score | result` as bullet reads it (score in
//! centipawns and result 1.0 / 0.5 / 0.0, both from White's side), and the same for shogi with
//! an SFEN, from Black's (sente's) side.

use crate::format_writer::{
    first_player_result, FormatWriter, GameEncoder, RecordSink, Records, Sample,
};
use crate::imported::END_IMPORTED;
use crate::stored_game::{
    StoredGame, RESULT_DRAW, RESULT_FIRST_WINS, RESULT_SECOND_WINS, SCORE_NONE,
};
use anyhow::{anyhow, bail, Result};
use sente::game::{Game, Side};

/// Writes text lines.
pub struct TextWriter {
    pub sink: RecordSink,
}

/// The line of a position with the mover's `score` and result (1, 0, -1).
pub fn text_line<G: Game>(pos: &G, score: i16, result: i8) -> String {
    let mut line = Vec::with_capacity(96);
    write_text_line(&mut line, pos, score, result);
    String::from_utf8(line).expect("position texts are UTF-8")
}

/// Appends [`text_line`] of a position to `out`.
pub fn write_text_line<G: Game>(out: &mut Vec<u8>, pos: &G, score: i16, result: i8) {
    use std::io::Write;
    let first = pos.side_to_move() == Side::First;
    let score = if first { score } else { -score };
    let result = match first_player_result(result, pos.side_to_move()) {
        RESULT_FIRST_WINS => "1.0",
        RESULT_DRAW => "0.5",
        _ => "0.0",
    };
    write_position_text(out, pos);
    writeln!(out, " | {score} | {result}").expect("writing to a Vec does not fail");
}

/// Appends `pos.to_text()` to `out` (shogi's SFEN written without the engine's per-piece
/// strings, the same text).
fn write_position_text<G: Game>(out: &mut Vec<u8>, pos: &G) {
    match (pos as &dyn std::any::Any).downcast_ref::<sente::shogi::Position>() {
        Some(shogi) => crate::shogi_packed_board::Board::from_position(shogi)
            .write_sfen(shogi.game_ply() + 1, out),
        None => out.extend_from_slice(pos.to_text().as_bytes()),
    }
}

/// Encodes games as text lines (one record a line), for [`GameEncoder`]'s parallel export.
pub struct TextEncoder;

impl<G: Game> GameEncoder<G> for TextEncoder {
    type Encoded = Records;

    fn start(&self) -> Records {
        Records::default()
    }

    fn sample(&self, out: &mut Records, s: &Sample<G>) -> Result<()> {
        if s.score != SCORE_NONE {
            out.push_with(|buf| write_text_line(buf, s.pos, s.score, s.result));
        }
        Ok(())
    }
}

impl<G: Game> FormatWriter<G> for TextWriter {
    fn sample(&mut self, s: &Sample<G>) -> Result<()> {
        if s.score == SCORE_NONE {
            return Ok(());
        }
        self.sink
            .push(text_line(s.pos, s.score, s.result).as_bytes())
    }

    fn finish(&mut self) -> Result<u64> {
        self.sink.finish()
    }
}

/// One line as a position record of game `G` (the position's ply counts toward `--min-ply`).
pub fn decode_text_line<G: Game>(line: &str) -> Result<StoredGame> {
    let mut parts = line.split('|');
    let (Some(text), Some(score), Some(result)) = (parts.next(), parts.next(), parts.next()) else {
        bail!("not `position | score | result`");
    };
    let pos = G::from_text(text.trim()).map_err(|e| anyhow!("position {:?}: {e}", text.trim()))?;
    let score: i16 = score
        .trim()
        .parse()
        .map_err(|e| anyhow!("score {:?}: {e}", score.trim()))?;
    let result = match result.trim() {
        "1.0" | "[1.0]" | "1" => RESULT_FIRST_WINS,
        "0.5" | "[0.5]" | "1/2" => RESULT_DRAW,
        "0.0" | "[0.0]" | "0" => RESULT_SECOND_WINS,
        other => bail!("result {other:?} is not 1.0, 0.5 or 0.0"),
    };
    let mover_score = if pos.side_to_move() == Side::First {
        score
    } else {
        score.saturating_neg()
    };
    Ok(StoredGame {
        start: pos.to_text(),
        moves: Vec::new(),
        scores: vec![mover_score],
        result,
        end: END_IMPORTED,
    })
}
