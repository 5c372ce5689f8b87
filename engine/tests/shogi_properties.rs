//! Randomised properties of the shogi rules: random playouts check the incremental hash, SFEN
//! and notation round trips, `is_legal_move` against the legal list, the noisy generator, check
//! detection, deltas and mate-in-one; a fuzzer feeds damaged SFEN to the parser.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sente::game::{Game, GameMove, Side};
use sente::movelist::MoveList;
use sente::shogi::{Move, PieceKind, Position, ShogiMoves};
use std::collections::HashSet;

const START_SFENS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnl 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
    "R6gk/9/8S/9/9/9/9/9/K8 b P 1",
    "4k4/P8/2L1N3S/6N2/9/9/2n3l1p/p8/4K4 b Gg 1",
];

fn legal(pos: &Position) -> Vec<Move> {
    let mut list = ShogiMoves::default();
    pos.generate_legal(&mut list);
    list.as_slice().to_vec()
}

/// Plays random games from each start, calling `visit` on every position reached.
fn playouts(
    games_per_start: usize,
    max_plies: usize,
    seed: u64,
    mut visit: impl FnMut(&Position, &mut Xoshiro256PlusPlus),
) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for sfen in START_SFENS {
        for _ in 0..games_per_start {
            let mut pos = Position::from_text(sfen).unwrap();
            for _ in 0..max_plies {
                visit(&pos, &mut rng);
                let moves = legal(&pos);
                if moves.is_empty() {
                    break;
                }
                // Uniform random moves: long games fill the hands, so drops get exercised.
                let m = moves[(rng.next_u32() as usize) % moves.len()];
                pos.make_move(m);
            }
        }
    }
}

#[test]
fn incremental_hash_matches_from_scratch_and_sfen_round_trips() {
    let mut positions = 0;
    playouts(40, 300, 1, |pos, _| {
        positions += 1;
        assert_eq!(pos.hash(), pos.hash_from_scratch(), "{}", pos.to_text());
        assert!(pos.is_consistent(), "{}", pos.to_text());
        let text = pos.to_text();
        let back = Position::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&back, pos);
        assert_eq!(back.hash(), pos.hash());
        assert_eq!(back.to_text(), text);
        assert_eq!(back.in_check(), pos.in_check());
    });
    assert!(positions > 5000);
}

#[test]
fn usi_and_xboard_notation_round_trip() {
    playouts(10, 300, 2, |pos, _| {
        for m in legal(pos) {
            let usi = pos.format_move(m);
            let xb = pos.format_move_cecp(m);
            for (notation, text, read) in [
                ("usi", &usi, pos.parse_move(&usi)),
                ("xboard", &xb, pos.parse_move_cecp(&xb)),
            ] {
                assert_eq!(read, Ok(m), "{notation} {text} in {}", pos.to_text());
            }
            // Without the '=' suffix a move still reads as the non-promotion.
            if let Some(bare) = xb.strip_suffix('=') {
                assert_eq!(pos.parse_move_cecp(bare), Ok(m));
            }
            // The two notations describe the same squares: USI file f, rank r <-> xboard.
            if !m.is_drop() {
                let b = usi.as_bytes();
                let x = xb.as_bytes();
                assert_eq!(x[0], b'a' + (b'9' - b[0]));
                assert_eq!(x[1], b'1' + (b'i' - b[1]));
            }
        }
    });
}

#[test]
fn is_legal_move_agrees_with_the_legal_list() {
    playouts(20, 300, 3, |pos, rng| {
        let moves: HashSet<Move> = legal(pos).into_iter().collect();
        for &m in &moves {
            assert!(
                pos.is_legal_move(m),
                "{m:?} listed but not legal in {}",
                pos.to_text()
            );
        }
        for i in 0..400 {
            let bits = if i % 2 == 0 {
                rng.next_u32() as u16
            } else {
                // Plausible fields: destination < 81, origin < 88, random promotion bit.
                let to = rng.next_u32() % 81;
                let from = rng.next_u32() % 88;
                let promote = rng.next_u32() % 2;
                (to | from << 7 | promote << 14) as u16
            };
            let m = Move::from_bits(bits);
            assert_eq!(m.to_bits(), bits);
            // Garbage must not panic in the cheap helpers either.
            let _ = (
                pos.format_move(m),
                pos.format_move_cecp(m),
                pos.moved_piece_slot(m),
            );
            assert!(Position::move_from_slot(m) < 128);
            assert_eq!(
                pos.is_legal_move(m),
                moves.contains(&m),
                "{m:?} ({bits:#06x}) in {}",
                pos.to_text()
            );
        }
        assert!(!pos.is_legal_move(Move::NONE));
    });
}

#[test]
fn noisy_moves_checks_slots_and_deltas_are_consistent() {
    playouts(20, 300, 4, |pos, _| {
        let all = legal(pos);
        let mut noisy = ShogiMoves::default();
        pos.generate_noisy(&mut noisy);
        let noisy: HashSet<Move> = noisy.as_slice().iter().copied().collect();
        let us = pos.side_to_move();
        let check_squares = pos.check_squares();
        for &m in &all {
            let capture = !m.is_drop() && pos.piece_on(m.to()).is_some();
            let kind = if m.is_drop() {
                m.drop_kind()
            } else {
                pos.piece_on(m.from()).kind()
            };
            let pbr = matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook);
            let promoted_twin = Move::from_bits(m.to_bits() | 1 << 14);
            let dominated = !m.is_promotion() && pbr && all.contains(&promoted_twin);
            let expected = if pos.in_check() {
                true
            } else {
                (capture && !dominated) || (m.is_promotion() && pbr)
            };
            assert_eq!(noisy.contains(&m), expected, "{m:?} in {}", pos.to_text());
            assert_eq!(pos.is_quiet(m), !capture && !m.is_promotion());
            assert!(Position::move_from_slot(m) < Position::FROM_SLOTS);
            assert!(Position::move_to_square(m) < Position::SQUARES);
            let slot = pos.moved_piece_slot(m);
            assert!(slot < Position::PIECE_SLOTS);
            assert_eq!(slot / 14, us.index());
            assert_eq!(pos.noisy_gain(m) > 0, !pos.is_quiet(m));

            let mut child = *pos;
            child.make_move(m);
            assert_eq!(
                pos.gives_check(m),
                child.in_check(),
                "{m:?} in {}",
                pos.to_text()
            );
            assert_eq!(
                pos.gives_check_with(&check_squares, m),
                child.in_check(),
                "check squares: {m:?} in {}",
                pos.to_text()
            );
            assert_eq!(
                pos.hash_after(m),
                child.hash(),
                "hash_after {m:?} in {}",
                pos.to_text()
            );
            // Apply the delta to the parent's board and compare with the child's.
            let d = child.delta();
            let mut board: Vec<_> = (0..81).map(|sq| pos.piece_on(sq)).collect();
            for r in d.removed() {
                assert_eq!(board[r.square as usize], r.piece);
                board[r.square as usize] = Default::default();
            }
            let added = d.added.expect("every move places a piece");
            board[added.square as usize] = added.piece;
            for (sq, &pc) in board.iter().enumerate() {
                assert_eq!(pc, child.piece_on(sq));
            }
            if let Some(h) = d.hand {
                assert_eq!(pos.hand(h.side).count(h.kind), h.old);
                assert_eq!(child.hand(h.side).count(h.kind), h.new);
            }
            assert_eq!(d.hand.is_some(), m.is_drop() || capture);
        }
    });
}

/// Brute force: a legal checking move after which the opponent has no legal move.
fn brute_mate_in_one(pos: &Position) -> bool {
    legal(pos).into_iter().any(|m| {
        let mut child = *pos;
        child.make_move(m);
        child.in_check() && legal(&child).is_empty()
    })
}

#[test]
fn mate_in_one_agrees_with_brute_force() {
    let mut mates = 0;
    playouts(60, 300, 5, |pos, _| {
        let found = pos.mate_in_one();
        if let Some(m) = found {
            assert!(pos.is_legal_move(m));
            let mut child = *pos;
            child.make_move(m);
            assert!(
                child.in_check() && legal(&child).is_empty(),
                "{m:?} in {}",
                pos.to_text()
            );
            mates += 1;
        }
        assert_eq!(found.is_some(), brute_mate_in_one(pos), "{}", pos.to_text());
    });
    assert!(mates > 50, "only {mates} mates seen");
}

#[test]
fn pawn_drops_are_illegal_exactly_when_they_mate() {
    let mut uchifuzume = 0;
    playouts(60, 300, 6, |pos, _| {
        let us = pos.side_to_move();
        if pos.hand(us).count(PieceKind::Pawn) == 0 {
            return;
        }
        let them_king = pos.king_square(us.flip());
        // The square in front of the enemy king, from our side.
        let front = match us {
            Side::First => them_king as i32 + 1,
            Side::Second => them_king as i32 - 1,
        };
        if !(0..81).contains(&front) || front / 9 != them_king as i32 / 9 {
            return;
        }
        let m = Move::drop(PieceKind::Pawn, front as usize);
        // Legal but for uchifuzume? Play it anyway and see whether it mates.
        let pawn_file_free = (0..9).all(|r| {
            let pc = pos.piece_on((front as usize / 9) * 9 + r);
            !(pc.is_some() && pc.side() == us && pc.kind() == PieceKind::Pawn)
        });
        if pos.piece_on(front as usize).is_some() || !pawn_file_free || pos.in_check() {
            return;
        }
        let mut child = *pos;
        child.make_move(m);
        let mates = legal(&child).is_empty();
        uchifuzume += mates as u32;
        assert_eq!(pos.is_legal_move(m), !mates, "{}", pos.to_text());
    });
    eprintln!("pawn-drop mates seen: {uchifuzume}");
}

#[test]
fn damaged_sfen_never_panics() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let alphabet = b"pPlLnNsSgGbBrRkK+0123456789/ -bwxX*";
    let mut accepted = 0;
    for i in 0..200_000 {
        let base = START_SFENS[i % START_SFENS.len()];
        let mut text = base.as_bytes().to_vec();
        for _ in 0..1 + rng.next_u32() % 3 {
            let at = rng.next_u32() as usize % (text.len() + 1);
            let c = alphabet[rng.next_u32() as usize % alphabet.len()];
            match rng.next_u32() % 3 {
                0 if at < text.len() => text[at] = c,
                1 if at < text.len() => {
                    text.remove(at);
                }
                _ => text.insert(at, c),
            }
        }
        let text = String::from_utf8(text).unwrap();
        if let Ok(pos) = Position::from_text(&text) {
            accepted += 1;
            let again = Position::from_text(&pos.to_text()).expect("round trip");
            assert_eq!(again, pos);
            assert!(pos.is_consistent());
            // A parsed position must be safe to generate and play from.
            for m in legal(&pos) {
                let mut child = pos;
                child.make_move(m);
            }
        }
    }
    assert!(accepted > 100);
}
