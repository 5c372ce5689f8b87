//! `datagen`'s command line: the subcommands, one argument struct each in its own module, with
//! the groups they share (evaluator, openings, limits, search changes) flattened in. `main`
//! parses [`Cli`] and calls [`Command::execute`].

pub mod digest_args;
pub mod evaluator_args;
pub mod limit_args;
pub mod loop_args;
pub mod match_args;
pub mod match_merge_args;
pub mod opening_args;
pub mod pool_args;
pub mod positions_args;
pub mod rescore_args;
pub mod run_args;
pub mod search_change_args;
pub mod stats_args;
pub mod verify_args;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(version, about = "Sente self-play data generation and matches")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

// Parsed once per process: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub enum Command {
    /// Generate self-play games into DIR/data.bin (resumes a killed run with the same arguments).
    Run(run_args::RunArgs),
    /// Re-label the scores of existing data (files, run directories, pools) with EVALUATOR at
    /// --nodes per position into OUT/data.bin (resumes a killed rescoring with the same
    /// arguments); `pool add` takes OUT.
    Rescore(rescore_args::RescoreArgs),
    /// Games, positions, results and histograms of data files (a run directory stands for its
    /// data file, a pool for its files).
    Stats(stats_args::StatsArgs),
    /// Check every chunk's checksum and replay every game through the rules (data files, run
    /// directories, pools).
    Verify(verify_args::VerifyArgs),
    /// Write data in another trainer's format (text, bulletformat, viriformat, binpack, psv,
    /// hcpe), through the trainer's position filters.
    Export(crate::export::ExportArgs),
    /// Print every EVERY-th recorded position (FEN / SFEN, one per line) of data files, e.g. as
    /// `sente bench GAME --positions FILE` input.
    Positions(positions_args::PositionsArgs),
    /// Play paired games between two evaluators (node limit or real clock) and report Elo,
    /// losses on time and an SPRT verdict.
    Match(match_args::MatchArgs),
    /// Tune the search parameters by SPSA over fixed-node self-play (resumable from --state);
    /// prints the tuned values for `match --a-params`.
    Spsa(crate::tune::SpsaSettings),
    /// Data pools: directories of verified datagen files with a manifest (pool.tsv).
    Pool {
        #[command(subcommand)]
        command: pool_args::PoolCommand,
    },
    /// Canonical listing of the games of pools, run directories or data files (with run.txt
    /// beside them), by (seed, nodes, global game index): equal digests, equal games.
    Digest(digest_args::DigestArgs),
    /// Combine `match --result` files (shards, and rounds with other seeds) into one Elo ± error
    /// and an optional SPRT verdict.
    MatchMerge(match_merge_args::MatchMergeArgs),
    /// The network loop of one game (rescore → generate → pool → train → match rounds →
    /// promote → publish), resumable from a kill at any moment; settings in a TOML file.
    Loop(loop_args::LoopArgs),
    /// Write stored self-play games (data files, run directories, pools) as game records:
    /// PGN for chess, KIF and CSA for shogi.
    Records(crate::records_command::RecordsArgs),
}

impl Command {
    /// Runs the subcommand.
    pub fn execute(self) -> Result<()> {
        match self {
            Command::Run(args) => args.execute(),
            Command::Rescore(args) => args.execute(),
            Command::Stats(args) => args.execute(),
            Command::Verify(args) => args.execute(),
            Command::Export(args) => crate::export::run(&args),
            Command::Positions(args) => args.execute(),
            Command::Match(args) => args.execute().map(|_| ()),
            Command::Spsa(settings) => crate::tune::execute(&settings),
            Command::Pool { command } => command.execute(),
            Command::Digest(args) => args.execute(),
            Command::MatchMerge(args) => args.execute(),
            Command::Loop(args) => args.execute(),
            Command::Records(args) => {
                sente::dispatch_game!(args.game, G => crate::records_command::run::<G>(&args))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults the loop passes to the library are the command line's.
    #[test]
    fn the_loops_defaults_are_the_command_lines() {
        let Command::Run(run) =
            Cli::parse_from(["datagen", "run", "--game", "chess", "--out", "x"]).command
        else {
            unreachable!()
        };
        assert_eq!(run.openings.random_plies, opening_args::RANDOM_PLIES);
        assert_eq!(run.openings.verify_nodes, opening_args::VERIFY_NODES);
        assert_eq!(run.openings.verify_margin, run_args::RUN_VERIFY_MARGIN);
        assert_eq!(run.evaluator.net, "classical");
        let Command::Match(m) = Cli::parse_from([
            "datagen", "match", "--game", "chess", "--a", "x", "--b", "y",
        ])
        .command
        else {
            unreachable!()
        };
        assert_eq!((m.nets.a_net.as_str(), m.nets.b_net.as_str()), ("x", "y"));
        assert_eq!(m.openings.verify_margin, match_args::MATCH_VERIFY_MARGIN);
        assert_eq!(
            (m.resign.as_str(), m.draw.as_str(), m.max_plies),
            (match_args::RESIGN, match_args::DRAW, match_args::MAX_PLIES)
        );
        assert_eq!(m.limits.move_overhead, match_args::MOVE_OVERHEAD_MS);
    }
}
