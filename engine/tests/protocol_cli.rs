//! The `sente` binary's developer subcommands: `perft` over both games and `bench`, and their
//! error exits on bad input.

use std::process::Command;

fn sente(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_sente"))
        .args(args)
        .output()
        .expect("the sente binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn perft_counts_chess_and_shogi_positions() {
    let (code, out, _) = sente(&["perft", "3"]);
    assert_eq!(code, 0);
    assert!(out.contains("Nodes searched: 8902"), "{out}");
    assert_eq!(
        out.lines()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes") && !l.starts_with("Time"))
            .count(),
        20
    );
    // Positions given as separate arguments (the FEN and SFEN fields), and the shogi start.
    for (args, nodes) in [
        (
            "perft 3 r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            97862,
        ),
        ("perft 2 shogi", 900),
        (
            "perft 2 lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            900,
        ),
    ] {
        let args: Vec<&str> = args.split(' ').collect();
        let (code, out, _) = sente(&args);
        assert_eq!(code, 0, "{args:?}");
        assert!(out.contains(&format!("Nodes searched: {nodes}")), "{out}");
    }
}

/// `perft 0` is one node and lists no move (as Stockfish); an absurd depth is refused at once
/// instead of running without end (issue 20, item 6).
#[test]
fn perft_depth_zero_and_absurd_depths() {
    let (code, out, _) = sente(&["perft", "0"]);
    assert_eq!(code, 0);
    assert!(out.contains("Nodes searched: 1\n"), "{out}");
    assert!(!out.contains("e2e4"), "{out}");
    for game in ["startpos", "shogi"] {
        let started = std::time::Instant::now();
        let (code, out, err) = sente(&["perft", "99", game]);
        assert_eq!(code, 2, "{out}");
        assert!(
            err.contains("perft depth 99 is too deep: at most 13"),
            "{err}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
    }
}

#[test]
fn bad_input_exits_with_a_message_not_a_panic() {
    let (code, _, err) = sente(&["perft", "2", "banana"]);
    assert_eq!(code, 2);
    assert!(err.contains("bad position 'banana'"), "{err}");
    let (code, _, err) = sente(&["perft", "2", "9/9/9/9/9/9/9/9/9", "b", "-", "1"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("sente perft: "), "{err}");
    let (code, _, err) = sente(&["bench", "go"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown game"), "{err}");
    let (code, _, _) = sente(&["perft", "x"]);
    assert_eq!(code, 2, "clap rejects a non-numeric depth");
}

#[test]
fn bench_prints_a_node_total() {
    let (code, out, err) = sente(&["bench", "chess", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Nodes searched"), "{out}");
}

#[test]
fn bench_signs_changed_search_parameters() {
    let nodes = |out: &str| -> u64 {
        let line = out
            .lines()
            .find(|l| l.starts_with("Nodes searched"))
            .unwrap();
        line.rsplit(' ').next().unwrap().parse().unwrap()
    };
    let (code, default, err) = sente(&["bench", "chess", "6", "--classical"]);
    assert_eq!(code, 0, "{err}");
    let (code, changed, err) = sente(&[
        "bench",
        "chess",
        "6",
        "--classical",
        "--params",
        "rfp_margin=40,lmr_base=25",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        changed.contains("params: rfp_margin=40,lmr_base=25"),
        "{changed}"
    );
    assert!(!default.contains("params:"), "{default}");
    assert_ne!(
        nodes(&default),
        nodes(&changed),
        "other constants, another tree"
    );
    // Naming the defaults is the default search.
    let (_, same, _) = sente(&[
        "bench",
        "chess",
        "6",
        "--classical",
        "--params",
        "rfp_margin=80",
    ]);
    assert_eq!(nodes(&same), nodes(&default));
    let (code, _, err) = sente(&["bench", "chess", "--params", "rfp_margin=9999"]);
    assert_eq!(code, 2);
    assert!(err.contains("rfp_margin must lie in 40..=160"), "{err}");
}
