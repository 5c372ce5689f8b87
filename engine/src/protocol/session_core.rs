//! The session core: what the UCI/USI session and the CECP session share. It owns the option
//! values, the controller that runs searches, mate solves and perft counts, and the game as the
//! session knows it (`MoveHistory`); it loads the evaluator `EvalFile` names when no job runs,
//! applies option values (clearing the table, resizing it, changing the thread count) and says
//! what went wrong in the protocol's own voice. The sessions keep only their syntax, modes and
//! answers.

use super::backend::SearchBackend;
use super::controller::Controller;
use super::input::Event;
use super::move_history::MoveHistory;
use super::options::{EngineSettings, OptionEffect, OptionError, OptionTable};
use super::output::Output;
use super::protocol_game::ProtocolGame;
use crate::game::Game;
use std::sync::mpsc::Sender;

/// How a session tells the user what is not an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Voice {
    /// UCI and USI: `info string ...`.
    InfoString,
    /// CECP: `# ...` comments, and `telluser ...` for what the user must see.
    Cecp,
}

/// What a session keeps when it changes game (CECP's `variant`): where it writes, the event
/// channel, the option values and its voice.
pub struct SessionBase {
    pub out: Output,
    pub events: Sender<Event>,
    pub settings: EngineSettings,
    pub voice: Voice,
}

/// The shared state and operations of a session playing game `G`.
pub struct SessionCore<G: ProtocolGame> {
    pub out: Output,
    pub events: Sender<Event>,
    pub settings: EngineSettings,
    pub controller: Controller<G, G::Backend>,
    /// The game on the board: its start, the moves played, every position in between.
    pub history: MoveHistory<G>,
    voice: Voice,
    /// The `EvalFile` value the backend's evaluator was last set from.
    loaded_eval_file: String,
    /// The `SyzygyPath` the backend's tables were opened from, their piece count, and the
    /// probe limit last told about (`tablebase_setup.rs`).
    pub(super) loaded_tables: super::tablebase_setup::LoadedTables,
    /// The opening book in use (`book_setup.rs`).
    pub(super) loaded_book: super::book_setup::LoadedBook,
}

impl<G: ProtocolGame> SessionCore<G> {
    /// A fresh backend with the base's options, on the start position.
    pub fn new(base: SessionBase) -> Self {
        let SessionBase {
            out,
            events,
            settings,
            voice,
        } = base;
        let mut controller = Controller::new(G::Backend::fresh(), events.clone());
        controller.configure(settings.hash_mb, settings.threads);
        let mut start = G::startpos();
        start.apply_rules(&settings.rules);
        Self {
            out,
            events,
            settings,
            controller,
            history: MoveHistory::new(start),
            voice,
            loaded_eval_file: String::new(),
            loaded_tables: Default::default(),
            loaded_book: Default::default(),
        }
    }

    /// Stops whatever runs and gives back what outlives this game.
    pub fn into_base(mut self) -> SessionBase {
        let _ = self.controller.stop();
        SessionBase {
            out: self.out.clone(),
            events: self.events.clone(),
            settings: std::mem::take(&mut self.settings),
            voice: self.voice,
        }
    }

    /// The game's start position under the session's rules.
    pub fn start_position(&self) -> G {
        let mut start = G::startpos();
        start.apply_rules(&self.settings.rules);
        start
    }

    /// A remark: `info string` (UCI, USI) or a `#` comment (CECP).
    pub fn note(&self, text: &str) {
        match self.voice {
            Voice::InfoString => self.out.line(&format!("info string {text}")),
            Voice::Cecp => self.out.line(&format!("# {text}")),
        }
    }

    /// Something the user must see: `info string` (UCI, USI) or `telluser` (CECP).
    pub(super) fn warn(&self, text: &str) {
        match self.voice {
            Voice::InfoString => self.out.line(&format!("info string {text}")),
            Voice::Cecp => self.out.line(&format!("telluser {text}")),
        }
    }

    /// Loads the evaluator `EvalFile` asks for, if it changed and no job runs (otherwise it is
    /// retried at the next chance: `isready`, `go`, an option, a new search).
    pub fn sync_evaluator(&mut self) {
        self.sync_tablebases();
        self.sync_book();
        let wanted = self.settings.eval_file.clone();
        if wanted == self.loaded_eval_file {
            return;
        }
        let Some(result) = self
            .controller
            .with_idle_backend(|backend| backend.load_evaluator(&wanted))
        else {
            return;
        };
        match result {
            Ok(description) => self.note(&format!("Using {description}")),
            Err(error) => self.warn(&format!("EvalFile: {error}; evaluation unchanged")),
        }
        self.loaded_eval_file = wanted;
    }

    /// Passes the table size and thread count of the options to the controller.
    pub fn configure(&mut self) {
        self.controller
            .configure(self.settings.hash_mb, self.settings.threads);
    }

    /// Allocates a changed table size or thread count and clears tables now, when no job runs,
    /// so that the next search does not pay for them on its clock; tells what failed (the
    /// previous table stays).
    pub fn prepare_backend(&mut self) {
        for problem in self.controller.prepare() {
            self.warn(&problem);
        }
    }

    /// Parses and stores one option value from `table`'s view of the options; a cleared table
    /// and a new size or thread count go to the controller. The effect says whether the rules
    /// changed (each session sets its position up again in its own way).
    pub fn apply_option(
        &mut self,
        table: OptionTable,
        name: &str,
        value: Option<&str>,
    ) -> Result<OptionEffect, OptionError> {
        let log_before = self.settings.debug_log_file.clone();
        let effect = table.apply(&mut self.settings, name, value);
        if self.settings.debug_log_file != log_before {
            let path = self.settings.debug_log_file.clone();
            if let Err(error) = self.out.set_debug_log(&path) {
                self.warn(&format!(
                    "Debug Log File '{path}' cannot be written: {error}; log unchanged"
                ));
                self.settings.debug_log_file = log_before;
            }
        }
        if effect == Ok(OptionEffect::ClearHash) {
            self.controller.clear();
        }
        self.configure();
        effect
    }
}

/// Formats the legal prefix of a PV, each move in the position where it is played.
pub fn pv_text<G: Game>(
    root: &G,
    pv: &[G::Move],
    format: impl Fn(&G, G::Move) -> String,
) -> String {
    let mut pos = root.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &m in pv {
        if !pos.is_legal_move(m) {
            break;
        }
        words.push(format(&pos, m));
        pos.make_move(m);
    }
    words.join(" ")
}
