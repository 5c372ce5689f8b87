//! Records read from other programs' formats, held as stored games: a position record is a
//! `StoredGame` whose start is the position, with its move (when the format has one) and its
//! score, and a game record (binpack chain, viriformat game) has all its moves. `end` marks
//! them: the ply of the start text counts toward `--min-ply` (`END_IMPORTED`), or the format
//! has no ply and the ply filter does not apply (`END_IMPORTED_NO_PLY`).

use crate::position_filter::PositionFilter;
use crate::stored_game::{RecordError, StoredGame};
use sente::game::{Game, GameMove};

/// `end` of an imported record whose start text carries the format's game ply.
pub const END_IMPORTED: u8 = 254;
/// `end` of an imported record from a format without plies.
pub const END_IMPORTED_NO_PLY: u8 = 255;

/// Whether a stored game was imported from another format.
pub fn is_imported(record: &StoredGame) -> bool {
    record.end >= END_IMPORTED
}

/// Calls `visit(position, move, score)` for every position of `record` that `filter` keeps
/// (`move` is `G::Move::NONE` for a position record without a move), counting plies as the
/// trainer does: from 1 at a Sente game's first recorded position, from the start text's game
/// ply for imported records.
pub fn visit_kept_positions<G: Game>(
    record: &StoredGame,
    filter: &PositionFilter,
    mut visit: impl FnMut(&G, G::Move, i16),
) -> Result<(), RecordError> {
    if record.moves.is_empty() && record.scores.len() == 1 && is_imported(record) {
        let pos = G::from_text(&record.start)
            .map_err(|e| RecordError::BadStart(format!("{}: {e}", record.start)))?;
        let ply = (record.end == END_IMPORTED).then(|| pos.game_ply() + 1);
        if filter.keeps(ply, record.scores[0], pos.in_check(), None) {
            visit(&pos, G::Move::NONE, record.scores[0]);
        }
        return Ok(());
    }
    let mut ply = 0u32;
    let mut first = true;
    let has_ply = record.end != END_IMPORTED_NO_PLY;
    record.replay::<G>(|pos, m, score| {
        if first && record.end == END_IMPORTED {
            ply = pos.game_ply();
        }
        first = false;
        ply += 1;
        if filter.keeps(
            has_ply.then_some(ply),
            score,
            pos.in_check(),
            Some(pos.is_quiet(m)),
        ) {
            visit(pos, m, score);
        }
    })?;
    Ok(())
}
