//! CECP (xboard) dialogues with the `sente` binary: features, force/go/playother, ping ordering,
//! analyze mode, edit mode, results by rule, `variant shogi`, ignored signals, and replays of the
//! real xboard / polyglot / python-chess traffic in `testdata/xboard-transcripts.txt`.

mod protocol_support;

use protocol_support::{position_after, Engine, SEARCH};
use sente::chess::EditBoard;
use sente::chess::Position;
use sente::game::{Game, Side};
use sente::protocol::move_history::{has_legal_move, legal_moves, MoveHistory};
use std::time::{Duration, Instant};

fn cecp_engine() -> Engine {
    let mut engine = Engine::start();
    engine.send("xboard");
    engine.send("protover 2");
    engine.expect_prefix("feature done=1", SEARCH);
    engine
}

fn ping(engine: &mut Engine, n: u32) -> Vec<String> {
    engine.send(&format!("ping {n}"));
    let want = format!("pong {n}");
    let mut lines = engine.read_until(SEARCH, move |l| l == want);
    lines.pop();
    lines
}

fn engine_move(engine: &mut Engine) -> (String, Vec<String>) {
    let lines = engine.expect_prefix("move ", SEARCH);
    let text = lines.last().unwrap()[5..].trim().to_string();
    (text, lines)
}

#[test]
fn features_are_declared_between_done_0_and_done_1() {
    let mut engine = Engine::start();
    engine.send("xboard");
    engine.send("protover 2");
    let lines = engine.expect_prefix("feature done=1", SEARCH);
    assert_eq!(lines[0], "feature done=0");
    let all = lines.join(" ");
    for feature in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "time=1",
        "draw=1",
        "sigint=0",
        "sigterm=0",
        "reuse=1",
        "analyze=1",
        "colors=0",
        "name=1",
        "memory=1",
        "smp=1",
        "playother=1",
        "nps=1",
        "debug=1",
        "pause=1",
        "san=0",
        "variants=\"normal,fischerandom,shogi\"",
        "myname=\"Sente",
        "feature option=\"MultiPV -spin 1 1 500\"",
    ] {
        assert!(all.contains(feature), "{feature} missing: {lines:?}");
    }
    engine.send("accepted ping");
    engine.send("rejected sigterm");
    assert!(ping(&mut engine, 1).is_empty());
    engine.finish(true, SEARCH);
}

#[test]
fn plays_moves_in_every_notation_and_answers_ping_after_its_move() {
    let mut engine = cecp_engine();
    engine.send("new");
    engine.send("force");
    engine.send("usermove e2e4");
    engine.send("e7e5");
    engine.send("Nf3");
    engine.send("usermove b8c6");
    engine.send("Bb5");
    engine.send("g8f6");
    engine.send("O-O");
    assert!(ping(&mut engine, 5).is_empty(), "all moves accepted");
    engine.send("st 0.2");
    engine.send("go");
    engine.send("ping 6");
    let lines = engine.read_until(SEARCH, |l| l == "pong 6");
    let move_at = lines
        .iter()
        .position(|l| l.starts_with("move "))
        .expect("a move");
    assert_eq!(move_at, lines.len() - 2, "pong after the move: {lines:?}");
    let mut pos = Position::startpos();
    for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "g8f6", "e1g1"] {
        pos.make_move(pos.parse_move(m).unwrap());
    }
    let text = &lines[move_at][5..];
    assert!(pos.parse_move_cecp(text).is_ok(), "{text}");
    engine.send("usermove e9e5");
    engine.send("usermove e2e5");
    let lines = ping(&mut engine, 7);
    assert_eq!(lines, vec!["Illegal move: e9e5", "Illegal move: e2e5"]);
    engine.finish(true, SEARCH);
}

#[test]
fn claims_mate_and_reacts_to_a_mating_user_move() {
    let mut engine = cecp_engine();
    engine.send("new");
    engine.send("force");
    engine.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("sd 4");
    engine.send("go");
    let (text, _) = engine_move(&mut engine);
    assert_eq!(text, "a1a8");
    let lines = ping(&mut engine, 1);
    assert!(
        lines.contains(&"1-0 {White mates}".to_string()),
        "{lines:?}"
    );
    engine.send("new");
    engine.send("f2f3");
    engine.send("e7e5");
    engine.send("force");
    engine.send("g2g4");
    engine.send("d8h4");
    let lines = ping(&mut engine, 2);
    assert!(
        lines.contains(&"0-1 {Black mates}".to_string()),
        "{lines:?}"
    );
}

#[test]
fn analyze_mode_reports_and_never_moves() {
    let mut engine = cecp_engine();
    engine.send("new");
    engine.send("force");
    engine.send("post");
    engine.send("analyze");
    engine.read_until(SEARCH, |l| {
        l.split_whitespace().count() >= 5 && l.starts_with(|c: char| c.is_ascii_digit())
    });
    engine.send(".");
    let lines = engine.expect_prefix("stat01:", SEARCH);
    assert!(lines.last().unwrap().split_whitespace().count() >= 6);
    engine.send("usermove e2e4");
    engine.send("undo");
    engine.send("new");
    engine.send("setboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    engine.send("exclude e1d1");
    engine.send("include all");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("exit");
    let lines = ping(&mut engine, 9);
    assert!(lines.iter().all(|l| !l.starts_with("move ")), "{lines:?}");
    assert!(lines.iter().all(|l| !l.starts_with("Error")), "{lines:?}");
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        engine.drain(Duration::from_millis(200)).is_empty(),
        "analysis stopped"
    );
    engine.finish(true, SEARCH);
}

#[test]
fn move_now_playother_hint_and_clocks() {
    let mut engine = cecp_engine();
    engine.send("new");
    engine.send("level 40 0:30 0");
    engine.send("time 3000");
    engine.send("otim 3000");
    engine.send("usermove d2d4");
    let (reply, _) = engine_move(&mut engine);
    assert!(position_after::<Position>(&["d2d4"])
        .parse_move_cecp(&reply)
        .is_ok());
    engine.send("force");
    engine.send("st 30");
    engine.send("go");
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    engine.send("?");
    engine_move(&mut engine);
    assert!(started.elapsed() < Duration::from_secs(5));
    engine.send("st 0.1");
    engine.send("playother");
    engine.send("hard");
    assert!(ping(&mut engine, 3).iter().all(|l| !l.starts_with("move")));
    engine.send("hint");
    engine.send("bk");
    let lines = ping(&mut engine, 4);
    assert!(
        lines.iter().any(|l| l.is_empty()),
        "bk ends with an empty line: {lines:?}"
    );
    engine.send("easy");
    engine.send("level 0 1 0.5");
    engine.send("st 0.5");
    engine.send("sd 3");
    engine.send("nps 1000");
    engine.send("memory 32");
    engine.send("cores 1");
    engine.send("option MoveOverhead=20");
    engine.send("option Move Overhead=30");
    engine.send("option ClearHash");
    assert!(ping(&mut engine, 5).is_empty());
    // A table directory that does not exist is refused with one telluser line.
    engine.send("egtpath syzygy /nowhere");
    let lines = ping(&mut engine, 6);
    assert!(
        lines.len() == 1 && lines[0].starts_with("telluser SyzygyPath '/nowhere'"),
        "{lines:?}"
    );
    engine.finish(true, SEARCH);
}

#[test]
fn bad_input_gets_error_forms_and_keeps_the_game() {
    let mut engine = cecp_engine();
    engine.send("new");
    engine.send("force");
    engine.send("frobnicate");
    engine.send("level 40");
    engine.send("st soon");
    engine.send("time -");
    engine.send("setboard not a fen");
    let lines = ping(&mut engine, 1);
    assert_eq!(lines[0], "Error (unknown command): frobnicate");
    assert!(lines[1].starts_with("Error (bad parameters"));
    assert!(lines[2].starts_with("Error (bad parameters"));
    assert!(lines[3].starts_with("Error (bad parameters"));
    assert!(lines[4].starts_with("tellusererror Illegal position"));
    engine.send("e2e4");
    assert_eq!(ping(&mut engine, 2), vec!["Illegal move: e2e4"]);
    engine.send("setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    engine.send("e7e5");
    assert!(ping(&mut engine, 3).is_empty());
    engine.finish(true, SEARCH);
}

#[test]
fn protocol_one_edit_mode_and_colour_commands() {
    let mut engine = cecp_engine();
    engine.send("new");
    engine.send("force");
    engine.send("edit");
    for line in ["#", "Ke1", "Pe2", "c", "Ke8", "."] {
        engine.send(line);
    }
    engine.send("black");
    engine.send("st 0.1");
    engine.send("go");
    let (reply, _) = engine_move(&mut engine);
    let pos = Position::from_text("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
    assert!(pos.parse_move_cecp(&reply).is_ok(), "{reply}");
    assert!(ping(&mut engine, 1).iter().all(|l| !l.starts_with("Error")));
    engine.finish(true, SEARCH);
}

#[test]
fn shogi_variant_uses_xboard_shogi_notation() {
    let mut engine = cecp_engine();
    engine.send("new");
    engine.send("variant shogi");
    engine.send("force");
    engine.send("usermove c3c4");
    engine.send("st 0.2");
    engine.send("go");
    let (reply, _) = engine_move(&mut engine);
    let mut pos = sente::shogi::Position::startpos();
    pos.make_move(pos.parse_move("7g7f").unwrap());
    assert!(pos.parse_move_cecp(&reply).is_ok(), "{reply}");
    assert!(ping(&mut engine, 1).iter().all(|l| !l.starts_with("Error")));
    engine.send("new");
    engine.send("force");
    engine.send("e2e4");
    assert!(ping(&mut engine, 2).is_empty(), "back to chess after new");
    engine.finish(true, SEARCH);
}

#[test]
fn sigint_and_sigterm_are_ignored() {
    let mut engine = cecp_engine();
    let pid = engine.pid();
    for signal in ["-INT", "-TERM"] {
        let status = std::process::Command::new("kill")
            .args([signal, &pid.to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        std::thread::sleep(Duration::from_millis(100));
        assert!(engine.is_alive(), "died on {signal}");
    }
    assert!(ping(&mut engine, 1).is_empty());
    engine.finish(true, SEARCH);
}

// ---------------------------------------------------------------------------------------------
// Transcript replay

/// What the test knows of the engine's game, to keep replayed moves legal and to know when the
/// engine must answer with a move.
struct Mirror {
    record: MoveHistory<Position>,
    engine_side: Option<Side>,
    analyzing: bool,
    game_over: bool,
    edit: Option<(EditBoard, bool)>,
}

impl Mirror {
    fn new() -> Self {
        Self {
            record: MoveHistory::new(Position::startpos()),
            engine_side: Some(Side::Second),
            analyzing: false,
            game_over: false,
            edit: None,
        }
    }

    fn reset(&mut self, pos: Position) {
        self.record = MoveHistory::new(pos);
        self.game_over = false;
    }

    fn current(&self) -> &Position {
        self.record.current()
    }

    fn engine_to_move(&self) -> bool {
        !self.analyzing
            && !self.game_over
            && self.engine_side == Some(self.current().side_to_move())
            && has_legal_move(self.current())
    }

    fn play(&mut self, text: &str) {
        let m = self
            .current()
            .parse_move_cecp(text)
            .unwrap_or_else(|e| panic!("engine move {text}: {e}"));
        self.record.push(m);
        self.game_over = self.record.outcome().is_some();
    }

    /// Handles an edit-mode line; `false` when the line ends edit mode without being consumed.
    fn edit_line(&mut self, line: &str) -> bool {
        let Some((board, white)) = self.edit.as_mut() else {
            return false;
        };
        match line {
            "c" => *white = !*white,
            "#" => *board = EditBoard::default(),
            "." => {
                self.leave_edit();
                return true;
            }
            piece if board.apply(piece, *white) => {}
            _ => {
                self.leave_edit();
                return false;
            }
        }
        true
    }

    fn leave_edit(&mut self) {
        if let Some((board, _)) = self.edit.take() {
            let side = self.current().side_to_move();
            if let Some(pos) = Position::from_edit_board(&board, side) {
                self.reset(pos);
            }
        }
    }
}

/// Makes the recorded clocks short so that a replay takes seconds, not minutes.
fn shorten(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["time" | "otim", n] => {
            let cs: i64 = n.parse().unwrap_or(0);
            format!("{} {}", words[0], cs.min(300))
        }
        ["st", n] => {
            let s: f64 = n.parse().unwrap_or(0.0);
            format!("st {}", s.min(0.2))
        }
        _ => line.to_string(),
    }
}

fn replay(commands: &[String], label: &str) {
    let mut engine = Engine::start();
    let mut mirror = Mirror::new();
    let mut quit = false;
    for original in commands {
        let mut line = shorten(original);
        if mirror.edit.is_some() && mirror.edit_line(line.trim()) {
            engine.send(&line);
            continue;
        }
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        let Some(command) = words.first().map(String::as_str) else {
            continue;
        };
        let is_move = command == "usermove"
            || (words.len() == 1
                && command.len() >= 4
                && command.as_bytes()[1].is_ascii_digit()
                && command.as_bytes()[0].is_ascii_lowercase());
        if is_move {
            let text = if command == "usermove" {
                words.get(1).cloned().unwrap_or_default()
            } else {
                command.to_string()
            };
            if mirror.game_over || !has_legal_move(mirror.current()) {
                continue;
            }
            let pos = *mirror.current();
            let m = match pos.parse_move_cecp(&text) {
                Ok(m) => m,
                // Our engine's replies differ from the recorded engine's: substitute.
                Err(_) => legal_moves(&pos)[0],
            };
            let text = pos.format_move_cecp(m);
            line = if command == "usermove" {
                format!("usermove {text}")
            } else {
                text
            };
            mirror.record.push(m);
            mirror.game_over = mirror.record.outcome().is_some();
        } else {
            match command {
                "new" => {
                    mirror.reset(Position::startpos());
                    mirror.engine_side = Some(Side::Second);
                }
                "setboard" => {
                    let fen = line.split_once(' ').map(|x| x.1).unwrap_or("");
                    mirror.reset(Position::from_text(fen).expect("recorded FENs are valid"));
                }
                "force" => {
                    mirror.engine_side = None;
                    mirror.analyzing = false;
                }
                "go" => {
                    mirror.engine_side = Some(mirror.current().side_to_move());
                    mirror.analyzing = false;
                }
                "playother" => mirror.engine_side = Some(mirror.current().side_to_move().flip()),
                "white" | "black" => {
                    let side = if command == "white" {
                        Side::First
                    } else {
                        Side::Second
                    };
                    if let Some(pos) = mirror.current().with_side_to_move(side) {
                        mirror.reset(pos);
                    }
                    mirror.engine_side = Some(side.flip());
                }
                "undo" | "remove" => {
                    for _ in 0..if command == "undo" { 1 } else { 2 } {
                        mirror.record.undo();
                    }
                    mirror.game_over = mirror.record.outcome().is_some();
                }
                "analyze" => {
                    mirror.analyzing = true;
                    mirror.engine_side = None;
                }
                "exit" => mirror.analyzing = false,
                "result" => mirror.game_over = true,
                "edit" => {
                    mirror.edit = Some((mirror.current().edit_board(), true));
                }
                "quit" => quit = true,
                _ => {}
            }
        }
        engine.send(&line);
        if command == "ping" {
            let want = format!("pong {}", words.get(1).map(String::as_str).unwrap_or(""));
            engine.read_until(SEARCH, move |l| l == want);
        }
        if quit {
            break;
        }
        if mirror.engine_to_move() {
            let (reply, _) = engine_move(&mut engine);
            mirror.play(&reply);
        }
    }
    let transcript = engine.transcript.clone();
    let errors: Vec<&String> = transcript
        .iter()
        .filter(|l| l.starts_with("< Error") || l.starts_with("< Illegal"))
        .collect();
    assert!(errors.is_empty(), "{label}: {errors:?}\n{}", engine.tail());
    let status = engine.finish(quit, Duration::from_secs(10));
    assert!(status.success(), "{label}");
}

/// The engine-bound commands of each engine process in the transcript file.
fn transcript_runs() -> Vec<(String, Vec<String>)> {
    let text = include_str!("../testdata/xboard-transcripts.txt");
    let mut runs: Vec<(String, Vec<String>)> = Vec::new();
    let mut section = String::new();
    for raw in text.lines() {
        if let Some(name) = raw.strip_prefix("################ ") {
            section = name.trim().to_string();
            continue;
        }
        let body = raw.trim_start();
        let Some((_, rest)) = body.split_once(' ') else {
            continue;
        };
        if rest.starts_with("# start") {
            runs.push((section.clone(), Vec::new()));
        } else if let Some(command) = rest.strip_prefix("> ") {
            if let Some((_, commands)) = runs.last_mut() {
                commands.push(command.to_string());
            }
        }
    }
    // Only xboard-protocol runs: the polyglot-to-Stockfish legs are UCI.
    runs.retain(|(_, commands)| commands.first().map(String::as_str) == Some("xboard"));
    runs
}

#[test]
fn replays_recorded_xboard_polyglot_and_python_chess_traffic() {
    let runs = transcript_runs();
    assert!(runs.len() >= 8, "found {} runs", runs.len());
    for (label, commands) in &runs {
        replay(commands, label);
    }
}
