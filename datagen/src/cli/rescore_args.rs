//! `datagen rescore`: the rescoring's settings (`RescoreSettings`, which `datagen loop` fills in
//! too) and the Syzygy tables that label the positions they hold (chess).

use crate::rescore::RescoreSettings;
use anyhow::{bail, Result};
use clap::Args;
use sente::game::GameKind;

#[derive(Clone, Debug, Args)]
pub struct RescoreArgs {
    #[command(flatten)]
    pub settings: RescoreSettings,
    /// Chess: Syzygy endgame tables (directories, ':'-separated). Scored positions they hold
    /// (within their piece count, no castling rights) get the tables' result as their score
    /// instead of a search: ±4000 for a win or loss the 50-move rule allows, 0 for a draw.
    #[arg(long, value_name = "DIRS")]
    pub syzygy: Option<String>,
}

impl RescoreArgs {
    pub fn execute(&self) -> Result<()> {
        let game = self.settings.game;
        if self.syzygy.is_some() && game != GameKind::Chess {
            bail!("--syzygy is for chess (Syzygy endgame tables); {game} has none");
        }
        crate::rescore::execute(&self.settings, self.syzygy.as_deref())
    }
}
