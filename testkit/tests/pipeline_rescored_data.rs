//! Data rescored with a net (`datagen rescore`) joins a pool and the tuner reads it: the same
//! positions as the source, with the new scores as targets.

mod support;

use datagen::pool::{add, AddOptions};
use datagen::rescore::{rescore, RescoreSettings};
use sente::chess::Position;
use sente::game::GameKind;
use support::classical_eval_on;

const NET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../nets/chess-default.nnue");

#[test]
fn a_rescored_pool_reads_as_the_source_positions_with_new_targets() {
    let dir = support::scratch("tuner", "rescored");
    let source = support::chess_data(&dir.join("run"), 12, 200, 3);
    let settings = RescoreSettings {
        game: GameKind::Chess,
        evaluator: datagen::cli::evaluator_args::EvaluatorArgs {
            net: NET.to_string(),
        },
        nodes: 100,
        threads: 2,
        out: dir.join("rescored"),
        inputs: vec![dir.join("run")],
        search: datagen::cli::search_change_args::SearchChangeArgs {
            search: String::new(),
        },
    };
    let summary = rescore::<Position>(&settings).unwrap();
    assert_eq!(summary.games, 12);
    let pool = dir.join("pool");
    add::<Position>(&pool, &[dir.join("rescored")], &AddOptions::default()).unwrap();

    let before = classical_eval_on(&[&source]);
    let after = classical_eval_on(&[&pool]);
    assert!(after.contains("positions"), "{after}");
    assert_eq!(after, classical_eval_on(&[&dir.join("rescored")]));
    assert_ne!(after, before, "the targets changed");
    let _ = std::fs::remove_dir_all(&dir);
}
