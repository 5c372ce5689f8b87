//! The engine controller: runs one job at a time on its own thread (a search on the backend,
//! the df-pn mate solver for USI `go mate`, or `go perft`), with `SearchControl` flags to stop it
//! or end pondering, so every job is stopped the same way. It guarantees that every started job
//! yields exactly one `Answer`, whatever order stop / ponderhit / completion arrive in. Table
//! size, thread count and clearing are applied by `prepare`, which the sessions call at
//! `isready` / `memory` / `new`, so that no search pays for them on its clock. No protocol syntax
//! lives here.

use super::backend::SearchBackend;
use super::input::Event;
use super::move_history::has_legal_move;
use crate::game::{Game, HistoryEntry};
use crate::mate::{MateAnswer, MateSolver};
use crate::search::{Limits, SearchControl, SearchEvent, SearchOptions, SearchResult};
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Progress callback of one search, run on the job thread.
pub type Reporter<M> = Box<dyn FnMut(SearchEvent<M>) + Send>;

/// Everything needed to start one search.
pub struct SearchRequest<G: Game> {
    pub root: G,
    pub history: Vec<HistoryEntry>,
    pub limits: Limits<G::Move>,
    pub options: SearchOptions,
    /// Start in ponder mode (`go ponder`): the answer waits for `ponderhit` or `stop`.
    pub ponder: bool,
    pub reporter: Reporter<G::Move>,
}

/// A job for the controller's thread.
pub enum Job<G: Game> {
    /// An alpha-beta search on the backend.
    Search(Box<SearchRequest<G>>),
    /// The mate solver (USI `go mate`) with a table of its own, for at most `time_limit`
    /// (`None`: until stopped or solved).
    Mate {
        root: G,
        time_limit: Option<Duration>,
        table_mb: usize,
    },
    /// `go perft`: the count of each root move, handed to `lines` as each completes, then the
    /// total.
    Perft {
        root: G,
        depth: u32,
        lines: Box<dyn FnMut(&str) + Send>,
    },
}

/// The answer of a search that ended.
#[derive(Clone, Debug)]
pub struct Finished<G: Game> {
    pub root: G,
    pub result: SearchResult<G::Move>,
}

/// What a job that ended answers.
#[derive(Clone, Debug)]
pub enum Answer<G: Game> {
    Search(Finished<G>),
    Mate {
        root: G,
        answer: MateAnswer<G::Move>,
        /// Said before the answer: the table was smaller than asked for.
        note: Option<String>,
    },
    /// `completed` is false when the count was stopped before it finished.
    Perft {
        completed: bool,
    },
}

struct Running<G: Game> {
    id: u64,
    control: Arc<SearchControl>,
    handle: JoinHandle<Answer<G>>,
    /// Infinite searches keep their answer until stopped.
    infinite: bool,
    pondering: bool,
    returned: bool,
}

/// Backend configuration wanted by the options; applied between searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BackendConfig {
    hash_mb: usize,
    threads: usize,
}

/// Runs the jobs of one game on a background thread.
pub struct Controller<G: Game, S: SearchBackend<G>> {
    backend: Arc<Mutex<S>>,
    events: Sender<Event>,
    running: Option<Running<G>>,
    next_id: u64,
    wanted: BackendConfig,
    applied: Option<BackendConfig>,
    clear_pending: bool,
}

/// The backend, also after a search thread panicked while holding it.
fn lock<S>(backend: &Mutex<S>) -> MutexGuard<'_, S> {
    match backend.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

impl<G: Game, S: SearchBackend<G>> Controller<G, S> {
    /// `events` receives `Event::JobDone(id)` whenever a job returns by itself.
    pub fn new(backend: S, events: Sender<Event>) -> Self {
        Self {
            backend: Arc::new(Mutex::new(backend)),
            events,
            running: None,
            next_id: 1,
            wanted: BackendConfig {
                hash_mb: 16,
                threads: 1,
            },
            applied: None,
            clear_pending: false,
        }
    }

    /// Table size and thread count for the next searches (applied by `prepare`, or at the
    /// next search's `start` if no `prepare` came between).
    pub fn configure(&mut self, hash_mb: usize, threads: usize) {
        self.wanted = BackendConfig { hash_mb, threads };
    }

    /// Forget the table and histories before the next search (done by `prepare`).
    pub fn clear(&mut self) {
        self.clear_pending = true;
    }

    /// Runs `f` on the backend when no job runs (`None` while one runs).
    pub fn with_idle_backend<R>(&mut self, f: impl FnOnce(&mut S) -> R) -> Option<R> {
        if self.running.is_some() {
            return None;
        }
        Some(f(&mut lock(&self.backend)))
    }

    /// Starts a job. A job still running is stopped first and its answer returned, so the
    /// caller can print it before the new job reports anything.
    pub fn start(&mut self, job: Job<G>) -> (u64, Option<Answer<G>>) {
        let previous = self.stop();
        let id = self.next_id;
        self.next_id += 1;
        let control = Arc::new(SearchControl::default());
        let (infinite, ponder) = match &job {
            Job::Search(request) => (request.limits.infinite, request.ponder),
            Job::Mate { .. } | Job::Perft { .. } => (false, false),
        };
        if let Job::Search(_) = job {
            // Normally already done at `isready`; a failure was reported there (or is
            // reported by the session's own `prepare` before it starts a search).
            let _ = self.apply_config();
        }
        control.pondering.store(ponder, Ordering::SeqCst);
        let thread_control = Arc::clone(&control);
        let backend = Arc::clone(&self.backend);
        let events = self.events.clone();
        // A time limit runs from the command, not from when the thread gets going.
        let started = Instant::now();
        let handle = std::thread::Builder::new()
            .name(format!("job-{id}"))
            .spawn(move || {
                let answer = run_job(job, &backend, &thread_control, started);
                let _ = events.send(Event::JobDone(id));
                answer
            })
            .expect("spawning the job thread");
        self.running = Some(Running {
            id,
            control,
            handle,
            infinite,
            pondering: ponder,
            returned: false,
        });
        (id, previous)
    }

    /// Stops the running job (if any) and returns its answer.
    pub fn stop(&mut self) -> Option<Answer<G>> {
        let running = self.running.as_ref()?;
        running.control.pondering.store(false, Ordering::SeqCst);
        running.control.stop.store(true, Ordering::SeqCst);
        self.join()
    }

    /// The job `id` returned by itself. Returns its answer unless the protocol must hold it
    /// (pondering or infinite search: the answer comes with `ponderhit` / `stop`).
    pub fn on_job_done(&mut self, id: u64) -> Option<Answer<G>> {
        let running = self.running.as_mut()?;
        if running.id != id {
            return None; // an old job that was already answered
        }
        running.returned = true;
        if running.pondering || running.infinite {
            return None;
        }
        self.join()
    }

    /// The opponent played the expected move: the search goes on under its normal limits.
    /// Returns the answer at once if the search already returned while pondering.
    pub fn ponderhit(&mut self) -> Option<Answer<G>> {
        let running = self.running.as_mut()?;
        if !running.pondering {
            return None;
        }
        running.pondering = false;
        running.control.pondering.store(false, Ordering::SeqCst);
        if running.returned && !running.infinite {
            return self.join();
        }
        None
    }

    fn join(&mut self) -> Option<Answer<G>> {
        self.running.take()?.handle.join().ok()
    }

    /// Applies a changed table size or thread count and a pending clear now, when no job runs
    /// (a running one leaves them to the next search's `start`). Returns what could not be
    /// done, one message each (e.g. a table size beyond the machine's memory; the previous
    /// table then stays). A size that failed is not tried again until it changes.
    pub fn prepare(&mut self) -> Vec<String> {
        if self.running.is_some() {
            return Vec::new();
        }
        self.apply_config()
    }

    fn apply_config(&mut self) -> Vec<String> {
        let mut problems = Vec::new();
        let mut backend = lock(&self.backend);
        if self.applied != Some(self.wanted) {
            let previous = self.applied;
            if previous.map(|p| p.hash_mb) != Some(self.wanted.hash_mb) {
                if let Err(error) = backend.set_hash_mb(self.wanted.hash_mb) {
                    problems.push(format!("Hash: {error}"));
                }
            }
            if previous.map(|p| p.threads) != Some(self.wanted.threads) {
                if let Err(error) = backend.set_threads(self.wanted.threads) {
                    problems.push(format!("Threads: {error}"));
                }
            }
            self.applied = Some(self.wanted);
        }
        if self.clear_pending {
            backend.clear();
            self.clear_pending = false;
        }
        problems
    }
}

/// The body of the job thread.
fn run_job<G: Game, S: SearchBackend<G>>(
    job: Job<G>,
    backend: &Mutex<S>,
    control: &SearchControl,
    started: Instant,
) -> Answer<G> {
    match job {
        Job::Search(request) => {
            let SearchRequest {
                root,
                history,
                limits,
                options,
                mut reporter,
                ..
            } = *request;
            let result =
                lock(backend).search(&root, &history, &limits, &options, control, &mut *reporter);
            Answer::Search(Finished { root, result })
        }
        Job::Mate {
            root,
            time_limit,
            table_mb,
        } => {
            let mut note = None;
            let answer = if has_legal_move(&root) {
                let deadline = time_limit.map(|limit| started + limit);
                let (mut solver, table_note) = MateSolver::<G>::with_fallback(table_mb);
                note = table_note;
                solver.solve(&root, deadline, None, &control.stop)
            } else {
                MateAnswer::NoMate
            };
            Answer::Mate { root, answer, note }
        }
        Job::Perft {
            root,
            depth,
            mut lines,
        } => {
            let counted =
                crate::perft::perft_divide_until(&root, depth, &control.stop, &mut |line| {
                    lines(line);
                    Ok(())
                });
            Answer::Perft {
                completed: matches!(counted, Ok(Some(_))),
            }
        }
    }
}

impl<G: Game, S: SearchBackend<G>> Drop for Controller<G, S> {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::testing::{Cell, ScriptedSearch, TicTacToe};
    use std::sync::mpsc;

    /// Logs what the controller asks of it, in order, from whichever thread asks.
    struct Logged {
        inner: ScriptedSearch,
        log: Arc<Mutex<Vec<String>>>,
    }

    impl SearchBackend<TicTacToe> for Logged {
        fn fresh() -> Self {
            Logged {
                inner: ScriptedSearch::fresh(),
                log: Arc::default(),
            }
        }
        fn search(
            &mut self,
            root: &TicTacToe,
            history: &[HistoryEntry],
            limits: &Limits<Cell>,
            options: &SearchOptions,
            control: &SearchControl,
            report: &mut dyn FnMut(SearchEvent<Cell>),
        ) -> SearchResult<Cell> {
            self.log.lock().unwrap().push("search".to_string());
            self.inner
                .search(root, history, limits, options, control, report)
        }
        fn set_hash_mb(&mut self, mb: usize) -> Result<(), String> {
            self.log.lock().unwrap().push(format!("hash {mb}"));
            self.inner.set_hash_mb(mb)
        }
        fn set_threads(&mut self, threads: usize) -> Result<(), String> {
            self.log.lock().unwrap().push(format!("threads {threads}"));
            Ok(())
        }
        fn clear(&mut self) {
            self.log.lock().unwrap().push("clear".to_string());
        }
        fn load_evaluator(&mut self, eval_file: &str) -> Result<String, String> {
            self.log.lock().unwrap().push(format!("eval {eval_file}"));
            self.inner.load_evaluator(eval_file)
        }
    }

    fn search(infinite: bool) -> Job<TicTacToe> {
        Job::Search(Box::new(SearchRequest {
            root: TicTacToe::startpos(),
            history: Vec::new(),
            limits: Limits {
                depth: Some(1),
                infinite,
                ..Limits::default()
            },
            options: SearchOptions::default(),
            ponder: false,
            reporter: Box::new(|_| {}),
        }))
    }

    /// A controller over a logging scripted backend, and its event channel.
    struct Fixture {
        controller: Controller<TicTacToe, Logged>,
        events: mpsc::Receiver<Event>,
        log: Arc<Mutex<Vec<String>>>,
    }

    impl Fixture {
        fn new() -> Self {
            let (sender, events) = mpsc::channel();
            let backend = Logged::fresh();
            let log = Arc::clone(&backend.log);
            Self {
                controller: Controller::new(backend, sender),
                events,
                log,
            }
        }

        /// Starts `job` and returns its answer once it reports that it is done.
        fn run(&mut self, job: Job<TicTacToe>) -> Answer<TicTacToe> {
            let (id, previous) = self.controller.start(job);
            assert!(previous.is_none());
            assert_eq!(
                self.events.recv_timeout(Duration::from_secs(10)),
                Ok(Event::JobDone(id))
            );
            self.controller
                .on_job_done(id)
                .expect("a finished job answers")
        }

        fn log(&self) -> Vec<String> {
            self.log.lock().unwrap().clone()
        }
    }

    /// Issue 20, item 2: a new hash size and a clear are done by `prepare` (at `isready`), so
    /// the search that follows starts without resizing or clearing anything on its clock.
    #[test]
    fn prepare_allocates_and_clears_before_the_search_starts() {
        let mut f = Fixture::new();
        f.controller.configure(1024, 2);
        f.controller.clear();
        assert!(f.controller.prepare().is_empty());
        assert_eq!(f.log(), ["hash 1024", "threads 2", "clear"]);
        // Nothing left to do: a second prepare and the search itself touch no table.
        assert!(f.controller.prepare().is_empty());
        assert!(matches!(f.run(search(false)), Answer::Search(_)));
        assert_eq!(f.log(), ["hash 1024", "threads 2", "clear", "search"]);
    }

    /// Issue 20, item 3: a size the machine cannot give is reported, not retried at every
    /// search, and searching goes on.
    #[test]
    fn a_failed_size_is_reported_once_and_searches_go_on() {
        let mut f = Fixture::new();
        f.controller.configure(65536, 1);
        let problems = f.controller.prepare();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("Hash: cannot allocate a 65536 MB"));
        assert!(f.controller.prepare().is_empty());
        assert!(matches!(f.run(search(false)), Answer::Search(_)));
        assert_eq!(f.log(), ["hash 65536", "threads 1", "search"]);
    }

    /// Mate solves and perft counts are jobs like searches: started, answered and stopped
    /// through the same calls, one at a time, and they leave the backend alone.
    #[test]
    fn mate_and_perft_are_jobs_like_searches() {
        let mut f = Fixture::new();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        let perft = Job::Perft {
            root: TicTacToe::startpos(),
            depth: 2,
            lines: Box::new(move |line: &str| sink.lock().unwrap().push(line.to_string())),
        };
        assert!(matches!(f.run(perft), Answer::Perft { completed: true }));
        let lines = lines.lock().unwrap().clone();
        assert_eq!(lines.len(), 11, "{lines:?}");
        assert_eq!(lines[0], "1: 8");
        assert_eq!(lines[10], "Nodes searched: 72");
        let mate = Job::Mate {
            root: TicTacToe::startpos(),
            time_limit: None,
            table_mb: 1,
        };
        match f.run(mate) {
            Answer::Mate { root, answer, .. } => {
                assert_eq!(root, TicTacToe::startpos());
                // No checks in tic-tac-toe: no mate by checks.
                assert_eq!(answer, MateAnswer::NoMate);
            }
            _ => panic!("a mate job answers with a mate answer"),
        }
        assert!(f.log().is_empty(), "{:?}", f.log());
        // A new job stops the running one first and hands its answer back.
        let (_, previous) = f.controller.start(search(true));
        assert!(previous.is_none());
        let mate = Job::Mate {
            root: TicTacToe::startpos(),
            time_limit: Some(Duration::from_secs(60)),
            table_mb: 1,
        };
        let (_, previous) = f.controller.start(mate);
        assert!(matches!(previous, Some(Answer::Search(_))));
        assert!(matches!(f.controller.stop(), Some(Answer::Mate { .. })));
        assert!(f.controller.stop().is_none());
    }
}
