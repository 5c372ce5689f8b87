//! Perft with per-move breakdown (`<move>: <count>` lines then `Nodes searched: <N>`), generic
//! over the game, stoppable from another thread (protocol `go perft` runs on its own thread so
//! that `stop`, `isready` and `quit` keep working), and the depth bound every caller checks.

use crate::game::Game;
use crate::movelist::MoveList;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// The deepest perft accepted: chess perft 14 already overflows a 64-bit count (and perft 13
/// would run for centuries), so deeper requests are refused rather than run without end.
pub const MAX_PERFT_DEPTH: u32 = 13;

/// Subtrees this shallow are counted by the game's own (bulk-counting) perft without stop
/// checks; they take well under a second in any position.
const UNCHECKED_DEPTH: u32 = 3;

/// Refuses depths above `MAX_PERFT_DEPTH` with a message for the user.
pub fn check_depth(depth: u32) -> Result<(), String> {
    if depth > MAX_PERFT_DEPTH {
        Err(format!(
            "perft depth {depth} is too deep: at most {MAX_PERFT_DEPTH} (deeper counts overflow \
             64 bits and would never finish)"
        ))
    } else {
        Ok(())
    }
}

/// Runs a perft "divide" to `depth`, writing one line per root move and the total, in
/// Stockfish's format (depth 0: no move list, one node). Returns the total.
pub fn perft_divide<G: Game>(pos: &G, depth: u32, out: &mut dyn Write) -> std::io::Result<u64> {
    let never = AtomicBool::new(false);
    let total = perft_divide_until(pos, depth, &never, &mut |line| writeln!(out, "{line}"))?;
    out.flush()?;
    Ok(total.unwrap_or(0))
}

/// `perft_divide` that gives up as soon as `stop` is set (then `Ok(None)` and no total line).
/// `line` receives each output line without its line ending.
pub fn perft_divide_until<G: Game>(
    pos: &G,
    depth: u32,
    stop: &AtomicBool,
    line: &mut dyn FnMut(&str) -> std::io::Result<()>,
) -> std::io::Result<Option<u64>> {
    if depth == 0 {
        line("")?;
        line("Nodes searched: 1")?;
        return Ok(Some(1));
    }
    let mut moves = G::Moves::default();
    pos.generate_legal(&mut moves);
    let mut total: u64 = 0;
    for &m in moves.as_slice() {
        let count = if depth == 1 {
            1
        } else {
            let mut child = pos.clone();
            child.make_move(m);
            match perft_until(&child, depth - 1, stop) {
                Some(count) => count,
                None => return Ok(None),
            }
        };
        total = total.saturating_add(count);
        line(&format!("{}: {}", pos.format_move(m), count))?;
    }
    line("")?;
    line(&format!("Nodes searched: {total}"))?;
    Ok(Some(total))
}

/// Leaf count to `depth`, or `None` once `stop` is set.
fn perft_until<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= UNCHECKED_DEPTH {
        return Some(pos.perft(depth));
    }
    let mut moves = G::Moves::default();
    pos.generate_legal(&mut moves);
    let mut total: u64 = 0;
    for &m in moves.as_slice() {
        let mut child = pos.clone();
        child.make_move(m);
        total = total.saturating_add(perft_until(&child, depth - 1, stop)?);
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_zero_is_one_node_without_a_move_list() {
        let mut out = Vec::new();
        let total = perft_divide(&crate::chess::Position::startpos(), 0, &mut out).unwrap();
        assert_eq!(total, 1);
        assert_eq!(String::from_utf8(out).unwrap(), "\nNodes searched: 1\n");
    }

    #[test]
    fn a_set_stop_flag_ends_any_depth_at_once() {
        let stop = AtomicBool::new(true);
        let pos = crate::chess::Position::startpos();
        let mut lines = Vec::new();
        let result = perft_divide_until(&pos, MAX_PERFT_DEPTH, &stop, &mut |l| {
            lines.push(l.to_string());
            Ok(())
        });
        assert_eq!(result.unwrap(), None);
        assert!(lines.is_empty());
        let stop = AtomicBool::new(false);
        let mut out = Vec::new();
        assert_eq!(perft_divide(&pos, 4, &mut out).unwrap(), 197_281);
        assert!(perft_until(&pos, 5, &stop) == Some(4_865_609));
    }

    #[test]
    fn depth_bound() {
        assert!(check_depth(MAX_PERFT_DEPTH).is_ok());
        assert!(check_depth(99).unwrap_err().contains("at most 13"));
    }
}
