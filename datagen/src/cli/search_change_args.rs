//! Search changes from a game's defaults: the switches self-play searches with (`run`,
//! `rescore`), and each match player's switches and parameters (`match`).

use anyhow::Result;
use clap::Args;
use sente::search::{SearchFeatures, SearchParams};

/// The search switches of self-play (both sides) or of rescoring.
#[derive(Clone, Debug, Args)]
pub struct SearchChangeArgs {
    /// Search switches changed from the game's defaults: `name=on|off,...` (`datagen match
    /// --a-search` takes the same). The default keeps `material_scaling` out of the recorded
    /// scores, so the data is in the net's own units.
    #[arg(long, default_value = crate::generate::DATAGEN_SEARCH)]
    pub search: String,
}

/// Each match player's search switches and parameters.
#[derive(Clone, Debug, Args)]
pub struct PlayerSearchArgs {
    /// Search switches of the first player, changed from the defaults: `name=on|off,...`
    /// (e.g. `material_scaling=off`), so one binary measures a search technique.
    #[arg(long, default_value = "")]
    pub a_search: String,
    /// Search switches of the second player (as `--a-search`).
    #[arg(long, default_value = "")]
    pub b_search: String,
    /// Search parameters of the first player, changed from the defaults: `name=value,...`
    /// (e.g. `rfp_margin=90,lmr_base=70`, as `datagen spsa` prints them).
    #[arg(long, default_value = "")]
    pub a_params: String,
    /// Search parameters of the second player (as `--a-params`).
    #[arg(long, default_value = "")]
    pub b_params: String,
}

impl PlayerSearchArgs {
    /// `[[switches, params]; 2]` of the two players, checked (names and ranges are the same in
    /// every game; `play_match` applies them to the game's own defaults).
    pub fn checked(&self) -> Result<[[String; 2]; 2]> {
        for changes in [&self.a_search, &self.b_search] {
            SearchFeatures::check_changes(changes).map_err(anyhow::Error::msg)?;
        }
        for changes in [&self.a_params, &self.b_params] {
            SearchParams::default()
                .with_changes(changes)
                .map_err(anyhow::Error::msg)?;
        }
        Ok([
            [self.a_search.clone(), self.a_params.clone()],
            [self.b_search.clone(), self.b_params.clone()],
        ])
    }
}
