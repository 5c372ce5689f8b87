//! Endgame tablebases in datagen (`--syzygy DIRS` of `datagen run` and `datagen rescore`,
//! chess only): opening the tables before any work starts (an error names the directories), the
//! line `run.txt` gets for them, and the table-derived score `rescore` stores for a position the
//! tables hold. Self-play adjudication itself is the engine's
//! (`sente::selfplay::play_game_with_tables`).

use anyhow::{bail, Result};
use sente::game::{Game, GameKind};
use sente::search::tablebase::{EndgameTables, SharedTables};

/// The score `datagen rescore --syzygy` stores for a position the tables say the side to move
/// wins (negated for a loss; draws, cursed wins and blessed losses store 0, as the 50-move rule
/// makes them). Far enough out that the trainer's `sigmoid(score / 400)` is 0.99995, and well
/// inside the trainer's score cap (`PositionFilter::max_abs_score`, 10 000 by default), above
/// which positions count as mates and are not trained on: these positions are trained on.
pub const TABLEBASE_WIN_SCORE: i16 = 4000;

/// Opened tables and how `run.txt` names them.
pub struct Tablebases<G: Game> {
    pub tables: SharedTables<G>,
}

impl<G: Game> Tablebases<G> {
    /// Opens `--syzygy DIRS` (':'-separated directories; ';' on Windows) for game `G`: chess
    /// only, and a missing directory, a directory without tables or a damaged table file is an
    /// error naming it.
    pub fn open(paths: &str) -> Result<Self> {
        let kind = sente_data::chunk::game_kind::<G>();
        if kind != GameKind::Chess {
            bail!(
                "--syzygy is for chess (Syzygy tables); {} has no endgame tables",
                G::NAME
            );
        }
        let tables =
            G::open_tablebases(paths).map_err(|e| anyhow::anyhow!("--syzygy {paths}: {e}"))?;
        Ok(Self { tables })
    }

    /// The tables as a shared trait object, for the game threads.
    pub fn as_dyn(&self) -> &dyn EndgameTables<G> {
        &*self.tables
    }

    /// `run.txt`'s line for the tables (what they hold and where from).
    pub fn manifest_line(&self) -> String {
        format!("syzygy={}\n", self.tables.describe())
    }

    /// Whether the tables hold `pos`: within their piece count, no castling rights.
    pub fn holds(&self, pos: &G) -> bool {
        pos.tablebase_pieces()
            .is_some_and(|pieces| pieces <= self.tables.max_pieces())
    }

    /// The stored score of `pos` by the tables, from its side to move (`None`: not in the
    /// tables, or the probe failed): ±`TABLEBASE_WIN_SCORE` for a win or loss the 50-move rule
    /// allows, 0 otherwise. Off a capture or pawn move the halfmove clock counts too: where the
    /// DTZ tables answer, a win or loss whose distance to zeroing and the clock together pass
    /// 100 plies is a draw.
    pub fn score(&self, pos: &G) -> Option<i16> {
        if !self.holds(pos) {
            return None;
        }
        let wdl = self.tables.probe_wdl(pos)?;
        let decisive = wdl.abs() >= 2;
        let clock = pos.fifty_move_clock() as i32;
        let rule50_draw = decisive
            && clock > 0
            && self
                .tables
                .probe_dtz(pos)
                .is_some_and(|dtz| dtz.abs() + clock > 100);
        Some(if decisive && !rule50_draw {
            wdl.signum() as i16 * TABLEBASE_WIN_SCORE
        } else {
            0
        })
    }
}
