//! `datagen`: self-play training data and engine-vs-engine matches. See `datagen --help`.

use anyhow::{anyhow, bail, Result};
use clap::{Parser, Subcommand};
use datagen::book::Book;
use datagen::generate::{
    generate_shard, opening_for, GenerateConfig, OpeningSettings, OpeningSource,
};
use datagen::inspect::{print_positions, print_stats, verify_files};
use datagen::match_result::{MatchResult, MatchSetup};
use datagen::players::DatagenGame;
use datagen::pool::{listing, AddOptions};
use datagen::run_info::{evaluator_label, EVALUATOR_FILE};
use sente::dispatch_game;
use sente::game::GameKind;
use sente::search::{SearchFeatures, SearchParams, Searcher};
use sente::selfplay::{
    run_match_with_openings, Adjudication, MatchConfig, MatchReport, PairObserver, PlayerConfig,
    PriorCounts, Sprt, TimeControl,
};
use sente_data::chunk::game_kind;
use sente_data::data_paths::expand_data_paths;
use sente_data::pool::Pool;
use sente_data::shard::Shard;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[derive(Parser)]
#[command(version, about = "Sente self-play data generation and matches")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per process: the size of the largest variant (`Match`) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Generate self-play games into DIR/data.bin (resumes a killed run with the same arguments).
    Run {
        #[arg(long)]
        game: GameKind,
        /// Stop after this many games.
        #[arg(long)]
        games: Option<u64>,
        /// Stop after this many scored positions (whole chunks).
        #[arg(long)]
        positions: Option<u64>,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Node limit per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output directory.
        #[arg(long)]
        out: PathBuf,
        /// Evaluator: `classical` or a net file.
        #[arg(long, default_value = "classical")]
        net: String,
        /// Random plies before the recorded game starts (on top of the book position, if any).
        #[arg(long, default_value_t = 8)]
        random_plies: u32,
        /// Openings from FILE: one FEN / SFEN per line (EPD fields after it ignored, optional
        /// `moves …`), `startpos [moves …]` or moves from the start; `#` comments. Game i takes
        /// a line chosen by (seed, i).
        #[arg(long, value_name = "FILE")]
        book: Option<PathBuf>,
        /// Nodes of the search that rejects lopsided openings (0: no check).
        #[arg(long, default_value_t = 1000)]
        verify_nodes: u64,
        /// Largest opening score (centipawns) the check accepts.
        #[arg(long, default_value_t = 300)]
        verify_margin: i32,
        /// Chess: start from random Chess960 / double-Fischer-random positions.
        #[arg(long, conflicts_with = "book")]
        dfrc: bool,
        /// Play only shard I of N: the games whose index in the whole run is ≡ I (mod N), each
        /// exactly as the unsharded run plays it. --games is the whole run's total.
        #[arg(long, value_name = "I/N")]
        shard: Option<Shard>,
        /// Stop at the first chunk boundary after this many seconds (a job's time slot): the
        /// file ends with a whole chunk, joins a pool as it is, and the same command without
        /// or with --max-time resumes the run.
        #[arg(long, value_name = "SECONDS")]
        max_time: Option<f64>,
        /// Search switches of both players, changed from the game's defaults: `name=on|off,...`
        /// (`datagen match --a-search` takes the same). The default keeps `material_scaling`
        /// out of the recorded scores, so the data is in the net's own units.
        #[arg(long, default_value = datagen::generate::DATAGEN_SEARCH)]
        search: String,
    },
    /// Re-label the scores of existing data (files, run directories, pools) with EVALUATOR at
    /// --nodes per position into OUT/data.bin (resumes a killed rescoring with the same
    /// arguments); `pool add` takes OUT.
    Rescore(datagen::rescore::RescoreSettings),
    /// Games, positions, results and histograms of data files (a run directory stands for its
    /// data file, a pool for its files).
    Stats {
        #[arg(long)]
        game: GameKind,
        files: Vec<PathBuf>,
    },
    /// Check every chunk's checksum and replay every game through the rules (data files, run
    /// directories, pools).
    Verify {
        #[arg(long)]
        game: GameKind,
        files: Vec<PathBuf>,
    },
    /// Write data in another trainer's format (text, bulletformat, viriformat, binpack, psv,
    /// hcpe), through the trainer's position filters.
    Export(datagen::export::ExportArgs),
    /// Print every EVERY-th recorded position (FEN / SFEN, one per line) of data files, e.g. as
    /// `sente bench GAME --positions FILE` input.
    Positions {
        #[arg(long)]
        game: GameKind,
        /// Take one position in this many.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
        every: u64,
        files: Vec<PathBuf>,
    },
    /// Play paired games between two evaluators (node limit or real clock) and report Elo,
    /// losses on time and an SPRT verdict.
    Match {
        #[arg(long)]
        game: GameKind,
        /// First player: `classical` or a net file.
        #[arg(long)]
        a: String,
        /// Second player: `classical` or a net file.
        #[arg(long)]
        b: String,
        /// Game pairs (games = 2 × pairs).
        #[arg(long, default_value_t = 100)]
        pairs: usize,
        /// Node limit per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Play on a real clock instead of a node limit: BASE+INC in seconds (e.g. `10+0.1`).
        /// The runner keeps each side's clock; a side whose clock runs out loses on time.
        #[arg(long, value_name = "BASE+INC", conflicts_with_all = ["nodes", "a_nodes", "b_nodes"])]
        tc: Option<TimeControl>,
        /// Node limit of the first player only (node odds, e.g. to give a slower net fewer
        /// nodes for the same time); default: --nodes.
        #[arg(long)]
        a_nodes: Option<u64>,
        /// Node limit of the second player only; default: --nodes.
        #[arg(long)]
        b_nodes: Option<u64>,
        /// With --tc: time (ms) each search keeps in reserve for the move's overhead; raise it
        /// on a busy machine if players lose on time by small margins.
        #[arg(long, default_value_t = 10, requires = "tc")]
        move_overhead: u64,
        /// With --tc: a node clock, N nodes to the millisecond (Stockfish's "nodestime"). Both
        /// players budget and are charged searched nodes instead of wall time, so a time
        /// management change is measured free of machine load and the match is reproducible.
        #[arg(long, value_name = "N", requires = "tc", value_parser = clap::value_parser!(u64).range(1..))]
        nodes_time: Option<u64>,
        /// With --nodes-time: the first player's own nodes to the millisecond (speed odds on the
        /// node clock: a build or switch that searches faster by some share gets that share more
        /// nodes for each millisecond, so the load-free node clock charges its speed as a real
        /// clock would); default: --nodes-time.
        #[arg(long, value_name = "N", requires = "nodes_time", value_parser = clap::value_parser!(u64).range(1..))]
        a_nodes_time: Option<u64>,
        /// With --nodes-time: the second player's own nodes to the millisecond; default:
        /// --nodes-time.
        #[arg(long, value_name = "N", requires = "nodes_time", value_parser = clap::value_parser!(u64).range(1..))]
        b_nodes_time: Option<u64>,
        /// With --tc: the `+INC` of the time control is a byoyomi period (shogi: once main time
        /// is spent, each move may take that long; unused byoyomi is lost), as `scripts/match.py
        /// --byoyomi` reads it.
        #[arg(long, requires = "tc")]
        byoyomi: bool,
        /// Games played at once (on a clock, keep this at most the number of free cores).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random plies for each game pair's opening (on top of the book position, if any).
        #[arg(long, default_value_t = 8)]
        random_plies: u32,
        /// Openings from FILE (same format as `run --book`); pair p takes a line chosen by
        /// (seed, p).
        #[arg(long, value_name = "FILE")]
        book: Option<PathBuf>,
        /// SPRT bounds in Elo, e.g. `0,10`; the match stops once decided.
        #[arg(long)]
        sprt: Option<String>,
        /// Search switches of the first player, changed from the defaults: `name=on|off,...`
        /// (e.g. `correction_history=off`), so one binary measures a search technique.
        #[arg(long, default_value = "")]
        a_search: String,
        /// Search switches of the second player (as `--a-search`).
        #[arg(long, default_value = "")]
        b_search: String,
        /// Search parameters of the first player, changed from the defaults: `name=value,...`
        /// (e.g. `rfp_margin=90,lmr_base=70`, as `datagen spsa` prints them).
        #[arg(long, default_value = "")]
        a_params: String,
        /// Search parameters of the second player (as `--a-params`).
        #[arg(long, default_value = "")]
        b_params: String,
        /// Nodes of the classical search that rejects lopsided openings before a pair is played
        /// (0: no check). Balanced openings make fewer pairs decided by the opening alone.
        #[arg(long, default_value_t = 1000)]
        verify_nodes: u64,
        /// Largest opening score (centipawns) the check accepts.
        #[arg(long, default_value_t = 200)]
        verify_margin: i32,
        /// Play only shard I of N of the --pairs pairs (pair indices ≡ I mod N); give --sprt to
        /// `match-merge` instead.
        #[arg(long, value_name = "I/N", conflicts_with = "sprt")]
        shard: Option<Shard>,
        /// Also write the result (W/D/L, pentanomial) to FILE for `match-merge`.
        #[arg(long, value_name = "FILE")]
        result: Option<PathBuf>,
        /// Go on from earlier results of this match (`--result` files of the same players,
        /// limits and openings, other seeds; e.g. what a killed match left): the SPRT, the
        /// progress and the report count their games with this run's, while `--result` gets this
        /// run's games only (merge them with `match-merge`). A match resumed so plays new
        /// openings (its own seed) instead of replaying the games it had finished.
        #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "shard")]
        prior: Vec<PathBuf>,
        /// Adjudicate a win once CP:PLIES (PLIES plies in a row, in both players' reports, show
        /// one side ahead by CP centipawns or more), or `off`. OpenBench plays `400:6`.
        #[arg(long, value_name = "CP:PLIES", default_value = "1000:8")]
        resign: String,
        /// Adjudicate a draw once CP:PLIES:FROM_PLY (PLIES plies in a row within CP of 0, from
        /// game ply FROM_PLY on), or `off`. OpenBench plays `10:16:68`.
        #[arg(long, value_name = "CP:PLIES:FROM_PLY", default_value = "10:12:80")]
        draw: String,
        /// Adjudicate a draw after this many plies of the game proper.
        #[arg(long, default_value_t = 400)]
        max_plies: u32,
    },
    /// Tune the search parameters by SPSA over fixed-node self-play (resumable from --state);
    /// prints the tuned values for `match --a-params`.
    Spsa(datagen::tune::SpsaSettings),
    /// Data pools: directories of verified datagen files with a manifest (pool.tsv).
    Pool {
        #[command(subcommand)]
        command: PoolCommand,
    },
    /// Canonical listing of the games of pools, run directories or data files (with run.txt
    /// beside them), by (seed, nodes, global game index): equal digests, equal games.
    Digest {
        #[arg(long)]
        game: GameKind,
        /// Print a line per game (seed, nodes, index, record hash) before the digest.
        #[arg(long)]
        per_game: bool,
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Combine `match --result` files (shards, and rounds with other seeds) into one Elo ± error
    /// and an optional SPRT verdict.
    MatchMerge {
        /// SPRT bounds in Elo, e.g. `0,10`.
        #[arg(long)]
        sprt: Option<String>,
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

#[derive(Subcommand)]
enum PoolCommand {
    /// Verify run directories or data files (run.txt beside them) and copy them into the pool.
    Add {
        /// The pool directory (created if missing).
        #[arg(long)]
        pool: PathBuf,
        #[arg(long)]
        game: GameKind,
        /// Generation the data belongs to.
        #[arg(long, default_value_t = 0)]
        generation: u32,
        /// The net the runs played with, when the path in their run.txt does not resolve here
        /// and they have no evaluator.txt.
        #[arg(long, value_name = "FILE")]
        net: Option<PathBuf>,
        /// Remove the source data files once the pool lists their copies.
        #[arg(long = "move")]
        move_files: bool,
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Take files out of the pool (e.g. the source of a rescored copy that joined it): the
    /// manifest stops listing them and they move to POOL/retired/, nothing is deleted.
    Retire {
        /// The pool directory.
        #[arg(long)]
        pool: PathBuf,
        /// File names as `datagen pool list` prints them.
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Print the manifest with totals.
    List { pool: PathBuf },
}

fn parse_sprt(text: &str) -> Result<Sprt> {
    let parts: Vec<f64> = text
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()?;
    let [elo0, elo1] = parts[..] else {
        bail!("--sprt wants ELO0,ELO1");
    };
    Ok(Sprt {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
    })
}

fn run_for<G: DatagenGame>(
    config: GenerateConfig,
    book: Option<PathBuf>,
    shard: Shard,
    threads: usize,
    max_time: Option<Duration>,
    out: PathBuf,
) -> Result<()> {
    // The book is checked whole before anything else happens.
    let book = book.map(|path| Book::<G>::load(&path)).transpose()?;
    let eval = G::load_eval(&config.evaluator)?;
    // The evaluator by content, for `pool add` (run.txt keeps the name as given).
    std::fs::create_dir_all(&out)?;
    std::fs::write(
        out.join(EVALUATOR_FILE),
        evaluator_label(&config.evaluator)? + "\n",
    )?;
    generate_shard::<G, _>(
        &eval,
        &config,
        book.as_ref(),
        shard,
        threads,
        &out,
        max_time,
    )?;
    Ok(())
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Run {
            game,
            games,
            positions,
            threads,
            nodes,
            seed,
            out,
            net,
            random_plies,
            book,
            verify_nodes,
            verify_margin,
            dfrc,
            shard,
            max_time,
            search,
        } => {
            let shard = shard.unwrap_or(Shard::WHOLE);
            let max_time = max_time
                .map(|seconds| {
                    Duration::try_from_secs_f64(seconds)
                        .map_err(|_| anyhow!("--max-time {seconds}: give seconds, 0 or more"))
                })
                .transpose()?;
            let config = GenerateConfig {
                game,
                games,
                positions,
                nodes,
                seed,
                random_plies,
                verify_nodes,
                verify_margin,
                adjudication: Adjudication::default(),
                evaluator: net.clone(),
                dfrc,
                search: dispatch_game!(game, G => datagen::generate::search_changes::<G>(&search))?,
            };
            if dfrc && game != GameKind::Chess {
                bail!("--dfrc is for chess");
            }
            dispatch_game!(game, G => run_for::<G>(config, book, shard, threads, max_time, out))
        }
        Command::Rescore(settings) => {
            dispatch_game!(settings.game, G => datagen::rescore::rescore::<G>(&settings))?;
            Ok(())
        }
        Command::Stats { game, files } => {
            let files = expand_data_paths(&files)?;
            dispatch_game!(game, G => print_stats::<G>(&files))
        }
        Command::Verify { game, files } => {
            let files = expand_data_paths(&files)?;
            let bad = dispatch_game!(game, G => verify_files::<G>(&files)?);
            if bad > 0 {
                bail!("{bad} bad records or chunks");
            }
            Ok(())
        }
        Command::Export(args) => datagen::export::run(&args),
        Command::Positions { game, every, files } => {
            let files = expand_data_paths(&files)?;
            dispatch_game!(game, G => print_positions::<G>(&files, every))
        }
        Command::Match {
            game,
            a,
            b,
            pairs,
            nodes,
            tc,
            a_nodes,
            b_nodes,
            move_overhead,
            nodes_time,
            a_nodes_time,
            b_nodes_time,
            byoyomi,
            threads,
            seed,
            random_plies,
            book,
            sprt,
            a_search,
            b_search,
            a_params,
            b_params,
            verify_nodes,
            verify_margin,
            shard,
            result,
            prior,
            resign,
            draw,
            max_plies,
        } => {
            let shard = shard.unwrap_or(Shard::WHOLE);
            let adjudication = datagen::adjudication_args::adjudication(&resign, &draw, max_plies)?;
            // Checked here (names and ranges are the same in every game); applied to the
            // game's own defaults in `match_for`.
            for changes in [&a_search, &b_search] {
                SearchFeatures::default()
                    .with_changes(changes)
                    .map_err(anyhow::Error::msg)?;
            }
            for changes in [&a_params, &b_params] {
                SearchParams::default()
                    .with_changes(changes)
                    .map_err(anyhow::Error::msg)?;
            }
            let search = [[a_search, a_params], [b_search, b_params]];
            let openings = OpeningSettings {
                seed,
                random_plies,
                verify_nodes,
                verify_margin,
            };
            let config = MatchConfig {
                pairs: shard.share_of(pairs as u64) as usize,
                concurrency: threads,
                opening_plies: random_plies,
                seed,
                adjudication,
                sprt: sprt.as_deref().map(parse_sprt).transpose()?,
                // Set by match_for: progress lines and the running result file, the prior games.
                on_pair: None,
                prior: PriorCounts::default(),
            };
            let limits = MoveLimits {
                nodes: [a_nodes.unwrap_or(nodes), b_nodes.unwrap_or(nodes)],
                tc: tc.map(|tc| tc.with_byoyomi(byoyomi)),
                move_overhead_ms: move_overhead,
                nodes_per_ms: [a_nodes_time, b_nodes_time]
                    .map(|own| own.or(nodes_time).unwrap_or(0)),
            };
            let split = MatchSplit {
                pairs: pairs as u64,
                shard,
                result,
                prior,
            };
            dispatch_game!(game, G => match_for::<G>(
                &[a, b],
                search,
                &limits,
                book,
                &openings,
                &config,
                &split,
            ))
        }
        Command::Spsa(settings) => {
            let mut out = std::io::stdout().lock();
            if settings.list {
                return Ok(
                    dispatch_game!(settings.game, G => datagen::tune::print_parameter_list::<G>(&mut out))?,
                );
            }
            dispatch_game!(settings.game, G => datagen::tune::run_spsa::<G>(&settings, &mut out))
        }
        Command::Pool { command } => match command {
            PoolCommand::Add {
                pool,
                game,
                generation,
                net,
                move_files,
                inputs,
            } => {
                let options = AddOptions {
                    generation,
                    net,
                    move_files,
                };
                let added =
                    dispatch_game!(game, G => datagen::pool::add::<G>(&pool, &inputs, &options)?);
                for entry in &added {
                    println!(
                        "added {} ({} games, {} positions)",
                        entry.file, entry.games, entry.positions
                    );
                }
                Ok(())
            }
            PoolCommand::Retire { pool, files } => {
                for entry in datagen::pool::retire(&pool, &files)? {
                    println!(
                        "retired {} ({} games, {} positions) to {}",
                        entry.file,
                        entry.games,
                        entry.positions,
                        pool.join(datagen::pool::RETIRED).display()
                    );
                }
                Ok(())
            }
            PoolCommand::List { pool } => {
                print!("{}", listing(&Pool::open(&pool)?));
                Ok(())
            }
        },
        Command::Digest {
            game,
            per_game,
            inputs,
        } => {
            dispatch_game!(game, G => datagen::digest::print_digest::<G>(&inputs, per_game))
        }
        Command::MatchMerge { sprt, files } => {
            let sprt = sprt.as_deref().map(parse_sprt).transpose()?;
            println!("{}", datagen::match_result::merge_files(&files, sprt)?);
            Ok(())
        }
    }
}

/// How long a match player thinks: a node limit, or a real clock with a move overhead.
struct MoveLimits {
    /// Node limit of each player (without --tc).
    nodes: [u64; 2],
    tc: Option<TimeControl>,
    move_overhead_ms: u64,
    /// Each player's node clock, nodes per millisecond (0: wall time).
    nodes_per_ms: [u64; 2],
}

/// Which pairs of the whole match this invocation plays, and where its result goes.
struct MatchSplit {
    /// Pairs of the whole match.
    pairs: u64,
    shard: Shard,
    result: Option<PathBuf>,
    /// Result files of earlier games of the same setup (other seeds) that this run goes on from.
    prior: Vec<PathBuf>,
}

fn match_for<G: DatagenGame>(
    [a, b]: &[String; 2],
    search: [[String; 2]; 2],
    limits: &MoveLimits,
    book: Option<PathBuf>,
    openings: &OpeningSettings,
    config: &MatchConfig,
    split: &MatchSplit,
) -> Result<()> {
    if limits.tc.is_none() {
        match limits.nodes {
            [0, 0] => bail!("--nodes must be at least 1"),
            [0, _] => bail!("--a-nodes (or --nodes) must be at least 1"),
            [_, 0] => bail!("--b-nodes (or --nodes) must be at least 1"),
            _ => {}
        }
    }
    if config.concurrency == 0 {
        bail!("--threads must be at least 1");
    }
    let book = book.map(|path| Book::<G>::load(&path)).transpose()?;
    let player = |name: &str,
                  nodes: u64,
                  nodes_per_ms: u64,
                  [features, params]: &[String; 2]|
     -> Result<_> {
        let (base_features, base_params) = (
            SearchFeatures::for_game::<G>(),
            SearchParams::for_game::<G>(),
        );
        let features = base_features
            .with_changes(features)
            .map_err(anyhow::Error::msg)?;
        let params = base_params
            .with_changes(params)
            .map_err(anyhow::Error::msg)?;
        let eval = G::load_eval(name)?;
        let mut player = match limits.tc {
            Some(tc) => {
                let mut player = PlayerConfig::with_time_control(name, eval, tc);
                player.options.move_overhead_ms = limits.move_overhead_ms;
                player.options.nodes_per_ms = nodes_per_ms;
                player
            }
            None => PlayerConfig::with_nodes(name, eval, nodes),
        };
        player.features = features;
        player.params = params;
        // Named by what differs from the game's own defaults.
        let changes: Vec<String> = [
            features.changes_from(base_features),
            params.changes_from(&base_params),
        ]
        .into_iter()
        .filter(|c| !c.is_empty())
        .collect();
        if !changes.is_empty() {
            player.name = format!("{name} [{}]", changes.join(","));
        }
        if limits.tc.is_none() && limits.nodes[0] != limits.nodes[1] {
            player.name = format!("{} ({nodes} nodes)", player.name);
        }
        if limits.tc.is_some() && limits.nodes_per_ms[0] != limits.nodes_per_ms[1] {
            player.name = format!("{} ({nodes_per_ms} nodes/ms)", player.name);
        }
        Ok(player)
    };
    let first = player(a, limits.nodes[0], limits.nodes_per_ms[0], &search[0])?;
    let second = player(b, limits.nodes[1], limits.nodes_per_ms[1], &search[1])?;
    // What merged results must share: players by content (names carry search switches),
    // limits and openings.
    let setup = MatchSetup {
        game: game_kind::<G>(),
        a: first.name.clone(),
        b: second.name.clone(),
        a_eval: evaluator_label(a)?,
        b_eval: evaluator_label(b)?,
        limits: match limits.tc {
            Some(tc) => {
                let control = if tc.byoyomi_ms > 0 {
                    format!("tc={}ms byoyomi={}ms", tc.base_ms, tc.byoyomi_ms)
                } else {
                    format!("tc={}ms+{}ms", tc.base_ms, tc.increment_ms)
                };
                let clock = match limits.nodes_per_ms {
                    [0, 0] => String::new(),
                    [a, b] if a == b => format!(" nodestime={a}"),
                    [a, b] => format!(" nodestime={a}/{b}"),
                };
                format!("{control} overhead={}ms{clock}", limits.move_overhead_ms)
            }
            None if limits.nodes[0] == limits.nodes[1] => format!("nodes={}", limits.nodes[0]),
            None => format!("nodes={}/{}", limits.nodes[0], limits.nodes[1]),
        } + &datagen::adjudication_args::label(&config.adjudication),
        openings: format!(
            "random_plies={} verify_nodes={} verify_margin={} book={}",
            openings.random_plies,
            openings.verify_nodes,
            openings.verify_margin,
            book.as_ref().map_or("none".to_string(), |b| format!(
                "{:016x}",
                b.summary().checksum
            ))
        ),
    };
    let start = G::start_position(false);
    let source = match &book {
        Some(book) => OpeningSource::Book(book),
        None => OpeningSource::Start(start),
    };
    // Openings are checked with the classical evaluator, neutral between the two players.
    let classical = G::load_eval("classical")?;
    // Pair k of a shard is pair shard.global(k) of the whole match.
    let opening = |pair: usize| {
        let mut verifier = Searcher::new(classical.clone());
        verifier.set_hash_mb(1);
        opening_for(
            &source,
            openings,
            split.shard.global(pair as u64),
            &mut verifier,
        )
    };
    let prior = prior_counts(&split.prior, &setup, openings.seed)?;
    let result_of = {
        let (setup, seed, pairs, shard) = (setup, openings.seed, split.pairs, split.shard);
        // This run's own games: the report's totals less the prior ones.
        move |report: &MatchReport, ended: bool| MatchResult {
            setup: setup.clone(),
            seed,
            pairs,
            shard,
            wdl: report.wdl - prior.wdl,
            pentanomial: report.pentanomial - prior.pentanomial,
            time_forfeits: {
                let [a, b] = report.time_forfeits.unwrap_or([0, 0]);
                [
                    a.saturating_sub(prior.time_forfeits[0]),
                    b.saturating_sub(prior.time_forfeits[1]),
                ]
            },
            ended,
        }
    };
    // Every MATCH_PROGRESS_PAIRS pairs: a progress line, and the result file rewritten with the
    // pairs so far (`ended=no`), so a match killed midway still leaves its pair counts.
    let mut config = config.clone();
    config.prior = prior;
    config.on_pair = Some(PairObserver::new({
        let (result_of, path) = (result_of.clone(), split.result.clone());
        let write_failed = AtomicBool::new(false);
        move |report: &MatchReport| {
            if !report
                .pentanomial
                .pairs()
                .is_multiple_of(MATCH_PROGRESS_PAIRS)
            {
                return;
            }
            eprintln!("match: {}", report.progress_line());
            if let Some(path) = &path {
                if let Err(e) = result_of(report, false).write(path) {
                    // The match goes on; the final write reports the error again.
                    if !write_failed.swap(true, Ordering::Relaxed) {
                        eprintln!("match: error: {e:#}");
                    }
                }
            }
        }
    }));
    let report = run_match_with_openings(&opening, &first, &second, &config, &|_| {});
    println!("{report}");
    if let Some(path) = &split.result {
        result_of(&report, true).write(path)?;
    }
    Ok(())
}

/// The games of `files` (results of earlier runs of this match `setup`, each with a seed of its
/// own, other than `seed`), for a match that goes on from them.
fn prior_counts(files: &[PathBuf], setup: &MatchSetup, seed: u64) -> Result<PriorCounts> {
    let mut prior = PriorCounts::default();
    let mut seeds = vec![seed];
    for path in files {
        let result = MatchResult::read(path)?;
        if result.setup != *setup {
            bail!(
                "--prior {}: another match (players, limits or openings differ)",
                path.display()
            );
        }
        if result.shard != Shard::WHOLE {
            bail!(
                "--prior {}: shard {} of a match; merge the shards with match-merge instead",
                path.display(),
                result.shard
            );
        }
        if seeds.contains(&result.seed) {
            bail!(
                "--prior {}: seed {} again; a run going on from earlier games needs a seed of its own (the same seed replays the same openings)",
                path.display(),
                result.seed
            );
        }
        seeds.push(result.seed);
        prior.wdl = prior.wdl + result.wdl;
        prior.pentanomial = prior.pentanomial + result.pentanomial;
        for (total, own) in prior.time_forfeits.iter_mut().zip(result.time_forfeits) {
            *total += own;
        }
    }
    Ok(prior)
}

/// Game pairs between progress lines (and rewrites of the result file) of a running match.
const MATCH_PROGRESS_PAIRS: u64 = 10;
