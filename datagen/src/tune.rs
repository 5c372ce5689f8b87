//! `datagen spsa`: tunes the search's numeric parameters (`SearchParams`) by SPSA over short
//! self-play matches of one evaluator against itself, at fixed nodes or on a clock (a node clock
//! for the time-management parameters, which a node limit ignores). Each iteration plays game pairs
//! of the two perturbed configurations on seeded random openings and moves the estimate; the
//! state file is rewritten after every iteration, so a killed run resumes where it stopped (the
//! interrupted iteration is replayed with the same openings).

use crate::players::DatagenGame;
use anyhow::{bail, Context, Result};
use sente::game::GameKind;
use sente::search::SearchParams;
use sente::selfplay::{run_match, MatchConfig, PlayerConfig, Spsa, TimeControl};
use std::io::Write;
use std::path::PathBuf;

/// What `datagen spsa` was asked to do (its command-line arguments).
#[derive(Clone, Debug, clap::Args)]
#[command(mut_arg("net", |a| a.default_value("default").required(false)))]
pub struct SpsaSettings {
    #[arg(long)]
    pub game: GameKind,
    /// Both sides' evaluator.
    #[command(flatten)]
    pub evaluator: crate::cli::evaluator_args::EvaluatorArgs,
    /// Parameters to tune, comma-separated (all when left out); see `--list`.
    #[arg(long = "params", value_delimiter = ',')]
    pub names: Vec<String>,
    /// List the parameters with their defaults, ranges and steps, and exit.
    #[arg(long)]
    pub list: bool,
    /// Start from these values instead of the defaults (`name=value,...`).
    #[arg(long, default_value = "")]
    pub start: String,
    #[arg(long, default_value_t = 1000)]
    pub iterations: u64,
    /// Game pairs per iteration.
    #[arg(long, default_value_t = 2)]
    pub pairs: usize,
    /// Node limit per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Play on a clock instead of a node limit (--nodes is then unused): BASE+INC in seconds, as
    /// `datagen match --tc`.
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<TimeControl>,
    /// With --tc: a node clock, N nodes to the millisecond (budgets and clocks count searched
    /// nodes), so the tuning is free of the machine's load.
    #[arg(long, value_name = "N", requires = "tc", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes_time: Option<u64>,
    /// With --tc: the `+INC` is a byoyomi period (shogi).
    #[arg(long, requires = "tc")]
    pub byoyomi: bool,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The learning rate at the end of the run (a_N / c_N², OpenBench's R_end).
    #[arg(long, default_value_t = 0.002)]
    pub learning_rate: f64,
    /// Random plies of each game pair's opening.
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// State file: resumed when it exists, rewritten after every iteration.
    #[arg(long, default_value = "spsa.txt")]
    pub state: PathBuf,
}

/// The parameter table `datagen spsa --game G --list` prints: each parameter's value in G's
/// search (`SearchParams::for_game`, where a tuning starts), its range and its step.
pub fn print_parameter_list<G: DatagenGame>(out: &mut dyn Write) -> std::io::Result<()> {
    let defaults = SearchParams::for_game::<G>();
    writeln!(out, "name\tdefault\tmin\tmax\tstep")?;
    for spec in SearchParams::SPECS {
        let value = defaults.get(spec.name).unwrap_or(spec.default);
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}",
            spec.name, value, spec.min, spec.max, spec.step
        )?;
    }
    Ok(())
}

/// Runs (or resumes) the tuning and prints one line per iteration and the result.
pub fn run_spsa<G: DatagenGame>(settings: &SpsaSettings, out: &mut dyn Write) -> Result<()> {
    if settings.nodes == 0 || settings.threads == 0 || settings.pairs == 0 {
        bail!("--nodes, --threads and --pairs must be at least 1");
    }
    let start = SearchParams::for_game::<G>()
        .with_changes(&settings.start)
        .map_err(anyhow::Error::msg)?;
    let names: Vec<&str> = settings.names.iter().map(String::as_str).collect();
    let fresh = Spsa::new(
        start,
        &names,
        settings.iterations,
        settings.learning_rate,
        settings.seed,
    )
    .map_err(anyhow::Error::msg)?;
    let mut spsa = if settings.state.exists() {
        let text = std::fs::read_to_string(&settings.state)
            .with_context(|| format!("reading {}", settings.state.display()))?;
        let saved = Spsa::from_text(&text)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("{} is no SPSA state", settings.state.display()))?;
        if !saved.continues(&fresh) {
            bail!(
                "{} belongs to another run (other parameters, iterations, learning rate or seed): \
                 remove it or repeat that run's settings",
                settings.state.display()
            );
        }
        writeln!(
            out,
            "spsa: resuming {} at iteration {}/{}",
            settings.state.display(),
            saved.done,
            saved.iterations
        )?;
        saved
    } else {
        fresh
    };
    let eval = G::load_eval(&settings.evaluator.net)?;
    let start_position = G::start_position(false);
    let tc = settings.tc.map(|tc| tc.with_byoyomi(settings.byoyomi));
    let player = |name: &str, params: SearchParams| {
        let mut player = match tc {
            Some(tc) => {
                let mut player = PlayerConfig::with_time_control(name, eval.clone(), tc);
                player.options.nodes_per_ms = settings.nodes_time.unwrap_or(0);
                player
            }
            None => PlayerConfig::with_nodes(name, eval.clone(), settings.nodes),
        };
        player.params = params;
        player
    };
    while spsa.done < spsa.iterations {
        let k = spsa.done;
        let perturbation = spsa.perturbation(start);
        let config = MatchConfig {
            pairs: settings.pairs,
            concurrency: settings.threads,
            opening_plies: settings.random_plies,
            seed: settings.seed.wrapping_mul(1_000_003).wrapping_add(k),
            ..MatchConfig::default()
        };
        let report = run_match(
            &start_position,
            &player("plus", perturbation.plus),
            &player("minus", perturbation.minus),
            &config,
            &|_| {},
        );
        let score = report.wdl.wins as f64 - report.wdl.losses as f64;
        spsa.update(&perturbation, score);
        spsa.save(&settings.state)
            .with_context(|| format!("writing {}", settings.state.display()))?;
        writeln!(
            out,
            "spsa {}/{}: plus W {} D {} L {}; now {}",
            k + 1,
            spsa.iterations,
            report.wdl.wins,
            report.wdl.draws,
            report.wdl.losses,
            estimate_line(&spsa)
        )?;
    }
    let tuned = spsa
        .current(start)
        .changes_from(&SearchParams::for_game::<G>());
    if tuned.is_empty() {
        writeln!(
            out,
            "tuned: the defaults (no parameter moved far enough to change)"
        )?;
    } else {
        writeln!(out, "tuned: {tuned}")?;
        writeln!(out, "check it: datagen match --a-params {tuned} ...")?;
    }
    Ok(())
}

/// The tuned parameters' current real-valued estimates.
fn estimate_line(spsa: &Spsa) -> String {
    spsa.params
        .iter()
        .map(|p| format!("{}={:.2}", p.spec.name, p.value))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `datagen spsa`: the parameter list (`--list`) or the tuning, for the settings' game.
pub fn execute(settings: &SpsaSettings) -> Result<()> {
    let mut out = std::io::stdout().lock();
    if settings.list {
        return Ok(sente::dispatch_game!(settings.game, G => print_parameter_list::<G>(&mut out))?);
    }
    sente::dispatch_game!(settings.game, G => run_spsa::<G>(settings, &mut out))
}
