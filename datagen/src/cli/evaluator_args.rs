//! The evaluator option, one name everywhere: `--net` for a subcommand with one evaluator
//! (`run`, `rescore`, `spsa`; `--eval` is kept as an alias), `--a-net` / `--b-net` for the two
//! players of a match (`--a` / `--b` kept as aliases). A subcommand sets its own default with
//! `mut_arg`.

use clap::Args;

/// The one evaluator of a subcommand.
#[derive(Clone, Debug, Args)]
pub struct EvaluatorArgs {
    /// Evaluator: `classical`, `default` (the embedded net) or a net file.
    #[arg(long, alias = "eval", value_name = "NET")]
    pub net: String,
}

/// The evaluators of a match's two players.
#[derive(Clone, Debug, Args)]
pub struct PlayerNetArgs {
    /// First player's evaluator: `classical`, `default` or a net file.
    #[arg(long, alias = "a", value_name = "NET")]
    pub a_net: String,
    /// Second player's evaluator: `classical`, `default` or a net file.
    #[arg(long, alias = "b", value_name = "NET")]
    pub b_net: String,
}
