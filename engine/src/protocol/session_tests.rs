//! Dialogue tests of the UCI/USI and CECP sessions over tic-tac-toe and the scripted search:
//! exactly one answer per job whatever the command order, error forms, held answers. Moves are
//! cell numbers 1 to 9; positions are nine characters `x`, `o` or `.`.

use super::cecp::CecpDriver;
use super::go::Dialect;
use super::input::Event;
use super::output::Captured;
use super::testing::TicTacToe;
use super::uci_usi::UciUsiSession;
use super::{Flow, Protocol};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

struct Harness {
    session: Box<dyn Protocol>,
    events: Receiver<Event>,
    captured: Captured,
    seen: usize,
}

impl Harness {
    fn uci() -> Self {
        Self::uci_usi(Dialect::Uci)
    }

    fn usi() -> Self {
        Self::uci_usi(Dialect::Usi)
    }

    fn uci_usi(dialect: Dialect) -> Self {
        let (sender, events) = mpsc::channel();
        let captured = Captured::default();
        let session = UciUsiSession::<TicTacToe>::new(dialect, captured.output(), sender);
        Self {
            session: Box::new(session),
            events,
            captured,
            seen: 0,
        }
    }

    fn cecp() -> Self {
        let (sender, events) = mpsc::channel();
        let captured = Captured::default();
        let session = CecpDriver::<TicTacToe, TicTacToe>::new(captured.output(), sender);
        Self {
            session: Box::new(session),
            events,
            captured,
            seen: 0,
        }
    }

    fn send(&mut self, line: &str) -> Flow {
        self.session.handle_line(line)
    }

    /// Dispatches job notices for up to `ms` milliseconds.
    fn pump(&mut self, ms: u64) {
        let deadline = Instant::now() + Duration::from_millis(ms);
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.events.recv_timeout(left) {
                Ok(Event::JobDone(id)) => {
                    self.session.job_done(id);
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
    }

    /// Lines written since the last call.
    fn new_lines(&mut self) -> Vec<String> {
        let all = self.captured.lines();
        let fresh = all[self.seen.min(all.len())..].to_vec();
        self.seen = all.len();
        fresh
    }

    fn count(lines: &[String], prefix: &str) -> usize {
        lines.iter().filter(|l| l.starts_with(prefix)).count()
    }
}

#[test]
fn uci_handshake_lists_options_then_uciok() {
    let mut h = Harness::uci();
    h.send("uci");
    let lines = h.new_lines();
    assert!(lines[0].starts_with("id name Sente"));
    assert!(lines
        .iter()
        .any(|l| l == "option name Clear Hash type button"));
    assert_eq!(lines.last().unwrap(), "uciok");
    h.send("isready");
    assert_eq!(h.new_lines(), vec!["readyok"]);
}

#[test]
fn uci_go_answers_once_with_a_legal_move() {
    let mut h = Harness::uci();
    h.send("position startpos moves 1 2");
    h.send("go depth 1");
    h.pump(200);
    let lines = h.new_lines();
    assert_eq!(Harness::count(&lines, "bestmove"), 1, "{lines:?}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info depth 1 ") && l.contains(" pv 3")));
    assert_eq!(lines.last().unwrap(), "bestmove 3 ponder 4");
}

#[test]
fn uci_infinite_waits_for_stop_and_races_give_one_answer_each() {
    let mut h = Harness::uci();
    h.send("position startpos");
    h.send("go infinite");
    h.pump(50);
    assert_eq!(Harness::count(&h.new_lines(), "bestmove"), 0);
    h.send("isready");
    assert_eq!(h.new_lines(), vec!["readyok"], "readyok while searching");
    // stop + position + go back to back, then go again without stop, then stop.
    h.send("stop");
    h.send("position startpos moves 3");
    h.send("go infinite");
    h.send("go infinite");
    h.send("position startpos");
    h.send("stop");
    h.send("stop");
    h.pump(100);
    let lines = h.new_lines();
    assert_eq!(Harness::count(&lines, "bestmove"), 3, "{lines:?}");
}

#[test]
fn uci_ponderhit_turns_the_search_normal() {
    let mut h = Harness::uci();
    h.send("position startpos moves 1");
    h.send("go ponder wtime 1000 btime 1000");
    h.pump(50);
    assert_eq!(Harness::count(&h.new_lines(), "bestmove"), 0);
    h.send("ponderhit");
    h.pump(200);
    let lines = h.new_lines();
    assert_eq!(Harness::count(&lines, "bestmove"), 1, "{lines:?}");
    h.send("stop");
    assert_eq!(Harness::count(&h.new_lines(), "bestmove"), 0);
}

#[test]
fn uci_position_errors_keep_a_valid_state() {
    let mut h = Harness::uci();
    h.send("position fen x........ moves 5 5 9");
    let lines = h.new_lines();
    assert!(
        lines[0].starts_with("info string illegal move '5' at move 2"),
        "{lines:?}"
    );
    h.send("d");
    assert_eq!(h.new_lines(), vec!["info string x...o...."]);
    h.send("position fen banana moves 1");
    assert!(h.new_lines()[0].starts_with("info string Invalid position"));
    h.send("position");
    h.send("position moves 1");
    assert_eq!(h.new_lines().len(), 2);
    h.send("d");
    assert_eq!(
        h.new_lines(),
        vec!["info string x...o...."],
        "position unchanged"
    );
}

#[test]
fn uci_mated_root_answers_none_and_holds_in_infinite() {
    let mut h = Harness::uci();
    // X has the top row: O, to move, is mated.
    h.send("position fen xxxoo....");
    h.send("go depth 3");
    assert_eq!(
        h.new_lines(),
        vec!["info depth 0 score mate 0", "bestmove (none)"]
    );
    h.send("go infinite");
    assert!(h.new_lines().is_empty());
    h.send("stop");
    assert_eq!(h.new_lines().last().unwrap(), "bestmove (none)");
}

#[test]
fn uci_bad_input_gets_one_line_and_changes_nothing() {
    let mut h = Harness::uci();
    h.send("joho debug on");
    assert_eq!(h.new_lines(), vec!["Unknown command: 'joho debug on'"]);
    h.send("setoption name Hash value lots");
    assert!(h.new_lines()[0].starts_with("info string option 'Hash'"));
    h.send("setoption name NoSuchThing value 1");
    assert_eq!(
        h.new_lines(),
        vec!["info string No such option: NoSuchThing"]
    );
    h.send("setoption");
    assert_eq!(h.new_lines().len(), 1);
    h.send("go depth x nodes 10 searchmoves 10");
    h.pump(200);
    let lines = h.new_lines();
    assert_eq!(Harness::count(&lines, "bestmove"), 1, "{lines:?}");
    assert_eq!(Harness::count(&lines, "info string"), 2, "{lines:?}");
    h.send("register later");
    assert_eq!(
        h.new_lines(),
        vec!["registration checking", "registration ok"]
    );
    assert_eq!(h.send("quit"), Flow::Quit);
}

#[test]
fn uci_searchmoves_restrict_the_root() {
    let mut h = Harness::uci();
    h.send("position startpos");
    h.send("go depth 1 searchmoves 3");
    h.pump(200);
    assert_eq!(h.new_lines().last().unwrap(), "bestmove 3 ponder 1");
}

#[test]
fn cecp_features_moves_ping_and_results() {
    let mut h = Harness::cecp();
    h.send("xboard");
    h.send("protover 2");
    let lines = h.new_lines();
    assert_eq!(lines.first().unwrap(), "feature done=0");
    assert_eq!(lines.last().unwrap(), "feature done=1");
    assert!(lines[1].contains("ping=1") && lines[1].contains("setboard=1"));
    h.send("new");
    h.send("force");
    h.send("usermove 1");
    h.send("usermove 1");
    assert_eq!(h.new_lines(), vec!["Illegal move: 1"]);
    h.send("st 1");
    h.send("go");
    h.send("ping 7");
    h.pump(200);
    // Nothing wins at once: the engine plays the first free cell, then expects the next one.
    assert_eq!(h.new_lines(), vec!["move 2", "pong 7"]);
    h.send("ping 8");
    assert_eq!(h.new_lines(), vec!["pong 8"]);
    h.send("hint");
    assert_eq!(h.new_lines(), vec!["Hint: 3"]);
}

#[test]
fn cecp_claims_the_result_after_its_winning_move() {
    let mut h = Harness::cecp();
    h.send("new");
    h.send("force");
    h.send("setboard xx.oo....");
    h.send("sd 1");
    h.send("go");
    h.pump(200);
    assert_eq!(h.new_lines(), vec!["move 3", "1-0 {X mates}"]);
    h.send("setboard banana");
    assert!(h.new_lines()[0].starts_with("tellusererror Illegal position"));
    h.send("usermove 6");
    assert_eq!(h.new_lines(), vec!["Illegal move: 6"]);
}

#[test]
fn cecp_analyze_reports_and_exits_without_moving() {
    let mut h = Harness::cecp();
    h.send("new");
    h.send("force");
    h.send("post");
    h.send("analyze");
    h.pump(50);
    let lines = h.new_lines();
    assert_eq!(lines, vec!["1 0 0 1 1"]);
    h.send(".");
    assert!(h.new_lines()[0].starts_with("stat01: 0 1 1 "));
    h.send("usermove 1");
    h.send("undo");
    h.send("exclude 1");
    h.pump(50);
    h.send("exit");
    h.send("ping 3");
    let lines = h.new_lines();
    assert_eq!(Harness::count(&lines, "move"), 0, "{lines:?}");
    assert_eq!(lines.last().unwrap(), "pong 3");
}

#[test]
fn cecp_errors_use_the_protocol_forms() {
    let mut h = Harness::cecp();
    h.send("frobnicate");
    assert_eq!(h.new_lines(), vec!["Error (unknown command): frobnicate"]);
    h.send("level 40 x 0");
    assert!(h.new_lines()[0].starts_with("Error (bad parameters"));
    h.send("option Hash=lots");
    assert!(h.new_lines()[0].starts_with("# option ignored"));
    h.send("accepted ping");
    h.send("rating 2000 1800");
    h.send("computer");
    h.send("result 1-0 {White mates}");
    assert!(h.new_lines().is_empty());
    h.send("?");
    h.send("bk");
    assert_eq!(h.new_lines(), vec![" Sente has no opening book", ""]);
}

#[test]
fn eval_file_loads_lazily_and_reports_errors() {
    let mut h = Harness::uci();
    h.send("setoption name EvalFile value /nets/missing.nnue");
    assert!(
        h.new_lines().is_empty(),
        "loaded at isready, not at setoption"
    );
    h.send("isready");
    let lines = h.new_lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info string EvalFile: cannot read net file"));
    assert_eq!(lines[1], "readyok");
    h.send("isready");
    assert_eq!(h.new_lines(), vec!["readyok"], "no retry of the same value");
    h.send("setoption name EvalFile value good.nnue");
    h.send("isready");
    assert_eq!(
        h.new_lines(),
        vec!["info string Using scripted evaluation", "readyok"]
    );
}

/// Issue 20, items 2 and 3: the hash size is applied at `isready` (not at the next `go`), and
/// one the machine cannot give is reported in an `info string` / `telluser` while the engine
/// goes on with its previous table.
#[test]
fn hash_is_applied_at_isready_and_failures_are_reported() {
    let mut h = Harness::uci();
    h.send("setoption name Hash value 65536");
    assert!(h.new_lines().is_empty());
    h.send("isready");
    let lines = h.new_lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("info string Hash: cannot allocate a 65536 MB hash table; keeping"),
        "{lines:?}"
    );
    assert_eq!(lines[1], "readyok");
    h.send("position startpos");
    h.send("go depth 1");
    h.pump(200);
    let lines = h.new_lines();
    assert_eq!(Harness::count(&lines, "bestmove"), 1, "{lines:?}");
    assert!(
        lines.iter().all(|l| !l.contains("cannot allocate")),
        "{lines:?}"
    );

    let mut h = Harness::cecp();
    h.send("xboard");
    h.send("protover 2");
    h.new_lines();
    h.send("memory 1000000");
    let lines = h.new_lines();
    assert_eq!(
        lines,
        vec!["telluser Hash: cannot allocate a 65536 MB hash table; keeping 16 MB"]
    );
    h.send("ping 1");
    assert_eq!(h.new_lines(), vec!["pong 1"]);
}

/// USI `go mate` and `go perft` run as controller jobs: each answers once, whether it ends by
/// itself, is stopped, or is cut short by the next `go`.
#[test]
fn mate_and_perft_jobs_answer_once_and_stop_like_searches() {
    let mut h = Harness::usi();
    h.send("position startpos");
    h.send("go perft 1");
    h.pump(200);
    let mut expected: Vec<String> = (1..=9).map(|cell| format!("{cell}: 1")).collect();
    expected.extend(["".to_string(), "Nodes searched: 9".to_string()]);
    assert_eq!(h.new_lines(), expected);
    // Tic-tac-toe has no checks, so no mate by checks: the solver disproves at once.
    h.send("go mate 1000");
    h.pump(200);
    assert_eq!(h.new_lines(), vec!["checkmate nomate"]);
    h.send("position fen xxxoo....");
    h.send("go mate infinite");
    h.send("stop");
    h.pump(100);
    assert_eq!(h.new_lines(), vec!["checkmate nomate"], "no legal move");
    // `stop` ends an infinite search with one answer; a mate job started after it answers too.
    h.send("position startpos");
    h.send("go infinite");
    h.send("go mate infinite");
    h.pump(200);
    let lines = h.new_lines();
    assert_eq!(Harness::count(&lines, "bestmove"), 1, "{lines:?}");
    assert_eq!(Harness::count(&lines, "checkmate"), 1, "{lines:?}");
    h.send("stop");
    assert!(h.new_lines().is_empty(), "nothing left to answer");
}
