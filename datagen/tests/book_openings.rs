//! `datagen run --book`: the sample books are legal and balanced, games start from book
//! positions, a run with a book is bit-identical whatever the thread count, and bad books (or a
//! resume with another book) are refused before any game is played; matches take book openings.

mod common;

use common::{classical_match, data_of, remove_dirs, run_args, scratch, with, DATAGEN};
use datagen::book::Book;
use datagen::players::load_eval;
use sente::game::{Game, GameMove};
use sente::nnue::NnueGame;
use sente::search::{Limits, Score, SearchControl, SearchOptions, Searcher};
use sente::selfplay::{run_match_with_openings, MatchConfig, PlayerConfig};
use sente_data::read::read_games;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Output;

fn sample_book(game: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("books")
        .join(format!("{game}.txt"))
}

/// A small run (200 nodes per move) of `games` games from `book` with `plies` random plies.
fn run(game: &str, book: &Path, games: u64, plies: u32, threads: usize, out: &Path) -> Output {
    let mut args = with(run_args(game, games, out), "--nodes", "200");
    args = with(args, "--book", book.to_str().unwrap());
    args = with(args, "--random-plies", &plies.to_string());
    DATAGEN.run(&with(args, "--threads", &threads.to_string()))
}

fn check_sample_book<G: NnueGame>(game: &str) {
    let book = Book::<G>::load(&sample_book(game)).unwrap();
    assert!((10..=30).contains(&book.len()), "{} lines", book.len());
    let distinct: HashSet<String> = book
        .entries()
        .iter()
        .map(|e| e.position.to_text())
        .collect();
    assert!(
        distinct.len() + 2 >= book.len(),
        "mostly distinct positions"
    );
    let mut searcher = Searcher::new(load_eval::<G>("classical").unwrap());
    searcher.set_hash_mb(4);
    for entry in book.entries() {
        // Every move was legal where it was played (the loader checks; replay to be sure).
        let mut position = G::startpos();
        if entry.moves.is_empty() {
            position = entry.position.clone();
        } else {
            for &m in &entry.moves {
                assert!(position.is_legal_move(m));
                position.make_move(m);
            }
        }
        assert_eq!(position.to_text(), entry.position.to_text());
        assert!(entry.position.perft(1) > 0);
        // Balanced by the generator's own standard (the default verification margin).
        searcher.clear();
        let result = searcher.search(
            &entry.position,
            &entry.history,
            &Limits {
                nodes: Some(2000),
                ..Limits::default()
            },
            &SearchOptions::default(),
            &SearchControl::default(),
            &mut |_| {},
        );
        let balanced = matches!(result.score, Score::Cp(cp) if cp.abs() <= 300);
        assert!(balanced, "{}: {:?}", entry.position.to_text(), result.score);
    }
}

#[test]
fn sample_books_of_both_games_are_legal_and_balanced() {
    check_sample_book::<sente::chess::Position>("chess");
    check_sample_book::<sente::shogi::Position>("shogi");
}

fn starts_of(out: &Path) -> Vec<String> {
    let mut starts = Vec::new();
    read_games(&out.join("data.bin"), None, |_, game| {
        starts.push(game.start.clone())
    })
    .unwrap();
    starts
}

fn check_book_games<G: Game>(game: &str) {
    let book_path = sample_book(game);
    let book = Book::<G>::load(&book_path).unwrap();
    let positions: HashSet<String> = book
        .entries()
        .iter()
        .map(|e| e.position.to_text())
        .collect();

    // No random plies: every game starts exactly on a book position, and many lines are used.
    let exact = scratch(&format!("book-{game}-exact"));
    let output = run(game, &book_path, 40, 0, 2, &exact);
    assert!(output.status.success(), "{output:?}");
    let starts = starts_of(&exact);
    assert_eq!(starts.len(), 40);
    for start in &starts {
        assert!(positions.contains(start), "{start} is not in the book");
    }
    let used: HashSet<&String> = starts.iter().collect();
    assert!(used.len() >= 8, "only {} book lines used", used.len());
    let manifest = std::fs::read_to_string(exact.join("run.txt")).unwrap();
    assert!(
        manifest.contains(&format!("book={:016x}", book.summary().checksum)),
        "{manifest}"
    );

    // Random plies on top: reproducible across thread counts (two chunks), and not book starts.
    let one = scratch(&format!("book-{game}-one"));
    let two = scratch(&format!("book-{game}-two"));
    assert!(run(game, &book_path, 40, 2, 1, &one).status.success());
    assert!(run(game, &book_path, 40, 2, 2, &two).status.success());
    assert_eq!(
        data_of(&one),
        data_of(&two),
        "thread count changed the data"
    );
    let on_top = starts_of(&one);
    assert!(on_top.iter().any(|s| !positions.contains(s)));
    assert_ne!(data_of(&one), data_of(&exact));
    DATAGEN.ok(&[
        "verify",
        "--game",
        game,
        one.join("data.bin").to_str().unwrap(),
    ]);
    remove_dirs([exact, one, two]);
}

#[test]
fn games_of_both_games_start_from_the_book_and_are_reproducible() {
    check_book_games::<sente::chess::Position>("chess");
    check_book_games::<sente::shogi::Position>("shogi");
}

#[test]
fn a_bad_book_is_refused_before_any_game() {
    let dir = scratch("book-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("bad.txt");
    std::fs::write(&book, "# fine so far\ne2e4 e7e5\nrnbqkbnr/pppppppp/8/8 w\n").unwrap();
    let out = dir.join("out");
    let output = run("chess", &book, 4, 0, 1, &out);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad.txt line 3"), "{stderr}");
    assert!(!out.join("data.bin").exists(), "no game was played");

    std::fs::write(&book, "e2e4 e7e5 zz\n").unwrap();
    let output = run("chess", &book, 4, 0, 1, &out);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && stderr.contains("line 1"),
        "{stderr}"
    );

    let missing = run("chess", &dir.join("missing.txt"), 4, 0, 1, &out);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("missing.txt"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn resuming_with_another_book_is_refused() {
    let dir = scratch("book-other");
    std::fs::create_dir_all(&dir).unwrap();
    let first = dir.join("first.txt");
    let second = dir.join("second.txt");
    std::fs::write(&first, "e2e4 e7e5\nd2d4 d7d5\n").unwrap();
    std::fs::write(&second, "e2e4 e7e5\nc2c4 e7e5\n").unwrap();
    let out = dir.join("out");
    assert!(run("chess", &first, 2, 0, 1, &out).status.success());
    // The same book (even with comments added) continues; another book is refused.
    std::fs::write(&first, "# same positions\ne2e4 e7e5\n\nd2d4 d7d5\n").unwrap();
    assert!(run("chess", &first, 3, 0, 1, &out).status.success());
    let output = run("chess", &second, 4, 0, 1, &out);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("other settings"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn match_games_start_from_book_lines() {
    type Chess = sente::chess::Position;
    let book = Book::<Chess>::load(&sample_book("chess")).unwrap();
    let lines: HashSet<Vec<u16>> = book
        .entries()
        .iter()
        .map(|e| e.moves.iter().map(|m| m.to_bits()).collect())
        .collect();
    let eval = load_eval::<Chess>("classical").unwrap();
    let player = |name: &str| PlayerConfig::with_nodes(name, eval.clone(), 100);
    let config = MatchConfig {
        pairs: 3,
        ..MatchConfig::default()
    };
    let opening = |pair: usize| book.opening(pair as u64 * 7, 0, 0);
    let seen = std::sync::Mutex::new(Vec::new());
    let report = run_match_with_openings(&opening, &player("a"), &player("b"), &config, &|g| {
        seen.lock()
            .unwrap()
            .push(g.opening.iter().map(|m| m.to_bits()).collect::<Vec<u16>>())
    });
    assert_eq!(report.wdl.games(), 6);
    let seen = seen.into_inner().unwrap();
    assert_eq!(seen.len(), 6);
    assert!(seen.iter().all(|moves| lines.contains(moves)));

    // The command line: a book match runs, a bad book is refused.
    let mut args = with(classical_match("shogi"), "--pairs", "1");
    args = with(with(args, "--nodes", "100"), "--random-plies", "2");
    let output = DATAGEN.run(&with(
        args,
        "--book",
        sample_book("shogi").to_str().unwrap(),
    ));
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("2 games"));
    let bad = scratch("book-bad-match-book");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("b.txt"), "7g7f\n7g7f 7g7f\n").unwrap();
    let output = DATAGEN.run(&with(
        classical_match("shogi"),
        "--book",
        bad.join("b.txt").to_str().unwrap(),
    ));
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("b.txt line 2"));
    let _ = std::fs::remove_dir_all(bad);
}
