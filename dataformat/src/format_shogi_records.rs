//! Shogi's foreign formats: YaneuraOu's `PackedSfenValue` (psv, 40 bytes: packed SFEN, score,
//! move, game ply, result, padding) and DeepLearningShogi's `HuffmanCodedPosAndEval` (hcpe, 38
//! bytes: Apery-packed position, eval, best move, result, padding), written from and read into
//! Sente shogi positions. Both keep the mover's score; psv keeps the game ply, hcpe does not.

use crate::format_kind::ForeignFormat;
use crate::format_writer::{
    first_player_result, FormatWriter, GameEncoder, RecordSink, Records, Sample,
};
use crate::imported::{END_IMPORTED, END_IMPORTED_NO_PLY};
use crate::shogi_packed_board::{Board, MoveParts, Packing};
use crate::stored_game::{
    StoredGame, RESULT_DRAW, RESULT_FIRST_WINS, RESULT_SECOND_WINS, SCORE_NONE,
};
use anyhow::{anyhow, bail, Result};
use sente::game::{Game, GameMove, Side};
use sente::shogi::Position;

pub const PSV_SIZE: usize = 40;
pub const HCPE_SIZE: usize = 38;

/// YaneuraOu's 16-bit move: to, from << 7 (a drop: the kind, and bit 14), promotion bit 15.
pub fn psv_move(m: MoveParts) -> u16 {
    let from = match m.from {
        Ok(sq) => sq << 7,
        Err(kind) => (kind as u32) << 7 | 1 << 14,
    };
    (m.to | from | (m.promote as u32) << 15) as u16
}

pub fn psv_move_parts(bits: u16) -> Result<MoveParts> {
    let (to, from) = ((bits & 0x7f) as u32, ((bits >> 7) & 0x7f) as u32);
    let drop = bits >> 14 & 1 == 1;
    if to >= 81 || (!drop && from >= 81) || (drop && !(1..=7).contains(&from)) {
        bail!("bad move {bits:#06x}");
    }
    Ok(MoveParts {
        to,
        from: if drop { Err(from as u8) } else { Ok(from) },
        promote: bits >> 15 == 1,
    })
}

/// Apery's 16-bit move: to, from << 7 (a drop: 80 + kind), promotion bit 14.
pub fn hcpe_move(m: MoveParts) -> u16 {
    let from = match m.from {
        Ok(sq) => sq,
        Err(kind) => 80 + kind as u32,
    };
    (m.to | from << 7 | (m.promote as u32) << 14) as u16
}

pub fn hcpe_move_parts(bits: u16) -> Result<MoveParts> {
    let (to, from) = ((bits & 0x7f) as u32, ((bits >> 7) & 0x7f) as u32);
    if to >= 81 || from >= 88 || bits >> 15 != 0 {
        bail!("bad move {bits:#06x}");
    }
    Ok(MoveParts {
        to,
        from: if from >= 81 {
            Err((from - 80) as u8)
        } else {
            Ok(from)
        },
        promote: bits >> 14 & 1 == 1,
    })
}

/// The psv or hcpe record of a scored sample: the bytes (40 for psv, 38 for hcpe, the rest 0)
/// and the record's length.
pub fn shogi_record(
    format: ForeignFormat,
    s: &Sample<Position>,
) -> Result<([u8; PSV_SIZE], usize)> {
    let board = Board::from_position(s.pos);
    let parts = MoveParts::from_move(s.mv);
    let score = s.score.to_le_bytes();
    let mut r = [0u8; PSV_SIZE];
    if format == ForeignFormat::Psv {
        r[..32].copy_from_slice(&board.pack(Packing::Yaneuraou)?);
        r[32..34].copy_from_slice(&score);
        r[34..36].copy_from_slice(&psv_move(parts).to_le_bytes());
        let ply = (s.pos.game_ply() + 1).min(u16::MAX as u32) as u16;
        r[36..38].copy_from_slice(&ply.to_le_bytes());
        r[38] = s.result as u8;
        Ok((r, PSV_SIZE))
    } else {
        r[..32].copy_from_slice(&board.pack(Packing::Apery)?);
        r[32..34].copy_from_slice(&score);
        r[34..36].copy_from_slice(&hcpe_move(parts).to_le_bytes());
        let first = first_player_result(s.result, s.pos.side_to_move());
        r[36] = match first {
            RESULT_FIRST_WINS => 1,
            RESULT_SECOND_WINS => 2,
            _ => 0,
        };
        Ok((r, HCPE_SIZE))
    }
}

/// Writes psv or hcpe records.
pub struct ShogiRecordWriter {
    pub format: ForeignFormat,
    pub sink: RecordSink,
}

impl FormatWriter<Position> for ShogiRecordWriter {
    fn sample(&mut self, s: &Sample<Position>) -> Result<()> {
        if s.score == SCORE_NONE {
            return Ok(());
        }
        let (r, len) = shogi_record(self.format, s)?;
        self.sink.push(&r[..len])
    }

    fn finish(&mut self) -> Result<u64> {
        self.sink.finish()
    }
}

/// Encodes games as psv or hcpe records, for [`GameEncoder`]'s parallel export.
pub struct ShogiRecordEncoder {
    pub format: ForeignFormat,
}

impl GameEncoder<Position> for ShogiRecordEncoder {
    type Encoded = Records;

    fn start(&self) -> Records {
        Records::default()
    }

    fn sample(&self, out: &mut Records, s: &Sample<Position>) -> Result<()> {
        if s.score != SCORE_NONE {
            let (r, len) = shogi_record(self.format, s)?;
            out.push(&r[..len]);
        }
        Ok(())
    }
}

/// A psv or hcpe record as a Sente position record (start, its move when legal there, score,
/// result). Fails on a record that does not decode or whose move is not legal.
pub fn decode_shogi_record(format: ForeignFormat, r: &[u8]) -> Result<StoredGame> {
    let bytes: &[u8; 32] = r[..32].try_into().expect("32 bytes");
    let packing = if format == ForeignFormat::Psv {
        Packing::Yaneuraou
    } else {
        Packing::Apery
    };
    let board = Board::unpack(bytes, packing)?;
    let score = i16::from_le_bytes([r[32], r[33]]);
    let bits = u16::from_le_bytes([r[34], r[35]]);
    let (move_number, parts, result, end) = if format == ForeignFormat::Psv {
        let ply = u16::from_le_bytes([r[36], r[37]]).max(1) as u32;
        let mover = if board.white_to_move {
            Side::Second
        } else {
            Side::First
        };
        let result = r[38] as i8;
        if !(-1..=1).contains(&result) {
            bail!("bad game result {result}");
        }
        let parts = if bits == 0 {
            None
        } else {
            Some(psv_move_parts(bits)?)
        };
        (ply, parts, first_player_result(result, mover), END_IMPORTED)
    } else {
        let result = match r[36] {
            0 => RESULT_DRAW,
            1 => RESULT_FIRST_WINS,
            2 => RESULT_SECOND_WINS,
            other => bail!("bad game result {other}"),
        };
        let parts = if bits == 0 {
            None
        } else {
            Some(hcpe_move_parts(bits)?)
        };
        (1, parts, result, END_IMPORTED_NO_PLY)
    };
    let start = board.to_sfen(move_number);
    let pos = Position::from_text(&start).map_err(|e| anyhow!("position {start}: {e}"))?;
    let mut moves = Vec::new();
    if let Some(parts) = parts {
        let usi = parts.to_usi();
        let m = pos
            .parse_move(&usi)
            .map_err(|e| anyhow!("move {usi} in {start}: {e}"))?;
        moves.push(m.to_bits());
    }
    Ok(StoredGame {
        start,
        moves,
        scores: vec![score],
        result,
        end,
    })
}
