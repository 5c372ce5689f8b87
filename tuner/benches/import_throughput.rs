//! Import throughput (positions/s) of data files on the tuner's rayon pool: the scan that
//! decodes and replay-checks every record once (`RecordSet::add_files`), and the feature
//! extraction of a training epoch from the scanned records (`extract_games`, the default filter
//! and the game's default net), per file.
//! `cargo bench -p tuner --bench import_throughput -- GAME THREADS FILE...` (files as for
//! `tuner train --data`: Sente files or foreign ones, `FORMAT:path` or by extension).

use sente::dispatch_game;
use sente::game::GameKind;
use sente::nnue::NnueGame;
use std::path::PathBuf;
use std::time::Instant;
use tuner::data::{extract_games, Filter, TargetBlend};
use tuner::record_set::{RecordSet, RecordView};

fn measure<G: NnueGame>(path: &PathBuf) -> anyhow::Result<()> {
    let start = Instant::now();
    let mut set = RecordSet::default();
    let refs = set.add_files::<G>(std::slice::from_ref(path))?;
    let scan = start.elapsed().as_secs_f64();
    let view = RecordView { set: &set, refs };
    let indices: Vec<u32> = (0..view.refs.len() as u32).collect();
    let blend = TargetBlend {
        lambda: 0.3,
        eval_scale: G::ARCH.eval_scale as f32,
    };
    let start = Instant::now();
    let batch = extract_games::<G>(
        &view,
        &indices,
        &Filter::default(),
        &blend,
        G::ARCH.king_buckets,
    );
    let extract = start.elapsed().as_secs_f64();
    let positions = batch.len() as f64;
    println!(
        "{}: {} records, {} training positions; scan {:.0} positions/s, feature extraction {:.0} positions/s",
        path.display(),
        view.refs.len(),
        batch.len(),
        positions / scan,
        positions / extract
    );
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let [game, threads, files @ ..] = &args[..] else {
        println!("usage: import_throughput GAME THREADS FILE...");
        return Ok(());
    };
    let game: GameKind = game.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.parse()?)
        .build_global()?;
    for file in files {
        dispatch_game!(game, G => measure::<G>(&PathBuf::from(file))?);
    }
    Ok(())
}
