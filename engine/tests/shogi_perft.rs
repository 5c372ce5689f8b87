//! Shogi perft against `testdata/shogi_perft.tsv` (the `nodes` column is the truth). Rows up to
//! 50M nodes run by default; the ignored test runs the larger ones (set
//! `SHOGI_PERFT_MAX_NODES` to cap them).

mod perft_support;

use perft_support::{Row, BIG};
use sente::game::Game;
use sente::shogi::Position;

fn rows() -> Vec<Row> {
    perft_support::rows(include_str!("../testdata/shogi_perft.tsv"), "sfen")
}

fn check(filter: impl Fn(&Row) -> bool) -> usize {
    perft_support::check(rows().iter().filter(|r| filter(r)), |_, _: &Position| {})
}

#[test]
fn perft_rows_up_to_50m_nodes() {
    let n = check(|r| r.nodes <= BIG);
    assert!(n >= 40, "only {n} rows checked");
}

#[test]
#[ignore = "billions of nodes; run explicitly"]
fn perft_rows_above_50m_nodes() {
    let cap = std::env::var("SHOGI_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX);
    check(|r| r.nodes > BIG && r.nodes <= cap);
}

#[test]
fn every_row_parses_and_round_trips() {
    for row in rows() {
        let pos = Position::from_text(&row.position).expect("sfen parses");
        let again = Position::from_text(&pos.to_text()).expect("round trip parses");
        assert_eq!(pos, again, "{}", row.name);
    }
}
