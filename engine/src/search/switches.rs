//! Run-time switches of the search: techniques a match or self-play turns on or off by name
//! (`name=on|off`), declared once in the `search_switches!` list below with each game's default.
//! A technique proven in both games is plain code, one proven in a single game is a `Game`
//! constant; a new experiment gets a switch here, and a switch that fails its test is deleted
//! (`docs/search-tuning.md`, policy).

use super::change_list::split_changes;
use crate::game::Game;

macro_rules! search_switches {
    ($($(#[doc = $doc:expr])* $name:ident: $default:expr;)*) => {
        /// Which switched techniques the search uses (see each field).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchFeatures {
            $($(#[doc = $doc])* pub $name: bool,)*
        }

        impl SearchFeatures {
            /// The switches' names, as `with_changes` takes them.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name),)*];

            /// The engine's switches in game `G`: each one's default there.
            pub fn for_game<G: Game>() -> Self {
                Self { $($name: $default,)* }
            }

            fn switch(&mut self, name: &str) -> Option<&mut bool> {
                match name {
                    $(stringify!($name) => Some(&mut self.$name),)*
                    _ => None,
                }
            }
        }
    };
}

search_switches! {
    /// The static evaluation is scaled by the material left on the board
    /// (`Game::board_material`): by (`material_scale_base` + material / `material_scale_divisor`)
    /// / 1024 (`SearchParams`), so a search ahead keeps material and one behind trades it. On
    /// where `Game::MATERIAL_SCALING` says so (chess); self-play turns it off
    /// (`datagen::generate::DATAGEN_SEARCH`) so that recorded scores keep the net's own units.
    /// Games without a board material (shogi) are unchanged either way.
    material_scaling: G::MATERIAL_SCALING;
    /// Hindsight depth adjustment (`Game::HINDSIGHT_DEPTH`, its default): a node its parent
    /// reduced by three plies or more is searched a ply deeper when the reduced move held up,
    /// one reduced by two or more a ply shallower when both sides' evaluations sum above a
    /// margin. On in chess; under test in shogi.
    hindsight_depth: G::HINDSIGHT_DEPTH;
}

impl SearchFeatures {
    /// The switches that differ from `base`, as `with_changes` takes them (empty when none do).
    pub fn changes_from(&self, base: Self) -> String {
        let (mut this, mut base) = (*self, base);
        Self::NAMES
            .iter()
            .filter_map(|name| {
                let value = *this.switch(name)?;
                (value != *base.switch(name)?)
                    .then(|| format!("{name}={}", if value { "on" } else { "off" }))
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// These switches changed by a comma-separated list of `name=on|off` (e.g.
    /// `material_scaling=off`); an empty list changes nothing.
    pub fn with_changes(mut self, changes: &str) -> Result<Self, String> {
        for (name, value) in split_changes(changes, "name=on or name=off")? {
            let change = format!("{name}={value}");
            let value = match value {
                "on" | "true" | "1" => true,
                "off" | "false" | "0" => false,
                _ => return Err(format!("`{change}`: the value must be on or off")),
            };
            *self.switch(name).ok_or_else(|| {
                format!(
                    "unknown search feature `{name}` (known: {})",
                    Self::NAMES.join(", ")
                )
            })? = value;
        }
        Ok(self)
    }

    /// Whether `changes` names only real switches with on/off values (the names are the same in
    /// every game): for checking a command line before any game is chosen.
    pub fn check_changes(changes: &str) -> Result<(), String> {
        Self::for_game::<crate::chess::Position>()
            .with_changes(changes)
            .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position as Chess;
    use crate::shogi::Position as Shogi;

    #[test]
    fn each_game_has_its_own_defaults() {
        let chess = SearchFeatures::for_game::<Chess>();
        let shogi = SearchFeatures::for_game::<Shogi>();
        assert!(chess.material_scaling && !shogi.material_scaling);
        assert!(chess.hindsight_depth && !shogi.hindsight_depth);
        assert_eq!(chess.changes_from(chess), "");
        assert_eq!(
            shogi.changes_from(chess),
            "material_scaling=off,hindsight_depth=off"
        );
        assert_eq!(
            chess.changes_from(shogi),
            "material_scaling=on,hindsight_depth=on"
        );
    }

    #[test]
    fn changes_turn_named_switches_on_and_off() {
        let chess = SearchFeatures::for_game::<Chess>();
        let off = chess.with_changes(" material_scaling = off ,").unwrap();
        assert!(!off.material_scaling);
        assert_eq!(off.changes_from(chess), "material_scaling=off");
        assert_eq!(off.with_changes("material_scaling=1"), Ok(chess));
        assert_eq!(chess.with_changes(""), Ok(chess));
        for name in SearchFeatures::NAMES {
            let flipped = chess.with_changes(&format!("{name}=off")).unwrap();
            let back = flipped.with_changes(&format!("{name}=on")).unwrap();
            assert_eq!(back.changes_from(flipped), format!("{name}=on"));
        }
        for bad in ["razoring=on", "material_scaling", "material_scaling=maybe"] {
            assert!(chess.with_changes(bad).is_err(), "{bad}");
            assert!(SearchFeatures::check_changes(bad).is_err(), "{bad}");
        }
        let unknown = chess.with_changes("razoring=on").unwrap_err();
        assert!(unknown.contains("material_scaling"), "{unknown}");
        assert_eq!(
            SearchFeatures::check_changes("material_scaling=off"),
            Ok(())
        );
    }
}
