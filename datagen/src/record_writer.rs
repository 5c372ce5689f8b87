//! Writes game records into a folder as games finish: chess games appended to `games.pgn`,
//! shogi games as `game-NNNNNN.kifu` (KIF, UTF-8) and `game-NNNNNN.csa`, and one line per game
//! in `index.tsv` (number, files, result, reason, final position) for checking the records.

use crate::game_record::GameRecord;
use crate::record_csa::write_csa;
use crate::record_kif::write_kif;
use crate::record_pgn::write_pgn;
use anyhow::{Context, Result};
use sente::game::Side;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The folder's writer; safe to call from several game threads.
#[derive(Debug)]
pub struct RecordWriter {
    dir: PathBuf,
    /// Games written so far.
    count: Mutex<u64>,
}

impl RecordWriter {
    /// Creates the folder (and clears nothing: new games are appended / numbered after the
    /// ones there).
    pub fn create(dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create records folder {}", dir.display()))?;
        let index = dir.join("index.tsv");
        let count = match std::fs::read_to_string(&index) {
            Ok(text) => text.lines().skip(1).filter(|l| !l.is_empty()).count() as u64,
            Err(_) => {
                std::fs::write(&index, "game\tfiles\tresult\treason\tfinal_position\n")
                    .with_context(|| format!("cannot write {}", index.display()))?;
                0
            }
        };
        Ok(Self {
            dir: dir.to_path_buf(),
            count: Mutex::new(count),
        })
    }

    /// Writes one game (its round is set to the game's number in this folder); returns that
    /// number.
    pub fn write(&self, record: &GameRecord) -> Result<u64> {
        let mut count = self.count.lock().unwrap_or_else(|e| e.into_inner());
        *count += 1;
        let number = *count;
        let record = GameRecord {
            round: number,
            ..record.clone()
        };
        let files = match record.game {
            "chess" => {
                let text = write_pgn(&record)?;
                append(&self.dir.join("games.pgn"), &text)?;
                "games.pgn".to_string()
            }
            _ => {
                let kif = format!("game-{number:06}.kifu");
                let csa = format!("game-{number:06}.csa");
                std::fs::write(self.dir.join(&kif), write_kif(&record)?)
                    .with_context(|| format!("cannot write {kif}"))?;
                std::fs::write(self.dir.join(&csa), write_csa(&record)?)
                    .with_context(|| format!("cannot write {csa}"))?;
                format!("{kif},{csa}")
            }
        };
        let result = match (record.decided(), record.winner) {
            (false, _) => "unknown",
            (true, None) => "draw",
            (true, Some(Side::First)) => "first",
            (true, Some(Side::Second)) => "second",
        };
        append(
            &self.dir.join("index.tsv"),
            &format!(
                "{number}\t{files}\t{result}\t{}\t{}\n",
                record.end.describe(),
                record.final_position
            ),
        )?;
        Ok(number)
    }
}

fn append(path: &Path, text: &str) -> Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    file.write_all(text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}
