//! The correction history's keys (`Game::correction_key`, `Game::piece_keys`): what each game's
//! moves change. A pawn move changes the structure key and neither piece key; a piece move
//! changes its own side's piece key only; a capture of a piece also changes the victim's.

use sente::game::Game;

fn after<G: Game>(text: &str, mv: &str) -> (G, G) {
    let pos = G::from_text(text).unwrap_or_else(|_| panic!("{text} parses"));
    let m = pos
        .parse_move(mv)
        .unwrap_or_else(|_| panic!("{mv} is legal in {text}"));
    let mut child = pos.clone();
    child.make_move(m);
    (pos, child)
}

/// Which of (structure, first side's pieces, second side's pieces) `mv` changes.
fn changed<G: Game>(text: &str, mv: &str) -> (bool, bool, bool) {
    let (before, after) = after::<G>(text, mv);
    let (b, a) = (before.piece_keys(), after.piece_keys());
    (
        before.correction_key() != after.correction_key(),
        b[0] != a[0],
        b[1] != a[1],
    )
}

/// Asserts `changed` for each (position, move, expected change) of `cases`.
fn assert_changes<G: Game>(cases: &[(&str, &str, (bool, bool, bool))]) {
    for &(text, mv, expected) in cases {
        assert_eq!(changed::<G>(text, mv), expected, "{mv} in {text}");
    }
}

#[test]
fn chess_piece_keys_follow_each_sides_pieces_but_not_its_pawns() {
    type P = sente::chess::Position;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    // White's knight takes a black knight: both piece keys, no pawn.
    let knights = "r1bqkbnr/pppppppp/8/8/3n4/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1";
    // Castling moves the king and a rook.
    let castle = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    assert_changes::<P>(&[
        (start, "e2e4", (true, false, false)),
        (start, "g1f3", (false, true, false)),
        (black, "b8c6", (false, false, true)),
        (knights, "f3d4", (false, true, true)),
        (castle, "e1g1", (false, true, false)),
    ]);
    // Each piece kind counts: a rook and a queen swapped are another position.
    let a = P::from_text("4k3/8/8/8/8/8/8/R2QK3 w - - 0 1").unwrap();
    let b = P::from_text("4k3/8/8/8/8/8/8/Q2RK3 w - - 0 1").unwrap();
    assert_ne!(a.piece_keys()[0], b.piece_keys()[0]);
    assert_eq!(a.piece_keys()[1], b.piece_keys()[1]);
}

#[test]
fn shogi_piece_keys_follow_each_sides_pieces_but_not_its_pawns() {
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    // The bishop exchange: Black's bishop takes White's and promotes (a piece, no pawn, for
    // both sides, and the hand in the structure key).
    let open = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
    // A drop adds a piece to the board: its side's key and the hand in the structure key.
    let hand = "lnsgkgsnl/1r7/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w Bb 4";
    assert_changes::<sente::shogi::Position>(&[
        (start, "7g7f", (true, false, false)),
        (start, "3i4h", (false, true, false)),
        (open, "8h2b+", (true, true, true)),
        (hand, "B*5e", (true, false, true)),
    ]);
}
