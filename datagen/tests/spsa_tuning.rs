//! `datagen spsa` end to end: a short run over the classical evaluator writes its state after
//! every iteration and reports the tuned values; running it again resumes (and has nothing left
//! to play); a state of another run and bad parameters are refused; `match --a-params` plays a
//! changed configuration and refuses unknown or out-of-range values.

mod common;

use common::{scratch_dir, DATAGEN};

fn spsa_args(state: &str, params: &str, iterations: &str) -> Vec<String> {
    [
        "spsa",
        "--game",
        "chess",
        "--eval", // the old spelling of --net, kept as an alias
        "classical",
        "--params",
        params,
        "--iterations",
        iterations,
        "--pairs",
        "1",
        "--nodes",
        "200",
        "--threads",
        "1",
        "--seed",
        "3",
        "--state",
        state,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
fn a_short_run_tunes_saves_and_resumes() {
    let dir = scratch_dir("spsa");
    let state = dir.join("spsa.txt");
    let state = state.to_str().unwrap();
    let out = DATAGEN.ok(&spsa_args(state, "rfp_margin,see_noisy", "3"));
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("spsa ")).collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[2].starts_with("spsa 3/3: plus W "), "{out}");
    assert!(out.contains("tuned: "), "{out}");
    let saved = std::fs::read_to_string(state).unwrap();
    assert!(saved.starts_with("sente-spsa v1\n"), "{saved}");
    assert!(saved.contains("done\t3\n"), "{saved}");
    assert_eq!(saved.matches("param\t").count(), 2, "{saved}");

    let again = DATAGEN.ok(&spsa_args(state, "rfp_margin,see_noisy", "3"));
    assert!(
        again.contains("resuming") && again.contains("3/3"),
        "{again}"
    );
    assert!(
        !again.lines().any(|l| l.starts_with("spsa ")),
        "nothing is played again: {again}"
    );
    assert_eq!(std::fs::read_to_string(state).unwrap(), saved);

    let other = DATAGEN.failure(&spsa_args(state, "rfp_margin", "3"));
    assert!(other.contains("belongs to another run"), "{other}");
    std::fs::write(state, "damaged").unwrap();
    let damaged = DATAGEN.failure(&spsa_args(state, "rfp_margin,see_noisy", "3"));
    assert!(damaged.contains("no SPSA state"), "{damaged}");
    let unknown = DATAGEN.failure(&spsa_args(&format!("{state}.new"), "rfp_margin,razor", "3"));
    assert!(
        unknown.contains("unknown search parameter `razor`"),
        "{unknown}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_parameter_list_names_every_tunable() {
    let out = DATAGEN.ok(&["spsa", "--game", "shogi", "--list"]);
    assert!(out.starts_with("name\tdefault\tmin\tmax\tstep\n"), "{out}");
    assert!(out.contains("\nrfp_margin\t80\t"), "{out}");
    assert!(out.contains("\nlmr_divisor\t225\t"), "{out}");
    assert!(out.contains("\nhistory_max\t1600\t"), "{out}");
    // Each game's list starts from its own search: chess changes the history bonus.
    let chess = DATAGEN.ok(&["spsa", "--game", "chess", "--list"]);
    let chess_max = sente::search::SearchParams::for_game::<sente::chess::Position>()
        .get("history_max")
        .unwrap();
    assert_ne!(chess_max, 1600);
    assert!(
        chess.contains(&format!("\nhistory_max\t{chess_max}\t")),
        "{chess}"
    );
}

#[test]
fn matches_take_changed_parameters_and_refuse_bad_ones() {
    let base = [
        "match",
        "--game",
        "chess",
        "--a",
        "classical",
        "--b",
        "classical",
        "--pairs",
        "1",
        "--nodes",
        "200",
    ];
    let mut changed: Vec<&str> = base.to_vec();
    changed.extend(["--a-params", "rfp_margin=100,lmr_base=60"]);
    let out = DATAGEN.ok(&changed);
    assert!(
        out.contains("classical [rfp_margin=100,lmr_base=60] vs classical: 2 games"),
        "{out}"
    );
    let mut bad: Vec<&str> = base.to_vec();
    bad.extend(["--b-params", "rfp_margin=5000"]);
    assert!(DATAGEN.failure(&bad).contains("must lie in"));
    let mut unknown: Vec<&str> = base.to_vec();
    unknown.extend(["--a-params", "nope=1"]);
    assert!(DATAGEN
        .failure(&unknown)
        .contains("unknown search parameter"));
}

#[test]
fn a_node_clock_tunes_time_parameters_reproducibly() {
    // Time-management parameters do nothing at a node limit; on a node clock they play, and
    // the clock counts nodes, so two runs of the same settings end in the same state.
    let dir = scratch_dir("spsa-clock");
    let states: Vec<String> = (0..2)
        .map(|run| {
            let state = dir.join(format!("clock-{run}.txt"));
            let state = state.to_str().unwrap().to_string();
            let mut args = spsa_args(&state, "fischer_horizon,hard_bound_percent", "2");
            args.extend(["--tc", "1+0.01", "--nodes-time", "50"].map(String::from));
            let out = DATAGEN.ok(&args);
            assert!(out.contains("spsa 2/2: plus W "), "{out}");
            std::fs::read_to_string(&state).unwrap()
        })
        .collect();
    assert!(states[0].contains("done\t2\n"), "{}", states[0]);
    assert_eq!(states[0], states[1]);
    let mut unclocked = spsa_args(dir.join("x.txt").to_str().unwrap(), "fischer_horizon", "1");
    unclocked.extend(["--nodes-time", "50"].map(String::from));
    assert!(DATAGEN.failure(&unclocked).contains("--tc"));
    let _ = std::fs::remove_dir_all(dir);
}
