//! Single-thread chess perft timing: startpos depth 6 and kiwipete depth 5, with the preferred
//! slider back end and (for comparison) each back end forced. Run with
//! `cargo bench -p sente --bench chess_perft`.

use sente::chess::Position;
use sente::game::Game;
use sente::movelist::MoveList;
use std::time::Instant;

fn time(label: &str, expected: u64, run: impl Fn() -> u64) {
    let start = Instant::now();
    let nodes = run();
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(nodes, expected, "{label}: wrong node count");
    println!(
        "{label:<34} {nodes:>12} nodes {secs:>8.3} s {:>9.1} Mnps",
        nodes as f64 / secs / 1e6
    );
}

/// Perft through the public trait calls only (one back-end dispatch per call), as a search
/// would use them.
fn trait_perft(pos: &Position, depth: u32) -> u64 {
    let mut moves = <Position as Game>::Moves::default();
    pos.generate_legal(&mut moves);
    if depth <= 1 {
        return moves.len() as u64;
    }
    moves
        .as_slice()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.make_move(m);
            trait_perft(&child, depth - 1)
        })
        .sum()
}

fn main() {
    let cases = [
        ("startpos d6", Position::startpos(), 6, 119_060_324u64),
        (
            "kiwipete d5",
            Position::from_text(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            )
            .expect("kiwipete FEN"),
            5,
            193_690_690,
        ),
    ];
    // Build the tables before timing.
    let _ = Position::startpos().perft(1);
    for (name, pos, depth, expected) in &cases {
        time(&format!("{name} (preferred back end)"), *expected, || {
            pos.perft(*depth)
        });
        time(&format!("{name} (magic)"), *expected, || {
            pos.perft_with_magic(*depth)
        });
        time(&format!("{name} (trait calls)"), *expected, || {
            trait_perft(pos, *depth)
        });
        if pos.perft_with_pext(1).is_some() {
            time(&format!("{name} (pext)"), *expected, || {
                pos.perft_with_pext(*depth).unwrap_or(0)
            });
        }
    }
}
