//! USI specifics on top of the shared UCI/USI session: mate scores in plies, `go mate`
//! answers, `gameover`.

use super::go::MateRequest;
use super::input::Event;
use super::record::has_legal_move;
use super::uci::pv_text;
use crate::game::Game;
use crate::mate::{MateAnswer, MateSolver};
use crate::search::Score;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// `cp X` / `mate N` with N in plies, never `mate -0`.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::MatePlies(0) => "cp 0".to_string(),
        Score::MatePlies(plies) => format!("mate {plies}"),
    }
}

/// A running `go mate` (tsume) search: the df-pn solver on its own thread.
pub struct MateJob<G: Game> {
    pub id: u64,
    root: G,
    stop: Arc<AtomicBool>,
    handle: JoinHandle<MateAnswer<G::Move>>,
}

impl<G: Game> MateJob<G> {
    /// Starts solving `root`; `Event::MateDone(id)` is sent when the solver returns.
    pub fn start(
        root: G,
        request: MateRequest,
        table_mb: usize,
        id: u64,
        events: Sender<Event>,
    ) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let deadline = match request {
            MateRequest::TimeMs(ms) => Some(Instant::now() + Duration::from_millis(ms)),
            MateRequest::Moves(_) | MateRequest::Infinite => None,
        };
        let thread_stop = Arc::clone(&stop);
        let thread_root = root.clone();
        let handle = std::thread::spawn(move || {
            let answer = if has_legal_move(&thread_root) {
                let mut solver = MateSolver::<G>::new(table_mb);
                solver.solve(&thread_root, deadline, None, &thread_stop)
            } else {
                MateAnswer::NoMate
            };
            let _ = events.send(Event::MateDone(id));
            answer
        });
        Self {
            id,
            root,
            stop,
            handle,
        }
    }

    /// Stops the solver if it still runs and returns the `checkmate ...` answer.
    pub fn finish(self) -> String {
        self.stop.store(true, Ordering::SeqCst);
        let answer = self.handle.join().unwrap_or(MateAnswer::Unknown);
        checkmate_line(&self.root, &answer)
    }
}

/// `checkmate <moves>`, `checkmate nomate` or `checkmate timeout`.
pub fn checkmate_line<G: Game>(root: &G, answer: &MateAnswer<G::Move>) -> String {
    match answer {
        MateAnswer::Mate(line) => {
            let text = pv_text(root, line, |pos, m| pos.format_move(m));
            if text.is_empty() {
                "checkmate timeout".to_string()
            } else {
                format!("checkmate {text}")
            }
        }
        MateAnswer::NoMate => "checkmate nomate".to_string(),
        MateAnswer::Unknown => "checkmate timeout".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_are_plies_and_never_minus_zero() {
        assert_eq!(score_text(Score::MatePlies(5)), "mate 5");
        assert_eq!(score_text(Score::MatePlies(-4)), "mate -4");
        assert_eq!(score_text(Score::MatePlies(0)), "cp 0");
        assert_eq!(score_text(Score::Cp(-31)), "cp -31");
    }
}
