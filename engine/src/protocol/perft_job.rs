//! `go perft N` as a job on its own thread, so that the protocol loop keeps answering `isready`,
//! `stop` and `quit` while it counts. The job prints its own `<move>: <count>` lines as root moves
//! complete; a stopped job ends with an `info string` instead of the total.

use super::input::Event;
use super::output::Output;
use crate::game::Game;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;

/// A running perft.
pub struct PerftJob {
    pub id: u64,
    stop: Arc<AtomicBool>,
    handle: JoinHandle<bool>,
    out: Output,
}

impl PerftJob {
    /// Starts counting `root` to `depth`; `Event::PerftDone(id)` is sent when it ends.
    pub fn start<G: Game>(
        root: G,
        depth: u32,
        out: Output,
        id: u64,
        events: Sender<Event>,
    ) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let thread_out = out.clone();
        let handle = std::thread::spawn(move || {
            let finished = crate::perft::perft_divide_until(&root, depth, &thread_stop, &mut |l| {
                thread_out.line(l);
                Ok(())
            });
            let _ = events.send(Event::PerftDone(id));
            matches!(finished, Ok(Some(_)))
        });
        Self {
            id,
            stop,
            handle,
            out,
        }
    }

    /// Stops the count if it still runs and waits for the thread.
    pub fn finish(self) {
        self.stop.store(true, Ordering::SeqCst);
        if !self.handle.join().unwrap_or(false) {
            self.out
                .line("info string perft stopped before it finished");
        }
    }
}
