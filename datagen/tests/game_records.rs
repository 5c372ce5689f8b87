//! Game records: `datagen match --records DIR` (PGN for chess, KIF and CSA for shogi, an
//! `index.tsv`), and `datagen records` over stored self-play games, with the errors of a bad
//! folder, another game's data and a damaged data file. The python tests
//! (`tests/python/test_records_oracles.py`) replay the records with python-chess and cshogi.

mod common;

use common::{classical_match, remove_dirs, run_args, scratch, strings, with, DATAGEN};

fn index_rows(dir: &std::path::Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("game\tfiles\tresult\treason\tfinal_position")
    );
    lines
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

#[test]
fn a_shogi_match_writes_kif_and_csa_for_every_game() {
    let dir = scratch("records-shogi");
    let args = with(classical_match("shogi"), "--pairs", "2");
    let args = with(args, "--nodes", "300");
    DATAGEN.ok(&with(args.clone(), "--records", dir.to_str().unwrap()));
    let rows = index_rows(&dir);
    assert_eq!(rows.len(), 4);
    for row in &rows {
        let [kif, csa] = [0, 1].map(|i| row[1].split(',').nth(i).unwrap().to_string());
        let kif = std::fs::read_to_string(dir.join(kif)).unwrap();
        let csa = std::fs::read_to_string(dir.join(csa)).unwrap();
        assert!(
            kif.contains("手合割：平手") && kif.contains("先手：classical"),
            "{kif}"
        );
        // Every move once in each: numbered KIF lines, signed CSA lines.
        let kif_moves = kif
            .lines()
            .filter(|l| {
                l.trim_start()
                    .split(' ')
                    .next()
                    .is_some_and(|n| n.parse::<u32>().is_ok())
            })
            .count();
        let csa_moves = csa
            .lines()
            .filter(|l| l.len() == 7 && (l.starts_with('+') || l.starts_with('-')))
            .count();
        assert_eq!(kif_moves, csa_moves + 1, "the KIF ending is numbered too");
        assert!(kif.contains(&format!("まで{csa_moves}手で")), "{kif}");
        assert!(csa.starts_with("V2.2\nN+classical\nN-classical\n") && csa.contains("PI\n+\n"));
        assert!(row[2] == "first" || row[2] == "second" || row[2] == "draw");
    }
    // A second match appends, numbered after the first.
    DATAGEN.ok(&with(args, "--records", dir.to_str().unwrap()));
    assert_eq!(index_rows(&dir).len(), 8);
    assert!(dir.join("game-000008.kifu").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_chess_match_appends_every_game_to_one_pgn() {
    let dir = scratch("records-chess");
    let args = with(classical_match("chess"), "--pairs", "2");
    let args = with(args, "--nodes", "300");
    DATAGEN.ok(&with(args, "--records", dir.to_str().unwrap()));
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event \"datagen match\"]").count(), 4);
    assert_eq!(pgn.matches("[Limits \"nodes=300").count(), 4);
    assert_eq!(index_rows(&dir).len(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_records_folder_that_cannot_be_made_is_refused() {
    let file = scratch("records-file");
    std::fs::write(&file, "not a folder").unwrap();
    let args = with(classical_match("shogi"), "--pairs", "1");
    let err = DATAGEN.failure(&with(args, "--records", file.to_str().unwrap()));
    assert!(err.contains("cannot create records folder"), "{err}");
    let _ = std::fs::remove_file(&file);
}

/// `datagen records --game GAME --out OUT RUN`.
fn records_args(game: &str, out: &std::path::Path, run: &std::path::Path) -> Vec<String> {
    strings(&[
        "records",
        "--game",
        game,
        "--out",
        out.to_str().unwrap(),
        run.to_str().unwrap(),
    ])
}

#[test]
fn stored_games_become_records_and_bad_inputs_are_named() {
    let run = scratch("records-run");
    let out = scratch("records-out");
    DATAGEN.ok(&run_args("shogi", 6, &run));
    let report = DATAGEN.ok(&with(records_args("shogi", &out, &run), "--limit", "4"));
    assert!(report.contains("4 records written"), "{report}");
    assert_eq!(index_rows(&out).len(), 4);
    let csa = std::fs::read_to_string(out.join("game-000001.csa")).unwrap();
    assert!(
        csa.contains("\nP1") && csa.contains("\nP+"),
        "a start after the opening: {csa}"
    );
    // Another game's data: the error names the file and what it holds.
    let err = DATAGEN.failure(&records_args("chess", &out, &run));
    assert!(err.contains("holds shogi data, not chess"), "{err}");
    // A torn tail: the damage is reported with the file and skipped; the intact chunks (none
    // here, six games fill one chunk) are written.
    let data = run.join("data.bin");
    let bytes = std::fs::read(&data).unwrap();
    std::fs::write(&data, &bytes[..bytes.len() - 7]).unwrap();
    let torn = scratch("records-torn");
    let out_run = DATAGEN.run(&records_args("shogi", &torn, &run));
    let stderr = String::from_utf8_lossy(&out_run.stderr);
    assert!(out_run.status.success(), "{stderr}");
    assert!(stderr.contains("data.bin: incomplete chunk"), "{stderr}");
    assert!(index_rows(&torn).len() < 6);
    remove_dirs([run, out, torn]);
}
