//! Shared helpers of the NNUE tests: one random net per game (built once), start positions
//! that reach every kind of move, and the colour-flip / mirror transforms of position texts.
#![allow(dead_code)]

use sente::game::{Game, Side};
use sente::movelist::MoveList;
use sente::nnue::arch::{Architecture, CHESS, SHOGI, SUPPORTED_L1};
use sente::nnue::evaluator::accumulator_reference;
use sente::nnue::random_net::random_network;
use sente::nnue::{evaluate_from_scratch, Network, NnueEval, NnueGame, SimdLevel};
use std::sync::{Arc, Mutex, OnceLock};

/// The random chess net of the game's default width (seed 1).
pub fn chess_net() -> Arc<Network> {
    chess_net_of_width(CHESS.l1)
}

/// The random shogi net of the game's default width (seed 2).
pub fn shogi_net() -> Arc<Network> {
    shogi_net_of_width(SHOGI.l1)
}

/// A random net of `G` at hidden width `l1` (seed 1 for chess, 2 for shogi), built once per
/// game and width.
pub fn net_of_width<G: NnueGame>(l1: usize) -> Arc<Network> {
    net_of_variant::<G>(l1, G::ARCH.king_buckets)
}

/// A random net of `G` at hidden width `l1` with `king_buckets` king buckets (seed 1 for chess, 2
/// for shogi), built once per game, width and bucket count.
pub fn net_of_variant<G: NnueGame>(l1: usize, king_buckets: usize) -> Arc<Network> {
    type Cache = Mutex<Vec<(Architecture, Arc<Network>)>>;
    static NETS: OnceLock<Cache> = OnceLock::new();
    let arch = G::ARCH.with_l1(l1).with_king_buckets(king_buckets);
    let seed = if arch.game_id == CHESS.game_id { 1 } else { 2 };
    let mut nets = NETS.get_or_init(Cache::default).lock().unwrap();
    if let Some((_, net)) = nets.iter().find(|(made, _)| *made == arch) {
        return Arc::clone(net);
    }
    let net = Arc::new(random_network(&arch, seed).expect("random net"));
    nets.push((arch, Arc::clone(&net)));
    net
}

pub fn chess_net_of_width(l1: usize) -> Arc<Network> {
    net_of_width::<sente::chess::Position>(l1)
}

pub fn shogi_net_of_width(l1: usize) -> Arc<Network> {
    net_of_width::<sente::shogi::Position>(l1)
}

/// The hidden widths the width-generic NNUE tests run at: every supported one (the default
/// first), so each width the engine accepts is proven exact.
pub fn test_widths() -> &'static [usize] {
    SUPPORTED_L1
}

/// Chess starts: the initial position, kiwipete (castling both ways, en passant, promotions
/// soon), a promotion race, an en-passant position, a Chess960 start and a bare-kings ending
/// where kings wander across buckets and the mirror line.
pub const CHESS_STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "8/2k5/3p4/p2P1p2/P2P1P2/8/8/4K3 w - - 0 1",
];

/// Shogi starts: the initial position, a middlegame with full hands, positions with many pieces
/// in hand (drops everywhere) and kings outside their camps.
pub const SHOGI_STARTS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnl 1",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn2p 124",
];

/// Checks the evaluator's current accumulators against the plain reference sum and its
/// evaluation against the scalar from-scratch evaluation.
pub fn check_against_reference<G: NnueGame>(eval: &mut NnueEval<G>, net: &Network, pos: &G) {
    let (first, second) = eval.accumulators(pos);
    assert!(
        first == accumulator_reference(net, pos, Side::First),
        "first-player accumulator differs at {}",
        pos.to_text()
    );
    assert!(
        second == accumulator_reference(net, pos, Side::Second),
        "second-player accumulator differs at {}",
        pos.to_text()
    );
    use sente::eval::Evaluator;
    assert_eq!(
        eval.evaluate(pos),
        evaluate_from_scratch(net, SimdLevel::Scalar, pos),
        "evaluation differs at {}",
        pos.to_text()
    );
}

pub fn legal<G: Game>(pos: &G) -> Vec<G::Move> {
    let mut list = G::Moves::default();
    pos.generate_legal(&mut list);
    list.as_slice().to_vec()
}

/// The chess position with colours swapped: ranks reversed, case swapped, the other side to
/// move, castling rights and the en-passant square flipped.
pub fn flip_chess_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap_case = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = fields[0].split('/').rev().map(swap_case).collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling = if fields[2] == "-" {
        "-".to_string()
    } else {
        let swapped = swap_case(fields[2]);
        let (mut upper, mut lower): (Vec<char>, Vec<char>) =
            swapped.chars().partition(|c| c.is_ascii_uppercase());
        upper.append(&mut lower);
        upper.into_iter().collect()
    };
    let ep = if fields[3] == "-" {
        "-".to_string()
    } else {
        let b = fields[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    format!(
        "{} {} {} {} {} {}",
        board.join("/"),
        side,
        castling,
        ep,
        fields.get(4).unwrap_or(&"0"),
        fields.get(5).unwrap_or(&"1")
    )
}

/// The chess position mirrored left-right (files a ↔ h); castling rights dropped.
pub fn mirror_chess_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let board: Vec<String> = fields[0]
        .split('/')
        .map(|rank| {
            let mut squares = String::new();
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(n) => squares.extend(std::iter::repeat_n('1', n as usize)),
                    None => squares.push(c),
                }
            }
            let mirrored: String = squares.chars().rev().collect();
            compress_empty(&mirrored)
        })
        .collect();
    let ep = if fields[3] == "-" {
        "-".to_string()
    } else {
        let b = fields[3].as_bytes();
        format!("{}{}", (b'a' + b'h' - b[0]) as char, b[1] as char)
    };
    format!("{} {} - {} 0 1", board.join("/"), fields[1], ep)
}

fn compress_empty(squares: &str) -> String {
    let mut out = String::new();
    let mut run = 0;
    for c in squares.chars() {
        if c == '1' {
            run += 1;
        } else {
            if run > 0 {
                out.push_str(&run.to_string());
                run = 0;
            }
            out.push(c);
        }
    }
    if run > 0 {
        out.push_str(&run.to_string());
    }
    out
}

/// A rank of an SFEN board read backwards, each piece letter changed by `piece`: its tokens (a
/// digit run, or an optional '+' and a letter) in reverse order.
fn reversed_shogi_row(row: &str, piece: impl Fn(char) -> char) -> String {
    let mut tokens: Vec<String> = Vec::new();
    let mut pending_plus = false;
    for c in row.chars() {
        if c == '+' {
            pending_plus = true;
        } else if c.is_ascii_digit() {
            tokens.push(c.to_string());
        } else {
            let mut t = String::new();
            if pending_plus {
                t.push('+');
            }
            t.push(piece(c));
            tokens.push(t);
            pending_plus = false;
        }
    }
    tokens.reverse();
    tokens.concat()
}

/// The shogi position with colours swapped: the board rotated 180°, case swapped (promotion
/// marks kept), hands exchanged and the other side to move.
pub fn flip_shogi_sfen(sfen: &str) -> String {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let rows: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|row| reversed_shogi_row(row, swap))
        .collect();
    let side = if fields[1] == "b" { "w" } else { "b" };
    let hands = if fields[2] == "-" {
        "-".to_string()
    } else {
        fields[2].chars().map(swap).collect()
    };
    format!(
        "{} {} {} {}",
        rows.join("/"),
        side,
        hands,
        fields.get(3).unwrap_or(&"1")
    )
}

/// The left-right mirror image of a shogi SFEN (each rank read backwards; hands and side kept).
pub fn mirror_shogi_sfen(sfen: &str) -> String {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let rows: Vec<String> = fields[0]
        .split('/')
        .map(|row| reversed_shogi_row(row, |c| c))
        .collect();
    let mut out = vec![rows.join("/")];
    out.extend(fields[1..].iter().map(|f| f.to_string()));
    out.join(" ")
}
