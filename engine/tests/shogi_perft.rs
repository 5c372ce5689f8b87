//! Shogi perft against `testdata/shogi_perft.tsv` (the `nodes` column is the truth). Rows up to
//! 50M nodes run by default; the ignored test runs the larger ones (set
//! `SHOGI_PERFT_MAX_NODES` to cap them).

use sente::game::Game;
use sente::shogi::Position;

const DEFAULT_LIMIT: u64 = 50_000_000;

struct Row {
    name: String,
    sfen: String,
    depth: u32,
    nodes: u64,
}

fn rows() -> Vec<Row> {
    let text = include_str!("../testdata/shogi_perft.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (name, sfen, depth, nodes) = (col("name"), col("sfen"), col("depth"), col("nodes"));
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                name: f[name].to_string(),
                sfen: f[sfen].to_string(),
                depth: f[depth].parse().expect("depth"),
                nodes: f[nodes].parse().expect("nodes"),
            }
        })
        .collect()
}

fn check(filter: impl Fn(&Row) -> bool) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for row in rows().iter().filter(|r| filter(r)) {
        let pos = Position::from_text(&row.sfen)
            .unwrap_or_else(|e| panic!("{}: bad sfen {}: {e}", row.name, row.sfen));
        let got = pos.perft(row.depth);
        if got != row.nodes {
            failures.push(format!(
                "{} depth {}: got {got}, expected {}",
                row.name, row.depth, row.nodes
            ));
        }
        checked += 1;
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    checked
}

#[test]
fn perft_rows_up_to_50m_nodes() {
    let n = check(|r| r.nodes <= DEFAULT_LIMIT);
    assert!(n >= 40, "only {n} rows checked");
}

#[test]
#[ignore = "billions of nodes; run explicitly"]
fn perft_rows_above_50m_nodes() {
    let cap = std::env::var("SHOGI_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX);
    check(|r| r.nodes > DEFAULT_LIMIT && r.nodes <= cap);
}

#[test]
fn every_row_parses_and_round_trips() {
    for row in rows() {
        let pos = Position::from_text(&row.sfen).expect("sfen parses");
        let again = Position::from_text(&pos.to_text()).expect("round trip parses");
        assert_eq!(pos, again, "{}", row.name);
    }
}
