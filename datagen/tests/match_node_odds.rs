//! `datagen match --a-nodes / --b-nodes`: node odds give each player its own node limit (to
//! compare nets of different speed at equal time), named in the report; bad limits are refused.

mod common;

use common::DATAGEN;

/// A classical-vs-classical chess match with `extra` arguments.
fn classical_match(extra: &[&'static str]) -> Vec<&'static str> {
    let mut args = vec![
        "match",
        "--game",
        "chess",
        "--a",
        "classical",
        "--b",
        "classical",
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn node_odds_give_each_player_its_own_node_limit() {
    let out = DATAGEN.ok(&classical_match(&[
        "--pairs",
        "2",
        "--nodes",
        "3000",
        "--b-nodes",
        "30",
        "--seed",
        "3",
    ]));
    assert!(
        out.contains("classical (3000 nodes) vs classical (30 nodes): 4 games"),
        "{out}"
    );
    // A hundredfold node advantage wins the match.
    assert!(
        out.contains("W 4 D 0 L 0") || out.contains("W 3 D 1 L 0"),
        "{out}"
    );
    assert!(DATAGEN
        .failure(&classical_match(&["--a-nodes", "0"]))
        .contains("must be at least 1"));
    assert!(DATAGEN
        .failure(&classical_match(&["--tc", "1+0.01", "--b-nodes", "100"]))
        .contains("cannot be used with"));
}
