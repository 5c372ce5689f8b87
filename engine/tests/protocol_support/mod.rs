//! Shared by the protocol dialogue tests: the `sente` binary as a child process, written to line
//! by line and read with deadlines so that no test can hang.

#![allow(dead_code)]

use sente_testkit::line_receiver;
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything exchanged, for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    pub fn start() -> Self {
        Self::spawn(Command::new(env!("CARGO_BIN_EXE_sente")))
    }

    /// The engine under `ulimit -v kib` (a machine, or a container, with that much memory).
    pub fn start_with_memory_limit(kib: u64) -> Self {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -v {kib} && exec \"$0\"",));
        command.arg(env!("CARGO_BIN_EXE_sente"));
        Self::spawn(command)
    }

    fn spawn(mut command: Command) -> Self {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the sente binary starts");
        let lines = line_receiver(child.stdout.take().expect("piped stdout"));
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        let _ = stdin.write_all(format!("{line}\n").as_bytes());
        let _ = stdin.flush();
    }

    /// Sends raw bytes as they are (for CRLF and garbage tests).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.transcript
            .push(format!("> (raw) {:?}", String::from_utf8_lossy(bytes)));
        let stdin = self.stdin.as_mut().expect("stdin open");
        let _ = stdin.write_all(bytes);
        let _ = stdin.flush();
    }

    /// Next line within `timeout`, or `None`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `done`; returns all read lines (the matching one last).
    /// Panics with the transcript if none comes within `timeout`.
    pub fn read_until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let finished = done(&line);
                    got.push(line);
                    if finished {
                        return got;
                    }
                }
                None => panic!(
                    "no expected line within {timeout:?}; transcript:\n{}",
                    self.tail()
                ),
            }
        }
    }

    /// Reads until a line starting with `prefix`.
    pub fn expect_prefix(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let prefix = prefix.to_string();
        self.read_until(timeout, move |l| l.starts_with(&prefix))
    }

    /// Collects whatever arrives during `wait`.
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.next_line(left) {
                Some(line) => got.push(line),
                None => break,
            }
        }
        got
    }

    /// Sends `uci` or `usi` and reads up to its `uciok` / `usiok`; returns those lines.
    pub fn handshake(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.expect_prefix(&format!("{command}ok"), SEARCH)
    }

    /// Reads up to the next UCI/USI `bestmove`; returns its move, its ponder move and all the
    /// lines read.
    pub fn bestmove(&mut self) -> (String, Option<String>, Vec<String>) {
        let lines = self.expect_prefix("bestmove", SEARCH);
        let last = lines.last().expect("the bestmove line").clone();
        let words: Vec<&str> = last.split_whitespace().collect();
        let ponder = (words.get(2) == Some(&"ponder")).then(|| words[3].to_string());
        (words[1].to_string(), ponder, lines)
    }

    /// `isready` → `readyok` as a barrier (UCI/USI); returns the lines before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.expect_prefix("readyok", Duration::from_secs(10));
        lines.pop();
        lines
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Closes stdin (EOF) or sends `quit`, and checks the process exits within `timeout`.
    pub fn finish(mut self, quit: bool, timeout: Duration) -> std::process::ExitStatus {
        if quit {
            self.send("quit");
        } else {
            self.stdin.take();
        }
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("engine did not exit; transcript:\n{}", self.tail());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The last part of the transcript.
    pub fn tail(&self) -> String {
        let start = self.transcript.len().saturating_sub(60);
        self.transcript[start..].join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A small deterministic generator (xorshift) for fuzz inputs and random games.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

pub const SECOND: Duration = Duration::from_secs(1);

/// Generous bound for short searches on a loaded 2-core machine.
pub const SEARCH: Duration = Duration::from_secs(30);

/// The position reached from the game's start by `moves` (protocol notation, all legal).
pub fn position_after<G: sente::game::Game>(moves: &[&str]) -> G {
    let mut pos = G::startpos();
    for text in moves {
        let m = pos.parse_move(text).expect("test moves are legal");
        pos.make_move(m);
    }
    pos
}

/// Fails with the transcript unless `text` is a legal move in `pos`.
pub fn assert_legal<G: sente::game::Game>(pos: &G, text: &str, engine: &Engine) {
    assert!(
        pos.parse_move(text).is_ok(),
        "'{text}' is not legal in {}; transcript:\n{}",
        pos.to_text(),
        engine.tail()
    );
}

/// Fails unless the handshake `lines` declare every option in `names` (`option name N type ...`).
pub fn assert_declares_options(lines: &[String], names: &[&str]) {
    for name in names {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "option {name} missing: {lines:?}"
        );
    }
}

/// Sends each malformed `position` command and checks it is answered with one `info string` and
/// leaves the position (as printed by the `d` debug command) at `expected`.
pub fn assert_bad_positions_refused(engine: &mut Engine, bad: &[&str], expected: &str) {
    for line in bad {
        engine.send(line);
        let lines = engine.sync();
        assert!(
            lines.len() == 1 && lines[0].starts_with("info string"),
            "{line}: {lines:?}"
        );
    }
    engine.send("d");
    assert_eq!(engine.sync(), vec![format!("info string {expected}")]);
}

/// Every net file of `game` in the repository's `nets/` directory (`<game>-*.nnue`, the default
/// net included): each must keep loading and playing as `EvalFile`.
pub fn shipped_nets(game: &str) -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../nets");
    let mut nets: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("the nets directory")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            name.starts_with(&format!("{game}-")) && name.ends_with(".nnue")
        })
        .collect();
    nets.sort();
    nets
}

/// Each of `nets` (`shipped_nets`) loads as `EvalFile` at the width its header declares and
/// plays from `position` (`assert_net_plays`).
pub fn assert_shipped_nets_play<G: sente::game::Game>(
    engine: &mut Engine,
    nets: &[std::path::PathBuf],
    position: &str,
    pos: &G,
) {
    for net in nets {
        assert_net_plays(engine, net, declared_l1(net), position, pos);
    }
}

/// The hidden width a net file's header declares (`NetHeader::parse`: chess gen 10 on is 256
/// wide, every earlier shipped net 128), which the engine must report when it loads the file.
fn declared_l1(net: &std::path::Path) -> usize {
    let bytes = std::fs::read(net).expect("a net file");
    sente::nnue::format::NetHeader::parse(&bytes)
        .unwrap_or_else(|e| panic!("{}: {e}", net.display()))
        .arch
        .l1
}

/// Sets `EvalFile` to `net` and checks the engine reports that net `l1` wide, then searches
/// `position` (a `position` command reaching `pos`) to depth 4 and checks the best move is legal.
pub fn assert_net_plays<G: sente::game::Game>(
    engine: &mut Engine,
    net: &std::path::Path,
    l1: usize,
    position: &str,
    pos: &G,
) {
    engine.send(&format!("setoption name EvalFile value {}", net.display()));
    let lines = engine.sync();
    assert!(
        lines.len() == 1
            && lines[0].starts_with("info string Using NNUE")
            && lines[0].contains(&format!("(l1 {l1}, ")),
        "{}: {lines:?}",
        net.display()
    );
    engine.send(position);
    engine.send("go depth 4");
    let (best, _, _) = engine.bestmove();
    assert_legal(pos, &best, engine);
}
