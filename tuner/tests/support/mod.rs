//! Helpers shared by the tuner's integration tests: scratch directories and small chess data
//! sets made by the real datagen.

use datagen::generate::{generate, GenerateConfig};
use datagen::players::load_eval;
use sente::chess::Position;
use sente::selfplay::Adjudication;
use std::path::{Path, PathBuf};

/// An empty scratch directory `sente-<test>-<name>-<pid>` in the temp dir.
pub fn scratch(test: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-{test}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `games` chess games at `nodes` nodes per move (classical evaluator, seed `seed`) in `dir`;
/// returns the data file.
pub fn chess_data(dir: &Path, games: u64, nodes: u64, seed: u64) -> PathBuf {
    let config = GenerateConfig {
        game: sente::game::GameKind::Chess,
        games: Some(games),
        positions: None,
        nodes,
        seed,
        random_plies: 8,
        verify_nodes: 0,
        verify_margin: 300,
        adjudication: Adjudication::default(),
        evaluator: "classical".into(),
        dfrc: false,
    };
    let eval = load_eval::<Position>("classical").unwrap();
    generate::<Position, _>(&eval, &config, 2, dir).unwrap();
    dir.join("data.bin")
}
