//! Perft of every row of `testdata/chess_perft.tsv` must match exactly. Rows whose FEN uses
//! Shredder/X-FEN castling letters (the `frc-*` rows) run in Chess960 mode, which the FEN
//! parser switches on by itself; rows above 50M nodes run only in the ignored test.

use sente::chess::Position;
use sente::game::Game;

struct Row {
    name: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

const BIG: u64 = 50_000_000;

fn rows() -> Vec<Row> {
    let text = include_str!("../testdata/chess_perft.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 4, "bad row {l}");
            Row {
                name: cols[0].to_string(),
                fen: cols[1].to_string(),
                depth: cols[2].parse().unwrap(),
                nodes: cols[3].parse().unwrap(),
            }
        })
        .collect()
}

fn check(rows: impl Iterator<Item = Row>) {
    let mut failures = Vec::new();
    let mut count = 0;
    for row in rows {
        let pos = Position::from_text(&row.fen).unwrap_or_else(|e| panic!("{}: {e}", row.name));
        if row.name.starts_with("frc") {
            assert!(pos.is_chess960(), "{} should be read as Chess960", row.name);
        }
        let got = pos.perft(row.depth);
        if got != row.nodes {
            failures.push(format!(
                "{} depth {}: got {got}, want {}",
                row.name, row.depth, row.nodes
            ));
        }
        count += 1;
    }
    assert!(count > 0);
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

#[test]
fn perft_rows_up_to_50m_nodes() {
    check(rows().into_iter().filter(|r| r.nodes <= BIG));
}

#[test]
#[ignore = "runs the rows above 50M nodes (minutes)"]
fn perft_rows_above_50m_nodes() {
    check(rows().into_iter().filter(|r| r.nodes > BIG));
}

#[test]
fn divide_matches_known_kiwipete_root() {
    // The per-move breakdown sums to the total and lists every legal root move.
    let pos =
        Position::from_text("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let mut out = Vec::new();
    let total = sente::perft::perft_divide(&pos, 2, &mut out).unwrap();
    assert_eq!(total, 2039);
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text.lines()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count(),
        48
    );
    assert!(text.contains("e1g1: ") && text.contains("e1c1: "));
}
