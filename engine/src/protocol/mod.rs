//! The engine protocols (UCI, CECP, USI) over one engine controller.
//!
//! `run` reads the first command to pick the protocol (`uci`, `xboard`, `usi`), then hands every
//! line and every "search finished" notice to that protocol's session. Sessions are thin
//! adapters: the position record lives in `record`, search threads in `controller`, options in
//! `options`; no search logic lives here.

pub mod backend;
pub mod cecp;
pub mod cecp_clock;
pub mod controller;
pub mod games;
pub mod go;
pub mod input;
pub mod options;
pub mod output;
pub mod perft_job;
pub mod record;
pub mod uci;
pub mod usi;

#[cfg(test)]
mod testing;

#[cfg(test)]
mod session_tests;

pub use games::ProtocolGame;
pub use input::Event;
pub use output::Output;

use std::sync::mpsc::{Receiver, Sender};

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
    /// The search with this id returned by itself.
    fn search_done(&mut self, id: u64) -> Flow;
    /// The mate solver with this id returned by itself.
    fn mate_done(&mut self, id: u64) -> Flow {
        let _ = id;
        Flow::Continue
    }
    /// The `go perft` job with this id ended by itself.
    fn perft_done(&mut self, id: u64) -> Flow {
        let _ = id;
        Flow::Continue
    }
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
    let (mut session, first_line): (Box<dyn Protocol>, String) = loop {
        let Ok(event) = events.recv() else { return };
        let line = match event {
            Event::Line(line) => line,
            Event::Eof => return,
            Event::SearchDone(_) | Event::MateDone(_) | Event::PerftDone(_) => continue,
        };
        let tokens = input::tokens(&line);
        let Some(&command) = tokens.first() else {
            continue;
        };
        let session: Box<dyn Protocol> = match command {
            "uci" => Box::new(uci::UciSession::<C>::new(uci::Dialect::Uci, out, sender)),
            "usi" => Box::new(uci::UciSession::<S>::new(uci::Dialect::Usi, out, sender)),
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
    let mut flow = session.handle_line(&first_line);
    while flow == Flow::Continue {
        flow = match events.recv() {
            Ok(Event::Line(line)) if line.trim().is_empty() => Flow::Continue,
            Ok(Event::Line(line)) => session.handle_line(&line),
            Ok(Event::SearchDone(id)) => session.search_done(id),
            Ok(Event::MateDone(id)) => session.mate_done(id),
            Ok(Event::PerftDone(id)) => session.perft_done(id),
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
