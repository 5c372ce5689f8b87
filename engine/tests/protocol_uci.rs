//! UCI dialogues with the `sente` binary: handshake, every `go` form, one `bestmove` per `go`
//! under stop/position/go races, pondering, mated roots, long move lists, bad input.

mod protocol_support;

use protocol_support::{
    assert_bad_positions_refused, assert_declares_options, assert_legal, assert_net_plays,
    assert_shipped_nets_play, position_after, shipped_nets, Engine, Rng, SEARCH,
};
use sente::chess::Position;
use sente::game::Game;
use sente::movelist::MoveList;
use std::time::{Duration, Instant};

fn uci_engine() -> Engine {
    let mut engine = Engine::start();
    engine.handshake("uci");
    engine
}

#[test]
fn handshake_lists_stockfish_spelled_options() {
    let mut engine = Engine::start();
    let lines = engine.handshake("uci");
    assert!(lines[0].starts_with("id name Sente"));
    assert!(lines[1].starts_with("id author "));
    assert_declares_options(
        &lines,
        &[
            "Threads",
            "Hash",
            "Clear Hash",
            "Ponder",
            "MultiPV",
            "Move Overhead",
            "UCI_Chess960",
            "UCI_ShowWDL",
            "UCI_AnalyseMode",
            "Skill Level",
            "UCI_LimitStrength",
            "UCI_Elo",
            "EvalFile",
        ],
    );
    assert!(engine.sync().is_empty());
    engine.finish(true, SEARCH);
}

#[test]
fn every_go_form_answers_once_with_a_legal_move() {
    let mut engine = uci_engine();
    let moves = ["e2e4", "c7c5"];
    let pos = position_after::<Position>(&moves);
    for go in [
        "go depth 3",
        "go nodes 3000",
        "go movetime 100",
        "go wtime 2000 btime 2000 winc 20 binc 20",
        "go wtime 500",
        "go btime 300 wtime 300 movestogo 3",
        "go depth 2 nodes 100000 movetime 5000",
    ] {
        engine.send("position startpos moves e2e4 c7c5");
        engine.send(go);
        let (best, ponder, lines) = engine.bestmove();
        assert_legal(&pos, &best, &engine);
        if let Some(ponder) = ponder {
            let mut child = pos;
            child.make_move(pos.parse_move(&best).unwrap());
            assert_legal(&child, &ponder, &engine);
        }
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{go}: {lines:?}"
        );
        // No second answer arrives.
        assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    }
    engine.finish(true, SEARCH);
}

#[test]
fn info_lines_carry_the_uci_fields() {
    let mut engine = uci_engine();
    engine.send("setoption name UCI_ShowWDL value true");
    engine.send("position startpos");
    engine.send("go depth 4");
    let (_, _, lines) = engine.bestmove();
    let pv_line = lines
        .iter()
        .rev()
        .find(|l| l.contains(" pv "))
        .expect("an info line with a pv");
    for field in [
        "depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
    ] {
        assert!(
            pv_line.split_whitespace().any(|w| w == field),
            "{field} missing in {pv_line}"
        );
    }
    engine.finish(true, SEARCH);
}

#[test]
fn infinite_search_answers_isready_and_waits_for_stop() {
    let mut engine = uci_engine();
    engine.send("position startpos");
    engine.send("go infinite");
    let before = engine.sync();
    assert!(before.iter().all(|l| !l.starts_with("bestmove")));
    std::thread::sleep(Duration::from_millis(200));
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    engine.send("stop");
    let (best, _, _) = engine.bestmove();
    assert_legal(&Position::startpos(), &best, &engine);
    engine.send("go");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("stop");
    engine.bestmove();
    engine.finish(true, SEARCH);
}

#[test]
fn stop_position_go_races_give_one_bestmove_per_go() {
    let mut engine = uci_engine();
    let mut gos = 0;
    for round in 0..5 {
        engine.send("position startpos moves d2d4");
        engine.send("go infinite");
        gos += 1;
        if round % 2 == 0 {
            engine.send("stop");
        }
        engine.send("position startpos moves d2d4 d7d5");
        engine.send("go depth 2");
        gos += 1;
        engine.send("go infinite");
        gos += 1;
        engine.send("stop");
    }
    let lines = engine.sync();
    let mut answers = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    let deadline = Instant::now() + SEARCH;
    while answers < gos && Instant::now() < deadline {
        answers += engine
            .drain(Duration::from_millis(200))
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count();
    }
    std::thread::sleep(Duration::from_millis(300));
    answers += engine
        .drain(Duration::from_millis(300))
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .count();
    assert_eq!(answers, gos, "transcript:\n{}", engine.tail());
    engine.finish(true, SEARCH);
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    let mut engine = uci_engine();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(300));
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    engine.send("ponderhit");
    let (best, _, _) = engine.bestmove();
    assert_legal(
        &position_after::<Position>(&["e2e4", "e7e5"]),
        &best,
        &engine,
    );

    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("stop");
    let (best, _, _) = engine.bestmove();
    assert_legal(
        &position_after::<Position>(&["e2e4", "e7e5"]),
        &best,
        &engine,
    );
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    engine.finish(true, SEARCH);
}

#[test]
fn mated_and_stalemated_roots_answer_none() {
    let mut engine = uci_engine();
    // Fool's mate: White is mated.
    engine.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    engine.send("go depth 5");
    let (best, _, lines) = engine.bestmove();
    assert_eq!(best, "(none)");
    assert!(lines.contains(&"info depth 0 score mate 0".to_string()));
    // Stalemate: Black to move has no move and is not in check.
    engine.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    engine.send("go movetime 100");
    let (best, _, lines) = engine.bestmove();
    assert_eq!(best, "(none)");
    assert!(lines.contains(&"info depth 0 score cp 0".to_string()));
    // In an infinite search the answer waits for stop.
    engine.send("go infinite");
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    engine.send("stop");
    assert_eq!(engine.bestmove().0, "(none)");
    engine.finish(true, SEARCH);
}

#[test]
fn finds_a_mate_in_one_with_a_mate_score() {
    let mut engine = uci_engine();
    engine.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("go depth 4");
    let (best, _, lines) = engine.bestmove();
    assert_eq!(best, "a1a8", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    engine.send("go mate 1");
    assert_eq!(engine.bestmove().0, "a1a8");
    engine.finish(true, SEARCH);
}

#[test]
fn long_move_lists_are_cheap_and_exact() {
    let mut rng = Rng(0x5EED_1234);
    let mut pos = Position::startpos();
    let mut texts = Vec::new();
    while texts.len() < 700 {
        let mut moves = <Position as Game>::Moves::default();
        pos.generate_legal(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[rng.below(moves.len())];
        texts.push(pos.format_move(m));
        pos.make_move(m);
    }
    assert!(texts.len() >= 100, "the random game lasted {}", texts.len());
    let mut engine = uci_engine();
    let started = Instant::now();
    engine.send(&format!("position startpos moves {}", texts.join(" ")));
    engine.send("d");
    let lines = engine.sync();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(lines, vec![format!("info string {}", pos.to_text())]);
    engine.finish(true, SEARCH);
}

#[test]
fn illegal_moves_stop_the_list_and_bad_fens_change_nothing() {
    let mut engine = uci_engine();
    engine.send("position startpos moves e2e4 e7e5 e1e3 g1f3");
    let lines = engine.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string"), "{lines:?}");
    engine.send("d");
    let expected = position_after::<Position>(&["e2e4", "e7e5"]).to_text();
    assert_eq!(engine.sync(), vec![format!("info string {expected}")]);
    assert_bad_positions_refused(
        &mut engine,
        &[
            "position fen 8/8/8 w - - 0 1",
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "position fen",
            "position banana",
            "position",
        ],
        &expected,
    );
    engine.finish(true, SEARCH);
}

#[test]
fn setoption_forms_and_bad_values() {
    let mut engine = uci_engine();
    for good in [
        "setoption name Hash value 8",
        "setoption name hash value 4",
        "setoption name   Move   Overhead   value  30",
        "setoption name Clear Hash",
        "setoption name Threads value 2",
        "setoption name MultiPV value 2",
        "setoption name UCI_LimitStrength value false",
        "setoption name UCI_Elo value 2000",
        "setoption name UCI_AnalyseMode value true",
    ] {
        engine.send(good);
        let lines = engine.sync();
        assert!(lines.is_empty(), "{good}: {lines:?}");
    }
    for bad in [
        "setoption name Hash value -5",
        "setoption name Hash value lots",
        "setoption name Threads",
        "setoption name Ponder value maybe",
        "setoption name Frobnicate value 1",
        "setoption Hash 5",
    ] {
        engine.send(bad);
        let lines = engine.sync();
        assert!(
            lines.len() == 1 && lines[0].starts_with("info string"),
            "{bad}: {lines:?}"
        );
    }
    // A missing net is reported at isready, the whole path (spaces included) kept.
    engine.send("setoption name EvalFile value /no such dir/with spaces.nnue");
    let lines = engine.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string EvalFile: ")
            && lines[0].contains("/no such dir/with spaces.nnue"),
        "{lines:?}"
    );
    engine.send("setoption name EvalFile value classical");
    let lines = engine.sync();
    assert_eq!(lines, vec!["info string Using classical chess evaluation"]);
    engine.send("setoption name EvalFile value <empty>");
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string Using NNUE chess net"),
        "{lines:?}"
    );
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos");
    engine.send("go depth 3");
    let (_, _, lines) = engine.bestmove();
    assert!(lines.iter().any(|l| l.contains(" multipv 3 ")), "{lines:?}");
    engine.finish(true, SEARCH);
}

#[test]
fn searchmoves_restrict_the_root() {
    let mut engine = uci_engine();
    engine.send("position startpos");
    engine.send("go depth 3 searchmoves a2a3 h2h3");
    let (best, _, _) = engine.bestmove();
    assert!(best == "a2a3" || best == "h2h3", "{best}");
    engine.finish(true, SEARCH);
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut engine = uci_engine();
    engine.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    engine.send("go perft 1");
    let lines = engine.expect_prefix("Nodes searched", SEARCH);
    assert!(lines.iter().any(|l| l.starts_with("e1g1:")), "{lines:?}");
    engine.send("setoption name UCI_Chess960 value true");
    engine.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    engine.send("go perft 1");
    let lines = engine.expect_prefix("Nodes searched", SEARCH);
    assert!(lines.iter().any(|l| l.starts_with("e1h1:")), "{lines:?}");
    engine.send("position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    engine.send("go perft 3");
    let lines = engine.expect_prefix("Nodes searched", SEARCH);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 12189");
    engine.send("go depth 3");
    let (best, _, _) = engine.bestmove();
    let mut pos =
        Position::from_text("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
            .unwrap();
    pos.set_chess960(true);
    assert_legal(&pos, &best, &engine);
    engine.finish(true, SEARCH);
}

#[test]
fn perft_unknown_commands_and_whitespace() {
    let mut engine = uci_engine();
    engine.send("position startpos");
    engine.send("go perft 3");
    let lines = engine.expect_prefix("Nodes searched", SEARCH);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 21);
    engine.send("frobnicate the engine");
    assert_eq!(
        engine.sync(),
        vec!["Unknown command: 'frobnicate the engine'".to_string()]
    );
    engine.send_raw(b"\t  isready \t \r\n");
    engine.expect_prefix("readyok", SEARCH);
    engine.send_raw(b"position   startpos\tmoves  e2e4\r\ngo   depth\t2\r\n");
    let (best, _, _) = engine.bestmove();
    assert_legal(&position_after::<Position>(&["e2e4"]), &best, &engine);
    engine.send("ucinewgame");
    engine.send("debug on");
    engine.send("debug off");
    engine.send("register later");
    let lines = engine.sync();
    assert!(lines.contains(&"registration ok".to_string()), "{lines:?}");
    engine.finish(true, SEARCH);
}

#[test]
fn end_of_input_ends_the_engine_even_while_searching() {
    let mut engine = uci_engine();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let status = engine.finish(false, Duration::from_secs(10));
    assert!(status.success());
}

/// An `EvalFile` naming a FIFO (or a directory) is refused before it is opened: opening a FIFO
/// used to block the engine for good, `quit` included (issue 20, item 7).
#[test]
fn eval_file_that_is_no_regular_file_is_refused() {
    let dir = std::env::temp_dir().join(format!("sente-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("net.nnue");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let mut engine = uci_engine();
    for path in [&fifo, &dir] {
        engine.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = engine.sync();
        assert!(
            lines.len() == 1
                && lines[0].starts_with("info string EvalFile: ")
                && lines[0].contains("evaluation unchanged"),
            "{lines:?}"
        );
    }
    engine.send("position startpos");
    engine.send("go depth 2");
    engine.expect_prefix("bestmove", SEARCH);
    engine.finish(true, SEARCH);
    let _ = std::fs::remove_dir_all(&dir);
}

/// With UCI_Chess960 false, castling rights that only Chess960 has (king on d1, Shredder-FEN
/// letters) are refused as Stockfish refuses them, and the previous position stays (issue 20,
/// item 8). With UCI_Chess960 true the same FEN is accepted.
#[test]
fn chess960_castling_rights_need_uci_chess960() {
    let mut engine = uci_engine();
    engine.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    for fen in [
        "r3k2r/8/8/8/8/8/8/R2K3R w KQkq -",
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
    ] {
        engine.send(&format!("position fen {fen}"));
        let lines = engine.sync();
        assert!(
            lines.len() == 1
                && lines[0].starts_with("info string Invalid position: ")
                && lines[0].contains("UCI_Chess960")
                && lines[0].ends_with("position unchanged"),
            "{fen}: {lines:?}"
        );
        engine.send("go perft 1");
        let lines = engine.expect_prefix("Nodes searched", SEARCH);
        assert_eq!(
            lines.last().unwrap(),
            "Nodes searched: 15",
            "{fen}: {lines:?}"
        );
    }
    engine.send("setoption name UCI_Chess960 value true");
    engine.send("position fen r3k2r/8/8/8/8/8/8/R2K3R w KQkq -");
    assert!(engine.sync().is_empty());
    engine.send("go perft 1");
    let lines = engine.expect_prefix("Nodes searched", SEARCH);
    assert!(lines.iter().any(|l| l.starts_with("d1a1:")), "{lines:?}");
    engine.finish(true, SEARCH);
}

/// `go perft` runs beside the protocol loop: `isready` is answered and `stop` / `quit` end a
/// perft that would take hours; an absurd depth is refused at once; depth 0 is one node
/// (issue 20, item 6).
#[test]
fn perft_can_be_stopped_and_absurd_depths_are_refused() {
    let mut engine = uci_engine();
    engine.send("position startpos");
    engine.send("go perft 99");
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].contains("perft depth 99 is too deep: at most 13"),
        "{lines:?}"
    );
    engine.send("go perft 0");
    let lines = engine.expect_prefix("Nodes searched", SEARCH);
    assert_eq!(lines, vec!["", "Nodes searched: 1"]);
    // Chess perft 9 from the start is 2.4e12 leaves: hours of work.
    engine.send("go perft 9");
    std::thread::sleep(Duration::from_millis(200));
    let lines = engine.sync();
    assert!(
        lines.iter().all(|l| !l.starts_with("Nodes searched")),
        "{lines:?}"
    );
    engine.send("stop");
    let lines = engine.expect_prefix("info string perft stopped", SEARCH);
    assert!(
        lines.iter().all(|l| !l.starts_with("Nodes searched")),
        "{lines:?}"
    );
    engine.send("go perft 2");
    let lines = engine.expect_prefix("Nodes searched", SEARCH);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 400");
    engine.send("go perft 9");
    std::thread::sleep(Duration::from_millis(100));
    assert!(engine.finish(true, Duration::from_secs(10)).success());
}

/// A hash size or thread count the memory cannot hold (here a 4 GB address-space limit, as on
/// a small machine) is reported in an `info string` and the engine keeps playing with what it
/// has; it used to abort with "memory allocation failed" (issue 20, item 3). The new size is
/// allocated at `isready`, so the report comes before `readyok` (item 2).
#[test]
fn hash_and_threads_beyond_memory_are_refused_not_fatal() {
    let mut engine = Engine::start_with_memory_limit(4_000_000);
    engine.handshake("uci");
    engine.send("setoption name Hash value 65536");
    let lines = engine.sync();
    assert_eq!(
        lines,
        vec!["info string Hash: cannot allocate a 65536 MB hash table; keeping 16 MB"]
    );
    engine.send("position startpos");
    engine.send("go movetime 100");
    let (best, _, _) = engine.bestmove();
    assert_legal(&Position::startpos(), &best, &engine);
    engine.send("setoption name Threads value 1024");
    let lines = engine.sync();
    assert!(
        lines.len() == 1
            && lines[0].starts_with("info string Threads: memory for only ")
            && lines[0].contains(" of 1024 search threads; using "),
        "{lines:?}"
    );
    engine.send("setoption name Threads value 2");
    engine.send("setoption name Hash value 64");
    assert!(engine.sync().is_empty());
    engine.send("go depth 4");
    let (best, _, _) = engine.bestmove();
    assert_legal(&Position::startpos(), &best, &engine);
    assert!(engine.finish(true, SEARCH).success());
}

/// Every chess net shipped in `nets/` loads as `EvalFile` and plays; so does a net of a wider
/// supported width (a random 256-wide one), while a net of an unsupported width is refused with
/// the widths that are, and the previous net stays.
#[test]
fn shipped_and_wider_nets_load_as_evalfile_and_unsupported_widths_are_refused() {
    use sente::nnue::arch::CHESS;
    use sente::nnue::random_net::random_net_bytes;
    let nets = shipped_nets("chess");
    assert!(
        nets.iter().any(|n| n.ends_with("chess-7f1c3be1ae34.nnue")),
        "{nets:?}"
    );
    let dir = std::env::temp_dir().join(format!("sente-uci-widths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wide = dir.join("wide-256.nnue");
    std::fs::write(&wide, random_net_bytes(&CHESS.with_l1(256), 5)).unwrap();
    let odd = dir.join("odd-96.nnue");
    std::fs::write(&odd, random_net_bytes(&CHESS.with_l1(96), 5)).unwrap();

    let mut engine = uci_engine();
    let start = Position::startpos();
    assert_shipped_nets_play(&mut engine, &nets, "position startpos", &start);
    let after = position_after::<Position>(&["e2e4", "c7c5"]);
    assert_net_plays(
        &mut engine,
        &wide,
        256,
        "position startpos moves e2e4 c7c5",
        &after,
    );
    engine.send(&format!("setoption name EvalFile value {}", odd.display()));
    let lines = engine.sync();
    assert!(
        lines.len() == 1
            && lines[0].starts_with("info string EvalFile: ")
            && lines[0].contains("odd-96.nnue")
            && lines[0].contains("l1=96 is not supported")
            && lines[0].contains("128, 256"),
        "{lines:?}"
    );
    // The wide net stays in use.
    engine.send("go depth 4");
    let (best, _, _) = engine.bestmove();
    assert_legal(&after, &best, &engine);
    engine.finish(true, SEARCH);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The most nodes any `info` line of `lines` reports.
fn most_nodes(lines: &[String]) -> u64 {
    lines
        .iter()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "nodes")?;
            words.get(at + 1)?.parse().ok()
        })
        .max()
        .unwrap_or(0)
}

/// The moves of `searches` searches of `position` (each `go movetime 5000`), with the most
/// nodes any of them reported.
fn limited_moves(engine: &mut Engine, position: &str, searches: usize) -> (Vec<String>, u64) {
    let mut moves = Vec::new();
    let mut nodes = 0;
    for _ in 0..searches {
        engine.send(position);
        engine.send("go movetime 5000");
        let (best, _, lines) = engine.bestmove();
        nodes = nodes.max(most_nodes(&lines));
        moves.push(best);
    }
    (moves, nodes)
}

/// `UCI_LimitStrength` with `UCI_Elo` (and Stockfish's `Skill Level`) plays like a weaker
/// player: few nodes, varied moves where moves are alike, a free queen still taken; the range
/// is Stockfish 15.1's `UCI_Elo` scale, and values outside it are refused, keeping the setting.
#[test]
fn limited_strength_errs_where_moves_are_alike_and_keeps_its_range() {
    let mut engine = Engine::start();
    let lines = engine.handshake("uci");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UCI_Elo type spin default 1350 min 1350 max 2850"),
        "{lines:?}"
    );
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("setoption name UCI_Elo value 1350");
    for bad in ["1349", "2851", "strong"] {
        engine.send(&format!("setoption name UCI_Elo value {bad}"));
        let lines = engine.sync();
        assert!(
            lines.len() == 1 && lines[0].starts_with("info string") && lines[0].contains("UCI_Elo"),
            "{bad}: {lines:?}"
        );
    }
    // The start position has many moves of about equal worth: the weakest setting varies.
    let (moves, nodes) = limited_moves(&mut engine, "position startpos", 20);
    let distinct: std::collections::HashSet<&String> = moves.iter().collect();
    assert!(distinct.len() >= 3, "{moves:?}");
    let skill = sente::search::strength::chess_elo_skill(1350).expect("1350 is limited");
    let cap = sente::search::strength::strength_limit(skill).node_cap;
    assert!(cap < 4_000, "the weakest setting's node cap: {cap}");
    assert!(
        nodes <= cap + 512,
        "UCI_Elo 1350 searched {nodes} nodes, cap {cap}"
    );
    // One move is clearly best (the rook takes a queen that attacks it): nearly always played.
    engine.send("setoption name UCI_Elo value 2000");
    let free_queen = "position fen 4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1";
    let (moves, _) = limited_moves(&mut engine, free_queen, 20);
    let taken = moves.iter().filter(|m| *m == "d2d5").count();
    assert!(taken >= 18, "{moves:?}");
    // Stockfish's `Skill Level` limits without UCI_LimitStrength; 20 is full strength.
    engine.send("setoption name UCI_LimitStrength value false");
    engine.send("setoption name Skill Level value 0");
    let (_, weak) = limited_moves(&mut engine, "position startpos", 1);
    engine.send("setoption name Skill Level value 20");
    engine.send("position startpos");
    engine.send("go movetime 300");
    let (_, _, lines) = engine.bestmove();
    assert!(
        weak < 2_000 && most_nodes(&lines) > 10 * weak,
        "skill 0: {weak} nodes, full: {}",
        most_nodes(&lines)
    );
    engine.finish(true, SEARCH);
}
