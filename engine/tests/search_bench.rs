//! `sente bench` over the built-in chess and shogi positions: every position parses, the node
//! total is the same on every run, and unknown games are refused with a typed error.

use sente::bench::{run_bench, BenchError, BenchEval};

#[test]
fn chess_bench_is_deterministic() {
    let mut out = Vec::new();
    let a = run_bench("chess", Some(5), BenchEval::Classical, &mut out).unwrap();
    let b = run_bench("chess", Some(5), BenchEval::Classical, &mut Vec::new()).unwrap();
    assert_eq!(a.nodes, b.nodes);
    assert!(a.positions >= 40);
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(&format!("Nodes searched  : {}", a.nodes)));
}

#[test]
fn shogi_bench_is_deterministic() {
    let a = run_bench("shogi", Some(4), BenchEval::Classical, &mut Vec::new()).unwrap();
    let b = run_bench("shogi", Some(4), BenchEval::Classical, &mut Vec::new()).unwrap();
    assert_eq!(a.nodes, b.nodes);
    assert!(a.positions >= 40);
}

#[test]
fn unknown_game_is_a_typed_error() {
    let err = run_bench("go", None, BenchEval::Classical, &mut Vec::new()).unwrap_err();
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
        let summary = run_bench(game, depth, BenchEval::Classical, &mut std::io::stdout()).unwrap();
        println!("{game}: {summary:?}");
    }
}

#[test]
fn a_missing_net_is_a_clear_bench_error() {
    let missing = std::path::Path::new("/nonexistent/net.nnue");
    let err = run_bench("chess", Some(2), BenchEval::Net(missing), &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("net.nnue"), "{err}");
}
