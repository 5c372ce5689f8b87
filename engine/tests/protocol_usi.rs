//! USI dialogues with the `sente` binary: handshake and YaneuraOu-style options, byoyomi clocks,
//! pondering and `gameover`, `bestmove resign`, `go mate` answers, mate scores in plies.

mod protocol_support;

use protocol_support::{
    assert_bad_positions_refused, assert_declares_options, assert_legal, assert_net_plays,
    assert_shipped_nets_play, position_after, shipped_nets, Engine, SEARCH,
};
use sente::game::Game;
use sente::shogi::Position;
use std::time::Duration;

fn usi_engine() -> Engine {
    let mut engine = Engine::start();
    engine.handshake("usi");
    engine
}

#[test]
fn handshake_declares_usi_options() {
    let mut engine = Engine::start();
    let lines = engine.handshake("usi");
    assert!(lines[0].starts_with("id name Sente"));
    assert_declares_options(
        &lines,
        &[
            "USI_Hash",
            "USI_Ponder",
            "Threads",
            "MultiPV",
            "EvalFile",
            "EnteringKingRule",
            "MaxMovesToDraw",
        ],
    );
    assert!(lines
        .iter()
        .filter(|l| l.starts_with("option name "))
        .all(|l| l.split_whitespace().nth(3) == Some("type")));
    // The rule a GUI sees by default is the one the engine plays by (CSA's 27 points).
    assert!(lines.contains(
        &"option name EnteringKingRule type combo default CSARule27 var NoEnteringKing \
          var CSARule24 var CSARule27"
            .to_string()
    ));
    engine.finish(true, SEARCH);
}

#[test]
fn options_undeclared_usi_names_and_bad_values() {
    let mut engine = usi_engine();
    for silent in [
        "setoption name USI_Hash value 32",
        "setoption name USI_Ponder value true",
        "setoption name USI_AnalyseMode value false",
        "setoption name SomethingElse value 3",
        "setoption name EnteringKingRule value CSARule24",
        "setoption name MaxMovesToDraw value 256",
    ] {
        engine.send(silent);
        assert!(engine.sync().is_empty(), "{silent}");
    }
    engine.send("setoption name USI_Hash value big");
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string"),
        "{lines:?}"
    );
    engine.finish(true, SEARCH);
}

/// `EnteringKingRule` starts at CSA's 27-point rule, as the handshake shows: a king in camp
/// with 28 points declares (`bestmove win`); `NoEnteringKing` turns declarations off.
#[test]
fn entering_king_rule_option_decides_declarations() {
    let mut engine = usi_engine();
    let position = "position sfen +R+B+P+P+P+P+P+P+P/4K4/+P+P+P6/9/9/9/9/9/8k b R3P 1";
    engine.send(position);
    engine.send("go btime 1000 wtime 1000 byoyomi 100");
    assert_eq!(engine.bestmove().0, "win");
    engine.send("setoption name EnteringKingRule value NoEnteringKing");
    engine.send("go btime 1000 wtime 1000 byoyomi 100");
    let (best, _, lines) = engine.bestmove();
    assert_ne!(best, "win", "{lines:?}");
    engine.send("setoption name EnteringKingRule value CSARule24");
    engine.send(position);
    engine.send("go btime 1000 wtime 1000 byoyomi 100");
    // 28 points is a draw under the 24-point rule (31 wins): no declaration.
    let (best, _, lines) = engine.bestmove();
    assert_ne!(best, "win", "{lines:?}");
    engine.finish(true, SEARCH);
}

#[test]
fn plays_under_byoyomi_and_fischer_clocks() {
    let mut engine = usi_engine();
    engine.send("usinewgame");
    let moves = ["7g7f", "3c3d"];
    let pos = position_after::<Position>(&moves);
    for go in [
        "go btime 1000 wtime 1000 byoyomi 100",
        "go btime 0 wtime 0 byoyomi 200",
        "go btime 2000 wtime 2000 binc 50 winc 50",
        "go depth 3",
        "go nodes 3000",
        "go movetime 100",
    ] {
        engine.send("position startpos moves 7g7f 3c3d");
        engine.send(go);
        let (best, _, lines) = engine.bestmove();
        assert_legal(&pos, &best, &engine);
        assert!(lines.iter().all(|l| !l.contains("mate -0")));
        assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    }
    engine.finish(true, SEARCH);
}

/// cshogi's `Engine.go(byoyomi=100)` sends no btime/wtime: no main time, so the answer comes
/// within the byoyomi instead of after `stop` (issue 20, item 1).
#[test]
fn byoyomi_without_main_time_answers_by_itself() {
    let mut engine = usi_engine();
    engine.sync();
    for go in ["go byoyomi 100", "go winc 100 binc 100", "go movestogo 5"] {
        engine.send("position startpos");
        engine.send(go);
        let (best, _, _) = engine.bestmove();
        assert_legal(&Position::startpos(), &best, &engine);
    }
    engine.send("position startpos");
    engine.send("go ponder byoyomi 100");
    std::thread::sleep(Duration::from_millis(150));
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    engine.send("ponderhit");
    let (best, _, _) = engine.bestmove();
    assert_legal(&Position::startpos(), &best, &engine);
    engine.finish(true, SEARCH);
}

#[test]
fn ponder_stop_and_gameover_end_searches() {
    let mut engine = usi_engine();
    engine.send("position startpos moves 2g2f 8c8d");
    engine.send("go ponder btime 1000 wtime 1000 byoyomi 100");
    std::thread::sleep(Duration::from_millis(200));
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    engine.send("ponderhit");
    let (best, _, _) = engine.bestmove();
    assert_legal(
        &position_after::<Position>(&["2g2f", "8c8d"]),
        &best,
        &engine,
    );

    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("stop");
    engine.bestmove();

    engine.send("go ponder btime 1000 wtime 1000 byoyomi 100");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("gameover win");
    let lines = engine.sync();
    assert!(lines.iter().filter(|l| l.starts_with("bestmove")).count() <= 1);
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        engine.sync().iter().all(|l| !l.starts_with("bestmove")),
        "search still running"
    );
    engine.finish(true, SEARCH);
}

#[test]
fn resigns_when_mated_and_reports_mate_in_plies() {
    let mut engine = usi_engine();
    // Black's king on 5i is mated by two white golds.
    engine.send("position sfen 4k4/9/9/9/9/9/4g4/4g4/4K4 b - 1");
    engine.send("go btime 1000 wtime 1000 byoyomi 100");
    assert_eq!(engine.bestmove().0, "resign");
    // Mate in one ply by a gold drop.
    engine.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    engine.send("go depth 3");
    let (best, _, lines) = engine.bestmove();
    assert_eq!(best, "G*5b", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1 ")),
        "{lines:?}"
    );
    engine.finish(true, SEARCH);
}

#[test]
fn go_mate_answers_checkmate_lines() {
    let mut engine = usi_engine();
    engine.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    engine.send("go mate 5000");
    let lines = engine.expect_prefix("checkmate", SEARCH);
    assert_eq!(lines.last().unwrap(), "checkmate G*5b");
    engine.send("position startpos");
    engine.send("go mate 300");
    let lines = engine.expect_prefix("checkmate", SEARCH);
    let answer = lines.last().unwrap();
    assert!(
        answer == "checkmate nomate" || answer == "checkmate timeout",
        "{answer}"
    );
    engine.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("stop");
    engine.expect_prefix("checkmate", SEARCH);
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    engine.finish(true, SEARCH);
}

/// `go mate` answers a shortest mate: here the solver's first proof is 5 plies long, but R*2c
/// mates in 3 (issue 20, item 5).
#[test]
fn go_mate_answers_a_shortest_mate() {
    let mut engine = usi_engine();
    engine.send("position sfen 7k1/9/8n/6L2/9/9/9/9/K8 b RG 1");
    engine.send("go mate 1000");
    let lines = engine.expect_prefix("checkmate", SEARCH);
    let answer = lines.last().unwrap();
    let moves: Vec<&str> = answer.split_whitespace().skip(1).collect();
    assert_eq!(moves.len(), 3, "{answer}");
    assert_eq!(moves[0], "R*2c", "{answer}");
    engine.finish(true, SEARCH);
}

/// A tsume without the attacker's king is solved (it used to be refused, and `go mate` then
/// answered the previous problem); after a refused `position`, neither `go mate` nor `go`
/// answers for the previous position without saying so (issue 20, item 4).
#[test]
fn tsume_without_attacker_king_and_refused_positions() {
    let mut engine = usi_engine();
    engine.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    engine.send("position sfen 7k1/9/6G2/9/9/9/9/9/9 b SR 1");
    assert!(engine.sync().is_empty());
    engine.send("go mate 10000");
    let lines = engine.expect_prefix("checkmate", SEARCH);
    assert_eq!(lines, vec!["checkmate S*2b 2a1b R*1c"]);
    // The alpha-beta search does not take it, but still answers with a legal move.
    engine.send("go depth 3");
    let lines = engine.expect_prefix("bestmove", SEARCH);
    assert!(lines[0].contains("Sente has no king"), "{lines:?}");
    let pos = Position::from_text("7k1/9/6G2/9/9/9/9/9/9 b SR 1").unwrap();
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert_legal(&pos, best, &engine);

    // The defender still needs its king: refused, and the next go mate says so instead of
    // solving the problem before.
    engine.send("position sfen 4k4/9/9/9/9/9/9/9/9 w - 1");
    let lines = engine.sync();
    assert_eq!(
        lines,
        vec!["info string Invalid position: First has no king; position unchanged"]
    );
    engine.send("go mate 1000");
    let lines = engine.expect_prefix("checkmate", SEARCH);
    assert_eq!(lines.last().unwrap(), "checkmate timeout", "{lines:?}");
    assert!(
        lines[0].starts_with("info string go mate: the last position was refused"),
        "{lines:?}"
    );
    engine.send("position startpos");
    engine.send("position sfen banana");
    engine.sync();
    engine.send("go depth 1");
    let lines = engine.expect_prefix("bestmove", SEARCH);
    assert!(
        lines[0].starts_with("info string the last position was refused"),
        "{lines:?}"
    );
    // An accepted position ends the warning.
    engine.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    engine.send("go mate 1000");
    let lines = engine.expect_prefix("checkmate", SEARCH);
    assert_eq!(lines, vec!["checkmate G*5b"]);
    engine.finish(true, SEARCH);
}

#[test]
fn bad_positions_and_moves_keep_a_valid_state() {
    let mut engine = usi_engine();
    engine.send("position startpos moves 7g7f 3c3d 8h2b 2b2b");
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string"),
        "{lines:?}"
    );
    engine.send("d");
    let expected = position_after::<Position>(&["7g7f", "3c3d", "8h2b"]).to_text();
    assert_eq!(engine.sync(), vec![format!("info string {expected}")]);
    assert_bad_positions_refused(
        &mut engine,
        &[
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9 b - 1",
            "position sfen 9/9/9/9/9/9/9/9/9 b - 1",
            "position sfen",
            "position startpos junk",
        ],
        &expected,
    );
    engine.send("what is this");
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string"),
        "{lines:?}"
    );
    engine.send("go perft 2");
    let lines = engine.expect_prefix("Nodes searched", SEARCH);
    assert!(lines.last().unwrap().starts_with("Nodes searched: "));
    engine.finish(true, SEARCH);
}

#[test]
fn end_of_input_ends_the_engine() {
    let mut engine = usi_engine();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    assert!(engine.finish(false, Duration::from_secs(10)).success());
}

/// Every shogi net shipped in `nets/` loads as `EvalFile` and plays, and so does a random
/// 256-wide one; a net with another feature set at a supported width is refused.
#[test]
fn shipped_and_wider_nets_load_as_evalfile() {
    use sente::nnue::arch::SHOGI;
    use sente::nnue::random_net::random_net_bytes;
    use sente::nnue::Architecture;
    let nets = shipped_nets("shogi");
    assert!(
        nets.iter().any(|n| n.ends_with("shogi-7036271d8bd7.nnue")),
        "{nets:?}"
    );
    let dir = std::env::temp_dir().join(format!("sente-usi-widths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wide = dir.join("wide-256.nnue");
    std::fs::write(&wide, random_net_bytes(&SHOGI.with_l1(256), 6)).unwrap();
    let other_features = Architecture {
        feature_set: 77,
        ..SHOGI.with_l1(256)
    };
    let alien = dir.join("alien.nnue");
    std::fs::write(&alien, random_net_bytes(&other_features, 6)).unwrap();

    let mut engine = usi_engine();
    let start = Position::startpos();
    assert_shipped_nets_play(&mut engine, &nets, "position startpos", &start);
    assert_net_plays(&mut engine, &wide, 256, "position startpos", &start);
    engine.send(&format!(
        "setoption name EvalFile value {}",
        alien.display()
    ));
    let lines = engine.sync();
    assert!(
        lines.len() == 1
            && lines[0].starts_with("info string EvalFile: ")
            && lines[0].contains("feature set #77, expected #2"),
        "{lines:?}"
    );
    engine.finish(true, SEARCH);
    std::fs::remove_dir_all(&dir).unwrap();
}
