//! Tic-tac-toe as a `Game`: small enough to solve exactly, so search results can be compared
//! with perfect play (including mate distances). The side that completes a line wins; the
//! opponent, to move, has lost ("checkmate"). A full board without a line is a draw.

use sente::eval::Evaluator;
use sente::game::{Game, GameMove, HistoryEntry, MoveParseError, Outcome, Side};
use sente::movelist::{ArrayMoveList, MoveList};
use std::fmt;

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A cell to mark, 1-based so that 0 is `NONE`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cell(pub u8);

impl GameMove for Cell {
    const NONE: Self = Cell(0);
    fn to_bits(self) -> u16 {
        self.0 as u16
    }
    fn from_bits(bits: u16) -> Self {
        Cell(bits as u8)
    }
}

#[derive(Debug)]
pub struct BadText(pub String);

impl fmt::Display for BadText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad tic-tac-toe text '{}'", self.0)
    }
}

impl std::error::Error for BadText {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    /// 0 empty, 1 first player (X), 2 second (O).
    cells: [u8; 9],
    side: Side,
    ply: u32,
}

fn zobrist(cell: usize, mark: u8) -> u64 {
    let mut x = (cell as u64 * 3 + mark as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 29;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 32)
}

impl TicTacToe {
    /// Whether `mark` owns a full line.
    fn has_line(&self, mark: u8) -> bool {
        LINES
            .iter()
            .any(|l| l.iter().all(|&c| self.cells[c] == mark))
    }

    fn last_mover_won(&self) -> bool {
        self.has_line(match self.side {
            Side::First => 2,
            Side::Second => 1,
        })
    }

    fn mark(&self) -> u8 {
        self.side.index() as u8 + 1
    }
}

impl Game for TicTacToe {
    type Move = Cell;
    type Moves = ArrayMoveList<Cell, 9>;
    type ParseError = BadText;
    type Delta = ();
    type CheckInfo = ();
    type Threats = ();

    const KIND: Option<sente::game::GameKind> = None;
    const NAME: &'static str = "tictactoe";
    const SQUARES: usize = 9;
    const FROM_SLOTS: usize = 1;
    const PIECE_SLOTS: usize = 2;

    fn startpos() -> Self {
        Self {
            cells: [0; 9],
            side: Side::First,
            ply: 0,
        }
    }

    /// Nine characters `x`, `o` or `.`, row by row; the side to move follows from the counts.
    fn from_text(text: &str) -> Result<Self, BadText> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 9 {
            return Err(BadText(text.to_string()));
        }
        let mut pos = Self::startpos();
        for (i, c) in chars.iter().enumerate() {
            pos.cells[i] = match c {
                'x' => 1,
                'o' => 2,
                '.' => 0,
                _ => return Err(BadText(text.to_string())),
            };
        }
        let xs = pos.cells.iter().filter(|&&c| c == 1).count();
        let os = pos.cells.iter().filter(|&&c| c == 2).count();
        pos.side = match xs as i32 - os as i32 {
            0 => Side::First,
            1 => Side::Second,
            _ => return Err(BadText(text.to_string())),
        };
        pos.ply = (xs + os) as u32;
        Ok(pos)
    }

    fn to_text(&self) -> String {
        self.cells
            .iter()
            .map(|c| match c {
                1 => 'x',
                2 => 'o',
                _ => '.',
            })
            .collect()
    }

    fn side_to_move(&self) -> Side {
        self.side
    }
    fn hash(&self) -> u64 {
        self.hash_from_scratch()
    }
    fn hash_after(&self, m: Cell) -> u64 {
        let mut child = *self;
        child.make_move(m);
        child.hash()
    }
    fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.side == Side::Second { 0x5555 } else { 0 };
        for (i, &c) in self.cells.iter().enumerate() {
            if c != 0 {
                h ^= zobrist(i, c);
            }
        }
        h
    }
    fn in_check(&self) -> bool {
        false
    }
    fn game_ply(&self) -> u32 {
        self.ply
    }

    fn generate_legal(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.last_mover_won() {
            return;
        }
        for i in 0..9 {
            if self.cells[i] == 0 {
                moves.push(Cell(i as u8 + 1));
            }
        }
    }
    fn generate_noisy(&self, moves: &mut Self::Moves) {
        moves.clear();
    }
    fn is_legal_move(&self, m: Cell) -> bool {
        (1..=9).contains(&m.0) && self.cells[m.0 as usize - 1] == 0 && !self.last_mover_won()
    }
    fn make_move(&mut self, m: Cell) {
        self.cells[m.0 as usize - 1] = self.mark();
        self.side = self.side.flip();
        self.ply += 1;
    }
    fn make_null_move(&mut self) {
        self.side = self.side.flip();
    }
    fn delta(&self) -> &() {
        &()
    }
    fn is_quiet(&self, _: Cell) -> bool {
        true
    }
    fn noisy_gain(&self, _: Cell) -> i32 {
        0
    }
    fn see_ge(&self, _: Cell, threshold: i32) -> bool {
        threshold <= 0
    }
    fn gives_check(&self, _: Cell) -> bool {
        false
    }
    fn check_info(&self) {}
    fn move_from_slot(_: Cell) -> usize {
        0
    }
    fn move_to_square(m: Cell) -> usize {
        m.0 as usize - 1
    }
    fn moved_piece_slot(&self, _: Cell) -> usize {
        self.side.index()
    }
    fn correction_key(&self) -> u64 {
        0
    }

    fn piece_keys(&self) -> [u64; 2] {
        [0; 2]
    }

    fn null_move_allowed(&self) -> bool {
        false
    }
    fn no_moves_outcome(&self) -> Outcome {
        if self.last_mover_won() {
            Outcome::CHECKMATED
        } else {
            Outcome::STALEMATE
        }
    }
    fn rule_outcome(&self, _: &[HistoryEntry], _: bool) -> Option<Outcome> {
        self.last_mover_won().then_some(Outcome::CHECKMATED)
    }
    fn parse_move(&self, text: &str) -> Result<Cell, MoveParseError> {
        let n: u8 = text
            .parse()
            .map_err(|_| MoveParseError::Malformed(text.to_string()))?;
        let m = Cell(n);
        if self.is_legal_move(m) {
            Ok(m)
        } else {
            Err(MoveParseError::Illegal(text.to_string()))
        }
    }
    fn format_move(&self, m: Cell) -> String {
        m.0.to_string()
    }
    fn parse_move_cecp(&self, text: &str) -> Result<Cell, MoveParseError> {
        self.parse_move(text)
    }
    fn format_move_cecp(&self, m: Cell) -> String {
        self.format_move(m)
    }
}

/// Open lines for the side to move minus open lines for the opponent, ×10, tracking a depth
/// counter through push/pop so the tests can check that the search keeps them balanced.
#[derive(Clone, Debug, Default)]
pub struct LinesEval {
    pub depth: usize,
}

impl Evaluator<TicTacToe> for LinesEval {
    fn reset(&mut self, _: &TicTacToe) {
        self.depth = 0;
    }
    fn push(&mut self, _: &TicTacToe) {
        self.depth += 1;
    }
    fn pop(&mut self) {
        assert!(self.depth > 0, "pop without push");
        self.depth -= 1;
    }
    fn evaluate(&mut self, pos: &TicTacToe) -> i32 {
        let us = pos.mark();
        let them = 3 - us;
        let open = |mark: u8| {
            LINES
                .iter()
                .filter(|l| l.iter().all(|&c| pos.cells[c] != 3 - mark))
                .count() as i32
        };
        (open(us) - open(them)) * 10
    }
}

/// Perfect-play value in plies: `Some(n)` win in n plies, `Some(-n)` loss in n, `None` draw.
pub fn solve(pos: &TicTacToe) -> Option<i32> {
    let mut moves = ArrayMoveList::<Cell, 9>::default();
    pos.generate_legal(&mut moves);
    if moves.is_empty() {
        return if pos.last_mover_won() { Some(0) } else { None };
    }
    // Rank: win sooner > longer wins > draw > longer losses > sooner losses.
    let rank = |v: Option<i32>| match v {
        Some(n) if n > 0 => 1000 - n,
        Some(n) => -1000 - n,
        None => 0,
    };
    let mut best: Option<Option<i32>> = None;
    for &m in moves.as_slice() {
        let mut child = *pos;
        child.make_move(m);
        let v = match solve(&child) {
            Some(n) if n > 0 => Some(-(n + 1)),
            Some(n) => Some(-n + 1),
            None => None,
        };
        if best.is_none_or(|b| rank(v) > rank(b)) {
            best = Some(v);
        }
    }
    best.unwrap_or(None)
}

/// Every position reachable from the start, once each.
pub fn all_positions() -> Vec<TicTacToe> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![TicTacToe::startpos()];
    while let Some(pos) = stack.pop() {
        if !seen.insert(pos.cells) {
            continue;
        }
        out.push(pos);
        let mut moves = ArrayMoveList::<Cell, 9>::default();
        pos.generate_legal(&mut moves);
        for &m in moves.as_slice() {
            let mut child = pos;
            child.make_move(m);
            stack.push(child);
        }
    }
    out
}
