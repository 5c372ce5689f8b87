//! The loop's rescoring: after a promotion, before the next generation's first data, the oldest
//! pool files (generation below the new one; oldest generation first, then manifest order) until
//! their positions reach `rescore.positions` are labelled again by the new best net at
//! `rescore.nodes` nodes, join the pool as data of the new generation, and their sources are
//! retired to `pool/retired/`. The list is fixed in the state when the rescoring starts; each
//! file's rescore, add and retire is skipped when its effect is already there, so a kill between
//! any two of them resumes cleanly.

use crate::cli::evaluator_args::EvaluatorArgs;
use crate::cli::search_change_args::SearchChangeArgs;
use crate::generate::DATAGEN_SEARCH;
use crate::loop_config::LoopConfig;
use crate::loop_runner::{log, pool_dir, pool_holds};
use crate::loop_state::{LoopState, Step};
use crate::players::DatagenGame;
use crate::pool::{AddOptions, RETIRED};
use crate::rescore::RescoreSettings;
use anyhow::Result;
use sente_data::pool::Pool;
use std::path::PathBuf;

/// The rescoring step: chooses the files (one step), then handles one file per step. Returns
/// the next state and the positions this process rescored.
pub fn rescore_step<G: DatagenGame>(
    config: &LoopConfig,
    mut state: LoopState,
) -> Result<(LoopState, u64)> {
    let game = config.game.name();
    let pool = pool_dir(game);
    let gen = state.generation;
    if state.rescore_files.is_empty() {
        let entries = if Pool::is_pool(&pool) {
            Pool::open(&pool)?.entries
        } else {
            Vec::new()
        };
        let mut stale: Vec<_> = entries.into_iter().filter(|e| e.generation < gen).collect();
        // A stable sort keeps the manifest order within a generation.
        stale.sort_by_key(|e| e.generation);
        let mut chosen = Vec::new();
        let mut positions = 0u64;
        for entry in stale {
            if !chosen.is_empty() && positions >= config.rescore.positions {
                break;
            }
            positions += entry.positions;
            chosen.push(entry);
        }
        if chosen.is_empty() {
            state.step = Step::Generate;
            return Ok((state, 0));
        }
        let mut generations: Vec<String> =
            chosen.iter().map(|e| e.generation.to_string()).collect();
        generations.dedup();
        log(game, &format!(
            "gen {gen}: chose {} stale pool files of generations {}, {positions} positions, to rescore with {} at {} nodes",
            chosen.len(), generations.join(","), state.best_net, config.rescore.nodes
        ));
        state.rescore_files = chosen.into_iter().map(|e| e.file).collect();
        state.rescore_done = 0;
        return Ok((state, 0));
    }
    let Some(file) = state.rescore_files.get(state.rescore_done).cloned() else {
        log(game, &format!("gen {gen}: rescoring done"));
        state.step = Step::Generate;
        return Ok((state, 0));
    };
    let work = PathBuf::from(game)
        .join(format!("gen{gen}"))
        .join("rescore");
    std::fs::create_dir_all(&work)?;
    let stem = file.strip_suffix(".bin").unwrap_or(&file);
    let out = work.join(format!("{stem}-n{}", config.rescore.nodes));
    let listed = |name: &str| -> Result<bool> {
        Ok(Pool::is_pool(&pool) && Pool::open(&pool)?.entries.iter().any(|e| e.file == name))
    };
    let mut rescored = 0;
    if listed(&file)? {
        // Rescoring resumes after its last complete chunk (nothing to do once complete).
        log(
            game,
            &format!(
                "gen {gen}: rescoring {file} at {} nodes -> {}",
                config.rescore.nodes,
                out.display()
            ),
        );
        let settings = RescoreSettings {
            game: config.game,
            evaluator: EvaluatorArgs {
                net: state.best_net.clone(),
            },
            nodes: config.rescore.nodes,
            threads: config.generate.threads,
            out: out.clone(),
            inputs: vec![pool.join(&file)],
            search: SearchChangeArgs {
                search: config
                    .generate
                    .search
                    .clone()
                    .unwrap_or_else(|| DATAGEN_SEARCH.to_string()),
            },
        };
        rescored = crate::rescore::rescore::<G>(&settings)?.session_positions;
        if pool_holds(&pool, &out.join("data.bin"))? {
            log(
                game,
                &format!("gen {gen}: the rescored copy of {file} is already in the pool"),
            );
        } else {
            let options = AddOptions {
                generation: gen,
                net: Some(PathBuf::from(&state.best_net)),
                move_files: false,
            };
            crate::pool::add::<G>(&pool, std::slice::from_ref(&out), &options)?;
            log(
                game,
                &format!(
                    "gen {gen}: added the rescored copy of {file} to the pool as generation {gen}"
                ),
            );
        }
        crate::pool::retire(&pool, std::slice::from_ref(&file))?;
        log(
            game,
            &format!(
                "gen {gen}: retired {file} to {}",
                pool.join(RETIRED).display()
            ),
        );
    } else {
        log(game, &format!("gen {gen}: {file} is already retired"));
    }
    // `pool retire` rewrites the manifest before it moves the files: a kill in between leaves
    // them unlisted in the pool. Finish the move.
    for name in [file.clone(), format!("{file}.run.txt")] {
        let (from, to) = (pool.join(&name), pool.join(RETIRED).join(&name));
        if from.exists() && !to.exists() {
            std::fs::create_dir_all(pool.join(RETIRED))?;
            std::fs::rename(from, to)?;
        }
    }
    state.rescore_done += 1;
    Ok((state, rescored))
}
