//! Writing Sente games in a foreign format: the per-ply sample each format's writer receives,
//! the trait they implement, the bounded seeded shuffle buffer of the position formats, and
//! the loop that replays a stored game through the shared position filter into a writer.
//!
//! For parallel export a format is also split in two halves: a [`GameEncoder`], which turns one
//! game into its bytes (or entries) on any thread, and a [`GameSink`], which writes the encoded
//! games in game order on one thread. A game's encoding depends on that game alone, so the
//! output of the pair is the same whatever the number of threads (and the same as the
//! format's [`FormatWriter`]).

use crate::position_filter::PositionFilter;
use crate::stored_game::{RecordError, StoredGame, RESULT_DRAW, RESULT_FIRST_WINS, SCORE_NONE};
use anyhow::{Context, Result};
use sente::game::{Game, Side};
use std::io::Write;
use std::path::Path;

/// One ply of a game as the writers see it.
pub struct Sample<'a, G: Game> {
    /// The position before the move.
    pub pos: &'a G,
    pub mv: G::Move,
    /// The mover's score in centipawns, `SCORE_NONE` for a ply the filter dropped or that has
    /// no score (the game formats mark it; the position formats leave it out).
    pub score: i16,
    /// The game's result for the mover: 1 win, 0 draw, -1 loss.
    pub result: i8,
}

/// A format's writer.
pub trait FormatWriter<G: Game> {
    /// One ply; plies of a game come in order, between `game_end`s.
    fn sample(&mut self, sample: &Sample<G>) -> Result<()>;
    /// The game's last ply was given.
    fn game_end(&mut self) -> Result<()> {
        Ok(())
    }
    /// Writes what is buffered; returns how many positions were written.
    fn finish(&mut self) -> Result<u64>;
}

/// The mover's result (1, 0, -1) of a game with first-player result code `result`.
pub fn mover_result(result: u8, mover: Side) -> i8 {
    match (result, mover) {
        (RESULT_DRAW, _) => 0,
        (RESULT_FIRST_WINS, Side::First) => 1,
        (RESULT_FIRST_WINS, Side::Second) => -1,
        (_, Side::First) => -1,
        (_, Side::Second) => 1,
    }
}

/// The first-player result code of a game whose result for `mover` is `result` (1, 0, -1).
pub fn first_player_result(result: i8, mover: Side) -> u8 {
    use crate::stored_game::RESULT_SECOND_WINS;
    match (result.signum(), mover) {
        (0, _) => RESULT_DRAW,
        (1, Side::First) | (-1, Side::Second) => RESULT_FIRST_WINS,
        _ => RESULT_SECOND_WINS,
    }
}

/// Why a game was not exported: it does not replay (skip it), or writing failed (stop).
#[derive(Debug)]
pub enum ExportError {
    Replay(RecordError),
    Write(anyhow::Error),
}

/// Replays `record`, giving each ply to `writer` with its score, or `SCORE_NONE` where
/// `filter` drops the position; returns how many plies the filter kept.
pub fn export_game<G: Game>(
    record: &StoredGame,
    filter: &PositionFilter,
    writer: &mut dyn FormatWriter<G>,
) -> Result<u64, ExportError> {
    let kept = replay_samples(record, filter, |sample| writer.sample(sample))?;
    writer.game_end().map_err(ExportError::Write)?;
    Ok(kept)
}

/// Replays `record` and hands each ply to `take` as a [`Sample`] (score `SCORE_NONE` where
/// `filter` drops the position), stopping at `take`'s first error; returns how many plies the
/// filter kept.
fn replay_samples<G: Game>(
    record: &StoredGame,
    filter: &PositionFilter,
    mut take: impl FnMut(&Sample<G>) -> Result<()>,
) -> Result<u64, ExportError> {
    let mut ply = 0u32;
    let mut kept = 0u64;
    let mut failed = None;
    record
        .replay::<G>(|pos, m, score| {
            ply += 1;
            if failed.is_some() {
                return;
            }
            let keep = filter.keeps(Some(ply), score, pos.in_check(), Some(pos.is_quiet(m)));
            kept += keep as u64;
            let sample = Sample {
                pos,
                mv: m,
                score: if keep { score } else { SCORE_NONE },
                result: mover_result(record.result, pos.side_to_move()),
            };
            if let Err(e) = take(&sample) {
                failed = Some(e);
            }
        })
        .map_err(ExportError::Replay)?;
    match failed {
        Some(e) => Err(ExportError::Write(e)),
        None => Ok(kept),
    }
}

/// Where the position formats' records go: straight to the file, or through a bounded
/// shuffle buffer (each record is swapped with a random one of the buffer, which is written
/// out; the rest is shuffled and written at the end), seeded, so the output depends only on
/// the input and the seed.
pub struct RecordSink {
    out: std::io::BufWriter<std::fs::File>,
    buffer: Vec<Vec<u8>>,
    capacity: usize,
    rng: u64,
    pub written: u64,
    path: std::path::PathBuf,
}

impl RecordSink {
    /// A sink writing to `path` (created or truncated); `shuffle` records buffered (0: none).
    pub fn create(path: &Path, shuffle: usize, seed: u64) -> Result<RecordSink> {
        let file =
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
        Ok(RecordSink {
            out: std::io::BufWriter::with_capacity(1 << 20, file),
            buffer: Vec::with_capacity(shuffle.min(1 << 20)),
            capacity: shuffle,
            rng: seed ^ 0x9E37_79B9_7F4A_7C15,
            written: 0,
            path: path.to_path_buf(),
        })
    }

    fn next_random(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn emit(&mut self, record: &[u8]) -> Result<()> {
        self.written += 1;
        self.out
            .write_all(record)
            .with_context(|| format!("writing {}", self.path.display()))
    }

    pub fn push(&mut self, record: &[u8]) -> Result<()> {
        if self.capacity == 0 {
            return self.emit(record);
        }
        if self.buffer.len() < self.capacity {
            self.buffer.push(record.to_vec());
            return Ok(());
        }
        let j = (self.next_random() % self.capacity as u64) as usize;
        let out = std::mem::replace(&mut self.buffer[j], record.to_vec());
        self.emit(&out)
    }

    /// Writes the buffered records (shuffled) and flushes; returns the records written.
    pub fn finish(&mut self) -> Result<u64> {
        let mut rest = std::mem::take(&mut self.buffer);
        for i in (1..rest.len()).rev() {
            let j = (self.next_random() % (i as u64 + 1)) as usize;
            rest.swap(i, j);
        }
        for record in &rest {
            self.emit(record)?;
        }
        self.out
            .flush()
            .with_context(|| format!("writing {}", self.path.display()))?;
        Ok(self.written)
    }
}

/// The parallel half of a format: what one game becomes, made from its samples alone (so any
/// thread can encode any game).
pub trait GameEncoder<G: Game>: Sync {
    /// One game's output.
    type Encoded: Send;
    /// An empty output, for a game about to be encoded.
    fn start(&self) -> Self::Encoded;
    /// One ply; plies of a game come in order.
    fn sample(&self, out: &mut Self::Encoded, sample: &Sample<G>) -> Result<()>;
    /// The game's last ply was given.
    fn game_end(&self, _out: &mut Self::Encoded) -> Result<()> {
        Ok(())
    }
}

/// The sequential half of a format: writes encoded games, in game order.
pub trait GameSink<E> {
    /// Writes one encoded game.
    fn write_game(&mut self, game: E) -> Result<()>;
    /// Writes what is buffered; returns how many positions were written.
    fn finish(&mut self) -> Result<u64>;
}

/// Replays `record` through `filter` into a fresh output of `encoder` (as [`export_game`] does
/// into a writer); returns the output and how many plies the filter kept. A game that does not
/// replay, or whose encoding fails, gives no output.
pub fn encode_game<G: Game, E: GameEncoder<G>>(
    record: &StoredGame,
    filter: &PositionFilter,
    encoder: &E,
) -> Result<(E::Encoded, u64), ExportError> {
    let mut out = encoder.start();
    let kept = replay_samples(record, filter, |sample| encoder.sample(&mut out, sample))?;
    encoder.game_end(&mut out).map_err(ExportError::Write)?;
    Ok((out, kept))
}

/// The records of one game of a position format, back to back, with where each ends.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct Records {
    bytes: Vec<u8>,
    ends: Vec<u32>,
}

impl Records {
    /// Appends one record.
    pub fn push(&mut self, record: &[u8]) {
        self.bytes.extend_from_slice(record);
        self.ends.push(self.bytes.len() as u32);
    }

    /// Appends one record written by `write` into the buffer's end.
    pub fn push_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        write(&mut self.bytes);
        self.ends.push(self.bytes.len() as u32);
    }

    /// The records, in order.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let r = &self.bytes[start as usize..end as usize];
            start = end;
            r
        })
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

impl GameSink<Records> for RecordSink {
    fn write_game(&mut self, game: Records) -> Result<()> {
        if self.capacity == 0 {
            // Records straight to the file: one write for the game.
            self.written += game.len() as u64;
            return self
                .out
                .write_all(&game.bytes)
                .with_context(|| format!("writing {}", self.path.display()));
        }
        for record in game.iter() {
            self.push(record)?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<u64> {
        RecordSink::finish(self)
    }
}
