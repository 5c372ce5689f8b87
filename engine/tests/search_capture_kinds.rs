//! `Game::captured_kind`, the capture history's key: what each game reports for captures,
//! en passant, promotions, drops and quiet moves, and that every value stays below
//! `CAPTURE_KINDS` over whole move lists.

use sente::game::Game;
use sente::movelist::MoveList;

fn kind_of<G: Game>(text: &str, mv: &str) -> usize {
    let pos = G::from_text(text).unwrap_or_else(|_| panic!("{text} parses"));
    let m = pos
        .parse_move(mv)
        .unwrap_or_else(|_| panic!("{mv} is legal in {text}"));
    pos.captured_kind(m)
}

fn all_kinds_in_range<G: Game>(texts: &[&str]) {
    for text in texts {
        let pos = G::from_text(text).unwrap_or_else(|_| panic!("{text} parses"));
        let mut moves = G::Moves::default();
        pos.generate_legal(&mut moves);
        for &m in moves.as_slice() {
            let kind = pos.captured_kind(m);
            assert!(kind < G::CAPTURE_KINDS, "{text}: {}", pos.format_move(m));
            if pos.is_quiet(m) {
                assert_eq!(kind, 0, "{text}: quiet {}", pos.format_move(m));
            }
        }
    }
}

#[test]
fn chess_names_the_captured_piece() {
    type P = sente::chess::Position;
    // Pawn 1, knight 2, bishop 3, rook 4, queen 5 (pawn..king as 1..=6).
    let fen = "r3k2r/ppp2ppp/2n5/3pP3/4n3/2N5/PPPQ1PPP/R3K2R w KQkq d6 0 1";
    assert_eq!(kind_of::<P>(fen, "c3e4"), 2, "a knight");
    assert_eq!(kind_of::<P>(fen, "c3d5"), 1, "a pawn");
    assert_eq!(kind_of::<P>(fen, "e5d6"), 1, "en passant takes a pawn");
    assert_eq!(kind_of::<P>(fen, "d2d4"), 0, "a quiet move");
    assert_eq!(kind_of::<P>(fen, "e1g1"), 0, "castling");
    let promotion = "1r5k/P7/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(
        kind_of::<P>(promotion, "a7a8q"),
        0,
        "a promotion that takes nothing"
    );
    assert_eq!(
        kind_of::<P>(promotion, "a7b8q"),
        4,
        "a promotion that takes a rook"
    );
    all_kinds_in_range::<P>(&[fen, promotion, &P::startpos().to_text()]);
}

#[test]
fn shogi_names_the_captured_piece_and_drops_take_nothing() {
    type P = sente::shogi::Position;
    // After 7g7f 3c3d 8h2b+: the bishop took the bishop on 2b.
    let sfen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1";
    let takes_bishop = kind_of::<P>(sfen, "8h2b+");
    assert_ne!(takes_bishop, 0);
    let after = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 1";
    let takes_horse = kind_of::<P>(after, "3a2b");
    assert_ne!(takes_horse, 0);
    assert_ne!(takes_bishop, takes_horse, "promoted kinds are told apart");
    assert_eq!(kind_of::<P>(sfen, "7f7e"), 0, "a quiet move");
    let drop = "lnsgkgsnl/1r7/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 1";
    assert_eq!(kind_of::<P>(drop, "B*5e"), 0, "a drop");
    all_kinds_in_range::<P>(&[sfen, after, drop]);
}
