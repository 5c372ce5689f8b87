//! `datagen loop`: the network loop of one game as a typed state machine, run for days —
//! rescore → generate → pool → train → match rounds → decide (promote or reject) → publish —
//! calling the library for each step (`generate_run`, `pool::add`, `tuner::training::train`,
//! `play_match`, `rescore`). The state (`loop_state`) is rewritten atomically after every
//! step, and each step is idempotent (a run resumes, a pool add is skipped when the pool holds
//! the file, training resumes from its checkpoint, a match round keeps the pairs a kill left), so
//! a kill at any moment resumes where it stopped. The loop runs with the data root as its
//! working directory and names everything relative to it, as the shell loop did. One loop per
//! game: it holds `GAME/loop.lock`.

use crate::generate::{search_changes, GenerateConfig, DATAGEN_SEARCH};
use crate::generate_run::generate_run;
use crate::loop_config::LoopConfig;
use crate::loop_efficiency::StepClock;
use crate::loop_state::{write_atomically, LoopState, Step};
use crate::net_name::net_file_name;
use crate::players::DatagenGame;
use crate::pool::AddOptions;
use anyhow::{bail, Context, Result};
use sente::dispatch_game;
use sente::selfplay::Adjudication;
use sente_data::chunk::checksum;
use sente_data::data_paths::expand_data_paths;
use sente_data::pool::Pool;
use sente_data::shard::Shard;
use std::fs::{File, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How long `run_loop` goes on.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoopLimits {
    /// Stop after this many steps (the next start goes on from the state they left).
    pub max_steps: Option<u64>,
}

/// A line of the loop's log on stdout, with the time and the game.
pub fn log(game: &str, text: &str) {
    let _ = sente::try_println!("{} {game}: {text}", utc_now());
    let _ = std::io::stdout().flush();
}

/// `YYYY-MM-DD HH:MM:SS` in UTC.
pub fn utc_now() -> String {
    let t = sente::utc_time::UtcTime::now();
    format!("{} {}", t.date(), t.clock())
}

/// Takes `GAME/loop.lock` (the shell loop's lock too) and writes this process's id in it.
pub fn lock_loop(game: &str) -> Result<File> {
    let path = PathBuf::from(game).join("loop.lock");
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("opening {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => bail!(
            "another loop of {game} is running (it holds {}); stopping",
            std::env::current_dir()?.join(&path).display()
        ),
        Err(TryLockError::Error(e)) => {
            return Err(e).with_context(|| format!("locking {}", path.display()))
        }
    }
    file.set_len(0)?;
    writeln!(file, "{}", std::process::id())?;
    Ok(file)
}

/// The first state of a game directory without one: the shell loop's, or the best net seeded
/// from the repository's `nets/GAME-default.nnue`, its generation the game's promotions in the
/// repository's `nets/history.tsv`.
fn initial_state(config: &LoopConfig) -> Result<LoopState> {
    let game = config.game.name();
    let rescore = config.rescore.positions > 0;
    if let Some(state) = LoopState::from_shell_loop(game, rescore)? {
        log(
            game,
            "read the shell loop's state (best.txt and its markers)",
        );
        return Ok(state);
    }
    let nets = config.repository.join("nets");
    let default = nets.join(format!("{game}-default.nnue"));
    let name = net_file_name(game, &default)?;
    let best = PathBuf::from(game).join("nets").join(&name);
    copy_atomically(&default, &best)?;
    let history = std::fs::read_to_string(nets.join("history.tsv")).unwrap_or_default();
    let generation = history
        .lines()
        .filter(|line| line.starts_with(&format!("{game}\t")))
        .count() as u32;
    log(
        game,
        &format!(
            "seeded the best net {} (generation {generation}) from {}",
            best.display(),
            default.display()
        ),
    );
    // Generation 1 has no stale data to rescore.
    Ok(LoopState::new_generation(
        generation,
        best.display().to_string(),
        false,
    ))
}

/// Copies `from` beside `to` and renames it over, so a reader never sees half a file.
pub fn copy_atomically(from: &Path, to: &Path) -> Result<()> {
    let tmp = to.with_extension("tmp");
    std::fs::copy(from, &tmp)
        .with_context(|| format!("copying {} to {}", from.display(), tmp.display()))?;
    std::fs::rename(&tmp, to).with_context(|| format!("renaming onto {}", to.display()))?;
    Ok(())
}

/// Runs the loop of `config` until `max_generation`, `max_attempts` or `limits` stop it.
pub fn run_loop(config: &LoopConfig, limits: LoopLimits) -> Result<()> {
    std::fs::create_dir_all(&config.data)
        .with_context(|| format!("creating {}", config.data.display()))?;
    std::env::set_current_dir(&config.data)
        .with_context(|| format!("entering {}", config.data.display()))?;
    let game = config.game.name();
    std::fs::create_dir_all(PathBuf::from(game).join("runs"))?;
    std::fs::create_dir_all(PathBuf::from(game).join("nets"))?;
    let _lock = lock_loop(game)?;
    let mut state = match LoopState::read(Path::new(game))? {
        Some(state) => state,
        None => initial_state(config)?,
    };
    state.write(Path::new(game))?;
    let mut steps = 0u64;
    loop {
        if state.generation > config.max_generation {
            log(
                game,
                &format!("max_generation {} reached", config.max_generation),
            );
            return Ok(());
        }
        if state.attempt > config.max_attempts {
            log(
                game,
                &format!(
                    "gen {}: max_attempts {} rejected",
                    state.generation, config.max_attempts
                ),
            );
            return Ok(());
        }
        if limits.max_steps.is_some_and(|max| steps >= max) {
            log(
                game,
                &format!(
                    "stopping after {steps} steps at gen {} attempt {} step {:?}",
                    state.generation, state.attempt, state.step
                ),
            );
            return Ok(());
        }
        let clock = StepClock::start();
        let before = state.clone();
        let work;
        (state, work) = dispatch_game!(config.game, G => step::<G>(config, state))?;
        state.write(Path::new(game))?;
        clock.record(game, &before, &state, work);
        steps += 1;
    }
}

/// One step of the state machine: does the work of `state.step` and returns the next state
/// and the work this process did, in the step's unit (`loop_efficiency::unit`).
fn step<G: DatagenGame>(config: &LoopConfig, mut state: LoopState) -> Result<(LoopState, u64)> {
    let game = config.game.name();
    let dir = state.attempt_dir(game);
    std::fs::create_dir_all(&dir)?;
    let work = match state.step {
        Step::Rescore => return crate::loop_rescore::rescore_step::<G>(config, state),
        Step::Generate => {
            let positions = generate::<G>(config, &state)?;
            touch(&dir.join("generated"))?;
            state.step = Step::Pool;
            positions
        }
        Step::Pool => {
            let positions = pool_runs::<G>(config, &state)?;
            touch(&dir.join("pooled"))?;
            state.step = Step::Train;
            positions
        }
        Step::Train => {
            if state.train_data.is_empty() {
                // Fixed when the attempt first trains: a resumed run sees the same files.
                let pool = Pool::open(&pool_dir(game))?;
                state.train_data = pool
                    .entries
                    .iter()
                    .map(|e| format!("{game}/pool/{}", e.file))
                    .collect();
                write_atomically(
                    &dir.join("data.txt"),
                    (state.train_data.join("\n") + "\n").as_bytes(),
                )?;
                return Ok((state, 0));
            }
            let positions = train::<G>(config, &state)?;
            touch(&dir.join("trained"))?;
            state.step = Step::Match;
            state.round = 1;
            positions
        }
        Step::Match => return crate::loop_match::match_step::<G>(config, state),
        Step::Decide => return Ok((crate::loop_match::decide(config, state)?, 0)),
        Step::Publish => {
            let nets = crate::loop_publish::publish(config)?;
            return Ok((next_generation(config, &state), nets as u64));
        }
    };
    Ok((state, work))
}

/// The state at the start of the generation after the best net's.
pub fn next_generation(config: &LoopConfig, state: &LoopState) -> LoopState {
    LoopState::new_generation(
        state.best_generation,
        state.best_net.clone(),
        config.rescore.positions > 0,
    )
}

pub fn pool_dir(game: &str) -> PathBuf {
    PathBuf::from(game).join("pool")
}

pub fn touch(path: &Path) -> Result<()> {
    File::create(path).with_context(|| format!("creating {}", path.display()))?;
    Ok(())
}

/// The attempt's run directory `GAME/runs/genG-nNODES-sSEED` (as the shell loop named it).
pub fn run_dir(config: &LoopConfig, state: &LoopState) -> PathBuf {
    PathBuf::from(config.game.name()).join("runs").join(format!(
        "gen{}-n{}-s{}",
        state.generation,
        config.generate.nodes,
        state.seed()
    ))
}

/// The run directories of the attempt: the run, or its Slurm array's shards.
fn run_parts(config: &LoopConfig, state: &LoopState) -> Vec<PathBuf> {
    let run = run_dir(config, state);
    match &config.slurm {
        None => vec![run],
        Some(slurm) => (0..slurm.shards)
            .map(|i| run.join(format!("shard-{i}")))
            .collect(),
    }
}

/// The self-play settings of the attempt (`datagen run`'s defaults otherwise).
pub fn generate_config<G: DatagenGame>(
    config: &LoopConfig,
    state: &LoopState,
) -> Result<GenerateConfig> {
    let g = &config.generate;
    Ok(GenerateConfig {
        game: config.game,
        games: g.games,
        positions: g.games.is_none().then_some(g.positions),
        nodes: g.nodes,
        seed: state.seed(),
        random_plies: crate::cli::opening_args::RANDOM_PLIES,
        verify_nodes: crate::cli::opening_args::VERIFY_NODES,
        verify_margin: crate::cli::run_args::RUN_VERIFY_MARGIN,
        adjudication: Adjudication::default(),
        evaluator: state.best_net.clone(),
        dfrc: g.dfrc,
        searchers: g.searchers,
        search: search_changes::<G>(g.search.as_deref().unwrap_or(DATAGEN_SEARCH))?,
    })
}

/// Generates the attempt's data; returns the positions this process wrote (none with
/// `[slurm]`: the array's tasks write them).
fn generate<G: DatagenGame>(config: &LoopConfig, state: &LoopState) -> Result<u64> {
    let game = config.game.name();
    let run = run_dir(config, state);
    let amount = match config.generate.games {
        Some(games) => format!("{games} games"),
        None => format!("{} positions", config.generate.positions),
    };
    log(
        game,
        &format!(
            "gen {} attempt {}: generating {amount} at {} nodes with {} -> {}",
            state.generation,
            state.attempt,
            config.generate.nodes,
            state.best_net,
            run.display()
        ),
    );
    let generate = generate_config::<G>(config, state)?;
    match &config.slurm {
        Some(slurm) => {
            crate::slurm_jobs::generate_array(config, slurm, &generate, &run).map(|()| 0)
        }
        None => {
            let threads = config.generate.threads;
            generate_run::<G>(&generate, None, None, Shard::WHOLE, threads, None, &run)
                .map(|summary| summary.session_positions)
        }
    }
}

/// Whether the pool lists a file with the same bytes as `data` (a copy added before a kill).
pub fn pool_holds(pool: &Path, data: &Path) -> Result<bool> {
    if !Pool::is_pool(pool) {
        return Ok(false);
    }
    let bytes = std::fs::read(data).with_context(|| format!("reading {}", data.display()))?;
    let sum = checksum(&bytes);
    Ok(Pool::open(pool)?
        .entries
        .iter()
        .any(|e| e.checksum == sum && e.bytes == bytes.len() as u64))
}

/// Adds the attempt's run to the pool; returns the positions added.
fn pool_runs<G: DatagenGame>(config: &LoopConfig, state: &LoopState) -> Result<u64> {
    let game = config.game.name();
    let pool = pool_dir(game);
    let mut inputs = Vec::new();
    for part in run_parts(config, state) {
        if !pool_holds(&pool, &part.join("data.bin"))? {
            inputs.push(part);
        }
    }
    if inputs.is_empty() {
        log(game, "the attempt's run is already in the pool");
        return Ok(0);
    }
    let options = AddOptions {
        generation: state.generation,
        net: Some(PathBuf::from(&state.best_net)),
        move_files: false,
    };
    let mut positions = 0;
    for entry in crate::pool::add::<G>(&pool, &inputs, &options)? {
        positions += entry.positions;
        log(
            game,
            &format!(
                "gen {}: added {} ({} games, {} positions) to the pool",
                state.generation, entry.file, entry.games, entry.positions
            ),
        );
    }
    Ok(positions)
}

/// The attempt's new net.
pub fn new_net(config: &LoopConfig, state: &LoopState) -> PathBuf {
    state
        .attempt_dir(config.game.name())
        .join("train")
        .join(format!(
            "{}-gen{}.nnue",
            config.game.name(),
            state.generation
        ))
}

/// Trains the attempt's net; returns the training positions this process trained on
/// (superbatches it ran × batches × batch size; a resumed training counts from its checkpoint).
fn train<G: DatagenGame>(config: &LoopConfig, state: &LoopState) -> Result<u64> {
    let game = config.game.name();
    let t = &config.train;
    let init = config
        .train_init_best
        .then(|| PathBuf::from(&state.best_net));
    log(
        game,
        &format!(
            "gen {} attempt {}: training on {} data files{}",
            state.generation,
            state.attempt,
            state.train_data.len(),
            init.as_ref()
                .map_or(String::new(), |p| format!(" from {}", p.display()))
        ),
    );
    let data: Vec<PathBuf> = state.train_data.iter().map(PathBuf::from).collect();
    let init_arch = init
        .as_deref()
        .map(tuner::init_net::net_file_arch)
        .transpose()?;
    let train_config = tuner::training::TrainConfig {
        data: expand_data_paths(&data)?,
        val: Vec::new(),
        val_every: t.val_every,
        superbatches: train_superbatches(config, state)?,
        batches_per_superbatch: t.batches,
        batch_size: t.batch,
        schedule: t.lr.parse().map_err(|e| anyhow::anyhow!("train.lr: {e}"))?,
        lambda: t.wdl,
        weight_decay: tuner::trainer::DEFAULT_WEIGHT_DECAY,
        threads: t.threads,
        seed: state.seed(),
        out: state.attempt_dir(game).join("train"),
        save_every: 1,
        filter: tuner::data::Filter {
            positions: sente_data::position_filter::PositionFilter {
                min_ply: TRAIN_MIN_PLY,
                ..Default::default()
            },
            mirror: t.mirror,
        },
        name: format!("{game}-gen{}", state.generation),
        factors: true,
        l1: t
            .l1
            .or(init_arch.map(|a| a.l1))
            .unwrap_or(<G as sente::nnue::NnueGame>::ARCH.l1),
        king_buckets: t
            .king_buckets
            .or(init_arch.map(|a| a.king_buckets))
            .unwrap_or(<G as sente::nnue::NnueGame>::ARCH.king_buckets),
        init,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(t.threads)
        .build()?;
    let checkpoint = tuner::training::checkpoint_path(&train_config.out);
    // For the accounting only: a checkpoint that does not load is the trainer's to refuse.
    let done_before = if checkpoint.exists() {
        tuner::checkpoint::Checkpoint::load(&checkpoint).map_or(0, |cp| cp.superbatch)
    } else {
        0
    };
    let done = pool
        .install(|| tuner::training::train::<G>(&train_config, None))?
        .superbatch;
    Ok(u64::from(done.saturating_sub(done_before)) * u64::from(t.batches) * t.batch as u64)
}

/// The attempt's superbatches: `train.superbatches`, or with `train.epochs` that many passes
/// over the training set's positions as the pool lists them (fixed with the set, so a resumed
/// training keeps its schedule).
pub fn train_superbatches(config: &LoopConfig, state: &LoopState) -> Result<u32> {
    let t = &config.train;
    let Some(epochs) = t.epochs else {
        return Ok(t.superbatches);
    };
    let game = config.game.name();
    let pool = Pool::open(&pool_dir(game))?;
    let mut positions = 0u64;
    for path in &state.train_data {
        let entry = pool
            .entries
            .iter()
            .find(|e| format!("{game}/pool/{}", e.file) == *path)
            .with_context(|| {
                format!(
                    "train.epochs: {path} is not in the pool listing, so its positions are unknown"
                )
            })?;
        positions += entry.positions;
    }
    let per_superbatch = u64::from(t.batches) * t.batch as u64;
    Ok(superbatches_for_epochs(epochs, positions, per_superbatch))
}

/// `epochs` passes over `positions` in superbatches of `per_superbatch`, rounded up, at least 1.
fn superbatches_for_epochs(epochs: f64, positions: u64, per_superbatch: u64) -> u32 {
    let exact = epochs * positions as f64 / per_superbatch.max(1) as f64;
    (exact.ceil() as u32).max(1)
}

/// `tuner train --min-ply`'s default: the first plies of each game are skipped.
pub const TRAIN_MIN_PLY: u32 = 8;

#[cfg(test)]
mod tests {
    use super::{generate_config, superbatches_for_epochs};
    use crate::loop_config::LoopConfig;
    use crate::loop_state::LoopState;
    use std::path::Path;

    #[test]
    fn the_attempts_self_play_starts_where_the_config_says() {
        let state = LoopState::new_generation(3, "chess/nets/x.nnue".into(), false);
        use crate::side_searchers::SideSearchers::{PerSide, Shared};
        for (text, dfrc, searchers) in [
            ("", false, Shared),
            ("[generate]\ndfrc = true", true, Shared),
            ("[generate]\nsearchers = \"per-side\"", false, PerSide),
        ] {
            let config =
                LoopConfig::parse(&format!("game = \"chess\"\n{text}"), Path::new(".")).unwrap();
            let generate = generate_config::<sente::chess::Position>(&config, &state).unwrap();
            assert_eq!(generate.dfrc, dfrc, "{text}");
            assert_eq!(generate.searchers, searchers, "{text}");
            assert_eq!(generate.evaluator, "chess/nets/x.nnue");
        }
    }

    #[test]
    fn epochs_become_whole_superbatches() {
        // 1.2 passes over gen 15's pool (8,117,246 positions) in superbatches of 50 × 16,384.
        assert_eq!(superbatches_for_epochs(1.2, 8_117_246, 819_200), 12);
        assert_eq!(superbatches_for_epochs(1.0, 819_200, 819_200), 1);
        assert_eq!(superbatches_for_epochs(1.0, 819_201, 819_200), 2);
        // A tiny set still trains one superbatch.
        assert_eq!(superbatches_for_epochs(0.5, 10, 819_200), 1);
    }
}
