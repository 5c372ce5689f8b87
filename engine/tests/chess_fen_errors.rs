//! Every class of bad FEN gives its own `FenError`; random garbage and mutated FENs never panic
//! (and positions that are accepted can be played on without panicking).

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sente::chess::{FenError, Position};
use sente::game::Game;
use sente::movelist::MoveList;

fn err(fen: &str) -> FenError {
    match Position::from_text(fen) {
        Ok(p) => panic!("accepted bad FEN {fen}: {}", p.to_text()),
        Err(e) => {
            // Every error explains itself.
            assert!(!e.to_string().is_empty());
            e
        }
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn empty_text() {
    assert_eq!(err(""), FenError::Empty);
    assert_eq!(err("   "), FenError::Empty);
}

#[test]
fn wrong_field_count() {
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq"),
        FenError::FieldCount(3)
    );
    assert_eq!(err(&format!("{START} extra")), FenError::FieldCount(7));
}

#[test]
fn wrong_rank_count() {
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankCount(7)
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
        FenError::RankCount(9)
    );
}

#[test]
fn bad_rank_width() {
    // The rank and width a `RankWidth` error names (any other error fails the test).
    let rank_width = |fen: &str| match err(fen) {
        FenError::RankWidth { rank, width } => (rank, width),
        other => panic!("{fen}: {other:?}, not RankWidth"),
    };
    assert_eq!(
        rank_width("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        (7, 7)
    );
    for fen in [
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/44p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ] {
        assert_eq!(rank_width(fen).0, 6, "{fen}");
    }
    rank_width("rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

#[test]
fn unknown_piece() {
    assert_eq!(
        err("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::UnknownPiece('x')
    );
}

#[test]
fn missing_or_extra_king() {
    assert!(matches!(
        err("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"),
        FenError::KingCount {
            side: "black",
            count: 0
        }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1"),
        FenError::KingCount {
            side: "white",
            count: 2
        }
    ));
}

#[test]
fn pawn_on_back_rank() {
    assert_eq!(
        err("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1"),
        FenError::PawnOnBackRank("h8".into())
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/p3K3 w - - 0 1"),
        FenError::PawnOnBackRank("a1".into())
    );
}

#[test]
fn bad_side_to_move() {
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
        FenError::SideToMove("x".into())
    );
}

#[test]
fn side_not_to_move_in_check() {
    // Black king attacked by the rook with White to move.
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4RK2 w - - 0 1"),
        FenError::OpponentInCheck
    );
    // Kings next to each other.
    assert_eq!(
        err("8/8/8/8/8/8/8/Kk6 b - - 0 1"),
        FenError::OpponentInCheck
    );
}

/// Issue 59, item 2a: material no game can reach is refused like any other bad FEN.
#[test]
fn unreachable_material() {
    assert_eq!(
        err("4k3/8/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/8/4K3 w - - 0 1"),
        FenError::TooManyPawns {
            side: "white",
            count: 16
        }
    );
    assert_eq!(
        err("4k3/pppppppp/8/8/8/P7/PPPPPPPP/4K3 b - - 0 1"),
        FenError::TooManyPawns {
            side: "white",
            count: 9
        }
    );
    // Eight pawns and a second queen: no pawn is missing to have promoted.
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKQNR w KQkq - 0 1").to_string(),
        "white has 1 pieces beyond the initial set but only 0 missing pawns to promote"
    );
    // Seven pawns, three extra knights.
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/NNN5/1PPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::TooManyPromotedPieces {
            side: "white",
            extra: 3,
            missing: 1
        }
    );
    // Reachable: seven pawns and a second queen; no pawns and nine queens.
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKQNR w KQkq - 0 1",
        "4k3/8/8/8/8/8/QQQQQQQQ/Q3K3 b - - 0 1",
        "4k3/8/8/8/8/8/NNNNBBBB/RRRRK3 w - - 0 1",
    ] {
        assert!(Position::from_text(fen).is_ok(), "{fen}");
    }
}

/// Issue 59, item 2a: no move gives a triple check; a double check is fine.
#[test]
fn impossible_checks() {
    assert_eq!(
        err("4k3/8/8/8/1b6/3n4/8/r3K3 w - - 0 1"),
        FenError::TooManyCheckers(3)
    );
    let double = Position::from_text("4k3/8/8/8/1b6/3n4/8/4K3 w - - 0 1").unwrap();
    assert_eq!(double.checkers().count_ones(), 2);
}

#[test]
fn bad_castling_field() {
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1"),
        FenError::Castling("KQkx".into())
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1"),
        FenError::Castling("KKkq".into())
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1"),
        FenError::Castling("KQkqK".into())
    );
    // A right without its rook, or with the king off the back rank.
    assert_eq!(
        err("rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::CastlingWithoutPieces { right: 'k' }
    );
    assert_eq!(
        err("rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::CastlingWithoutPieces { right: 'k' }
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqC - 0 1"),
        FenError::Castling("KQkqC".into())
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Gkq - 0 1"),
        FenError::CastlingWithoutPieces { right: 'G' }
    );
}

#[test]
fn bad_en_passant_field() {
    let bad = |ep: &str| {
        err(&format!(
            "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq {ep} 0 2"
        ))
    };
    assert_eq!(bad("e9"), FenError::EnPassant("e9".into()));
    assert_eq!(bad("x"), FenError::EnPassant("x".into()));
    // Wrong rank for White to move, and no pawn that just double-stepped.
    assert_eq!(bad("d3"), FenError::EnPassant("d3".into()));
    assert_eq!(bad("e6"), FenError::EnPassant("e6".into()));
    // Accepted: the d-pawn did just double-step (no capture possible, so it is dropped).
    let ok =
        Position::from_text("rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2").unwrap();
    assert_eq!(ok.en_passant_square(), None);
    let ok = Position::from_text("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")
        .unwrap();
    assert_eq!(ok.en_passant_square(), Some(43));
    assert!(ok.to_text().contains(" d6 "));
}

#[test]
fn bad_counters() {
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1"),
        FenError::HalfmoveClock("x".into())
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1"),
        FenError::HalfmoveClock("-1".into())
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one"),
        FenError::FullmoveNumber("one".into())
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999"),
        FenError::FullmoveNumber("99999999999".into())
    );
    // Counters may be left out.
    let p = Position::from_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq -").unwrap();
    assert_eq!(p.game_ply(), 1);
}

#[test]
fn castling_notations_and_chess960_detection() {
    let standard = Position::from_text(START).unwrap();
    assert!(!standard.is_chess960());
    // Shredder-FEN letters switch 960 mode on; the output keeps them.
    let shredder =
        Position::from_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").unwrap();
    assert!(shredder.is_chess960());
    assert!(shredder.to_text().contains(" HAha "));
    // X-FEN `KQkq` with a king off the e-file is Chess960.
    let xfen =
        Position::from_text("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9")
            .unwrap();
    assert!(xfen.is_chess960());
    let shred =
        Position::from_text("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
            .unwrap();
    assert_eq!(xfen.hash(), shred.hash());
    assert_eq!(xfen.to_text(), shred.to_text());
    assert_eq!(xfen.perft(3), 12189);
    // An inner castling rook keeps its file letter even with 960 notation off (X-FEN).
    let mut inner = Position::from_text("4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1").unwrap();
    assert!(inner.is_chess960());
    inner.set_chess960(false);
    assert_eq!(inner.to_text(), "4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1");
    let outer = Position::from_text("4k3/8/8/8/8/8/8/R1R1K3 w Q - 0 1").unwrap();
    assert_eq!(outer.castling_rook(sente::game::Side::First, true), Some(0));
}

#[test]
fn garbage_never_panics() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xBAD_F3E);
    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/ wb-KQkqAHah0123456789e3e6x"
        .chars()
        .collect();
    let seeds = [
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "8/8/8/K1pP3r/8/8/8/7k w - c6 0 2",
    ];
    let mut accepted = 0;
    for i in 0..40_000 {
        let text: String = if i % 3 == 0 {
            let len = (rng.next_u64() % 80) as usize;
            (0..len)
                .map(|_| alphabet[(rng.next_u64() % alphabet.len() as u64) as usize])
                .collect()
        } else if i % 3 == 1 {
            let bytes: Vec<u8> = (0..(rng.next_u64() % 60))
                .map(|_| rng.next_u64() as u8)
                .collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            // Mutate a valid FEN in a few places.
            let mut chars: Vec<char> = seeds[i % seeds.len()].chars().collect();
            for _ in 0..1 + rng.next_u64() % 3 {
                let at = (rng.next_u64() % chars.len() as u64) as usize;
                let c = alphabet[(rng.next_u64() % alphabet.len() as u64) as usize];
                match rng.next_u64() % 3 {
                    0 => chars[at] = c,
                    1 => chars.insert(at, c),
                    _ => {
                        chars.remove(at);
                    }
                }
            }
            chars.into_iter().collect()
        };
        if let Ok(pos) = Position::from_text(&text) {
            accepted += 1;
            // Whatever is accepted is playable and prints back to itself.
            assert_eq!(
                Position::from_text(&pos.to_text()).map(|p| p.to_text()),
                Ok(pos.to_text())
            );
            let mut moves = <Position as Game>::Moves::default();
            pos.generate_legal(&mut moves);
            for &m in moves.as_slice() {
                let mut c = pos;
                c.make_move(m);
                assert_eq!(c.hash(), c.hash_from_scratch());
                let _ = pos.to_san(m);
                let _ = pos.see_ge(m, 0);
            }
            let _ = pos.perft(2);
        }
    }
    assert!(
        accepted > 100,
        "too few mutated FENs accepted ({accepted}) to exercise play"
    );
}
