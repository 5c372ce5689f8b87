//! The engine protocols (UCI, CECP, USI) over one engine controller.
//!
//! `run` reads the first command to pick the protocol (`uci`, `xboard`, `usi`), then hands every
//! line and every "job finished" notice to that protocol's session. The sessions
//! (`uci_usi`, `cecp`) parse and answer their protocol; what they share lives in
//! `session_core` (options, evaluator, the game on the board) over `controller` (one job thread:
//! search, mate solve or perft). The games' own notation and rules stay in `chess/` and
//! `shogi/`; `protocol_game` is what a game adds for the protocols.

pub mod backend;
pub mod book_setup;
pub mod cecp;
pub mod cecp_clock;
pub mod controller;
pub mod debug_log;
pub mod go;
pub mod input;
pub mod move_history;
pub mod options;
pub mod output;
pub mod protocol_game;
pub mod session_core;
pub mod tablebase_setup;
pub mod uci_usi;
pub mod usi;
pub mod usi_book;
pub mod usi_options;

#[cfg(test)]
mod testing;

#[cfg(test)]
mod session_tests;

pub use input::Event;
pub use output::Output;
pub use protocol_game::ProtocolGame;

/// Engine name as every protocol reports it.
pub const ENGINE_NAME: &str = concat!("Sente ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Sente developers";

use go::Dialect;
use std::sync::mpsc::{Receiver, Sender};
use uci_usi::UciUsiSession;

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// A protocol session driven by the loop.
pub trait Protocol {
    /// Handles one input line (never empty after trimming).
    fn handle_line(&mut self, line: &str) -> Flow;
    /// The controller's job with this id returned by itself.
    fn job_done(&mut self, id: u64) -> Flow;
    /// Input ended or `quit`: stop searching and answer what must be answered.
    fn shutdown(&mut self);
}

/// Runs the engine on stdin/stdout until `quit` or end of input. `C` plays chess (UCI, CECP),
/// `S` plays shogi (USI, CECP `variant shogi`).
pub fn run_stdio<C: ProtocolGame, S: ProtocolGame>() {
    ignore_termination_signals();
    let (sender, events) = input::spawn_reader(std::io::BufReader::new(std::io::stdin()));
    run::<C, S>(Output::stdout(), sender, events);
}

/// The protocol loop over any line source and sink (tests drive it in memory).
pub fn run<C: ProtocolGame, S: ProtocolGame>(
    out: Output,
    sender: Sender<Event>,
    events: Receiver<Event>,
) {
    let log_output = out.clone();
    let (mut session, first_line): (Box<dyn Protocol>, String) = loop {
        let Ok(event) = events.recv() else { return };
        let line = match event {
            Event::Line(line) => line,
            Event::Eof => return,
            Event::JobDone(_) => continue,
        };
        let tokens = input::tokens(&line);
        let Some(&command) = tokens.first() else {
            continue;
        };
        let session: Box<dyn Protocol> = match command {
            "uci" => Box::new(UciUsiSession::<C>::new(Dialect::Uci, out, sender)),
            "usi" => Box::new(UciUsiSession::<S>::new(Dialect::Usi, out, sender)),
            "xboard" => Box::new(cecp::CecpDriver::<C, S>::new(out, sender)),
            "quit" => return,
            _ => {
                out.line(&format!(
                    "Unknown command: '{}'. Start with uci, usi or xboard.",
                    line.trim()
                ));
                continue;
            }
        };
        break (session, line);
    };
    // The command that picked the protocol is also that protocol's first command.
    let out = log_output;
    out.log_input(&first_line);
    let mut flow = session.handle_line(&first_line);
    while flow == Flow::Continue {
        flow = match events.recv() {
            Ok(Event::Line(line)) if line.trim().is_empty() => Flow::Continue,
            Ok(Event::Line(line)) => {
                out.log_input(&line);
                session.handle_line(&line)
            }
            Ok(Event::JobDone(id)) => session.job_done(id),
            Ok(Event::Eof) | Err(_) => Flow::Quit,
        };
    }
    session.shutdown();
}

/// xboard sends SIGINT and SIGTERM to engines; both are caught and ignored (a flag nobody reads),
/// so only `quit` or end of input ends the engine.
fn ignore_termination_signals() {
    let ignored = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let _ = signal_hook::flag::register(signal, std::sync::Arc::clone(&ignored));
    }
}
