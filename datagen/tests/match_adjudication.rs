//! `datagen match --resign / --draw / --max-plies`: the adjudication a match plays under, kept in
//! its result so that results of other settings are not merged, and refused when malformed.

mod common;

use common::{classical_match, scratch_dir, with, with_all, DATAGEN};
use datagen::match_result::MatchResult;
use std::path::Path;

fn play(extra: &[(&str, &str)], result: &Path) -> MatchResult {
    let base = [
        ("--pairs", "3"),
        ("--nodes", "200"),
        ("--verify-nodes", "100"),
        ("--seed", "4"),
    ];
    let args = with_all(with_all(classical_match("chess"), &base), extra);
    let args = with(args, "--result", result.to_str().unwrap());
    DATAGEN.ok(&args);
    MatchResult::read(result).unwrap()
}

#[test]
fn a_match_plays_under_its_adjudication_and_keeps_it_in_the_result() {
    let dir = scratch_dir("adjudication");
    let default = play(&[], &dir.join("default.txt"));
    assert_eq!(
        default.setup.limits, "nodes=200",
        "the default keeps its old label"
    );
    // Resign at the first report off zero, no draw adjudication: every game is decided.
    let eager = play(
        &[("--resign", "1:1"), ("--draw", "off")],
        &dir.join("eager.txt"),
    );
    assert_eq!(
        eager.setup.limits,
        "nodes=200 adjudication=resign:1:1,draw:off,max_plies:400"
    );
    assert_eq!(eager.wdl.draws, 0, "{:?}", eager.wdl);
    // A draw after two plies of the game proper: every game is drawn.
    let short = play(&[("--max-plies", "2")], &dir.join("short.txt"));
    assert_eq!(short.wdl.draws, 6, "{:?}", short.wdl);
    // Results of other adjudication are not merged.
    let error = DATAGEN.failure(&[
        "match-merge",
        dir.join("default.txt").to_str().unwrap(),
        dir.join("eager.txt").to_str().unwrap(),
    ]);
    assert!(error.contains("limits"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_adjudication_is_refused_naming_the_option() {
    for (flag, value) in [
        ("--resign", "400"),
        ("--resign", "much:6"),
        ("--draw", "10:16"),
        ("--max-plies", "0"),
    ] {
        let args = with(with(classical_match("chess"), "--pairs", "1"), flag, value);
        let error = DATAGEN.failure(&args);
        assert!(error.contains(flag), "{flag} {value}: {error}");
    }
}
