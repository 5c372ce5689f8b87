//! Move text in and out: UCI (standard and Chess960 castling), CECP (coordinates, `O-O`,
//! `0-0`, SAN, lowercase promotions) and SAN (captures, promotions, checks, disambiguation).

use sente::chess::{Move, Position};
use sente::game::{Game, MoveParseError};

fn pos(fen: &str) -> Position {
    Position::from_text(fen).unwrap()
}

fn uci(p: &Position, text: &str) -> Move {
    p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn uci_basics_and_errors() {
    let p = Position::startpos();
    let m = uci(&p, "e2e4");
    assert_eq!(p.format_move(m), "e2e4");
    assert_eq!(
        p.parse_move("e2e5"),
        Err(MoveParseError::Illegal("e2e5".into()))
    );
    assert_eq!(
        p.parse_move("e2"),
        Err(MoveParseError::Malformed("e2".into()))
    );
    assert_eq!(
        p.parse_move("e2e4x"),
        Err(MoveParseError::Malformed("e2e4x".into()))
    );
    assert_eq!(
        p.parse_move("z9e4"),
        Err(MoveParseError::Malformed("z9e4".into()))
    );
    assert!(p.parse_move("é2e4").is_err());
    let promo = pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let q = uci(&promo, "e7e8q");
    assert_eq!(promo.format_move(q), "e7e8q");
    assert_eq!(uci(&promo, "e7e8Q"), q);
    assert_ne!(uci(&promo, "e7e8n"), q);
    assert!(promo.parse_move("e7e8").is_err());
    assert!(promo.parse_move("e7e8k").is_err());
}

#[test]
fn standard_castling_in_both_notations() {
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = uci(&p, "e1g1");
    assert!(short.is_castle());
    assert_eq!(uci(&p, "e1h1"), short);
    assert_eq!(p.format_move(short), "e1g1");
    assert_eq!(p.format_move_cecp(short), "e1g1");
    let long = uci(&p, "e1c1");
    assert_eq!(uci(&p, "e1a1"), long);
    p.set_chess960(true);
    assert_eq!(p.format_move(short), "e1h1");
    assert_eq!(p.format_move(long), "e1a1");
    assert_eq!(p.format_move_cecp(short), "O-O");
    assert_eq!(p.format_move_cecp(long), "O-O-O");
    assert_eq!(uci(&p, "e1g1"), short);
    assert_eq!(uci(&p, "e1h1"), short);
    assert_eq!(p.to_text(), "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    // King f1, rook g1: castling short leaves the king on g1 and the rook on f1.
    let p = pos("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    assert!(p.is_chess960());
    let m = uci(&p, "f1g1");
    assert!(m.is_castle());
    assert_eq!(p.format_move(m), "f1g1");
    let mut after = p;
    after.make_move(m);
    assert_eq!(after.to_text(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // Queen-side 960 castling with the king on b1 and the rook on a1.
    let p = pos("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
    let m = uci(&p, "b1a1");
    assert!(m.is_castle());
    let mut after = p;
    after.make_move(m);
    assert_eq!(after.to_text(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
    assert_eq!(p.to_san(m), "O-O-O");
    assert_eq!(p.parse_move_cecp("O-O-O"), Ok(m));
}

#[test]
fn cecp_castling_words_and_coordinates() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = uci(&p, "e1g1");
    let long = uci(&p, "e1c1");
    for t in ["O-O", "0-0", "e1g1", "e1h1", "O-O+"] {
        assert_eq!(p.parse_move_cecp(t), Ok(short), "{t}");
    }
    for t in ["O-O-O", "0-0-0", "e1c1", "e1a1"] {
        assert_eq!(p.parse_move_cecp(t), Ok(long), "{t}");
    }
    let promo = pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let q = uci(&promo, "e7e8q");
    for t in ["e7e8q", "e8=Q", "e8Q", "e8q", "e8=q", "e8=Q+"] {
        assert_eq!(promo.parse_move_cecp(t), Ok(q), "{t}");
    }
    assert!(matches!(
        promo.parse_move_cecp("hello"),
        Err(MoveParseError::Malformed(_))
    ));
    assert!(matches!(
        promo.parse_move_cecp(""),
        Err(MoveParseError::Malformed(_))
    ));
}

#[test]
fn san_out_and_in() {
    let p = Position::startpos();
    assert_eq!(p.to_san(uci(&p, "g1f3")), "Nf3");
    assert_eq!(p.to_san(uci(&p, "e2e4")), "e4");
    assert_eq!(p.parse_san("Nf3"), Ok(uci(&p, "g1f3")));
    assert!(matches!(
        p.parse_san("Nf6"),
        Err(MoveParseError::Illegal(_))
    ));
    assert!(matches!(
        p.parse_san("Zf3"),
        Err(MoveParseError::Malformed(_))
    ));

    let p = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2");
    let m = uci(&p, "e4d5");
    assert_eq!(p.to_san(m), "exd5");
    assert_eq!(p.parse_san("exd5"), Ok(m));
    assert_eq!(p.parse_san("ed5"), Ok(m));

    let promo = pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(promo.to_san(uci(&promo, "e7e8q")), "e8=Q+");
    assert_eq!(promo.to_san(uci(&promo, "e7e8n")), "e8=N");

    // Fool's mate.
    let mut p = Position::startpos();
    for t in ["f2f3", "e7e5", "g2g4"] {
        let m = uci(&p, t);
        p.make_move(m);
    }
    let mate = uci(&p, "d8h4");
    assert_eq!(p.to_san(mate), "Qh4#");
    assert_eq!(p.parse_san("Qh4+"), Ok(mate));
    assert_eq!(p.parse_san("Qh4"), Ok(mate));
    assert_eq!(p.parse_san("Qd8h4"), Ok(mate));
}

#[test]
fn san_disambiguation() {
    let p = pos("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
    let m = uci(&p, "a1d1");
    assert_eq!(p.to_san(m), "Rad1");
    assert_eq!(p.parse_san("Rad1"), Ok(m));
    assert!(matches!(
        p.parse_san("Rd1"),
        Err(MoveParseError::Illegal(_))
    ));

    let p = pos("4k3/8/8/R7/8/8/4K3/R7 w - - 0 1");
    let m = uci(&p, "a1a3");
    assert_eq!(p.to_san(m), "R1a3");
    assert_eq!(p.parse_san("R1a3"), Ok(m));

    let p = pos("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    let m = uci(&p, "a1b2");
    assert_eq!(p.to_san(m), "Qa1b2");
    assert_eq!(p.parse_san("Qa1b2"), Ok(m));
    assert_eq!(p.parse_san("Qa1xb2"), Ok(m));
}

#[test]
fn en_passant_notation() {
    let p = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    let m = uci(&p, "e5f6");
    assert!(m.is_en_passant());
    assert_eq!(p.to_san(m), "exf6");
    assert_eq!(p.parse_san("exf6"), Ok(m));
    assert_eq!(p.noisy_gain(m), 100);
    assert!(!p.is_quiet(m));
}

#[test]
fn garbage_move_text_never_panics() {
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(99);
    let alphabet: Vec<char> = "abcdefgh12345678NBRQKPnbrqkpxX=+#-Oo0 é/@"
        .chars()
        .collect();
    let positions = [
        Position::startpos(),
        pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1"),
        pos("4k3/8/8/8/8/8/8/5KR1 w G - 0 1"),
    ];
    let mut parsed = 0;
    for i in 0..20_000 {
        let len = (rng.next_u64() % 8) as usize;
        let text: String = (0..len)
            .map(|_| alphabet[(rng.next_u64() % alphabet.len() as u64) as usize])
            .collect();
        let p = &positions[i % positions.len()];
        let results = [
            p.parse_move(&text),
            p.parse_move_cecp(&text),
            p.parse_san(&text),
        ];
        for m in results.into_iter().flatten() {
            assert!(p.is_legal_move(m), "{text} gave an illegal move");
            parsed += 1;
        }
    }
    assert!(parsed > 0);
}
