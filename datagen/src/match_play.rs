//! Playing one `datagen match` from typed settings: the two players (evaluator, node limit or
//! clock, search changes), their openings, the pairs this invocation plays (a shard, prior
//! results it goes on from), progress lines on stderr and the result file kept current while it
//! runs. `datagen match` and `datagen loop` both call [`play_match`].

use crate::book::Book;
use crate::generate::{opening_for, OpeningSettings, OpeningSource};
use crate::match_result::{MatchResult, MatchSetup};
use crate::players::DatagenGame;
use crate::run_info::evaluator_label;
use anyhow::{bail, Result};
use sente::search::{SearchFeatures, SearchParams, Searcher};
use sente::selfplay::{
    run_match_with_openings, MatchConfig, MatchReport, PairObserver, PlayerConfig, PriorCounts,
    Sprt, TimeControl,
};
use sente_data::chunk::game_kind;
use sente_data::shard::Shard;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// `ELO0,ELO1` (e.g. `0,10`) as an SPRT at α = β = 0.05.
pub fn parse_sprt(text: &str) -> Result<Sprt> {
    let parts: Vec<f64> = text
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| anyhow::anyhow!("--sprt `{text}`: wants ELO0,ELO1 (e.g. 0,10)"))?;
    let [elo0, elo1] = parts[..] else {
        bail!("--sprt `{text}`: wants ELO0,ELO1 (e.g. 0,10)");
    };
    Ok(Sprt {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
    })
}

/// How long a match player thinks: a node limit, or a real clock with a move overhead.
pub struct MoveLimits {
    /// Node limit of each player (without --tc).
    pub nodes: [u64; 2],
    pub tc: Option<TimeControl>,
    pub move_overhead_ms: u64,
    /// Each player's node clock, nodes per millisecond (0: wall time).
    pub nodes_per_ms: [u64; 2],
}

/// Which pairs of the whole match this invocation plays, and where its result goes.
pub struct MatchSplit {
    /// Pairs of the whole match.
    pub pairs: u64,
    pub shard: Shard,
    pub result: Option<PathBuf>,
    /// Result files of earlier games of the same setup (other seeds) that this run goes on from.
    pub prior: Vec<PathBuf>,
    /// Where to write the game records (`--records`).
    pub records: Option<PathBuf>,
    /// The results-table row to append (`--result-row`).
    pub row: crate::results_table::ResultRowArgs,
}

/// Plays the match of `config` between the evaluators `[a, b]` (each with its search changes
/// `[switches, params]`), prints the report on stdout and writes the result file of `split`;
/// returns the report (prior games included).
pub fn play_match<G: DatagenGame>(
    [a, b]: &[String; 2],
    search: [[String; 2]; 2],
    limits: &MoveLimits,
    book: Option<PathBuf>,
    openings: &OpeningSettings,
    config: &MatchConfig,
    split: &MatchSplit,
) -> Result<MatchReport> {
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
    split.row.check()?;
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
        } + &crate::adjudication_args::label(&config.adjudication),
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
    let record_limits = setup.limits.clone();
    let row_setup = setup.clone();
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
            sente::eprintln_best_effort!("match: {}", report.progress_line());
            if let Some(path) = &path {
                if let Err(e) = result_of(report, false).write(path) {
                    // The match goes on; the final write reports the error again.
                    if !write_failed.swap(true, Ordering::Relaxed) {
                        sente::eprintln_best_effort!("match: error: {e:#}");
                    }
                }
            }
        }
    }));
    let recorder =
        crate::match_records::MatchRecorder::create(split.records.as_deref(), &record_limits)?;
    let report = run_match_with_openings(&opening, &first, &second, &config, &|game| {
        recorder.record(game)
    });
    recorder.finish()?;
    sente::try_println!("{report}")?;
    if let Some(path) = &split.result {
        result_of(&report, true).write(path)?;
    }
    split.row.append_match(&row_setup, &report)?;
    Ok(report)
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
