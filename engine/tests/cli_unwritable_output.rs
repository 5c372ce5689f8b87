//! Issue 59, item 4: the `sente` subcommands do not die (abort, exit 134) when stderr or
//! stdout cannot be written: diagnostics are best effort, and a report that cannot be written
//! ends the command with a status of its own.

use std::process::{Command, Stdio};

fn full() -> std::fs::File {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap()
}

#[test]
fn errors_and_reports_to_unwritable_streams_end_normally() {
    let sente = env!("CARGO_BIN_EXE_sente");
    // A refused depth is said on stderr: unwritable, the status still says it.
    let status = Command::new(sente)
        .args(["perft", "99"])
        .stdout(Stdio::null())
        .stderr(full())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2), "{status:?}");
    // A report to a full disk, its error to a full disk too.
    for args in [&["perft", "3"][..], &["bench", "chess", "--depth", "1"]] {
        let status = Command::new(sente)
            .args(args)
            .stdout(full())
            .stderr(full())
            .status()
            .unwrap();
        assert!(
            status.code().is_some_and(|c| c != 0 && c < 128),
            "{args:?}: {status:?}"
        );
    }
}
