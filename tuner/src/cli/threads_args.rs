//! `--threads`, shared by the subcommands that compute in parallel: the size of rayon's pool.

use super::arg_parsers::at_least_one;
use anyhow::Result;
use clap::Args;

#[derive(Clone, Debug, Args)]
pub struct ThreadsArgs {
    #[arg(long, default_value_t = 2, value_parser = at_least_one)]
    pub threads: usize,
}

impl ThreadsArgs {
    /// Runs rayon's work on `threads` threads.
    pub fn use_threads(&self) -> Result<()> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.max(1))
            .build_global()?;
        Ok(())
    }
}
