//! `sente bench` over the built-in chess and shogi positions: every position parses, the node
//! total is the same on every run, and unknown games are refused with a typed error.

use sente::bench::{run_bench, run_bench_file, BenchError, BenchEval, BenchSearch};

/// A classical bench of `game` at `depth` with the default search, its report written to `out`.
fn classical_bench(game: &str, depth: u32, out: &mut Vec<u8>) -> sente::bench::BenchSummary {
    run_bench(
        game,
        Some(depth),
        BenchEval::Classical,
        BenchSearch::default(),
        out,
    )
    .unwrap()
}

/// `classical_bench` over the positions of the file at `path` instead of the built-in ones.
fn classical_bench_file(
    game: &str,
    path: &std::path::Path,
    depth: u32,
    out: &mut Vec<u8>,
) -> Result<sente::bench::BenchSummary, BenchError> {
    run_bench_file(
        game,
        path,
        Some(depth),
        BenchEval::Classical,
        BenchSearch::default(),
        out,
    )
}

#[test]
fn chess_bench_is_deterministic() {
    let mut out = Vec::new();
    let a = classical_bench("chess", 5, &mut out);
    let b = classical_bench("chess", 5, &mut Vec::new());
    assert_eq!(a.nodes, b.nodes);
    assert!(a.positions >= 40);
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(&format!("Nodes searched  : {}", a.nodes)));
}

#[test]
fn shogi_bench_is_deterministic() {
    let a = classical_bench("shogi", 4, &mut Vec::new());
    let b = classical_bench("shogi", 4, &mut Vec::new());
    assert_eq!(a.nodes, b.nodes);
    assert!(a.positions >= 40);
}

#[test]
fn unknown_game_is_a_typed_error() {
    let err = run_bench(
        "go",
        None,
        BenchEval::Classical,
        BenchSearch::default(),
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(matches!(err, BenchError::UnknownGame(ref g) if g == "go"));
    assert!(err.to_string().contains("unknown game 'go'"));
}

/// The full-depth bench with its numbers (run with `--ignored --nocapture`).
#[test]
#[ignore]
fn print_full_bench() {
    for game in ["chess", "shogi"] {
        let depth = std::env::var("BENCH_DEPTH")
            .ok()
            .and_then(|d| d.parse().ok());
        let summary = run_bench(
            game,
            depth,
            BenchEval::Classical,
            BenchSearch::default(),
            &mut std::io::stdout(),
        )
        .unwrap();
        println!("{game}: {summary:?}");
    }
}

#[test]
fn a_missing_net_is_a_clear_bench_error() {
    let missing = std::path::Path::new("/nonexistent/net.nnue");
    let err = run_bench(
        "chess",
        Some(2),
        BenchEval::Net(missing),
        BenchSearch::default(),
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("net.nnue"), "{err}");
}

/// A positions file in the temp dir, removed when dropped (pass or fail).
struct ScratchFile(std::path::PathBuf);

impl std::ops::Deref for ScratchFile {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn scratch_file(name: &str, text: &str) -> ScratchFile {
    let path = std::env::temp_dir().join(format!("sente-bench-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    ScratchFile(path)
}

#[test]
fn a_positions_file_replaces_the_built_in_positions() {
    let file = scratch_file(
        "chess.txt",
        "# two positions\nstartpos moves e2e4 e7e5\n\n8/8/8/4k3/8/8/4P3/4K3 w - - 0 1\n",
    );
    let mut out = Vec::new();
    let summary = classical_bench_file("chess", &file, 4, &mut out).unwrap();
    assert_eq!(summary.positions, 2);
    assert!(summary.nodes > 0);
    let again = classical_bench_file("chess", &file, 4, &mut Vec::new());
    assert_eq!(
        again.unwrap().nodes,
        summary.nodes,
        "deterministic node count"
    );
    let shogi = scratch_file("shogi.txt", "startpos moves 7g7f 3c3d\n");
    let summary = classical_bench_file("shogi", &shogi, 3, &mut out).unwrap();
    assert_eq!(summary.positions, 1);
}

#[test]
fn a_bad_positions_file_is_a_clear_bench_error() {
    let missing = std::path::Path::new("/nonexistent/positions.txt");
    let err = classical_bench_file("chess", missing, 2, &mut Vec::new());
    assert!(err.unwrap_err().to_string().contains("positions.txt"));
    let empty = scratch_file("empty.txt", "# nothing\n\n");
    let err = classical_bench_file("chess", &empty, 2, &mut Vec::new());
    assert!(err.unwrap_err().to_string().contains("no positions"));
    let bad = scratch_file("bad.txt", "startpos\nnot a fen\n");
    let err = classical_bench_file("chess", &bad, 2, &mut Vec::new());
    assert!(matches!(err, Err(BenchError::BadPosition { index: 2, .. })));
}
