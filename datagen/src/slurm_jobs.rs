//! The loop's generate and match steps as Slurm job arrays (`[slurm]` in the loop config): task
//! I of N runs `datagen run --shard I/N` into `RUN/shard-I`, or `datagen match --shard I/N`
//! into `match-rK-sI.result`, submitted with `sbatch --wait` from the data root (a shared
//! filesystem), so the step ends when the array does. A step started again resubmits the
//! whole array; each shard is deterministic (a run resumes from its last chunk, a match shard
//! plays the same games), so the result is the same.

use crate::generate::GenerateConfig;
use crate::loop_config::{LoopConfig, SlurmSection};
use crate::loop_runner::log;
use crate::loop_state::LoopState;
use crate::match_result::MatchResult;
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

/// The placeholder for the array task's index in a task's arguments.
const TASK: &str = "{task}";

/// `arg` quoted for `sh`, with `{task}` left as the task index variable.
fn quote(arg: &str) -> String {
    arg.split(TASK)
        .map(|part| format!("'{}'", part.replace('\'', r"'\''")))
        .collect::<Vec<_>>()
        .join("\"$SLURM_ARRAY_TASK_ID\"")
}

/// The datagen binary the tasks run.
fn datagen(slurm: &SlurmSection) -> Result<String> {
    match &slurm.datagen {
        Some(path) => Ok(path.clone()),
        None => Ok(std::env::current_exe()?.display().to_string()),
    }
}

/// Submits `args` (datagen's arguments, `{task}` standing for the task index) as an array of
/// `slurm.shards` tasks and waits for it; fails unless every task succeeded.
fn run_array(config: &LoopConfig, slurm: &SlurmSection, name: &str, args: &[String]) -> Result<()> {
    let game = config.game.name();
    let logs = Path::new(game).join("slurm");
    std::fs::create_dir_all(&logs)?;
    let root = std::env::current_dir()?;
    let command = std::iter::once(datagen(slurm)?)
        .chain(args.iter().cloned())
        .map(|a| quote(&a))
        .collect::<Vec<_>>()
        .join(" ");
    let mut sbatch = Command::new("sbatch");
    sbatch
        .arg("--wait")
        .arg("--parsable")
        .arg(format!("--job-name=sente-{game}-{name}"))
        .arg(format!("--array=0-{}", slurm.shards - 1))
        .arg(format!("--cpus-per-task={}", slurm.cpus_per_task))
        .arg(format!("--chdir={}", root.display()))
        .arg(format!(
            "--output={}/{name}-%A_%a.out",
            root.join(&logs).display()
        ))
        .args(&slurm.sbatch_args)
        .arg(format!("--wrap=exec {command}"));
    log(game, &format!("slurm: {name}: {} tasks", slurm.shards));
    let status = sbatch
        .status()
        .context("running sbatch (is Slurm installed?)")?;
    if !status.success() {
        bail!(
            "slurm: the {name} array failed ({status}); see {}",
            root.join(&logs).display()
        );
    }
    Ok(())
}

/// The attempt's self-play as an array: shard I into `run/shard-I`.
pub fn generate_array(
    config: &LoopConfig,
    slurm: &SlurmSection,
    generate: &GenerateConfig,
    run: &Path,
) -> Result<()> {
    let games = generate.games.context("slurm: generate.games is needed")?;
    let mut args = vec![
        "run".to_string(),
        "--game".into(),
        config.game.name().into(),
        "--games".into(),
        games.to_string(),
        "--nodes".into(),
        generate.nodes.to_string(),
        "--seed".into(),
        generate.seed.to_string(),
        "--net".into(),
        generate.evaluator.clone(),
        "--threads".into(),
        slurm.cpus_per_task.to_string(),
        "--shard".into(),
        format!("{TASK}/{}", slurm.shards),
        "--out".into(),
        run.join(format!("shard-{TASK}")).display().to_string(),
    ];
    if let Some(search) = &config.generate.search {
        args.extend(["--search".into(), search.clone()]);
    }
    if generate.dfrc {
        args.push("--dfrc".into());
    }
    args.extend(["--searchers".into(), generate.searchers.to_string()]);
    run_array(config, slurm, "generate", &args)
}

/// Round `round` of the match as an array: shard I into `match-r{round}-sI.result`.
#[allow(clippy::too_many_arguments)]
pub fn match_array(
    config: &LoopConfig,
    slurm: &SlurmSection,
    state: &LoopState,
    net: &Path,
    round: u32,
    pairs: u64,
    seed: u64,
    a_nodes: u64,
) -> Result<()> {
    let dir = state.attempt_dir(config.game.name());
    let shard_file = |i: String| dir.join(format!("match-r{round}-s{i}.result"));
    let finished = (0..slurm.shards)
        .all(|i| MatchResult::read(&shard_file(i.to_string())).is_ok_and(|r| r.ended));
    if finished {
        return Ok(());
    }
    let args = vec![
        "match".to_string(),
        "--game".into(),
        config.game.name().into(),
        "--a-net".into(),
        net.display().to_string(),
        "--b-net".into(),
        state.best_net.clone(),
        "--pairs".into(),
        pairs.to_string(),
        "--nodes".into(),
        config.matches.nodes.to_string(),
        "--a-nodes".into(),
        a_nodes.to_string(),
        "--seed".into(),
        seed.to_string(),
        "--threads".into(),
        slurm.cpus_per_task.to_string(),
        "--shard".into(),
        format!("{TASK}/{}", slurm.shards),
        "--result".into(),
        shard_file(TASK.to_string()).display().to_string(),
    ];
    run_array(config, slurm, &format!("match-r{round}"), &args)
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn arguments_are_quoted_for_sh_with_the_task_index_left_open() {
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote("{task}/4"), "''\"$SLURM_ARRAY_TASK_ID\"'/4'");
        assert_eq!(
            quote("run/shard-{task}"),
            "'run/shard-'\"$SLURM_ARRAY_TASK_ID\"''"
        );
    }
}
