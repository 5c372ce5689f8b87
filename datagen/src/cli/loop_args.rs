//! `datagen loop`: the network loop of one game, configured by a TOML file.

use crate::loop_config::LoopConfig;
use crate::loop_runner::{run_loop, LoopLimits};
use crate::loop_state::LoopState;
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;

#[derive(Clone, Debug, Args)]
pub struct LoopArgs {
    /// The loop's settings (e.g. datagen/loop/chess.toml; keys in docs/retraining.md).
    #[arg(long, value_name = "FILE.toml")]
    pub config: PathBuf,
    /// Stop after this many steps; the next start goes on from the state they left.
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// Check the config, print the loop's state and exit.
    #[arg(long, conflicts_with = "publish")]
    pub status: bool,
    /// Only copy the promotions into the repository's nets/ (history.tsv, README.md, the
    /// default net, the Elo plot), then exit.
    #[arg(long, conflicts_with = "efficiency")]
    pub publish: bool,
    /// Print the loop's cost per generation from GAME/efficiency.tsv (CPU-hours by step, work
    /// per CPU-second, Elo per CPU-hour of each promotion), then exit.
    #[arg(long, conflicts_with = "status")]
    pub efficiency: bool,
}

impl LoopArgs {
    pub fn execute(&self) -> Result<()> {
        let config = LoopConfig::load(&self.config)?;
        if self.status {
            let game = config.data.join(config.game.name());
            match LoopState::read(&game)? {
                Some(state) => sente::try_print!("{}", toml::to_string(&state)?)?,
                None => sente::try_println!("no loop state in {} yet", game.display())?,
            }
            return Ok(());
        }
        if self.efficiency {
            let game = config.data.join(config.game.name());
            let report = crate::loop_efficiency_report::report(&game)
                .with_context(|| format!("reading the efficiency rows in {}", game.display()))?;
            for warning in &report.warnings {
                sente::eprintln_best_effort!("warning: {warning}");
            }
            sente::try_print!("{}", report.text)?;
            return Ok(());
        }
        if self.publish {
            std::env::set_current_dir(&config.data)?;
            let _lock = crate::loop_runner::lock_loop(config.game.name())?;
            crate::loop_publish::publish(&config)?;
            return Ok(());
        }
        run_loop(
            &config,
            LoopLimits {
                max_steps: self.max_steps,
            },
        )
    }
}
