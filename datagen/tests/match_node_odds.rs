//! `datagen match --a-nodes / --b-nodes`: node odds give each player its own node limit (to
//! compare nets of different speed at equal time), named in the report; bad limits are refused.

mod common;

use common::{with, with_all, DATAGEN};

/// A classical-vs-classical chess match with `extra` arguments.
fn classical_match(extra: &[&'static str]) -> Vec<&'static str> {
    let mut args = vec![
        "match",
        "--game",
        "chess",
        "--a-net",
        "classical",
        "--b-net",
        "classical",
    ];
    args.extend_from_slice(extra);
    args
}

/// The report of a 4-game match between `players` that the first won (at most one draw).
fn assert_first_won(out: &str, players: &str) {
    assert!(out.contains(&format!("{players}: 4 games")), "{out}");
    assert!(
        out.contains("W 4 D 0 L 0") || out.contains("W 3 D 1 L 0"),
        "{out}"
    );
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
    // A hundredfold node advantage wins the match.
    assert_first_won(&out, "classical (3000 nodes) vs classical (30 nodes)");
    assert!(DATAGEN
        .failure(&classical_match(&["--a-nodes", "0"]))
        .contains("must be at least 1"));
    assert!(DATAGEN
        .failure(&classical_match(&["--tc", "1+0.01", "--b-nodes", "100"]))
        .contains("cannot be used with"));
}

/// Speed odds on the node clock (`--a-nodes-time` / `--b-nodes-time`): each player is charged
/// its own nodes per millisecond, so the faster one searches more nodes in the same clock time
/// (a twentyfold speed wins), the result's limits name both rates, and a rate that equals
/// `--nodes-time` is the plain node clock.
#[test]
fn node_clock_speed_odds_charge_each_player_its_own_rate() {
    let clock = with_all(
        common::classical_match("chess"),
        &[
            ("--pairs", "2"),
            ("--tc", "0.5+0.005"),
            ("--nodes-time", "100"),
            ("--seed", "3"),
        ],
    );
    let dir = common::scratch_dir("speed-odds");
    let result = dir.join("odds.result");
    let odds = with(
        with(clock.clone(), "--a-nodes-time", "2000"),
        "--result",
        result.to_str().unwrap(),
    );
    let out = DATAGEN.ok(&odds);
    assert_first_won(
        &out,
        "classical (2000 nodes/ms) vs classical (100 nodes/ms)",
    );
    let text = std::fs::read_to_string(&result).unwrap();
    assert!(text.contains("nodestime=2000/100"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
    // The same rate given twice is the plain node clock: the same games and result.
    let same = with(
        with(clock.clone(), "--a-nodes-time", "100"),
        "--b-nodes-time",
        "100",
    );
    assert_eq!(DATAGEN.ok(&same), DATAGEN.ok(&clock));
    // Speed odds need the node clock, and a rate of at least 1.
    let wall = with(
        with(common::classical_match("chess"), "--tc", "1+0.01"),
        "--a-nodes-time",
        "200",
    );
    assert!(DATAGEN.failure(&wall).contains("--nodes-time"));
    DATAGEN.failure(&with(clock, "--b-nodes-time", "0"));
}
