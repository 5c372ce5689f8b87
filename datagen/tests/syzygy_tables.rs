//! `--syzygy` of `datagen run` and `datagen rescore` with the 3- and 4-piece Syzygy tables of
//! python-chess's test data (`scripts/fetch-test-data.sh`; `SENTE_TESTDATA` names its cache, and
//! the tests that need the tables are skipped with a message when it is unset): self-play games
//! from endgame openings end at the first capture or pawn move into the tables with the tables'
//! result and are otherwise the games played without tables; a rescoring labels the positions the
//! tables hold with their result and searches the others exactly as a plain rescoring does; bad
//! table directories and shogi are refused before anything is written.

mod common;

use common::{remove_dirs, run_args, scratch_dir, strings, with_all, DATAGEN};
use sente::chess::syzygy::SyzygyTables;
use sente::chess::Position;
use sente::game::{Game, GameKind, Side};
use sente_data::read::read_games;
use sente_data::stored_game::{
    StoredGame, RESULT_DRAW, RESULT_FIRST_WINS, RESULT_SECOND_WINS, SCORE_NONE,
};
use std::path::{Path, PathBuf};

/// The stored end code of a tablebase adjudication (`docs/data-format.md`).
const END_TABLEBASE: u8 = 13;
/// The score rescoring stores for a table win (`datagen::tablebases::TABLEBASE_WIN_SCORE`).
const WIN_SCORE: i16 = 4000;

/// Openings of three and four pieces with pawns (a pawn move comes soon): wins, draws and losses
/// for either side. In the last two the side to move has only pawn moves, each of which leaves
/// the other side, then to move, winning.
const ENDGAME_BOOK: &str = "\
8/8/4k3/8/8/4K3/4P3/8 w - - 0 1
8/5k2/8/8/8/8/1P6/K7 b - - 0 1
8/p7/8/8/8/8/7P/k6K w - - 0 1
8/8/8/4k3/8/8/PP6/4K3 b - - 0 1
8/8/8/8/3k4/8/2p5/5K1R w - - 0 1
4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1
8/3p4/8/2k5/8/8/3P4/3K4 w - - 0 1
8/8/1k6/8/8/8/6p1/4K2Q b - - 0 1
7k/5K1p/8/8/8/8/8/R7 b - - 0 1
r7/8/8/8/8/8/5k1P/7K w - - 0 1
";

/// Openings of five pieces with a capture on offer (the games go into the tables after a few
/// moves), and two of four.
const CAPTURE_BOOK: &str = "\
4k3/8/8/3r4/8/8/3R4/3QK3 w - - 0 1
3rk3/8/8/8/3Q4/8/8/3RK3 b - - 0 1
4k3/4p3/8/8/8/8/4P3/R3K3 w - - 0 1
8/2k5/8/2n5/8/2N5/2P5/2K5 w - - 0 1
8/8/3k4/8/2b5/8/2PP4/4K3 w - - 0 1
6k1/5pp1/8/8/8/8/6P1/6K1 b - - 0 1
8/8/4k3/8/8/4K3/4P3/8 w - - 0 1
8/p7/8/8/8/8/7P/k6K w - - 0 1
";

/// The test tables' directory, or `None` (and a message) when `SENTE_TESTDATA` is unset.
fn tables_dir(test: &str) -> Option<PathBuf> {
    match std::env::var_os("SENTE_TESTDATA") {
        Some(cache) => Some(Path::new(&cache).join("syzygy")),
        None => {
            eprintln!(
                "SKIPPED {test}: SENTE_TESTDATA is not set (scripts/fetch-test-data.sh prints the directory)"
            );
            None
        }
    }
}

/// Runs datagen with `args`, which must succeed; its stderr (where the summary goes).
fn stderr_of(args: &[String]) -> String {
    let out = DATAGEN.run(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "datagen {args:?} failed: {stderr}");
    stderr
}

fn games_of(out: &Path) -> Vec<StoredGame> {
    let mut games = Vec::new();
    let file = out.join("data.bin");
    let problems = read_games(&file, Some(GameKind::Chess), |_, g| games.push(g.clone())).unwrap();
    assert_eq!(problems, 0, "{}", file.display());
    games
}

/// The positions of a game before each move, and the final one.
fn positions_of(game: &StoredGame) -> (Vec<Position>, Position) {
    let mut before = Vec::new();
    let last = game
        .replay::<Position>(|pos, _, _| before.push(*pos))
        .unwrap();
    (before, last)
}

/// Whether the test tables hold `pos` (at most four pieces, no castling rights).
fn in_tables(pos: &Position) -> bool {
    pos.castling_rights() == 0 && pos.occupied().count_ones() <= 4
}

/// The stored result the tables give `pos` under the 50-move rule (±2 decisive, else a draw).
fn table_result(tables: &SyzygyTables, pos: &Position) -> u8 {
    let board = SyzygyTables::convert(pos).expect("no castling rights");
    let wdl = tables
        .wdl_of(&board)
        .expect("the test tables hold 3 and 4 pieces");
    let white_to_move = pos.side_to_move() == Side::First;
    match wdl {
        2 if white_to_move => RESULT_FIRST_WINS,
        2 => RESULT_SECOND_WINS,
        -2 if white_to_move => RESULT_SECOND_WINS,
        -2 => RESULT_FIRST_WINS,
        _ => RESULT_DRAW,
    }
}

/// The score a rescoring with the tables stores for `pos`: ±`WIN_SCORE` for a win or loss the
/// 50-move rule allows from the position's halfmove clock (by DTZ), 0 otherwise.
fn table_score(tables: &SyzygyTables, pos: &Position) -> i16 {
    let board = SyzygyTables::convert(pos).expect("no castling rights");
    let wdl = tables.wdl_of(&board).unwrap();
    if wdl.abs() < 2 {
        return 0;
    }
    let clock = pos.halfmove_clock() as i32;
    if clock > 0 && tables.dtz_of(&board).unwrap().abs() + clock > 100 {
        return 0;
    }
    wdl.signum() as i16 * WIN_SCORE
}

/// `datagen run` of `games` chess games at 300 nodes from `book` (`random_plies` random plies,
/// no opening check), with `extra` flags.
fn book_run(
    book: &Path,
    random_plies: &str,
    games: u64,
    out: &Path,
    extra: &[&str],
) -> Vec<String> {
    let mut args = with_all(
        run_args("chess", games, out),
        &[
            ("--book", book.to_str().unwrap()),
            ("--random-plies", random_plies),
            ("--verify-nodes", "0"),
        ],
    );
    args.extend(strings(extra));
    args
}

#[test]
fn self_play_games_end_by_the_tables_with_their_result() {
    let Some(dir) = tables_dir("self_play_games_end_by_the_tables_with_their_result") else {
        return;
    };
    let tables = SyzygyTables::open(dir.to_str().unwrap()).unwrap();
    let work = scratch_dir("syzygy-run");
    let book = work.join("book.txt");
    std::fs::write(&book, ENDGAME_BOOK).unwrap();
    let (with_tables, plain) = (work.join("tables"), work.join("plain"));
    // No random plies: the zugzwang lines start the game with their pawn move.
    let stderr = stderr_of(&book_run(
        &book,
        "0",
        32,
        &with_tables,
        &["--syzygy", dir.to_str().unwrap()],
    ));
    DATAGEN.ok(&book_run(&book, "0", 32, &plain, &[]));
    let manifest = std::fs::read_to_string(with_tables.join("run.txt")).unwrap();
    assert!(manifest.contains("\nsyzygy=Syzygy tables: 35 WDL and 35 DTZ files, up to 4 pieces"));
    assert!(!std::fs::read_to_string(plain.join("run.txt"))
        .unwrap()
        .contains("syzygy"));

    let (adjudicated, plain_games) = (games_of(&with_tables), games_of(&plain));
    assert_eq!(adjudicated.len(), 32);
    let mut by_tables = 0;
    // Adjudicated games won by the side to move at the end, lost by it, drawn.
    let mut results = [0; 3];
    for (i, (game, full)) in adjudicated.iter().zip(&plain_games).enumerate() {
        // The game is the game played without tables, up to where the tables ended it.
        assert_eq!(game.start, full.start, "game {i}");
        assert!(game.moves.len() <= full.moves.len(), "game {i}");
        assert_eq!(game.moves, full.moves[..game.moves.len()], "game {i}");
        assert_eq!(game.scores, full.scores[..game.moves.len()], "game {i}");
        let (before, last) = positions_of(game);
        // No position the game reached before (every one is in the tables) was reached by a
        // capture or pawn move: the tables end a game at the first.
        for (ply, pos) in before.iter().enumerate().skip(1) {
            assert!(in_tables(pos));
            assert_ne!(
                pos.halfmove_clock(),
                0,
                "game {i} ply {ply}: not adjudicated"
            );
        }
        if game.end != END_TABLEBASE {
            // Ended before any capture or pawn move (the rules, or resignation): as without
            // tables.
            assert_eq!(game, full, "game {i}");
            continue;
        }
        by_tables += 1;
        assert!(
            !game.moves.is_empty(),
            "game {i}: adjudicated before a move"
        );
        assert_eq!(last.halfmove_clock(), 0, "game {i}");
        assert!(in_tables(&last), "game {i}");
        assert_eq!(
            game.result,
            table_result(&tables, &last),
            "game {i}: {}",
            last.to_text()
        );
        let mover_wins = if last.side_to_move() == Side::First {
            RESULT_FIRST_WINS
        } else {
            RESULT_SECOND_WINS
        };
        results[match game.result {
            r if r == mover_wins => 0,
            RESULT_DRAW => 2,
            _ => 1,
        }] += 1;
    }
    assert!(
        by_tables >= 24,
        "only {by_tables} of 32 games ended by the tables"
    );
    assert!(
        results.iter().all(|&n| n > 0),
        "results {results:?}: the openings give wins and losses of the side to move, and draws"
    );
    assert!(
        stderr.contains(&format!(
            "{by_tables} games ended by tablebase adjudication"
        )),
        "{stderr}"
    );
    // Fewer positions than the games played out: the endings are not in the data.
    let positions = |games: &[StoredGame]| games.iter().map(|g| g.moves.len()).sum::<usize>();
    assert!(positions(&adjudicated) < positions(&plain_games));
    remove_dirs([&work]);
}

#[test]
fn a_rescoring_labels_the_table_positions_and_searches_the_others() {
    let Some(dir) = tables_dir("a_rescoring_labels_the_table_positions_and_searches_the_others")
    else {
        return;
    };
    let tables = SyzygyTables::open(dir.to_str().unwrap()).unwrap();
    let work = scratch_dir("syzygy-rescore");
    let book = work.join("book.txt");
    std::fs::write(&book, CAPTURE_BOOK).unwrap();
    let source = work.join("source");
    DATAGEN.ok(&book_run(&book, "2", 24, &source, &[]));
    let rescore = |out: &Path, extra: &[&str]| {
        let mut args = strings(&[
            "rescore",
            "--game",
            "chess",
            "--net",
            "classical",
            "--nodes",
            "150",
            "--threads",
            "2",
            "--out",
            out.to_str().unwrap(),
            source.to_str().unwrap(),
        ]);
        args.extend(strings(extra));
        stderr_of(&args)
    };
    let (plain, labelled) = (work.join("plain"), work.join("labelled"));
    rescore(&plain, &[]);
    let stderr = rescore(&labelled, &["--syzygy", dir.to_str().unwrap()]);
    assert!(std::fs::read_to_string(labelled.join("run.txt"))
        .unwrap()
        .contains("\nsyzygy=Syzygy tables"));

    let (source_games, plain_games) = (games_of(&source), games_of(&plain));
    let labelled_games = games_of(&labelled);
    assert_eq!(labelled_games.len(), source_games.len());
    let (mut by_tables, mut searched, mut decisive) = (0, 0, 0);
    for (i, game) in labelled_games.iter().enumerate() {
        let (from, plain_game) = (&source_games[i], &plain_games[i]);
        let unchanged = |g: &StoredGame| (g.start.clone(), g.moves.clone(), g.result, g.end);
        assert_eq!(unchanged(game), unchanged(from), "game {i}");
        let (before, _) = positions_of(game);
        for (ply, pos) in before.iter().enumerate() {
            let score = game.scores[ply];
            if from.scores[ply] == SCORE_NONE {
                assert_eq!(score, SCORE_NONE);
            } else if in_tables(pos) {
                by_tables += 1;
                decisive += usize::from(score != 0);
                assert_eq!(
                    score,
                    table_score(&tables, pos),
                    "game {i} ply {ply}: {}",
                    pos.to_text()
                );
            } else {
                searched += 1;
                assert_eq!(score, plain_game.scores[ply], "game {i} ply {ply}");
            }
        }
    }
    assert!(
        by_tables > 50 && searched > 50,
        "{by_tables} labelled, {searched} searched"
    );
    assert!(
        decisive > 0 && decisive < by_tables,
        "{decisive} of {by_tables} decisive"
    );
    assert!(
        stderr.contains(&format!("{by_tables} positions labelled by the tables")),
        "{stderr}"
    );
    remove_dirs([&work]);
}

#[test]
fn bad_table_directories_and_shogi_are_refused_before_anything_is_written() {
    let work = scratch_dir("syzygy-refused");
    let out = work.join("out");
    let missing = work.join("no-such-dir");
    let empty = scratch_dir("syzygy-empty-dir");
    for dir in [&missing, &empty] {
        let path = dir.to_str().unwrap();
        let stderr = DATAGEN.failure(&with_all(run_args("chess", 2, &out), &[("--syzygy", path)]));
        assert!(stderr.contains(path), "{stderr}");
        assert!(!out.join("data.bin").exists());
        let args = strings(&[
            "rescore",
            "--game",
            "chess",
            "--net",
            "classical",
            "--nodes",
            "10",
            "--syzygy",
            path,
            "--out",
            out.to_str().unwrap(),
            work.to_str().unwrap(),
        ]);
        let stderr = DATAGEN.failure(&args);
        assert!(stderr.contains(path), "{stderr}");
        assert!(!out.join("data.bin").exists());
    }
    let stderr = DATAGEN.failure(&with_all(
        run_args("shogi", 2, &out),
        &[("--syzygy", empty.to_str().unwrap())],
    ));
    assert!(stderr.contains("--syzygy is for chess"), "{stderr}");
    assert!(!out.exists());
    remove_dirs([&work, &empty]);
}
