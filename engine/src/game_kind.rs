//! The registry of games: `GameKind` names each game the engine knows, gives its command-line
//! name and the numeric id that net files and data chunks store, and `dispatch_game!` is the one
//! place where a `GameKind` chosen at run time becomes a game type (`chess::Position`,
//! `shogi::Position`) for generic code.
//!
//! Adding a game means a variant here, a line in each of `ALL`, `name`, `id` and `from_id`, and an
//! arm in `dispatch_game!` (see docs/architecture.md, "adding a game").

use std::fmt;
use std::str::FromStr;

/// A game the engine plays. On the command line it is `chess` or `shogi` (clap `ValueEnum`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum GameKind {
    Chess,
    Shogi,
}

impl GameKind {
    /// Every registered game, in id order.
    pub const ALL: [GameKind; 2] = [GameKind::Chess, GameKind::Shogi];

    /// Short lowercase name: the command-line value, run.txt / pool manifest field and messages.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Chess => "chess",
            GameKind::Shogi => "shogi",
        }
    }

    /// The game id stored in net file headers and data chunk headers.
    pub const fn id(self) -> u32 {
        match self {
            GameKind::Chess => 0,
            GameKind::Shogi => 1,
        }
    }

    /// The game of a stored id, if it is one.
    pub const fn from_id(id: u32) -> Option<GameKind> {
        match id {
            0 => Some(GameKind::Chess),
            1 => Some(GameKind::Shogi),
            _ => None,
        }
    }

    /// The game of a name (`chess`, `shogi`), if it is one.
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a registered game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.name()).collect();
        write!(
            f,
            "unknown game '{}' (expected {})",
            self.0,
            names.join(" or ")
        )
    }
}

impl std::error::Error for UnknownGame {}

impl FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        GameKind::from_name(text).ok_or_else(|| UnknownGame(text.to_string()))
    }
}

/// Runs `body` with the type name `G` bound to the position type of the game `kind`:
/// `dispatch_game!(kind, G => print_stats::<G>(&files))`. The one run-time-to-type dispatch.
#[macro_export]
macro_rules! dispatch_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::game_kind::GameKind::Chess => {
                #[allow(dead_code)]
                type $G = $crate::chess::Position;
                $body
            }
            $crate::game_kind::GameKind::Shogi => {
                #[allow(dead_code)]
                type $G = $crate::shogi::Position;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn names_ids_and_types_agree() {
        for kind in GameKind::ALL {
            assert_eq!(GameKind::from_name(kind.name()), Some(kind));
            assert_eq!(GameKind::from_id(kind.id()), Some(kind));
            assert_eq!(kind.to_string().parse::<GameKind>(), Ok(kind));
            let (name, game_kind) = dispatch_game!(kind, G => (G::NAME, G::KIND));
            assert_eq!(name, kind.name());
            assert_eq!(game_kind, Some(kind));
        }
        assert_eq!(GameKind::from_id(2), None);
        assert_eq!(
            "go".parse::<GameKind>().unwrap_err().to_string(),
            "unknown game 'go' (expected chess or shogi)"
        );
    }
}
