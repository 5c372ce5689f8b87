//! Progress of a generation run on stderr: a progress bar when stderr is a terminal, a plain
//! line every few seconds otherwise, and a summary at the end.

use crate::generate::GenerateSummary;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

pub struct Progress {
    bar: Option<ProgressBar>,
    last_line: Instant,
    target_games: Option<u64>,
    target_positions: Option<u64>,
}

fn wdl(total: &GenerateSummary) -> String {
    format!(
        "+{} ={} -{}",
        total.first_wins, total.draws, total.second_wins
    )
}

impl Progress {
    pub fn new(games: Option<u64>, positions: Option<u64>, done: GenerateSummary) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let (len, pos) = match (games, positions) {
                (Some(g), _) => (g, done.games),
                (None, Some(p)) => (p, done.positions),
                (None, None) => (0, 0),
            };
            let bar = ProgressBar::new(len);
            bar.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} ETA {eta}")
                    .expect("valid template"),
            );
            bar.set_position(pos);
            bar
        });
        Self {
            bar,
            last_line: Instant::now(),
            target_games: games,
            target_positions: positions,
        }
    }

    pub fn update(&mut self, total: &GenerateSummary, session: &GenerateSummary, seconds: f64) {
        let rate = session.positions as f64 / seconds.max(1e-9);
        let message = format!(
            "games {} positions {} ({:.0} pos/s) W/D/L {}",
            total.games,
            total.positions,
            rate,
            wdl(total)
        );
        if let Some(bar) = &self.bar {
            bar.set_position(if self.target_games.is_some() {
                total.games
            } else {
                total
                    .positions
                    .min(self.target_positions.unwrap_or(u64::MAX))
            });
            bar.set_message(message);
        } else if self.last_line.elapsed() >= Duration::from_secs(10) {
            sente::eprintln_best_effort!("datagen: {message}");
            self.last_line = Instant::now();
        }
    }

    pub fn finish(&mut self, total: &GenerateSummary, session: &GenerateSummary) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        let per_thread_nps = session.searched_nodes as f64 / session.search_seconds.max(1e-9);
        sente::eprintln_best_effort!(
            "datagen: done: {} games, {} positions (W/D/L {}), {} bytes ({:.2} bytes/position); this run: {} positions in {:.1} s = {:.0} positions/s, search {:.0} nodes/s per thread",
            total.games,
            total.positions,
            wdl(total),
            total.bytes,
            total.bytes as f64 / total.positions.max(1) as f64,
            session.positions,
            session.seconds,
            session.positions as f64 / session.seconds.max(1e-9),
            per_thread_nps
        );
        if total.tablebase_games > 0 {
            sente::eprintln_best_effort!(
                "datagen: {} games ended by tablebase adjudication",
                total.tablebase_games
            );
        }
        if session.tablebase_labels > 0 {
            sente::eprintln_best_effort!(
                "datagen: this run: {} positions labelled by the tables",
                session.tablebase_labels
            );
        }
    }
}
