//! `datagen match --records DIR`: every finished match game written as a record (PGN for chess,
//! KIF and CSA for shogi) while the match runs; a failed write is reported once and the match
//! goes on, and `finish` returns the first error.

use crate::game_record::{utc_now, GameRecord};
use crate::record_writer::RecordWriter;
use anyhow::Result;
use sente::game::Game;
use sente::selfplay::PlayedGame;
use std::path::Path;
use std::sync::Mutex;

/// The match's records folder, or nothing when none was asked for.
#[derive(Debug)]
pub struct MatchRecorder {
    writer: Option<RecordWriter>,
    limits: String,
    date: String,
    error: Mutex<Option<anyhow::Error>>,
}

impl MatchRecorder {
    pub fn create(dir: Option<&Path>, limits: &str) -> Result<Self> {
        Ok(Self {
            writer: dir.map(RecordWriter::create).transpose()?,
            limits: limits.to_string(),
            date: utc_now(),
            error: Mutex::new(None),
        })
    }

    /// Writes one finished game (called from the game threads).
    pub fn record<G: Game>(&self, game: &PlayedGame<G>) {
        let Some(writer) = &self.writer else {
            return;
        };
        let record = GameRecord::from_played(game, &self.limits, "datagen match", 0, &self.date);
        if let Err(e) = writer.write(&record) {
            let mut error = self.error.lock().unwrap_or_else(|e| e.into_inner());
            if error.is_none() {
                sente::eprintln_best_effort!("match: error writing a game record: {e:#}");
                *error = Some(e);
            }
        }
    }

    /// The first write error, if any.
    pub fn finish(&self) -> Result<()> {
        match self.error.lock().unwrap_or_else(|e| e.into_inner()).take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
