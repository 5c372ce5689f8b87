//! Single-thread shogi perft timing from the start position: depth 5 (19,861,490 leaves) for a
//! quick number, then depth 6 (547,581,517). `SHOGI_BENCH_DEPTH=5` skips depth 6;
//! `SHOGI_BENCH_DEPTH=1..4` runs only that depth (for instruction counts under valgrind).

use sente::game::Game;
use sente::shogi::Position;
use std::time::Instant;

fn run(depth: u32, expected: u64) {
    let pos = Position::startpos();
    let start = Instant::now();
    let nodes = pos.perft(depth);
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(nodes, expected, "perft({depth}) is wrong");
    println!(
        "shogi perft startpos depth {depth}: {nodes} leaves in {secs:.3} s = {:.1} M leaves/s",
        nodes as f64 / secs / 1e6
    );
}

fn main() {
    let max_depth: u32 = std::env::var("SHOGI_BENCH_DEPTH")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    const EXPECTED: [u64; 7] = [1, 30, 900, 25_470, 719_731, 19_861_490, 547_581_517];
    if max_depth < 5 {
        // Short runs for instruction counting under valgrind.
        run(max_depth, EXPECTED[max_depth as usize]);
        return;
    }
    run(5, EXPECTED[5]);
    if max_depth >= 6 {
        run(6, EXPECTED[6]);
    }
}
