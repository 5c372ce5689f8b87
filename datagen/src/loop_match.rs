//! The loop's promotion match: the new net's node odds (`match.a_nodes = "auto"`: the nodes
//! it searches in the time the best net searches `match.nodes`, measured with the engine's
//! bench), round 1 (the SPRT proper, up to `match.pairs` pairs), further rounds of
//! `match.extra_pairs` pairs on seeds of their own while the merged SPRT is undecided and its
//! LLR at least `match.extra_min_llr`, and the decision from the merged result files.
//! A round a kill interrupted keeps the pairs it finished (its result file becomes a piece,
//! `match-rK-pN.result`) and plays only the pairs left on a new seed, going on from them.

use crate::generate::OpeningSettings;
use crate::loop_config::{LoopConfig, NodeOdds};
use crate::loop_runner::{copy_atomically, log, new_net, next_generation, touch};
use crate::loop_state::{write_atomically, LoopState, Step};
use crate::match_play::{play_match, MatchSplit, MoveLimits};
use crate::match_result::{merge, MatchResult, MergedMatch};
use crate::net_name::net_file_name;
use crate::players::DatagenGame;
use anyhow::{Context, Result};
use sente::selfplay::{MatchConfig, PriorCounts, SprtVerdict};
use sente_data::pool::Pool;
use sente_data::shard::Shard;
use std::path::{Path, PathBuf};

/// Seed offset of a round's piece (a resumed part of it).
const PIECE_SEED_STEP: u64 = 7919;

/// The seed of round `round`'s first piece.
fn round_seed(state: &LoopState, round: u32) -> u64 {
    let base = state.seed() + 1000;
    if round == 1 {
        base
    } else {
        base + 100_000 * u64::from(round)
    }
}

/// The result files of round `round` in the attempt's directory `dir`: the round's own, its
/// pieces and its Slurm shards.
pub fn round_results(dir: &Path, round: u32) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let own = dir.join(format!("match-r{round}.result"));
    if own.exists() {
        files.push(own);
    }
    let mut extra: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.ends_with(".result")
                    && (n.starts_with(&format!("match-r{round}-p"))
                        || n.starts_with(&format!("match-r{round}-s")))
            })
        })
        .collect();
    extra.sort();
    files.extend(extra);
    Ok(files)
}

/// The merged result of rounds 1..=`rounds`.
fn merged(config: &LoopConfig, dir: &Path, rounds: u32) -> Result<MergedMatch> {
    let mut results = Vec::new();
    for round in 1..=rounds {
        for path in round_results(dir, round)? {
            results.push(MatchResult::read(&path)?);
        }
    }
    merge(&results, Some(config.sprt))
}

fn verdict(merged: &MergedMatch) -> Option<SprtVerdict> {
    merged
        .sprt
        .map(|(_, _, verdict)| verdict)
        .filter(|v| *v != SprtVerdict::Continue)
}

fn llr(merged: &MergedMatch) -> f64 {
    merged.sprt.map_or(0.0, |(_, llr, _)| llr)
}

/// `Elo +13.8 ± 10.7 (95%), 2992 games, SPRT [0,10] LLR 2.98 H1`.
pub fn summary(config: &LoopConfig, merged: &MergedMatch) -> String {
    let games = merged.wdl.wins + merged.wdl.draws + merged.wdl.losses;
    let verdict = match verdict(merged) {
        Some(SprtVerdict::AcceptH1) => " H1",
        Some(SprtVerdict::AcceptH0) => " H0",
        _ => "",
    };
    format!(
        "Elo {:+.1} ± {:.1} (95%), {games} games, SPRT [{},{}] LLR {:.2}{verdict}",
        merged.elo,
        merged.elo_error,
        config.sprt.elo0,
        config.sprt.elo1,
        llr(merged)
    )
}

/// The match step: node odds first, then the next round unless the rounds so far decide.
/// Returns the next state and the games this process played.
pub fn match_step<G: DatagenGame>(
    config: &LoopConfig,
    mut state: LoopState,
) -> Result<(LoopState, u64)> {
    let game = config.game.name();
    let dir = state.attempt_dir(game);
    let net = new_net(config, &state);
    if state.a_nodes.is_none() {
        let nodes = config.matches.nodes;
        let (a_nodes, ratio) = match config.node_odds {
            NodeOdds::Same => (nodes, 1.0),
            NodeOdds::Fixed(n) => (n, n as f64 / nodes as f64),
            NodeOdds::Auto => {
                match crate::node_odds::node_odds(
                    config.game,
                    &net,
                    Path::new(&state.best_net),
                    nodes,
                    5,
                ) {
                    Ok(odds) => odds,
                    Err(e) => {
                        log(game, &format!("gen {} attempt {}: the speed measurement failed ({e:#}); equal nodes", state.generation, state.attempt));
                        (nodes, 1.0)
                    }
                }
            }
        };
        log(
            game,
            &format!(
                "gen {} attempt {}: node odds {a_nodes} against {nodes} (speed ratio {ratio:.3})",
                state.generation, state.attempt
            ),
        );
        write_atomically(
            &dir.join("node-odds.txt"),
            format!("{a_nodes} {ratio:.3}\n").as_bytes(),
        )?;
        state.a_nodes = Some(a_nodes);
        state.speed_ratio = Some(ratio);
        return Ok((state, 0));
    }
    let round = state.round;
    if round > 1 {
        let so_far = merged(config, &dir, round - 1)?;
        let extra = round - 1 <= config.matches.extra_rounds;
        if verdict(&so_far).is_some() || !extra {
            state.step = Step::Decide;
            return Ok((state, 0));
        }
        if llr(&so_far) < config.matches.extra_min_llr {
            log(game, &format!("gen {} attempt {}: SPRT undecided and leaning toward H0 ({} below extra_min_llr {}): no more rounds", state.generation, state.attempt, summary(config, &so_far), config.matches.extra_min_llr));
            state.step = Step::Decide;
            return Ok((state, 0));
        }
        log(
            game,
            &format!(
                "gen {} attempt {}: SPRT undecided ({}); round {round}: {} more pairs",
                state.generation,
                state.attempt,
                summary(config, &so_far),
                config.matches.extra_pairs
            ),
        );
    } else {
        log(
            game,
            &format!(
                "gen {} attempt {}: SPRT [{},{}] of {} against {}",
                state.generation,
                state.attempt,
                config.sprt.elo0,
                config.sprt.elo1,
                net.display(),
                state.best_net
            ),
        );
    }
    let games = play_round::<G>(config, &state, &net, round)?;
    state.round += 1;
    Ok((state, games))
}

/// The openings of a loop match (`datagen match`'s defaults).
fn openings(seed: u64) -> OpeningSettings {
    OpeningSettings {
        seed,
        random_plies: crate::cli::opening_args::RANDOM_PLIES,
        verify_nodes: crate::cli::opening_args::VERIFY_NODES,
        verify_margin: crate::cli::match_args::MATCH_VERIFY_MARGIN,
    }
}

/// Plays round `round` (or the rest of it); returns the games this process played (none with
/// `[slurm]`: the array's tasks play them).
fn play_round<G: DatagenGame>(
    config: &LoopConfig,
    state: &LoopState,
    net: &Path,
    round: u32,
) -> Result<u64> {
    let game = config.game.name();
    let dir = state.attempt_dir(game);
    let pairs = if round == 1 {
        config.matches.pairs
    } else {
        config.matches.extra_pairs
    };
    let a_nodes = state.a_nodes.unwrap_or(config.matches.nodes);
    if let Some(slurm) = &config.slurm {
        return crate::slurm_jobs::match_array(
            config,
            slurm,
            state,
            net,
            round,
            pairs,
            round_seed(state, round),
            a_nodes,
        )
        .map(|()| 0);
    }
    let result = dir.join(format!("match-r{round}.result"));
    if result.exists() {
        if MatchResult::read(&result)?.ended {
            return Ok(0);
        }
        let piece = (1..)
            .map(|p| dir.join(format!("match-r{round}-p{p}.result")))
            .find(|p| !p.exists())
            .unwrap();
        std::fs::rename(&result, &piece)?;
    }
    let pieces: Vec<PathBuf> = round_results(&dir, round)?;
    let mut done = 0;
    for piece in &pieces {
        done += MatchResult::read(piece)?.pentanomial.pairs();
    }
    let left = pairs.saturating_sub(done);
    if !pieces.is_empty() {
        log(game, &format!("gen {} attempt {}: round {round} goes on from {done} pairs an interrupted run left; {left} to play", state.generation, state.attempt));
    }
    let seed = round_seed(state, round) + PIECE_SEED_STEP * pieces.len() as u64;
    let adjudication = crate::adjudication_args::adjudication(
        crate::cli::match_args::RESIGN,
        crate::cli::match_args::DRAW,
        crate::cli::match_args::MAX_PLIES,
    )?;
    let openings = openings(seed);
    let match_config = MatchConfig {
        pairs: left as usize,
        concurrency: config.matches.threads,
        opening_plies: openings.random_plies,
        seed,
        adjudication,
        sprt: (round == 1).then_some(config.sprt),
        on_pair: None,
        prior: PriorCounts::default(),
    };
    let limits = MoveLimits {
        nodes: [a_nodes, config.matches.nodes],
        tc: None,
        move_overhead_ms: crate::cli::match_args::MOVE_OVERHEAD_MS,
        nodes_per_ms: [0, 0],
    };
    let split = MatchSplit {
        pairs: left,
        shard: Shard::WHOLE,
        result: Some(result.clone()),
        prior: pieces,
        records: None,
        row: Default::default(),
    };
    let nets = [net.display().to_string(), state.best_net.clone()];
    let no_changes = || [String::new(), String::new()];
    play_match::<G>(
        &nets,
        [no_changes(), no_changes()],
        &limits,
        None,
        &openings,
        &match_config,
        &split,
    )
    .with_context(|| {
        format!(
            "round {round} of gen {} attempt {}",
            state.generation, state.attempt
        )
    })?;
    // The round's own result file holds this run's games (the pieces hold the earlier ones).
    Ok(MatchResult::read(&result)?.wdl.games())
}

/// The decision: the merged SPRT passed — the net is promoted (copied to `GAME/nets/` under
/// its content name, its provenance appended to `GAME/promotions.tsv`); otherwise the attempt
/// is rejected and the next one generates more data with the same best net.
pub fn decide(config: &LoopConfig, mut state: LoopState) -> Result<LoopState> {
    let game = config.game.name();
    let dir = state.attempt_dir(game);
    let rounds = state.round - 1;
    let merged = merged(config, &dir, rounds)?;
    let mut result = summary(config, &merged);
    let a_nodes = state.a_nodes.unwrap_or(config.matches.nodes);
    if a_nodes != config.matches.nodes {
        result += &format!(", {a_nodes} against {} nodes", config.matches.nodes);
    }
    write_atomically(&dir.join("match.txt"), format!("{merged}\n").as_bytes())?;
    log(
        game,
        &format!(
            "gen {} attempt {}: {result}",
            state.generation, state.attempt
        ),
    );
    if verdict(&merged) != Some(SprtVerdict::AcceptH1) {
        touch(&dir.join("rejected"))?;
        log(
            game,
            &format!(
                "gen {} attempt {} rejected; generating more data with the same net",
                state.generation, state.attempt
            ),
        );
        let mut next = next_generation(config, &state);
        next.attempt = state.attempt + 1;
        next.step = Step::Generate;
        return Ok(next);
    }
    let net = new_net(config, &state);
    let name = net_file_name(game, &net)?;
    let promoted = PathBuf::from(game).join("nets").join(&name);
    copy_atomically(&net, &promoted)?;
    let parent = net_file_name(game, Path::new(&state.best_net))?;
    let pool = Pool::open(&crate::loop_runner::pool_dir(game))?;
    let (mut games, mut positions) = (0u64, 0u64);
    for entry in &pool.entries {
        if state
            .train_data
            .contains(&format!("{game}/pool/{}", entry.file))
        {
            games += entry.games;
            positions += entry.positions;
        }
    }
    // The training data of retired (rescored) sources counts from the retired manifest.
    let t = &config.train;
    let mut flags = String::new();
    if t.mirror {
        flags += " --mirror";
    }
    if let Some(l1) = t.l1 {
        flags += &format!(" --l1 {l1}");
    }
    if let Some(buckets) = t.king_buckets {
        flags += &format!(" --king-buckets {buckets}");
    }
    if config.train_init_best {
        flags += " (fine-tuned from the parent)";
    }
    let row = [
        game.to_string(),
        name.clone(),
        parent,
        games.to_string(),
        positions.to_string(),
        config.generate.nodes.to_string(),
        format!("{} (pool: {} runs)", state.seed(), state.train_data.len()),
        format!(
            "sb={} x {} x {} lr={} wdl={}{flags}",
            crate::loop_runner::train_superbatches(config, &state)?,
            t.batches,
            t.batch,
            t.lr,
            t.wdl
        ),
        result,
        crate::loop_runner::utc_now()[..10].to_string(),
    ]
    .join("\t");
    let promotions = PathBuf::from(game).join("promotions.tsv");
    let text = std::fs::read_to_string(&promotions).unwrap_or_default();
    if !text
        .lines()
        .any(|line| line.split('\t').nth(1) == Some(name.as_str()))
    {
        write_atomically(&promotions, format!("{text}{row}\n").as_bytes())?;
    }
    log(game, &format!("gen {} promoted: {name}", state.generation));
    state.best_generation = state.generation;
    state.best_net = promoted.display().to_string();
    if config.publish {
        state.step = Step::Publish;
        Ok(state)
    } else {
        Ok(next_generation(config, &state))
    }
}
