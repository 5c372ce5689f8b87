//! Shared by the perft tests: the rows of a `testdata/<game>_perft.tsv` table (columns found by
//! their header names) and checking a game's perft against them.

#![allow(dead_code)] // Each test binary uses a different part.

use sente::game::Game;

/// Rows above this many nodes run only in the ignored tests.
pub const BIG: u64 = 50_000_000;

/// One row: a named position, a depth and the leaf count it must give.
pub struct Row {
    pub name: String,
    pub position: String,
    pub depth: u32,
    pub nodes: u64,
}

/// The rows of `table`, whose header names the columns `name`, `position_column` (`fen`,
/// `sfen`), `depth` and `nodes`; other columns are ignored.
pub fn rows(table: &str, position_column: &str) -> Vec<Row> {
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (name, position, depth, nodes) = (
        col("name"),
        col(position_column),
        col("depth"),
        col("nodes"),
    );
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), header.len(), "bad row {l}");
            Row {
                name: f[name].to_string(),
                position: f[position].to_string(),
                depth: f[depth].parse().expect("depth"),
                nodes: f[nodes].parse().expect("nodes"),
            }
        })
        .collect()
}

/// Checks each row's perft, after `inspect` has seen its parsed position; fails listing every
/// mismatch. Returns how many rows were checked.
pub fn check<'a, G: Game>(
    rows: impl Iterator<Item = &'a Row>,
    inspect: impl Fn(&Row, &G),
) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for row in rows {
        let pos = G::from_text(&row.position)
            .unwrap_or_else(|e| panic!("{}: bad position {}: {e}", row.name, row.position));
        inspect(row, &pos);
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
