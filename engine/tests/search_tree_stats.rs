//! The `treestats` command (`search::tree_stats`). A build without the `tree-stats` feature says
//! that it does not count; one with it (`cargo test --release -p sente --features tree-stats
//! --test search_tree_stats`, which `scripts/test.sh` runs) counts every node a one-thread search
//! reports, and its counters agree with each other in both games.

mod protocol_support;

use protocol_support::{Engine, SEARCH};

#[cfg(not(feature = "tree-stats"))]
#[test]
fn a_build_without_the_feature_says_that_it_does_not_count() {
    for (handshake, reply) in [
        ("uci", "info string treestats"),
        ("usi", "info string treestats"),
    ] {
        let mut engine = Engine::start();
        engine.handshake(handshake);
        engine.send("treestats");
        let lines = engine.sync();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(reply) && l.contains("--features tree-stats")),
            "{}",
            engine.tail()
        );
        assert!(!lines.iter().any(|l| l.starts_with("treestat ")));
        engine.finish(true, SEARCH);
    }
}

#[cfg(feature = "tree-stats")]
mod counting {
    use super::*;
    use std::collections::HashMap;

    /// The `treestats` report as name → value, after checking that it ends with `treestat end`.
    fn report(engine: &mut Engine) -> HashMap<String, u64> {
        engine.send("treestats");
        let lines = engine.expect_prefix("treestat end", SEARCH);
        lines
            .iter()
            .filter_map(|l| l.strip_prefix("treestat "))
            .filter(|l| *l != "end")
            .map(|l| {
                let (name, value) = l.split_once(' ').expect("treestat NAME VALUE");
                (name.to_string(), value.parse().expect("a count"))
            })
            .collect()
    }

    /// The nodes of the last progress line before `bestmove` (all the search's nodes, when it
    /// ends by finishing its last iteration).
    fn reported_nodes(lines: &[String]) -> u64 {
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info") && l.contains(" nodes "))
            .expect("a progress line with nodes");
        let words: Vec<&str> = last.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "nodes").unwrap();
        words[at + 1].parse().unwrap()
    }

    /// One search by `go`, then its counters: `expected_nodes` is the node limit a `go nodes`
    /// search stops at, or None for a `go depth` search (whose last progress line has them all).
    fn check_one_search(handshake: &str, position: &str, go: &str, expected_nodes: Option<u64>) {
        let mut engine = Engine::start();
        engine.handshake(handshake);
        engine.send("setoption name Threads value 1");
        engine.send("treestats reset");
        engine.send(position);
        engine.send(go);
        let (_, _, lines) = engine.bestmove();
        let nodes = expected_nodes.unwrap_or_else(|| reported_nodes(&lines));
        let s = report(&mut engine);
        let tail = engine.tail();
        assert!(nodes > 0, "{tail}");
        // Every node is a main-search or a quiescence node, counted once.
        assert_eq!(s["main_nodes"] + s["qsearch_nodes"], nodes, "{s:?}");
        for name in [
            "main_nodes",
            "reverse_futility",
            "null_move_cutoffs",
            "reduced",
        ] {
            let buckets: u64 = (1..=10).map(|d| s[&format!("{name}@{d}")]).sum();
            assert_eq!(buckets, s[name], "{name}: {s:?}");
        }
        assert!(s["main_nodes"] > 0 && s["qsearch_nodes"] > 0, "{s:?}");
        assert!(s["move_loops"] <= s["main_nodes"], "{s:?}");
        assert!(
            // (A multi-cut returns from inside the move loop.)
            s["tt_cutoffs"] + s["reverse_futility"] + s["null_move_cutoffs"] + s["move_loops"]
                <= s["main_nodes"],
            "{s:?}"
        );
        assert!(s["fail_highs"] + s["fail_lows"] <= s["move_loops"], "{s:?}");
        assert!(s["fail_high_first"] <= s["fail_highs"], "{s:?}");
        assert!(s["fail_high_moves"] >= s["fail_highs"], "{s:?}");
        assert!(s["fail_low_moves"] >= s["fail_lows"], "{s:?}");
        assert!(
            s["fail_high_moves"] + s["fail_low_moves"] <= s["moves_searched"],
            "{s:?}"
        );
        assert!(s["reduced_researched"] <= s["reduced"], "{s:?}");
        assert!(s["reduced"] <= s["moves_searched"], "{s:?}");
        // Moves are made in the loop only: each searched move is a child node.
        assert!(s["moves_searched"] < nodes, "{s:?}");
        // A search of this size cuts off, reduces and fails both ways.
        for name in [
            "fail_highs",
            "fail_lows",
            "reduced",
            "tt_cutoffs",
            "reverse_futility",
        ] {
            assert!(s[name] > 0, "{name}: {s:?}");
        }

        engine.send("treestats reset");
        let zero = report(&mut engine);
        assert!(zero.values().all(|&v| v == 0), "{zero:?}");
        engine.finish(true, SEARCH);
    }

    #[test]
    fn chess_counters_add_up_to_the_searched_nodes() {
        check_one_search(
            "uci",
            "position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
            "go nodes 60000",
            Some(60_000),
        );
        check_one_search(
            "uci",
            "position startpos moves e2e4 c7c5 g1f3",
            "go depth 9",
            None,
        );
    }

    #[test]
    fn shogi_counters_add_up_to_the_searched_nodes() {
        check_one_search(
            "usi",
            "position startpos moves 7g7f 3c3d 2g2f",
            "go nodes 60000",
            Some(60_000),
        );
        check_one_search("usi", "position startpos", "go depth 8", None);
    }
}
