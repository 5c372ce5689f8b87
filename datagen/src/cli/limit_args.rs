//! How long a match player thinks: a node limit (with node odds), or a real or node clock.

use crate::match_play::MoveLimits;
use clap::Args;
use sente::selfplay::TimeControl;

#[derive(Clone, Debug, Args)]
pub struct LimitArgs {
    /// Node limit per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Play on a real clock instead of a node limit: BASE+INC in seconds (e.g. `10+0.1`).
    /// The runner keeps each side's clock; a side whose clock runs out loses on time.
    #[arg(long, value_name = "BASE+INC", conflicts_with_all = ["nodes", "a_nodes", "b_nodes"])]
    pub tc: Option<TimeControl>,
    /// Node limit of the first player only (node odds, e.g. to give a slower net fewer
    /// nodes for the same time); default: --nodes.
    #[arg(long)]
    pub a_nodes: Option<u64>,
    /// Node limit of the second player only; default: --nodes.
    #[arg(long)]
    pub b_nodes: Option<u64>,
    /// With --tc: time (ms) each search keeps in reserve for the move's overhead; raise it
    /// on a busy machine if players lose on time by small margins.
    #[arg(long, default_value_t = super::match_args::MOVE_OVERHEAD_MS, requires = "tc")]
    pub move_overhead: u64,
    /// With --tc: a node clock, N nodes to the millisecond (Stockfish's "nodestime"). Both
    /// players budget and are charged searched nodes instead of wall time, so a time
    /// management change is measured free of machine load and the match is reproducible.
    #[arg(long, value_name = "N", requires = "tc", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes_time: Option<u64>,
    /// With --nodes-time: the first player's own nodes to the millisecond (speed odds on the
    /// node clock: a build or switch that searches faster by some share gets that share more
    /// nodes for each millisecond, so the load-free node clock charges its speed as a real
    /// clock would); default: --nodes-time.
    #[arg(long, value_name = "N", requires = "nodes_time", value_parser = clap::value_parser!(u64).range(1..))]
    pub a_nodes_time: Option<u64>,
    /// With --nodes-time: the second player's own nodes to the millisecond; default:
    /// --nodes-time.
    #[arg(long, value_name = "N", requires = "nodes_time", value_parser = clap::value_parser!(u64).range(1..))]
    pub b_nodes_time: Option<u64>,
    /// With --tc: the `+INC` of the time control is a byoyomi period (shogi: once main time
    /// is spent, each move may take that long; unused byoyomi is lost), as `scripts/match.py
    /// --byoyomi` reads it.
    #[arg(long, requires = "tc")]
    pub byoyomi: bool,
}

impl LimitArgs {
    /// The players' limits.
    pub fn move_limits(&self) -> MoveLimits {
        MoveLimits {
            nodes: [
                self.a_nodes.unwrap_or(self.nodes),
                self.b_nodes.unwrap_or(self.nodes),
            ],
            tc: self.tc.map(|tc| tc.with_byoyomi(self.byoyomi)),
            move_overhead_ms: self.move_overhead,
            nodes_per_ms: [self.a_nodes_time, self.b_nodes_time]
                .map(|own| own.or(self.nodes_time).unwrap_or(0)),
        }
    }
}
