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

    /// Sends `line` and returns what was written in answer (before any job finishes).
    fn say(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.new_lines()
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
    let lines = h.say("uci");
    assert!(lines[0].starts_with("id name Sente"));
    assert!(lines
        .iter()
        .any(|l| l == "option name Clear Hash type button"));
    assert_eq!(lines.last().unwrap(), "uciok");
    assert_eq!(h.say("isready"), vec!["readyok"]);
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
    assert_eq!(h.say("isready"), vec!["readyok"], "readyok while searching");
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
    let lines = h.say("position fen x........ moves 5 5 9");
    assert!(
        lines[0].starts_with("info string illegal move '5' at move 2"),
        "{lines:?}"
    );
    assert_eq!(h.say("d"), vec!["info string x...o...."]);
    assert!(h.say("position fen banana moves 1")[0].starts_with("info string Invalid position"));
    h.send("position");
    assert_eq!(h.say("position moves 1").len(), 2);
    assert_eq!(
        h.say("d"),
        vec!["info string x...o...."],
        "position unchanged"
    );
}

#[test]
fn uci_mated_root_answers_none_and_holds_in_infinite() {
    let mut h = Harness::uci();
    // X has the top row: O, to move, is mated.
    h.send("position fen xxxoo....");
    assert_eq!(
        h.say("go depth 3"),
        vec!["info depth 0 score mate 0", "bestmove (none)"]
    );
    assert!(h.say("go infinite").is_empty());
    assert_eq!(h.say("stop").last().unwrap(), "bestmove (none)");
}

#[test]
fn uci_bad_input_gets_one_line_and_changes_nothing() {
    let mut h = Harness::uci();
    assert_eq!(
        h.say("joho debug on"),
        vec!["Unknown command: 'joho debug on'"]
    );
    assert!(h.say("setoption name Hash value lots")[0].starts_with("info string option 'Hash'"));
    assert_eq!(
        h.say("setoption name NoSuchThing value 1"),
        vec!["info string No such option: NoSuchThing"]
    );
    assert_eq!(h.say("setoption").len(), 1);
    h.send("go depth x nodes 10 searchmoves 10");
    h.pump(200);
    let lines = h.new_lines();
    assert_eq!(Harness::count(&lines, "bestmove"), 1, "{lines:?}");
    assert_eq!(Harness::count(&lines, "info string"), 2, "{lines:?}");
    assert_eq!(
        h.say("register later"),
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
    let lines = h.say("protover 2");
    assert_eq!(lines.first().unwrap(), "feature done=0");
    assert_eq!(lines.last().unwrap(), "feature done=1");
    assert!(lines[1].contains("ping=1") && lines[1].contains("setboard=1"));
    h.send("new");
    h.send("force");
    h.send("usermove 1");
    assert_eq!(h.say("usermove 1"), vec!["Illegal move: 1"]);
    h.send("st 1");
    h.send("go");
    h.send("ping 7");
    h.pump(200);
    // Nothing wins at once: the engine plays the first free cell, then expects the next one.
    assert_eq!(h.new_lines(), vec!["move 2", "pong 7"]);
    assert_eq!(h.say("ping 8"), vec!["pong 8"]);
    assert_eq!(h.say("hint"), vec!["Hint: 3"]);
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
    assert!(h.say("setboard banana")[0].starts_with("tellusererror Illegal position"));
    assert_eq!(h.say("usermove 6"), vec!["Illegal move: 6"]);
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
    assert!(h.say(".")[0].starts_with("stat01: 0 1 1 "));
    h.send("usermove 1");
    h.send("undo");
    h.send("exclude 1");
    h.pump(50);
    h.send("exit");
    let lines = h.say("ping 3");
    assert_eq!(Harness::count(&lines, "move"), 0, "{lines:?}");
    assert_eq!(lines.last().unwrap(), "pong 3");
}

#[test]
fn cecp_errors_use_the_protocol_forms() {
    let mut h = Harness::cecp();
    assert_eq!(
        h.say("frobnicate"),
        vec!["Error (unknown command): frobnicate"]
    );
    assert!(h.say("level 40 x 0")[0].starts_with("Error (bad parameters"));
    assert!(h.say("option Hash=lots")[0].starts_with("# option ignored"));
    h.send("accepted ping");
    h.send("rating 2000 1800");
    h.send("computer");
    assert!(h.say("result 1-0 {White mates}").is_empty());
    h.send("?");
    assert_eq!(
        h.say("bk"),
        vec![" Sente has no opening book (set OwnBook and BookFile)", ""]
    );
}

#[test]
fn eval_file_loads_lazily_and_reports_errors() {
    let mut h = Harness::uci();
    h.send("setoption name EvalFile value /nets/missing.nnue");
    assert!(
        h.new_lines().is_empty(),
        "loaded at isready, not at setoption"
    );
    let lines = h.say("isready");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info string EvalFile: cannot read net file"));
    assert_eq!(lines[1], "readyok");
    assert_eq!(
        h.say("isready"),
        vec!["readyok"],
        "no retry of the same value"
    );
    h.send("setoption name EvalFile value good.nnue");
    assert_eq!(
        h.say("isready"),
        vec!["info string Using scripted evaluation", "readyok"]
    );
}

/// Issue 20, items 2 and 3: the hash size is applied at `isready` (not at the next `go`), and
/// one the machine cannot give is reported in an `info string` / `telluser` while the engine
/// goes on with its previous table.
#[test]
fn hash_is_applied_at_isready_and_failures_are_reported() {
    let mut h = Harness::uci();
    assert!(h.say("setoption name Hash value 65536").is_empty());
    let lines = h.say("isready");
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
    let lines = h.say("memory 1000000");
    assert_eq!(
        lines,
        vec!["telluser Hash: cannot allocate a 65536 MB hash table; keeping 16 MB"]
    );
    assert_eq!(h.say("ping 1"), vec!["pong 1"]);
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
    assert!(h.say("stop").is_empty(), "nothing left to answer");
}
