//! `datagen match --prior FILES` goes on from earlier results of the same match (what a killed
//! match left): the SPRT, progress and report count the earlier games with the new ones, the
//! new run's `--result` holds only its own games, and results of another match or of the same
//! seed are refused.

mod common;

use common::{classical_match, scratch_dir, with, DATAGEN};
use datagen::match_result::MatchResult;

#[test]
fn a_match_goes_on_from_the_games_of_an_earlier_run() {
    let dir = scratch_dir("match-resumed");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let mut args = classical_match("chess");
    for (flag, value) in [
        ("--nodes", "50"),
        ("--verify-nodes", "0"),
        ("--threads", "2"),
    ] {
        args = with(args, flag, value);
    }
    let run = |seed: &str, pairs: &str, result: &str| {
        with(
            with(with(args.clone(), "--seed", seed), "--pairs", pairs),
            "--result",
            &path(result),
        )
    };

    // An earlier run of 4 pairs, then 3 more pairs on other openings going on from it.
    DATAGEN.ok(&run("21", "4", "first.txt"));
    let first = MatchResult::read(&dir.join("first.txt")).unwrap();
    assert_eq!(first.pentanomial.pairs(), 4);
    let resumed = DATAGEN.ok(&with(
        run("22", "3", "second.txt"),
        "--prior",
        &path("first.txt"),
    ));
    assert!(resumed.contains(": 14 games,"), "{resumed}");
    let second = MatchResult::read(&dir.join("second.txt")).unwrap();
    assert!(second.ended);
    assert_eq!((second.seed, second.pairs), (22, 3));
    assert_eq!(second.pentanomial.pairs(), 3, "only the run's own pairs");
    assert_eq!(second.wdl.games(), 6);
    // The report's totals are the two results merged.
    let merged = DATAGEN.ok(&["match-merge", &path("first.txt"), &path("second.txt")]);
    let wdl = |text: &str| {
        let at = text.find(": 14 games,").expect(text);
        text[at..].split(',').take(2).collect::<Vec<_>>().join(",")
    };
    assert_eq!(wdl(&resumed), wdl(&merged), "{resumed}\n{merged}");

    // The same seed would replay the same openings.
    let again = DATAGEN.failure(&with(
        run("21", "3", "third.txt"),
        "--prior",
        &path("first.txt"),
    ));
    assert!(again.contains("seed 21 again"), "{again}");
    // Another match: other node limits.
    let other = with(run("23", "3", "third.txt"), "--nodes", "60");
    let refused = DATAGEN.failure(&with(other, "--prior", &path("first.txt")));
    assert!(refused.contains("another match"), "{refused}");
    assert!(!dir.join("third.txt").exists());

    // Earlier games that already decide the SPRT leave nothing to play.
    let decided = std::fs::read_to_string(dir.join("first.txt"))
        .unwrap()
        .lines()
        .map(|line| match line.split_once('=') {
            Some(("wdl", _)) => "wdl=400 0 0".to_string(),
            Some(("pentanomial", _)) => "pentanomial=0 0 0 0 200".to_string(),
            Some(("pairs", _)) => "pairs=200".to_string(),
            _ => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    std::fs::write(dir.join("decided.txt"), decided).unwrap();
    let output = DATAGEN.ok(&with(
        with(run("24", "50", "fourth.txt"), "--sprt", "0,10"),
        "--prior",
        &path("decided.txt"),
    ));
    assert!(output.contains("AcceptH1"), "{output}");
    assert!(output.contains(": 400 games,"), "{output}");
    let fourth = MatchResult::read(&dir.join("fourth.txt")).unwrap();
    assert_eq!(fourth.pentanomial.pairs(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
