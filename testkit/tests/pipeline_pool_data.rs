//! `--data` accepts a data pool (`datagen pool add`) and a run directory: the tuner reads the
//! same games as from the files themselves.

mod support;

use datagen::pool::{add, AddOptions};
use sente::chess::Position;
use support::{classical_eval_on, eval_args, TUNER};

#[test]
fn a_pool_or_run_directory_reads_as_its_files() {
    let dir = support::scratch("tuner", "pool");
    let first = support::chess_data(&dir.join("a"), 12, 200, 1);
    let second = support::chess_data(&dir.join("b"), 12, 200, 2);
    let pool = dir.join("pool");
    let options = AddOptions {
        generation: 1,
        ..AddOptions::default()
    };
    add::<Position>(&pool, &[dir.join("a"), dir.join("b")], &options).unwrap();

    let from_files = classical_eval_on(&[&first, &second]);
    assert!(from_files.contains("positions"), "{from_files}");
    assert_eq!(classical_eval_on(&[&pool]), from_files);
    assert_eq!(classical_eval_on(&[&dir.join("a"), &second]), from_files);
    // A directory that is neither is a clear error.
    let stderr = TUNER.failure(&eval_args("classical", &[&dir]));
    assert!(stderr.contains("neither a pool"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
