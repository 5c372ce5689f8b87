//! Opening positions for self-play: a seeded number of random legal plies from the start
//! position, never ending the game, with the history the repetition rules need.

use crate::game::{Game, HistoryEntry};
use crate::movelist::MoveList;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A start position for a game pair and how it was reached.
#[derive(Clone, Debug)]
pub struct Opening<G: Game> {
    /// The position `moves` start from (game records begin here).
    pub start: G,
    pub position: G,
    pub moves: Vec<G::Move>,
    pub history: Vec<HistoryEntry>,
}

/// Plays `plies` uniformly random legal moves from `start`, seeded by `seed`. A line that ends
/// the game (no move, or a rule outcome) is abandoned and another is drawn; if 64 draws all
/// fail, the start position itself is the opening.
pub fn random_opening<G: Game>(start: &G, plies: u32, seed: u64) -> Opening<G> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut moves = G::Moves::default();
    for _attempt in 0..64 {
        let mut opening = Opening {
            start: start.clone(),
            position: start.clone(),
            moves: Vec::new(),
            history: Vec::new(),
        };
        let mut finished = false;
        for _ in 0..plies {
            opening.position.generate_legal(&mut moves);
            if moves.is_empty() {
                finished = true;
                break;
            }
            let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
            opening.history.push(HistoryEntry {
                hash: opening.position.hash(),
                in_check: opening.position.in_check(),
            });
            opening.position.make_move(m);
            opening.moves.push(m);
            if opening
                .position
                .rule_outcome(&opening.history, false)
                .is_some()
            {
                finished = true;
                break;
            }
        }
        opening.position.generate_legal(&mut moves);
        if !finished && !moves.is_empty() {
            return opening;
        }
    }
    Opening {
        start: start.clone(),
        position: start.clone(),
        moves: Vec::new(),
        history: Vec::new(),
    }
}
