//! Perft of every row of `testdata/chess_perft.tsv` must match exactly. Rows whose FEN uses
//! Shredder/X-FEN castling letters (the `frc-*` rows) run in Chess960 mode, which the FEN
//! parser switches on by itself; rows above 50M nodes run only in the ignored test.

mod perft_support;

use perft_support::{Row, BIG};
use sente::chess::Position;
use sente::game::Game;

fn rows() -> Vec<Row> {
    perft_support::rows(include_str!("../testdata/chess_perft.tsv"), "fen")
}

/// The rows' perft, each `frc-*` row read as Chess960.
fn check<'a>(rows: impl Iterator<Item = &'a Row>) {
    let checked = perft_support::check(rows, |row, pos: &Position| {
        if row.name.starts_with("frc") {
            assert!(pos.is_chess960(), "{} should be read as Chess960", row.name);
        }
    });
    assert!(checked > 0);
}

#[test]
fn perft_rows_up_to_50m_nodes() {
    check(rows().iter().filter(|r| r.nodes <= BIG));
}

#[test]
#[ignore = "runs the rows above 50M nodes (minutes)"]
fn perft_rows_above_50m_nodes() {
    check(rows().iter().filter(|r| r.nodes > BIG));
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
