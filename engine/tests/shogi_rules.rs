//! Shogi rule cases one by one: nifu, uchifuzume, forced promotions, drops, entering-king
//! declarations, sennichite with perpetual check, the game-length limit, mate in one, SEE,
//! notation examples and every class of malformed SFEN.

mod nnue_support;

use nnue_support::flip_shogi_sfen;
use sente::game::{EndReason, Game, GameResult, HistoryEntry, MoveParseError, Outcome, Side};
use sente::movelist::MoveList;
use sente::shogi::{EnteringKingRule, Position, SfenError, ShogiMoves, ShogiRules};

/// The rule outcome `result` by `reason`.
fn ended(result: GameResult, reason: EndReason) -> Option<Outcome> {
    Some(Outcome { result, reason })
}

fn pos(sfen: &str) -> Position {
    Position::from_text(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn legal_texts(p: &Position) -> Vec<String> {
    let mut list = ShogiMoves::default();
    p.generate_legal(&mut list);
    list.as_slice().iter().map(|&m| p.format_move(m)).collect()
}

fn is_legal(p: &Position, usi: &str) -> bool {
    let listed = legal_texts(p).iter().any(|t| t == usi);
    let parsed = p.parse_move(usi);
    assert_eq!(parsed.is_ok(), listed, "{usi}: parse {parsed:?} vs list");
    if let Ok(m) = parsed {
        assert!(p.is_legal_move(m));
    }
    listed
}

fn play(p: &mut Position, usi: &str) {
    let m = p.parse_move(usi).unwrap_or_else(|e| panic!("{usi}: {e}"));
    p.make_move(m);
}

fn is_mated(p: &Position) -> bool {
    p.in_check() && legal_texts(p).is_empty()
}

// ---------- nifu ----------

#[test]
fn nifu_forbids_a_second_unpromoted_pawn_on_a_file() {
    let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert!(!is_legal(&p, "P*5e"));
    assert!(is_legal(&p, "P*4e"));
    let white = pos("4k4/9/4p4/9/9/9/9/9/4K4 w p 1");
    assert!(!is_legal(&white, "P*5e"));
    assert!(is_legal(&white, "P*6e"));
}

#[test]
fn a_tokin_does_not_count_for_nifu() {
    let p = pos("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1");
    assert!(is_legal(&p, "P*5e"));
    // The opponent's pawn on the file does not count either.
    let q = pos("4k4/9/4p4/9/9/9/9/9/4K4 b P 1");
    assert!(is_legal(&q, "P*5e"));
}

// ---------- uchifuzume ----------

#[test]
fn pawn_drop_mate_is_illegal() {
    let p = pos("7lk/9/8S/9/9/9/9/7L1/8K b P 1");
    assert!(!is_legal(&p, "P*1b"));
    assert!(matches!(
        p.parse_move("P*1b"),
        Err(MoveParseError::Illegal(_))
    ));
    // Other pawn drops stay legal.
    assert!(is_legal(&p, "P*1d"));
    // The drop really would mate.
    let mut after = p;
    after.make_move(sente::shogi::Move::drop(sente::shogi::PieceKind::Pawn, 1));
    assert!(is_mated(&after));
}

#[test]
fn pawn_drop_mate_counts_a_pinned_defender_as_no_defender() {
    // The gold on 2a could take on 1b, but the rook on 9a pins it.
    let pinned = pos("R6gk/9/8S/9/9/9/9/9/K8 b P 1");
    assert!(!is_legal(&pinned, "P*1b"));
    // Without the pinning rook the gold defends, so the drop is only check.
    let free = pos("7gk/9/8S/9/9/9/9/9/K8 b RP 1");
    assert!(is_legal(&free, "P*1b"));
}

#[test]
fn pawn_drop_is_legal_when_the_king_can_take_the_pawn() {
    // Nothing defends 1b: the king captures.
    let p = pos("7lk/9/9/9/9/9/9/7L1/8K b P 1");
    assert!(is_legal(&p, "P*1b"));
}

#[test]
fn pawn_move_that_mates_is_legal() {
    let p = pos("7lk/9/7SP/9/9/9/9/7L1/8K b - 1");
    assert!(is_legal(&p, "1c1b"));
    let mut after = p;
    play(&mut after, "1c1b");
    assert!(is_mated(&after));
}

// ---------- promotions and dead squares ----------

const PROMO: &str = "k8/4P4/6L2/2P1N3S/9/9/9/9/4K4 b NLP 1";

#[test]
fn forced_promotions() {
    let p = pos(PROMO);
    assert!(!is_legal(&p, "5b5a"));
    assert!(is_legal(&p, "5b5a+"));
    assert!(!is_legal(&p, "3c3a"));
    assert!(is_legal(&p, "3c3a+"));
    assert!(!is_legal(&p, "5d4b"));
    assert!(is_legal(&p, "5d4b+"));
    assert!(!is_legal(&p, "5d6b"));
    assert!(is_legal(&p, "5d6b+"));
}

#[test]
fn optional_promotions_generate_both_moves() {
    let p = pos(PROMO);
    for usi in [
        "3c3b", "3c3b+", "7d7c", "7d7c+", "1d1c", "1d1c+", "1d2c", "1d2c+",
    ] {
        assert!(is_legal(&p, usi), "{usi}");
    }
    // Kings and golds never promote; moves outside the zone never promote.
    assert!(!is_legal(&p, "5i5h+"));
    assert!(is_legal(&p, "5i5h"));
    assert!(!is_legal(&p, "1d1e+"));
    let gold = pos("k8/9/9/4G4/9/9/9/9/4K4 b - 1");
    assert!(is_legal(&gold, "5d5c"));
    assert!(!is_legal(&gold, "5d5c+"));
    // A silver leaving the zone may promote.
    let silver = pos("k8/9/4S4/9/9/9/9/9/4K4 b - 1");
    assert!(is_legal(&silver, "5c4d+"));
    assert!(is_legal(&silver, "5c4d"));
}

#[test]
fn bishop_and_rook_non_promotions_are_generated() {
    let p = pos("k8/9/9/9/9/9/9/1B5R1/4K4 b - 1");
    assert!(is_legal(&p, "8h3c"));
    assert!(is_legal(&p, "8h3c+"));
    assert!(is_legal(&p, "2h2c"));
    assert!(is_legal(&p, "2h2c+"));
}

#[test]
fn drops_never_land_where_the_piece_could_not_move() {
    let p = pos(PROMO);
    assert!(!is_legal(&p, "P*4a"));
    assert!(!is_legal(&p, "L*4a"));
    assert!(!is_legal(&p, "N*4a"));
    assert!(!is_legal(&p, "N*4b"));
    assert!(is_legal(&p, "N*4c"));
    assert!(is_legal(&p, "L*4b"));
    assert!(is_legal(&p, "P*4b"));
    let white = pos("4k4/9/9/9/9/9/9/9/K8 w nlp 1");
    assert!(!is_legal(&white, "P*5i"));
    assert!(!is_legal(&white, "L*5i"));
    assert!(!is_legal(&white, "N*5h"));
    assert!(is_legal(&white, "N*5g"));
}

#[test]
fn check_evasions_include_interposing_drops_and_captures() {
    // White rook on 5a checks the king on 5i down the file.
    let p = pos("k3r4/9/9/9/9/9/9/9/4K4 b G 1");
    let moves = legal_texts(&p);
    for sq in ["5b", "5c", "5d", "5e", "5f", "5g", "5h"] {
        assert!(moves.contains(&format!("G*{sq}")), "{sq}");
    }
    assert!(!moves.contains(&"G*4e".to_string()));
    assert!(!moves.contains(&"5i5h".to_string()));
    assert!(moves.contains(&"5i4h".to_string()));
}

// ---------- entering king ----------

/// Black: king 5b, dragon + horse + 10 tokins in White's camp (12 pieces, 20 points).
fn entering(hand: &str) -> String {
    format!("+R+B+P+P+P+P+P+P+P/4K4/+P+P+P6/9/9/9/9/9/8k b {hand} 1")
}

fn with_rule(sfen: &str, rule: EnteringKingRule) -> Position {
    let mut p = pos(sfen);
    p.set_rules(ShogiRules {
        entering_king: rule,
        max_plies: 0,
    });
    p
}

#[test]
fn entering_king_27_point_rule_for_both_colours() {
    use EnteringKingRule::Points27;
    // 20 + 5 + 2 = 27 points: not enough for Black (needs 28) ...
    let black27 = entering("R2P");
    let p = with_rule(&black27, Points27);
    assert_eq!(p.declaration_count().points, 27);
    assert_eq!(p.declaration_count().pieces_in_camp, 12);
    assert!(!p.can_declare_win());
    // ... enough for White (needs 27).
    let w = with_rule(&flip_shogi_sfen(&black27), Points27);
    assert_eq!(w.side_to_move(), Side::Second);
    assert_eq!(w.declaration_count().points, 27);
    assert!(w.can_declare_win());
    assert_eq!(w.declaration_result(), Some(GameResult::Win));
    // 28 points: Black wins.
    let p = with_rule(&entering("R3P"), Points27);
    assert!(p.can_declare_win());
    // Declarations are off unless a rule is chosen.
    let off = with_rule(&entering("R3P"), EnteringKingRule::None);
    assert!(!off.can_declare_win());
    assert_eq!(off.declaration_result(), None);
    // In the search a valid declaration ends the game as a win.
    assert_eq!(
        with_rule(&entering("R3P"), Points27).rule_outcome(&[], true),
        ended(GameResult::Win, EndReason::EnteringKing)
    );
}

#[test]
fn entering_king_24_point_rule_for_both_colours() {
    use EnteringKingRule::Points24;
    for (hand, points, result) in [
        ("R2P", 27, Some(GameResult::Draw)),
        ("RGS3P", 30, Some(GameResult::Draw)),
        ("RGSN3P", 31, Some(GameResult::Win)),
    ] {
        let sfen = entering(hand);
        for p in [
            with_rule(&sfen, Points24),
            with_rule(&flip_shogi_sfen(&sfen), Points24),
        ] {
            assert_eq!(p.declaration_count().points, points, "{}", p.to_text());
            assert_eq!(p.declaration_result(), result, "{}", p.to_text());
            assert_eq!(p.can_declare_win(), result == Some(GameResult::Win));
        }
    }
    // Fewer than 24 points: no valid declaration. 12 pieces, 20 points, empty hand.
    let p = with_rule(&entering("-"), Points24);
    assert_eq!(p.declaration_count().points, 20);
    assert_eq!(p.declaration_result(), None);
}

#[test]
fn entering_king_needs_camp_pieces_king_in_camp_and_no_check() {
    use EnteringKingRule::Points27;
    // Only 9 pieces in the camp (rank c emptied), lots in hand.
    let few = with_rule(
        "+R+B+P+P+P+P+P+P+P/4K4/9/9/9/9/9/9/8k b R2G2S5P 1",
        Points27,
    );
    assert_eq!(few.declaration_count().pieces_in_camp, 9);
    assert!(!few.can_declare_win());
    // King outside the camp.
    let out = with_rule(
        "+R+B+P+P+P+P+P+P+P/9/+P+P+P6/4K4/9/9/9/9/8k b R3P 1",
        Points27,
    );
    assert!(!out.declaration_count().king_in_camp);
    assert!(!out.can_declare_win());
    // In check from a gold on 5c.
    let check = with_rule(
        "+R+B+P+P+P+P+P+P+P/4K4/+P+P+P1g4/9/9/9/9/9/8k b R3P 1",
        Points27,
    );
    assert!(check.in_check());
    assert!(!check.can_declare_win());
}

// ---------- sennichite ----------

fn history_of(start: &str, moves: &[&str]) -> (Position, Vec<HistoryEntry>) {
    let mut p = pos(start);
    let mut history = Vec::new();
    for m in moves {
        history.push(HistoryEntry {
            hash: p.hash(),
            in_check: p.in_check(),
        });
        play(&mut p, m);
    }
    (p, history)
}

/// The rule outcome after playing `moves` from `start` (in the search's view if `in_search`),
/// and the side then to move.
fn outcome_after(start: &str, moves: &[&str], in_search: bool) -> (Option<Outcome>, Side) {
    let (p, h) = history_of(start, moves);
    (p.rule_outcome(&h, in_search), p.side_to_move())
}

/// The first `plies` moves of `cycle` played round and round.
fn repeated<'a>(cycle: &[&'a str], plies: usize) -> Vec<&'a str> {
    cycle.iter().cycle().take(plies).copied().collect()
}

const CHECK_CYCLE: [&str; 4] = ["2i1i", "1a2a", "1i2i", "2a1a"];
const CHECKER: &str = "8k/9/9/9/9/9/9/9/K6R1 b - 1";

#[test]
fn perpetual_check_loses_for_the_checker() {
    let cycle = repeated(&CHECK_CYCLE, 12);
    // Third occurrence: nothing yet (strict rule).
    assert_eq!(outcome_after(CHECKER, &cycle[..8], false).0, None);
    // Fourth occurrence, Black (the checker) to move: Black loses.
    assert_eq!(
        outcome_after(CHECKER, &cycle, false),
        (
            ended(GameResult::Loss, EndReason::PerpetualCheck),
            Side::First
        )
    );
    // Seen from White to move (one ply further), White wins.
    assert_eq!(
        outcome_after(CHECKER, &repeated(&CHECK_CYCLE, 13), false),
        (
            ended(GameResult::Win, EndReason::PerpetualCheck),
            Side::Second
        )
    );
    // In search the first repetition already counts, with the same distinction.
    assert_eq!(
        outcome_after(CHECKER, &cycle[..4], true).0,
        ended(GameResult::Loss, EndReason::PerpetualCheck)
    );
    assert_eq!(outcome_after(CHECKER, &cycle[..4], false).0, None);
}

#[test]
fn repetition_without_perpetual_check_is_a_draw() {
    let cycle = repeated(&["5i5h", "5a5b", "5h5i", "5b5a"], 12);
    let start = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
    let draw = ended(GameResult::Draw, EndReason::Repetition);
    assert_eq!(outcome_after(start, &cycle[..11], false).0, None);
    assert_eq!(outcome_after(start, &cycle, false).0, draw);
    assert_eq!(outcome_after(start, &cycle[..4], true).0, draw);
}

#[test]
fn same_board_with_different_hands_is_no_repetition() {
    let a = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    let b = pos("4k4/9/9/9/9/9/9/9/4K4 b 2P 1");
    let c = pos("4k4/9/9/9/9/9/9/9/4K4 w P 1");
    assert_ne!(a.hash(), b.hash());
    assert_ne!(a.hash(), c.hash());
    let h = vec![
        HistoryEntry {
            hash: b.hash(),
            in_check: false
        };
        8
    ];
    assert_eq!(a.rule_outcome(&h, true), None);
}

// ---------- game-length limit ----------

#[test]
fn max_plies_limit_draws_but_a_final_mate_counts() {
    let mut p = Position::startpos();
    p.set_rules(ShogiRules {
        entering_king: EnteringKingRule::None,
        max_plies: 4,
    });
    for m in ["7g7f", "3c3d", "2g2f"] {
        play(&mut p, m);
        assert_eq!(p.rule_outcome(&[], false), None);
    }
    play(&mut p, "8c8d");
    assert_eq!(p.game_ply(), 4);
    assert_eq!(
        p.rule_outcome(&[], false),
        ended(GameResult::Draw, EndReason::MaxPlies)
    );
    // 0 means no limit.
    p.set_rules(ShogiRules::default());
    assert_eq!(p.rule_outcome(&[], false), None);
    // Mated on the last ply (move 10 = ply 9): the mate stands.
    let mut mated = pos("8k/8G/8S/9/9/9/9/9/K8 w - 10");
    mated.set_rules(ShogiRules {
        entering_king: EnteringKingRule::None,
        max_plies: 9,
    });
    assert!(is_mated(&mated));
    assert_eq!(mated.rule_outcome(&[], false), None);
    assert_eq!(mated.no_moves_outcome(), Outcome::CHECKMATED);
    // The same ply without mate is a draw.
    let mut quiet = pos("8k/9/8S/9/9/9/9/9/K8 w - 10");
    quiet.set_rules(ShogiRules {
        entering_king: EnteringKingRule::None,
        max_plies: 9,
    });
    assert_eq!(
        quiet.rule_outcome(&[], false).map(|o| o.reason),
        Some(EndReason::MaxPlies)
    );
    // Rules travel with copies and moves.
    let mut copy = quiet;
    play(&mut copy, "1a2a");
    assert_eq!(copy.rules().max_plies, 9);
}

// ---------- mate in one ----------

#[test]
fn mate_in_one_finds_a_gold_drop_mate() {
    let p = pos("8k/9/8S/9/9/9/9/9/K8 b G 1");
    let m = p.mate_in_one().expect("mate in one");
    let mut after = p;
    after.make_move(m);
    assert!(is_mated(&after), "{}", p.format_move(m));
    assert!(Position::startpos().mate_in_one().is_none());
}

#[test]
fn mate_in_one_never_uses_a_pawn_drop_but_finds_a_pawn_move() {
    // The only mating idea is P*1b, which is uchifuzume.
    let p = pos("7lk/9/8S/9/9/9/9/7L1/8K b P 1");
    if let Some(m) = p.mate_in_one() {
        assert_ne!(p.format_move(m), "P*1b");
        let mut after = p;
        after.make_move(m);
        assert!(is_mated(&after));
    }
    let q = pos("7lk/9/7SP/9/9/9/9/7L1/8K b - 1");
    let m = q.mate_in_one().expect("pawn push mates");
    let mut after = q;
    after.make_move(m);
    assert!(is_mated(&after));
}

// ---------- SEE, checks, notation ----------

#[test]
fn see_counts_the_captured_piece_going_to_hand() {
    let undefended = pos("4k4/9/9/4p4/9/9/9/4R4/4K4 b - 1");
    let m = undefended.parse_move("5h5d").unwrap();
    assert!(undefended.see_ge(m, 0));
    // Pawn on the board (90) + pawn in hand (90).
    assert!(undefended.see_ge(m, 180));
    assert!(!undefended.see_ge(m, 181));
    assert_eq!(undefended.noisy_gain(m), 180);
    let defended = pos("4k4/9/4g4/4p4/9/9/9/4R4/4K4 b - 1");
    let m = defended.parse_move("5h5d").unwrap();
    assert!(!defended.see_ge(m, 0));
    assert!(defended.see_ge(m, -2000));
    // A drop on an attacked square loses the piece.
    let drop = pos("4k4/9/4g4/9/9/9/9/9/4K4 b S 1");
    assert!(!drop.see_ge(drop.parse_move("S*5d").unwrap(), 0));
    assert!(drop.see_ge(drop.parse_move("S*1e").unwrap(), 0));
}

#[test]
fn usi_and_xboard_examples() {
    let p = Position::startpos();
    let m = p.parse_move("7g7f").unwrap();
    assert_eq!(p.format_move_cecp(m), "c3c4");
    assert_eq!(p.parse_move_cecp("c3c4"), Ok(m));
    assert!(matches!(
        p.parse_move("7g7e"),
        Err(MoveParseError::Illegal(_))
    ));
    assert!(matches!(
        p.parse_move("7g7"),
        Err(MoveParseError::Malformed(_))
    ));
    assert!(matches!(
        p.parse_move("K*5e"),
        Err(MoveParseError::Malformed(_))
    ));
    assert!(matches!(
        p.parse_move_cecp("z9a1"),
        Err(MoveParseError::Malformed(_))
    ));
    let drops = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    let d = drops.parse_move("P*5e").unwrap();
    assert_eq!(drops.format_move_cecp(d), "P@e5");
    assert_eq!(drops.parse_move_cecp("P@e5"), Ok(d));
    let promo = pos("k8/9/9/4S4/9/9/9/9/4K4 b - 1");
    let yes = promo.parse_move("5d5c+").unwrap();
    let no = promo.parse_move("5d5c").unwrap();
    assert_eq!(promo.format_move_cecp(yes), "e6e7+");
    assert_eq!(promo.format_move_cecp(no), "e6e7=");
    assert_eq!(promo.parse_move_cecp("e6e7"), Ok(no));
    assert_eq!(promo.format_move(yes), "5d5c+");
}

// ---------- SFEN ----------

#[test]
fn sfen_round_trip_and_handicaps() {
    for sfen in [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    ] {
        let p = pos(sfen);
        assert_eq!(p.to_text(), sfen);
        assert!(!legal_texts(&p).is_empty());
    }
    // Move number optional, leading "sfen" accepted.
    assert_eq!(
        pos("sfen 4k4/9/9/9/9/9/9/9/4K4 b -").to_text(),
        "4k4/9/9/9/9/9/9/9/4K4 b - 1"
    );
    assert_eq!(pos("4k4/9/9/9/9/9/9/9/4K4 b - 62").game_ply(), 61);
    // The most moves of any position.
    assert_eq!(
        legal_texts(&pos("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1")).len(),
        593
    );
}

fn err(sfen: &str) -> SfenError {
    Position::from_text(sfen).expect_err(sfen)
}

const K: &str = "4k4/9/9/9/9/9/9/9/4K4";

#[test]
fn bad_sfen_empty_and_field_count() {
    assert_eq!(err(""), SfenError::Empty);
    assert_eq!(err("   "), SfenError::Empty);
    assert_eq!(err(K), SfenError::FieldCount(1));
    assert_eq!(err(&format!("{K} b")), SfenError::FieldCount(2));
    assert_eq!(err(&format!("{K} b - 1 extra")), SfenError::FieldCount(5));
}

#[test]
fn bad_sfen_rank_count() {
    assert_eq!(err("4k4/9/9/9/9/9/9/4K4 b - 1"), SfenError::RankCount(8));
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/4K4 b - 1"),
        SfenError::RankCount(10)
    );
}

#[test]
fn bad_sfen_rank_width() {
    assert_eq!(
        err("4k4/8/9/9/9/9/9/9/4K4 b - 1"),
        SfenError::RankWidth { rank: 2, width: 8 }
    );
    assert_eq!(
        err("4k4/9/91/9/9/9/9/9/4K4 b - 1"),
        SfenError::RankWidth { rank: 3, width: 10 }
    );
    assert!(matches!(
        err("4k5/9/9/9/9/9/9/9/4K4 b - 1"),
        SfenError::RankWidth { rank: 1, .. }
    ));
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/4K4P b - 1"),
        SfenError::RankWidth { rank: 9, .. }
    ));
    assert!(matches!(
        err("4k4/0/9/9/9/9/9/9/4K4 b - 1"),
        SfenError::RankWidth { rank: 2, .. }
    ));
}

#[test]
fn bad_sfen_unknown_piece_and_bad_promotion() {
    assert_eq!(
        err("4k4/9/4x4/9/9/9/9/9/4K4 b - 1"),
        SfenError::UnknownPiece('x')
    );
    assert_eq!(
        err("4k4/9/4*4/9/9/9/9/9/4K4 b - 1"),
        SfenError::UnknownPiece('*')
    );
    assert!(matches!(
        err("4k4/9/4+G4/9/9/9/9/9/4K4 b - 1"),
        SfenError::BadPromotion(_)
    ));
    assert!(matches!(
        err("4k4/9/4+k4/9/9/9/9/9/4K4 b - 1"),
        SfenError::BadPromotion(_)
    ));
    assert!(matches!(
        err("4k4/9/8+/9/9/9/9/9/4K4 b - 1"),
        SfenError::BadPromotion(_)
    ));
    assert!(matches!(
        err("4k4/9/4++P3/9/9/9/9/9/4K4 b - 1"),
        SfenError::BadPromotion(_)
    ));
}

#[test]
fn bad_sfen_side_to_move() {
    assert_eq!(
        err(&format!("{K} x - 1")),
        SfenError::SideToMove("x".into())
    );
    assert_eq!(
        err(&format!("{K} B - 1")),
        SfenError::SideToMove("B".into())
    );
}

#[test]
fn bad_sfen_hand() {
    for hand in ["K", "0P", "P0", "2", "X", "PP", "19p", "+P", "--"] {
        assert!(
            matches!(err(&format!("{K} b {hand} 1")), SfenError::Hand(_)),
            "{hand}"
        );
    }
}

/// Issue 59, item 2a: no move gives a triple check (rook, bishop and knight on the king); a
/// double check is fine.
#[test]
fn bad_sfen_triple_check() {
    assert_eq!(
        err("4k4/9/5N3/9/4R3B/9/9/9/4K4 w - 1"),
        SfenError::TooManyCheckers(3)
    );
    let double = pos("4k4/9/5N3/9/4R4/9/9/9/4K4 w - 1");
    assert_eq!(double.checkers().count(), 2);
}

#[test]
fn bad_sfen_too_many_pieces() {
    assert_eq!(
        err(&format!("{K} b 3R 1")),
        SfenError::TooManyPieces {
            kind: 'R',
            count: 3,
            max: 2
        }
    );
    // Promoted pieces count as their base kind, hands of both sides too.
    assert!(matches!(
        err("4k4/9/9/9/4+B4/9/9/9/4K4 b Bb 1"),
        SfenError::TooManyPieces {
            kind: 'B',
            count: 3,
            ..
        }
    ));
    assert!(matches!(
        err(&format!("{K} b 10P9p 1")),
        SfenError::TooManyPieces { kind: 'P', .. }
    ));
    assert!(matches!(
        err("4k4/9/9/9/GGGGG4/9/9/9/4K4 b - 1"),
        SfenError::TooManyPieces {
            kind: 'G',
            count: 5,
            ..
        }
    ));
}

#[test]
fn bad_sfen_missing_or_extra_king() {
    assert_eq!(
        err("9/9/9/9/9/9/9/9/4K4 b - 1"),
        SfenError::MissingKing(Side::Second)
    );
    // Only the side to move (a tsume problem's attacker) may lack its king.
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9 w - 1"),
        SfenError::MissingKing(Side::First)
    );
    assert!(Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b - 1").is_ok());
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
        SfenError::ExtraKing(Side::First)
    );
    assert_eq!(
        err("3kk4/9/9/9/9/9/9/9/4K4 b - 1"),
        SfenError::ExtraKing(Side::Second)
    );
}

#[test]
fn bad_sfen_nifu_on_the_board() {
    assert_eq!(
        err("4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1"),
        SfenError::Nifu {
            side: Side::First,
            file: 5
        }
    );
    assert_eq!(
        err("4k4/p8/p8/9/9/9/9/9/4K4 b - 1"),
        SfenError::Nifu {
            side: Side::Second,
            file: 9
        }
    );
    // A tokin and a pawn, or pawns of both sides, share a file legally.
    pos("4k4/9/9/9/4+P4/9/4P4/9/4K4 b - 1");
    pos("4k4/9/4p4/9/9/9/4P4/9/4K4 b - 1");
}

#[test]
fn bad_sfen_dead_pieces() {
    for sfen in [
        "P3k4/9/9/9/9/9/9/9/4K4 b - 1",
        "L3k4/9/9/9/9/9/9/9/4K4 b - 1",
        "N3k4/9/9/9/9/9/9/9/4K4 b - 1",
        "4k4/N8/9/9/9/9/9/9/4K4 b - 1",
        "4k4/9/9/9/9/9/9/9/p3K4 b - 1",
        "4k4/9/9/9/9/9/9/9/l3K4 b - 1",
        "4k4/9/9/9/9/9/9/n8/4K4 b - 1",
    ] {
        assert!(matches!(err(sfen), SfenError::DeadPiece { .. }), "{sfen}");
    }
    // Promoted pieces and pieces that can still move are fine there.
    pos("+P3k4/+N8/N8/9/9/9/9/9/4K4 b - 1");
}

#[test]
fn bad_sfen_side_not_to_move_in_check() {
    // Black's rook attacks the white king, but it is Black's move.
    assert_eq!(
        err("4k4/9/9/9/4R4/9/9/9/4K4 b - 1"),
        SfenError::OpponentInCheck
    );
    // With White to move the same position is a legal check.
    assert!(pos("4k4/9/9/9/4R4/9/9/9/4K4 w - 1").in_check());
}

#[test]
fn bad_sfen_move_number() {
    assert!(matches!(
        err(&format!("{K} b - x")),
        SfenError::MoveNumber(_)
    ));
    assert!(matches!(
        err(&format!("{K} b - -3")),
        SfenError::MoveNumber(_)
    ));
    assert!(matches!(
        err(&format!("{K} b - 99999999999")),
        SfenError::MoveNumber(_)
    ));
}

/// Issue 20, item 4: a tsume problem may leave out the attacker's king. That side then has no
/// king to protect (never in check, nothing pinned, no king moves), the defender can never give
/// check, and move generation agrees with `is_legal` over every 16-bit pattern, for both sides
/// to move.
#[test]
fn the_attacker_may_have_no_king() {
    use sente::game::GameMove;
    let root = Position::from_sfen("7k1/9/6G2/9/9/9/9/9/9 b SR 1").unwrap();
    assert!(!root.has_king(Side::First) && root.has_king(Side::Second));
    assert!(root.is_consistent());
    // A kingless side's rook on the king's file pins nothing of its own: no king to expose.
    let pinned_looking = Position::from_sfen("4k4/9/4r4/9/4G4/9/9/9/9 b - 1").unwrap();
    let mut positions = vec![root, pinned_looking];
    for text in ["S*2b", "R*2c", "3c2b"] {
        let mut child = root;
        child.make_move(root.parse_move(text).unwrap());
        positions.push(child);
    }
    for pos in positions {
        assert!(pos.is_consistent(), "{}", pos.to_text());
        let mut moves = ShogiMoves::default();
        pos.generate_legal(&mut moves);
        let by_pattern = (0..=u16::MAX)
            .filter(|&bits| pos.is_legal_move(sente::shogi::Move::from_bits(bits)))
            .count();
        assert_eq!(moves.len(), by_pattern, "{}", pos.to_text());
        for &m in moves.as_slice() {
            let mut child = pos;
            child.make_move(m);
            assert!(
                child.is_consistent(),
                "{} {}",
                pos.to_text(),
                pos.format_move(m)
            );
            if !pos.has_king(pos.side_to_move().flip()) {
                assert!(!pos.gives_check(m), "{}", pos.format_move(m));
            }
        }
    }
    // The gold may leave the king's file: the kingless side has nothing pinned.
    let pos = Position::from_sfen("4k4/9/4r4/9/4G4/9/9/9/9 b - 1").unwrap();
    assert!(pos.is_legal_move(pos.parse_move("5e4e").unwrap()));
    assert!(!pos.in_check());
}

/// xboard's `white` / `black`: the same board, hands, move number and rules with the other side
/// to move, unless that would leave the side not to move in check.
#[test]
fn side_switch_keeps_board_hands_and_rules() {
    let mut white = pos("lnsgkgsnl/1r5b1/pppppppp1/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w p 2");
    white.set_rules(ShogiRules {
        entering_king: EnteringKingRule::Points24,
        max_plies: 300,
    });
    let black = white.with_side_to_move(Side::First).unwrap();
    assert_eq!(
        black.to_text(),
        "lnsgkgsnl/1r5b1/pppppppp1/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b p 2"
    );
    assert_eq!(black.rules(), white.rules());
    assert_eq!(black.with_side_to_move(Side::Second).unwrap(), white);
    // White's king on 5a is in check from the rook on 5b: Black cannot be to move.
    let checked = pos("4k4/4R4/9/9/9/9/9/9/4K4 w - 1");
    assert!(checked.with_side_to_move(Side::First).is_none());
}
