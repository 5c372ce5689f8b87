//! `sente eval`: its report survives a closed or full stdout (no panic), and a net file with
//! bytes after its payload is refused with a clear error.

use std::process::{Command, Stdio};

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

#[test]
fn eval_handles_a_full_disk_and_a_closed_pipe() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(SENTE)
        .arg("eval")
        .stdout(full)
        .output()
        .unwrap();
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        !message.contains("panicked") && message.contains("No space left"),
        "{message}"
    );

    let mut child = Command::new(SENTE)
        .arg("eval")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && !message.contains("panicked"),
        "{message}"
    );
}

#[test]
fn a_net_file_with_trailing_bytes_is_refused() {
    let dir = std::env::temp_dir().join(format!("sente-eval-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/../nets/chess-default.nnue");
    let mut bytes = std::fs::read(net).unwrap();
    // `sente eval --net FILE startpos` with `bytes` as the net file: its exit status and stderr.
    let eval_with = |name: &str, bytes: &[u8]| {
        let file = dir.join(name);
        std::fs::write(&file, bytes).unwrap();
        let out = Command::new(SENTE)
            .args(["eval", "--net", file.to_str().unwrap(), "startpos"])
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, message) = eval_with("good.nnue", &bytes);
    assert!(ok, "{message}");

    bytes.extend_from_slice(&[0u8; 64]);
    let (ok, message) = eval_with("padded.nnue", &bytes);
    assert!(!ok);
    assert!(message.contains("64 bytes after the payload"), "{message}");
    let _ = std::fs::remove_dir_all(dir);
}
