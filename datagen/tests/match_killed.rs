//! `datagen match --result FILE` keeps the file current while the match runs: a match killed
//! midway (a session's end, a preempted cluster job) leaves the pairs it finished, marked
//! `ended=no`, and `match-merge` adds them with a note; a match that ends marks its file `ended=yes`.

mod common;

use common::{classical_match, scratch_dir, with, with_all, DATAGEN};
use datagen::match_result::MatchResult;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn a_killed_match_leaves_the_pairs_it_finished() {
    let dir = scratch_dir("match-killed");
    let killed_path = dir.join("killed.txt");
    let args = with_all(
        classical_match("chess"),
        &[
            ("--pairs", "100000"),
            ("--nodes", "50"),
            ("--verify-nodes", "0"),
            ("--seed", "6"),
            ("--threads", "2"),
            ("--result", killed_path.to_str().unwrap()),
        ],
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_datagen"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The file appears after the first 10 pairs and is rewritten every 10 pairs after them.
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut seen = None;
    while Instant::now() < deadline {
        if let Ok(result) = MatchResult::read(&killed_path) {
            if result.pentanomial.pairs() >= 20 {
                seen = Some(result);
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let seen = seen.expect("no result file with 20 pairs within 120 s");
    assert!(!seen.ended, "the match was still running");
    assert_eq!(seen.pairs, 100000);

    // What the kill left is a whole file of whole pairs, a multiple of 10 of them.
    let left = MatchResult::read(&killed_path).unwrap();
    assert!(!left.ended);
    assert!(left.pentanomial.pairs() >= seen.pentanomial.pairs());
    assert_eq!(left.pentanomial.pairs() % 10, 0, "{:?}", left.pentanomial);
    assert_eq!(left.wdl.games(), 2 * left.pentanomial.pairs());

    // A match that ends says so; merged with the killed one, the pairs add up and the merge
    // names the killed match.
    let ended_path = dir.join("ended.txt");
    let ended_args = with(
        with(with(args.clone(), "--pairs", "3"), "--seed", "7"),
        "--result",
        ended_path.to_str().unwrap(),
    );
    // A merge needs equal pair totals only within one seed; other seeds are other rounds.
    DATAGEN.ok(&ended_args);
    let ended = MatchResult::read(&ended_path).unwrap();
    assert!(ended.ended);
    assert_eq!(ended.pentanomial.pairs(), 3);
    let merged = DATAGEN.ok(&[
        "match-merge",
        killed_path.to_str().unwrap(),
        ended_path.to_str().unwrap(),
    ]);
    let games = 2 * (left.pentanomial.pairs() + 3);
    assert!(merged.contains(&format!(": {games} games,")), "{merged}");
    assert!(
        merged.contains("note: seed 6 shard 0/1: the match had not ended"),
        "{merged}"
    );
    assert!(
        !merged.contains("seed 7 shard 0/1: the match had not ended"),
        "{merged}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
