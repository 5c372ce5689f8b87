//! Helpers for the integration tests that run the workspace's command-line programs (`datagen`,
//! `tuner`): a `Program` runs with its output captured, optionally within a deadline (so that a
//! hang fails the test instead of stalling it), must succeed or fail with its output, and ends
//! cleanly when its report goes to a full disk or a closed pipe; a long-running child's output
//! read line by line on a channel (`line_receiver`). A dev-dependency only.
//!
//! The crate's own integration tests (`tests/pipeline_*.rs`) are the cross-crate pipeline tests:
//! data made by the real datagen (runs and pools) read, trained on and fitted by the tuner. They
//! live here so that the tuner does not depend on datagen.

use std::ffi::OsStr;
use std::fmt::Debug;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The lines of `output` (a child's piped stdout) on a channel, read on a thread of their own so
/// that a test can wait for each with a deadline (`recv_timeout`). The channel closes at the end
/// of the output, at a read error, or when the receiver is dropped.
pub fn line_receiver(output: impl Read + Send + 'static) -> Receiver<String> {
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// Lossy UTF-8 text of a program's output.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A program under test: its path (`env!("CARGO_BIN_EXE_<name>")`) and the deadline of each run
/// (none by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Program {
    pub path: &'static str,
    pub deadline: Option<Duration>,
}

impl Program {
    pub const fn new(path: &'static str) -> Self {
        Self {
            path,
            deadline: None,
        }
    }

    /// The binary `name` of another package of this workspace. Cargo hands an integration test
    /// only its own package's binaries (`CARGO_BIN_EXE_<name>`), so this one is taken from beside
    /// the running test (`<target>/<profile>/<name>`, the parent of its `deps/`), where the same
    /// `cargo test` run builds it when it selects that package too (`-p tuner -p sente-testkit`,
    /// or `--workspace`). A run that does not may find an older build there, or none (a panic).
    pub fn workspace_binary(name: &str) -> Self {
        let test = std::env::current_exe().unwrap();
        let dir = test
            .parent()
            .and_then(Path::parent)
            .expect("a test runs from <target>/<profile>/deps");
        let binary = dir.join(name);
        assert!(
            binary.is_file(),
            "{} is missing: build it in the same `cargo test` run (select its package too, or \
             --workspace)",
            binary.display()
        );
        Self::new(Box::leak(
            binary.to_string_lossy().into_owned().into_boxed_str(),
        ))
    }

    /// The same program, each run killed (and the test failed) after `limit`.
    pub const fn within(self, limit: Duration) -> Self {
        Self {
            deadline: Some(limit),
            ..self
        }
    }

    /// Its file name, for messages.
    fn name(&self) -> String {
        Path::new(self.path)
            .file_name()
            .map_or(self.path.into(), |n| n.to_string_lossy().into_owned())
    }

    fn spawn_piped<S: AsRef<OsStr>>(&self, args: &[S]) -> Child {
        Command::new(self.path)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// Runs the program with `args` to the end (or to its deadline), its output captured.
    pub fn run<S: AsRef<OsStr> + Debug>(&self, args: &[S]) -> Output {
        let Some(limit) = self.deadline else {
            return Command::new(self.path).args(args).output().unwrap();
        };
        let mut child = self.spawn_piped(args);
        let deadline = Instant::now() + limit;
        while child.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                child.kill().unwrap();
                let out = child.wait_with_output().unwrap();
                panic!(
                    "{} {args:?} ran past {limit:?}; stderr: {}",
                    self.name(),
                    text(&out.stderr)
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        child.wait_with_output().unwrap()
    }

    /// Runs the program, which must succeed; its stdout.
    pub fn ok<S: AsRef<OsStr> + Debug>(&self, args: &[S]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{} {args:?} failed: {}",
            self.name(),
            text(&out.stderr)
        );
        text(&out.stdout)
    }

    /// Runs the program, which must fail; its stderr.
    pub fn failure<S: AsRef<OsStr> + Debug>(&self, args: &[S]) -> String {
        let out = self.run(args);
        assert!(
            !out.status.success(),
            "{} {args:?} should have failed",
            self.name()
        );
        text(&out.stderr)
    }

    /// Runs the program to the end with stdout captured and stderr unwritable: on `/dev/full`
    /// (every write fails with "no space left") or, with `closed_pipe`, on a pipe whose reader
    /// is gone (`2>&1 | head -1` once `head` quits). Progress there is best effort, so the run
    /// must go on as if stderr worked.
    pub fn run_with_unwritable_stderr<S: AsRef<OsStr> + Debug>(
        &self,
        args: &[S],
        closed_pipe: bool,
    ) -> Output {
        let mut command = Command::new(self.path);
        command.args(args).stdout(Stdio::piped());
        if closed_pipe {
            command.stderr(Stdio::piped());
        } else {
            let full = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap();
            command.stderr(full);
        }
        let mut child = command.spawn().unwrap();
        drop(child.stderr.take());
        child.wait_with_output().unwrap()
    }

    /// The program writing its report to a full disk fails with a clear error, and to a closed
    /// pipe (`| head -0`) ends quietly and successfully; it panics in neither.
    pub fn check_stdout_errors<S: AsRef<OsStr> + Debug>(&self, args: &[S]) {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(self.path)
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let message = text(&out.stderr);
        assert!(!out.status.success(), "{args:?} to a full disk");
        assert!(
            !message.contains("panicked") && message.contains("No space left"),
            "{args:?}: {message}"
        );

        let mut child = self.spawn_piped(args);
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let message = text(&out.stderr);
        assert!(
            out.status.success() && !message.contains("panicked"),
            "{args:?} to a closed pipe: {message}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SH: Program = Program::new("/bin/sh");

    #[test]
    fn runs_report_their_output_and_deadlines_are_kept() {
        assert_eq!(SH.ok(&["-c", "echo out; echo err >&2"]), "out\n");
        assert_eq!(SH.failure(&["-c", "echo why >&2; exit 3"]), "why\n");
        let quick = SH.within(Duration::from_secs(10));
        assert_eq!(quick.ok(&["-c", "echo done"]), "done\n");
        let hang = SH.within(Duration::from_millis(100));
        let stalled = std::panic::catch_unwind(|| hang.run(&["-c", "sleep 2"]));
        assert!(stalled.is_err(), "a run past its deadline fails");
    }

    #[test]
    fn a_program_that_ignores_a_full_disk_fails_the_stdout_check() {
        // (The workspace's programs themselves pass it: see their tests.)
        let careless =
            std::panic::catch_unwind(|| SH.check_stdout_errors(&["-c", "echo report 2>/dev/null"]));
        assert!(careless.is_err());
    }
}
