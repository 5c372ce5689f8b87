//! Perft with per-move breakdown (`<move>: <count>` lines then `Nodes searched: <N>`), generic
//! over the game.

use crate::game::Game;
use crate::movelist::MoveList;
use std::io::Write;

/// Runs a perft "divide" to `depth`, writing one line per root move and the total, in
/// Stockfish's format. Returns the total.
pub fn perft_divide<G: Game>(pos: &G, depth: u32, out: &mut dyn Write) -> std::io::Result<u64> {
    let mut moves = G::Moves::default();
    pos.generate_legal(&mut moves);
    let mut total = 0;
    for &m in moves.as_slice() {
        let count = if depth <= 1 {
            1
        } else {
            let mut child = pos.clone();
            child.make_move(m);
            child.perft(depth - 1)
        };
        total += count;
        writeln!(out, "{}: {}", pos.format_move(m), count)?;
    }
    if depth == 0 {
        total = 1;
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    out.flush()?;
    Ok(total)
}
