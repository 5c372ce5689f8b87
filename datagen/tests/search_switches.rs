//! `datagen run --search` and `datagen rescore --search`: the players' search switches. By
//! default self-play leaves `material_scaling` out of the recorded scores (chess, where it is a
//! search default); `run.txt` names the switches a run changes, in canonical form, so a resume
//! with other switches is refused and one spelled differently is not.

mod common;

use common::{data_of, remove_dirs, run_args, scratch, with, DATAGEN};
use std::path::Path;

fn run_txt(out: &Path) -> String {
    std::fs::read_to_string(out.join("run.txt")).unwrap()
}

#[test]
fn chess_self_play_records_scores_without_material_scaling_unless_asked() {
    let unscaled = scratch("search-unscaled");
    let defaults = scratch("search-defaults");
    DATAGEN.ok(&run_args("chess", 32, &unscaled));
    assert!(
        run_txt(&unscaled).contains("\nsearch=material_scaling=off\n"),
        "{}",
        run_txt(&unscaled)
    );
    // `--search ""` plays the engine's own defaults, material scaling included: other games.
    DATAGEN.ok(&with(run_args("chess", 32, &defaults), "--search", ""));
    assert!(
        !run_txt(&defaults).contains("search="),
        "{}",
        run_txt(&defaults)
    );
    assert_ne!(
        data_of(&unscaled),
        data_of(&defaults),
        "the switch reached the players"
    );

    // The same switches spelled otherwise are the same run:
    // it resumes (here: is already complete) instead of being refused.
    let same = with(
        run_args("chess", 32, &unscaled),
        "--search",
        " material_scaling = 0 ,",
    );
    DATAGEN.ok(&same);
    // Other switches are other settings.
    let error = DATAGEN.failure(&with(run_args("chess", 32, &unscaled), "--search", ""));
    assert!(error.contains("other settings"), "{error}");
    remove_dirs([unscaled, defaults]);
}

#[test]
fn shogi_runs_change_no_switch_by_default_and_unknown_switches_are_refused() {
    let dir = scratch("search-shogi");
    DATAGEN.ok(&run_args("shogi", 32, &dir));
    // Shogi has no material scaling: the default changes nothing and run.txt names nothing,
    // as older runs' run.txt did.
    assert!(!run_txt(&dir).contains("search="), "{}", run_txt(&dir));
    let _ = std::fs::remove_dir_all(&dir);

    for bad in [
        "no_such_switch=on",
        "material_scaling=maybe",
        "material_scaling",
    ] {
        let out = scratch("search-bad");
        let error = DATAGEN.failure(&with(run_args("chess", 32, &out), "--search", bad));
        assert!(error.contains("--search"), "{bad}: {error}");
        assert!(!out.join("data.bin").exists(), "{bad}: nothing was played");
        let _ = std::fs::remove_dir_all(out);
    }
}

#[test]
fn rescoring_names_its_switches_and_refuses_a_resume_with_others() {
    let run = scratch("search-rescore-run");
    let out = scratch("search-rescore-out");
    DATAGEN.ok(&run_args("chess", 32, &run));
    let rescore = |search: Option<&str>| {
        let mut args = vec![
            "rescore".to_string(),
            "--game".into(),
            "chess".into(),
            "--net".into(),
            "classical".into(),
            "--nodes".into(),
            "100".into(),
            "--out".into(),
            out.to_str().unwrap().into(),
            run.to_str().unwrap().into(),
        ];
        if let Some(search) = search {
            args.extend(["--search".to_string(), search.to_string()]);
        }
        args
    };
    DATAGEN.ok(&rescore(None));
    assert!(
        run_txt(&out).contains("\nsearch=material_scaling=off\n"),
        "{}",
        run_txt(&out)
    );
    DATAGEN.ok(&rescore(Some("material_scaling=off")));
    let error = DATAGEN.failure(&rescore(Some("")));
    assert!(error.contains("other settings"), "{error}");
    let error = DATAGEN.failure(&rescore(Some("no_such_switch=off")));
    assert!(error.contains("--search"), "{error}");
    remove_dirs([run, out]);
}
