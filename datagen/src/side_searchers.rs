//! Which searchers play the two sides of a self-play game: one searcher for both sides, whose
//! transposition table and histories carry each side's search into the reply (as an engine that
//! analyses a whole game keeps them, and as the field's generators play), or one searcher per
//! side, each seeing only its own searches (the generator of runs made before `shared`).
//! `BothSides` lends one player to both sides of `play_game_with_tables`.

use anyhow::{bail, Result};
use sente::game::{Game, HistoryEntry};
use sente::search::SearchResult;
use sente::selfplay::SelfPlayer;
use serde::Deserialize;
use std::cell::RefCell;
use std::fmt;
use std::str::FromStr;

/// The searchers of a game's two sides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SideSearchers {
    /// One searcher moves for both sides: its table holds the opponent's search of the
    /// position it is asked about.
    #[default]
    Shared,
    /// A searcher per side.
    PerSide,
}

impl SideSearchers {
    pub const NAMES: [&'static str; 2] = ["shared", "per-side"];
}

impl FromStr for SideSearchers {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> Result<Self> {
        match text {
            "shared" => Ok(Self::Shared),
            "per-side" => Ok(Self::PerSide),
            other => bail!(
                "'{other}' is not a choice of searchers: give {}",
                Self::NAMES.join(" or ")
            ),
        }
    }
}

impl fmt::Display for SideSearchers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Shared => "shared",
            Self::PerSide => "per-side",
        })
    }
}

/// One side's seat for a player that moves for both sides. Only the seat made with `clears`
/// forgets the previous game, so the player is cleared once per game.
pub struct BothSides<'a, 'p, G: Game> {
    player: &'a RefCell<&'p mut dyn SelfPlayer<G>>,
    clears: bool,
}

impl<'a, 'p, G: Game> BothSides<'a, 'p, G> {
    /// The two seats of `player`, first side first.
    pub fn seats(player: &'a RefCell<&'p mut dyn SelfPlayer<G>>) -> [Self; 2] {
        [
            Self {
                player,
                clears: true,
            },
            Self {
                player,
                clears: false,
            },
        ]
    }
}

impl<G: Game> SelfPlayer<G> for BothSides<'_, '_, G> {
    fn new_game(&mut self) {
        if self.clears {
            self.player.borrow_mut().new_game();
        }
    }

    fn choose(&mut self, position: &G, history: &[HistoryEntry]) -> SearchResult<G::Move> {
        self.player.borrow_mut().choose(position, history)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente::chess::Position;
    use sente::selfplay::{play_game, random_opening, Adjudication, PlayerConfig, SearchPlayer};

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        for name in SideSearchers::NAMES {
            assert_eq!(name.parse::<SideSearchers>().unwrap().to_string(), name);
        }
        let error = "both".parse::<SideSearchers>().unwrap_err().to_string();
        assert!(
            error.contains("'both'") && error.contains("per-side"),
            "{error}"
        );
        assert_eq!(SideSearchers::default(), SideSearchers::Shared);
    }

    /// A player that counts its calls, so the seats' forwarding can be checked.
    struct Counter {
        new_games: u32,
        inner: SearchPlayer<Position, sente::chess::ClassicalEval>,
    }

    impl SelfPlayer<Position> for Counter {
        fn new_game(&mut self) {
            self.new_games += 1;
            self.inner.new_game();
        }
        fn choose(
            &mut self,
            position: &Position,
            history: &[HistoryEntry],
        ) -> SearchResult<<Position as Game>::Move> {
            self.inner.choose(position, history)
        }
    }

    #[test]
    fn one_player_moves_for_both_sides_and_is_cleared_once_a_game() {
        let config = PlayerConfig::with_nodes::<Position>("both", Default::default(), 300);
        let mut counter = Counter {
            new_games: 0,
            inner: SearchPlayer::new(config),
        };
        let opening = random_opening(&Position::startpos(), 4, 7);
        let adjudication = Adjudication {
            max_plies: 40,
            ..Adjudication::default()
        };
        let shared = {
            let cell: RefCell<&mut dyn SelfPlayer<Position>> = RefCell::new(&mut counter);
            let [mut first, mut second] = BothSides::seats(&cell);
            play_game(&opening, [&mut first, &mut second], &adjudication)
        };
        assert_eq!(counter.new_games, 1);
        assert!(shared.moves.len() >= 2, "both sides moved");
        // Every move is legal in turn: the one player answered for each side.
        let mut position = opening.position;
        for &m in &shared.moves {
            assert!(position.is_legal_move(m));
            position.make_move(m);
        }
    }
}
