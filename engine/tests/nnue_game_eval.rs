//! The classical/NNUE switch the protocols use (`GameEval`): the default while no net is
//! embedded is classical, loading a good net file switches to NNUE with that net, a bad file
//! leaves the previous evaluator in place with an error naming the problem; and the text of
//! `sente eval` for both games, with and without a net, and for bad input.

mod nnue_support;

use nnue_support::*;
use sente::eval::Evaluator;
use sente::game::Game;
use sente::nnue::arch::{CHESS, SHOGI};
use sente::nnue::random_net::random_net_bytes;
use sente::nnue::{
    default_network, eval_report, evaluate_from_scratch, EvalReportError, GameEval, NetLoadError,
    SimdLevel,
};
use std::path::PathBuf;

/// A fresh folder for `tag` with a random chess net (seed 1) and a random shogi net (seed 2):
/// the folder, `chess.nnue` and `shogi.nnue`.
fn random_net_files(tag: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("sente-nnue-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chess_file = dir.join("chess.nnue");
    let shogi_file = dir.join("shogi.nnue");
    std::fs::write(&chess_file, random_net_bytes(&CHESS, 1)).unwrap();
    std::fs::write(&shogi_file, random_net_bytes(&SHOGI, 2)).unwrap();
    (dir, chess_file, shogi_file)
}

#[test]
fn loading_a_net_switches_to_nnue_and_a_bad_file_keeps_the_previous_evaluator() {
    let (dir, chess_file, shogi_file) = random_net_files("switch");

    let mut eval = GameEval::<sente::chess::Position>::default();
    assert_eq!(
        default_network(&CHESS).is_some(),
        matches!(eval, GameEval::Nnue(_))
    );
    let pos = sente::chess::Position::from_text(CHESS_STARTS[1]).unwrap();
    let mut classical = GameEval::<sente::chess::Position>::classical();
    classical.reset(&pos);
    let classical_score = classical.evaluate(&pos);

    // A shogi net is no chess net: refused, nothing changes.
    eval = GameEval::classical();
    let err = eval.load_net(&shogi_file).unwrap_err();
    assert!(matches!(err, NetLoadError::Format { .. }), "{err}");
    assert!(err.to_string().contains("shogi.nnue"), "{err}");
    assert!(matches!(eval, GameEval::Classical(_)));
    eval.reset(&pos);
    assert_eq!(eval.evaluate(&pos), classical_score);

    // A good net switches; its evaluation is the from-scratch one of that net.
    eval.load_net(&chess_file).unwrap();
    assert!(
        eval.describe().contains("chess.nnue"),
        "{}",
        eval.describe()
    );
    eval.reset(&pos);
    let net = eval.network().unwrap().clone();
    assert_eq!(
        eval.evaluate(&pos),
        evaluate_from_scratch(&net, SimdLevel::Scalar, &pos)
    );

    // A missing file then keeps the loaded net.
    let err = eval.load_net(&dir.join("missing.nnue")).unwrap_err();
    assert!(matches!(err, NetLoadError::Io { .. }), "{err}");
    assert!(eval.network().is_some());

    // Shogi: the same switch.
    let mut shogi = GameEval::<sente::shogi::Position>::classical();
    assert!(shogi.load_net(&chess_file).is_err());
    shogi.load_net(&shogi_file).unwrap();
    let start = sente::shogi::Position::startpos();
    shogi.reset(&start);
    assert_eq!(
        shogi.evaluate(&start),
        evaluate_from_scratch(shogi.network().unwrap(), SimdLevel::Scalar, &start)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn eval_report_shows_classical_and_nnue_scores_for_both_games() {
    let (dir, chess_file, shogi_file) = random_net_files("report");

    let chess = eval_report(CHESS_STARTS[0], Some(&chess_file)).unwrap();
    assert!(chess.contains("game: chess"), "{chess}");
    assert!(chess.contains("classical: +0 cp"), "{chess}");
    let pos = sente::chess::Position::startpos();
    let nnue = evaluate_from_scratch(&chess_net(), SimdLevel::Scalar, &pos);
    assert!(chess.contains(&format!("nnue: {nnue:+} cp")), "{chess}");
    assert!(!chess.contains("MISMATCH"), "{chess}");

    let shogi = eval_report(SHOGI_STARTS[1], Some(&shogi_file)).unwrap();
    assert!(shogi.contains("game: shogi"), "{shogi}");
    assert!(shogi.contains("side to move: white (gote)"), "{shogi}");
    assert!(shogi.contains("nnue: "), "{shogi}");

    if default_network(&SHOGI).is_none() {
        let plain = eval_report(SHOGI_STARTS[0], None).unwrap();
        assert!(plain.contains("nnue: no net"), "{plain}");
    }

    // A net for the other game, and text that is no position, are errors that say so.
    let wrong = eval_report(CHESS_STARTS[0], Some(&shogi_file)).unwrap_err();
    assert!(matches!(wrong, EvalReportError::Net(_)), "{wrong}");
    let garbage = eval_report("not a position", None).unwrap_err();
    assert!(matches!(garbage, EvalReportError::Position { .. }));
    assert!(garbage.to_string().contains("FEN"), "{garbage}");
    std::fs::remove_dir_all(&dir).unwrap();
}
