//! Randomised properties of the chess rules, from many start positions with a seeded RNG:
//! incremental hash equals the from-scratch hash, FEN round-trips, `is_legal_move` agrees with
//! the legal list for arbitrary 16-bit values, both slider back ends agree, every move's text
//! forms (UCI, CECP, SAN) parse back to it, deltas describe the board change, `gives_check` (also from check squares),
//! `is_quiet` and `generate_noisy` are consistent with the move list.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sente::chess::attacks::{Magic, Pext};
use sente::chess::types::{piece_kind, PieceKind};
use sente::chess::{Move, Position};
use sente::game::{Game, GameMove};
use sente::movelist::{ArrayMoveList, MoveList};
use std::collections::HashSet;

fn start_positions() -> Vec<Position> {
    let text = include_str!("../testdata/chess_perft.tsv");
    let mut seen = HashSet::new();
    let mut out = vec![Position::startpos()];
    for line in text.lines().skip(1) {
        let fen = line.split('\t').nth(1).unwrap_or("");
        if !fen.is_empty() && seen.insert(fen.to_string()) {
            out.push(Position::from_text(fen).unwrap());
        }
    }
    // A few extra: a 960 start, a position with en passant, promotions for both sides.
    for fen in [
        "bnrqkrnb/pppppppp/8/8/8/8/PPPPPPPP/BNRQKRNB w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "1r2k3/2P5/8/8/8/8/5p2/4K1R1 w - - 0 1",
    ] {
        out.push(Position::from_text(fen).unwrap());
    }
    out
}

fn legal(pos: &Position) -> Vec<Move> {
    let mut list = <Position as Game>::Moves::default();
    pos.generate_legal(&mut list);
    list.as_slice().to_vec()
}

fn board_of(pos: &Position) -> [Option<(sente::game::Side, PieceKind)>; 64] {
    std::array::from_fn(|sq| pos.piece_at(sq as u8))
}

fn is_capture(pos: &Position, m: Move) -> bool {
    m.is_en_passant() || (!m.is_castle() && pos.piece_at(m.to()).is_some())
}

/// Checks every property on one position; returns its legal moves.
fn check_position(pos: &Position, rng: &mut Xoshiro256PlusPlus) -> Vec<Move> {
    let fen = pos.to_text();
    assert_eq!(pos.hash(), pos.hash_from_scratch(), "hash drift at {fen}");
    assert_eq!(
        (pos.correction_key(), pos.piece_keys()),
        pos.compute_structure_keys(),
        "structure-key drift at {fen}"
    );
    assert_eq!(
        pos.board_material(),
        Some(pos.compute_material()),
        "material drift at {fen}"
    );

    let parsed = Position::from_text(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(parsed.to_text(), fen);
    let mut parsed_same_mode = parsed;
    if pos.castling_rights() == 0 {
        // Without castling rights a FEN cannot say whether Chess960 notation is on.
        parsed_same_mode.set_chess960(pos.is_chess960());
    }
    assert_eq!(&parsed_same_mode, pos, "FEN round trip of {fen}");

    let moves = legal(pos);
    let set: HashSet<Move> = moves.iter().copied().collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves at {fen}");

    for _ in 0..300 {
        let m = Move::from_bits(rng.next_u64() as u16);
        assert_eq!(
            pos.is_legal_move(m),
            set.contains(&m),
            "is_legal_move({m:?}) at {fen}"
        );
    }
    for &m in &moves {
        assert!(pos.is_legal_move(m), "legal {m:?} rejected at {fen}");
        // Same squares with another kind: legal only if listed.
        for kind in 0..16u16 {
            let other = Move::from_bits((m.to_bits() & 0x0FFF) | kind << 12);
            assert_eq!(
                pos.is_legal_move(other),
                set.contains(&other),
                "{other:?} at {fen}"
            );
        }
    }

    let magic: HashSet<Move> = pos
        .legal_moves_with(Magic::new())
        .as_slice()
        .iter()
        .copied()
        .collect();
    assert_eq!(magic, set, "magic back end at {fen}");
    if let Some(p) = Pext::new() {
        let pext: HashSet<Move> = pos.legal_moves_with(p).as_slice().iter().copied().collect();
        assert_eq!(pext, set, "pext back end at {fen}");
    }

    let mut noisy = ArrayMoveList::<Move, 256>::default();
    pos.generate_noisy(&mut noisy);
    let noisy: HashSet<Move> = noisy.as_slice().iter().copied().collect();
    let expected_noisy: HashSet<Move> = moves
        .iter()
        .copied()
        .filter(|&m| match m.promoted() {
            Some(k) => k == PieceKind::Queen,
            None => is_capture(pos, m),
        })
        .collect();
    assert_eq!(noisy, expected_noisy, "noisy moves at {fen}");

    let before = board_of(pos);
    let check_info = pos.check_info();
    for &m in &moves {
        assert_eq!(pos.is_quiet(m), !is_capture(pos, m) && !m.is_promotion());
        let uci = pos.format_move(m);
        assert_eq!(pos.parse_move(&uci), Ok(m), "UCI {uci} at {fen}");
        let cecp = pos.format_move_cecp(m);
        assert_eq!(pos.parse_move_cecp(&cecp), Ok(m), "CECP {cecp} at {fen}");
        let san = pos.to_san(m);
        assert_eq!(pos.parse_san(&san), Ok(m), "SAN {san} at {fen}");
        assert_eq!(pos.parse_move_cecp(&san), Ok(m), "CECP SAN {san} at {fen}");

        let mut child = *pos;
        child.make_move(m);
        assert_eq!(
            pos.gives_check(m),
            child.in_check(),
            "gives_check {uci} at {fen}"
        );
        assert_eq!(
            pos.gives_check_with(&check_info, m),
            child.in_check(),
            "gives_check_with {uci} at {fen}"
        );
        assert_eq!(san.ends_with('+') || san.ends_with('#'), child.in_check());
        // The prefetch key leaves out castling-right and new en-passant terms only.
        if child.castling_rights() == pos.castling_rights() && child.en_passant_square().is_none() {
            assert_eq!(pos.hash_after(m), child.hash(), "hash_after {uci} at {fen}");
        }
        assert!(pos.moved_piece_slot(m) < Position::PIECE_SLOTS);
        assert!(Position::move_from_slot(m) < Position::FROM_SLOTS);

        // Applying the delta to the parent's board gives the child's board.
        let mut board = before;
        let delta = *child.delta();
        for r in delta.removed() {
            let had = board[r.square as usize].map(|(s, k)| sente::chess::types::make_piece(s, k));
            assert_eq!(had, Some(r.piece), "delta removal {uci} at {fen}");
            board[r.square as usize] = None;
        }
        for a in delta.added() {
            assert!(
                board[a.square as usize].is_none(),
                "delta placement {uci} at {fen}"
            );
            let side = sente::chess::types::piece_side(a.piece);
            board[a.square as usize] = Some((side, piece_kind(a.piece)));
        }
        assert_eq!(board, board_of(&child), "delta of {uci} at {fen}");
    }

    if !pos.in_check() {
        let mut null = *pos;
        null.make_null_move();
        assert_eq!(null.hash(), null.hash_from_scratch());
        assert!(!null.in_check());
        assert_eq!(null.delta().removed().len() + null.delta().added().len(), 0);
    }
    moves
}

#[test]
fn random_playouts_keep_every_property() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5E47E);
    let mut positions_checked = 0;
    for start in start_positions() {
        for _ in 0..6 {
            let mut pos = start;
            for _ in 0..120 {
                let moves = check_position(&pos, &mut rng);
                positions_checked += 1;
                if moves.is_empty() {
                    break;
                }
                let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
                pos.make_move(m);
                if pos.halfmove_clock() >= 100 {
                    break;
                }
            }
        }
    }
    assert!(
        positions_checked > 5_000,
        "only {positions_checked} positions"
    );
}

#[test]
fn perft_back_ends_agree_on_random_positions() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(960);
    for start in start_positions() {
        let mut pos = start;
        for _ in 0..40 {
            let moves = legal(&pos);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        // The bulk-counting fast perft against a plain make-every-move count.
        let slow: u64 = legal(&pos)
            .iter()
            .map(|&m| {
                let mut c = pos;
                c.make_move(m);
                legal(&c)
                    .iter()
                    .map(|&r| {
                        let mut g = c;
                        g.make_move(r);
                        legal(&g).len() as u64
                    })
                    .sum::<u64>()
            })
            .sum();
        assert_eq!(pos.perft(3), slow, "{}", pos.to_text());
        let magic = pos.perft_with_magic(3);
        assert_eq!(magic, slow);
        if let Some(pext) = pos.perft_with_pext(3) {
            assert_eq!(pext, magic, "{}", pos.to_text());
        }
    }
}

#[test]
fn hardware_pext_matches_its_scalar_twin() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..100_000 {
        let (v, m) = (rng.next_u64(), rng.next_u64());
        if let Some(hw) = sente::chess::attacks::pext_hardware(v, m) {
            assert_eq!(hw, sente::chess::attacks::pext_scalar(v, m));
        }
    }
}
