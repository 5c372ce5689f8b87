//! The session's endgame tables: opening the tables `SyzygyPath` (or CECP's `egtpath syzygy`)
//! names when no job runs, telling the user what was found or what went wrong, and keeping the
//! previous tables (and the previous path) when the new ones cannot be opened.

use super::backend::SearchBackend;
use super::protocol_game::ProtocolGame;
use super::session_core::SessionCore;

/// What the backend's tables were last set from.
#[derive(Clone, Debug, Default)]
pub struct LoadedTables {
    /// The `SyzygyPath` value in use.
    pub path: String,
    /// Pieces of the largest table in use (0: none).
    pub pieces: u32,
    /// The (pieces, probe limit) pair the user was last told about.
    told_limit: Option<(u32, u32)>,
}

impl<G: ProtocolGame> SessionCore<G> {
    /// Opens the tables `SyzygyPath` names if it changed and no job runs (otherwise at the
    /// next chance, as `EvalFile`). A path that cannot be opened is reported and forgotten: the
    /// previous tables and path stay.
    pub fn sync_tablebases(&mut self) {
        let wanted = self.settings.syzygy_path.trim().to_string();
        if wanted != self.loaded_tables.path {
            let Some(result) = self
                .controller
                .with_idle_backend(|backend| backend.set_tablebases(&wanted))
            else {
                return;
            };
            match result {
                Ok(Some((description, pieces))) => {
                    self.note(&description);
                    self.loaded_tables.path = wanted;
                    self.loaded_tables.pieces = pieces;
                }
                Ok(None) => {
                    self.note("Syzygy tables removed");
                    self.loaded_tables.path = wanted;
                    self.loaded_tables.pieces = 0;
                }
                Err(error) => {
                    let kept = if self.loaded_tables.path.is_empty() {
                        "no tables".to_string()
                    } else {
                        format!("keeping '{}'", self.loaded_tables.path)
                    };
                    self.warn(&format!("SyzygyPath '{wanted}': {error}; {kept}"));
                    self.settings.syzygy_path = self.loaded_tables.path.clone();
                }
            }
        }
        let limit = self.settings.search.tablebase.probe_limit;
        let pieces = self.loaded_tables.pieces;
        if pieces > limit && self.loaded_tables.told_limit != Some((pieces, limit)) {
            self.note(&format!(
                "SyzygyProbeLimit {limit}: tables of {} to {pieces} pieces are not probed",
                limit + 1
            ));
        }
        self.loaded_tables.told_limit = Some((pieces, limit));
    }
}
