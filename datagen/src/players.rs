//! What datagen needs per game beyond the `Game` trait: its start positions (chess: optionally
//! Chess960 / double Fischer random) and its evaluators by name (`classical` or a net file).

use anyhow::{Context, Result};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sente::game::Game;
use sente::nnue::{EvalChoice, GameEval, NnueGame};

/// `classical`, `default` (the embedded net, or classical without one) or a net file: the
/// engine's evaluator names (`EvalChoice::from_name`).
pub fn load_eval<G: NnueGame>(spec: &str) -> Result<GameEval<G>> {
    GameEval::select(EvalChoice::from_name(spec))
        .with_context(|| format!("loading the {} net '{}'", G::NAME, spec.trim()))
}

/// A game datagen can generate data for.
pub trait DatagenGame: NnueGame {
    /// `classical`, `default` or a net file.
    fn load_eval(spec: &str) -> Result<GameEval<Self>> {
        load_eval(spec)
    }
    /// The start position; `dfrc` asks for random Chess960 back ranks (games that have them).
    fn start_position(dfrc: bool) -> Self;
    /// The start position for game `seed` (chess DFRC draws the back ranks from it).
    fn start_for_game(dfrc: bool, seed: u64) -> Self {
        let _ = seed;
        Self::start_position(dfrc)
    }
}

impl DatagenGame for sente::chess::Position {
    fn start_position(dfrc: bool) -> Self {
        if dfrc {
            Self::start_for_game(true, 0)
        } else {
            Self::startpos()
        }
    }

    fn start_for_game(dfrc: bool, seed: u64) -> Self {
        if !dfrc {
            return Self::startpos();
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let white = chess960_back_rank(rng.next_u64() % 960);
        let black = chess960_back_rank(rng.next_u64() % 960);
        let fen = format!(
            "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1",
            black.to_ascii_lowercase(),
            white
        );
        let mut pos = Self::from_text(&fen).expect("a Chess960 back rank makes a legal FEN");
        pos.set_chess960(true);
        pos
    }
}

impl DatagenGame for sente::shogi::Position {
    fn start_position(_dfrc: bool) -> Self {
        Self::startpos()
    }
}

/// The back rank of Chess960 position `index` (0..960, Scharnagl numbering; 518 is the standard
/// `RNBQKBNR`).
pub fn chess960_back_rank(index: u64) -> String {
    let mut rank = [' '; 8];
    let mut n = index % 960;
    let light = (n % 4) as usize;
    n /= 4;
    rank[2 * light + 1] = 'B';
    let dark = (n % 4) as usize;
    n /= 4;
    rank[2 * dark] = 'B';
    let queen = (n % 6) as usize;
    n /= 6;
    place_in_nth_empty(&mut rank, queen, 'Q');
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (k1, k2) = KNIGHTS[n as usize];
    // Place the second knight first so the first one's index is not shifted.
    place_in_nth_empty(&mut rank, k2, 'N');
    place_in_nth_empty(&mut rank, k1, 'N');
    for piece in ['R', 'K', 'R'] {
        place_in_nth_empty(&mut rank, 0, piece);
    }
    rank.iter().collect()
}

fn place_in_nth_empty(rank: &mut [char; 8], nth: usize, piece: char) {
    let square = rank
        .iter()
        .enumerate()
        .filter(|(_, &c)| c == ' ')
        .nth(nth)
        .map(|(i, _)| i)
        .expect("enough empty squares");
    rank[square] = piece;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn chess960_numbering_matches_the_standard_table() {
        assert_eq!(chess960_back_rank(518), "RNBQKBNR");
        assert_eq!(chess960_back_rank(0), "BBQNNRKR");
        let all: HashSet<String> = (0..960).map(chess960_back_rank).collect();
        assert_eq!(all.len(), 960);
        for rank in &all {
            let k = rank.find('K').unwrap();
            assert!(
                rank[..k].contains('R') && rank[k + 1..].contains('R'),
                "{rank}"
            );
        }
    }

    #[test]
    fn dfrc_starts_are_legal_and_seeded() {
        let a = <sente::chess::Position as DatagenGame>::start_for_game(true, 5);
        let b = <sente::chess::Position as DatagenGame>::start_for_game(true, 5);
        assert_eq!(a.to_text(), b.to_text());
        assert!(a.perft(2) > 300);
    }
}
