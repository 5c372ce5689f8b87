//! Principal-variation hygiene: the reported line is cut at the first move that is not legal or
//! that would be played after the game has ended.

use crate::game::{Game, GameMove, HistoryEntry};
use crate::movelist::MoveList;

/// The longest prefix of `line` that is legal from `root` and does not run past a finished game.
pub fn legal_prefix<G: Game>(root: &G, line: &[G::Move]) -> Vec<G::Move> {
    let mut pos = root.clone();
    let mut history: Vec<HistoryEntry> = Vec::new();
    let mut out = Vec::with_capacity(line.len());
    let mut moves = G::Moves::default();
    for &m in line {
        if !m.is_some() || !pos.is_legal_move(m) {
            break;
        }
        if !out.is_empty() {
            pos.generate_legal(&mut moves);
            if moves.is_empty() || pos.rule_outcome(&history, false).is_some() {
                break;
            }
        }
        history.push(HistoryEntry {
            hash: pos.hash(),
            in_check: pos.in_check(),
        });
        pos.make_move(m);
        out.push(m);
    }
    out
}
