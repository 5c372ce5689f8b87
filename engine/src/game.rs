//! The `Game` trait: everything the game-generic search, protocols, datagen and tuner may ask of a
//! game's rules. Chess (`crate::chess`) and shogi (`crate::shogi`) each implement it once.
//!
//! Positions are copy-made: `make_move` mutates `self`, and a caller that wants the parent keeps a
//! copy (positions are plain fixed-size data, cheap to copy). Each position remembers what its last
//! move changed on the board (the game's own `Delta` type) so an incremental evaluator can update
//! from the parent without recomputing.

pub use crate::game_kind::GameKind;
use crate::movelist::MoveList;
use std::fmt::{Debug, Display};
use std::hash::Hash;

/// Which player: the one who moves first in the initial position (chess White, shogi Black/sente)
/// or the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    First = 0,
    Second = 1,
}

impl Side {
    /// 0 for `First`, 1 for `Second`: an index into per-side tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opponent.
    #[inline]
    pub const fn flip(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// A move small enough to copy freely and to store in 16 bits (transposition table, data files).
pub trait GameMove: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static {
    /// The "no move" value; `Default::default()` must equal it.
    const NONE: Self;
    /// A 16-bit encoding; `from_bits(m.to_bits()) == m` for every move.
    fn to_bits(self) -> u16;
    /// Inverse of `to_bits`. Arbitrary bits may decode to a move that is not legal anywhere:
    /// callers check with `Game::is_legal_move` before use.
    fn from_bits(bits: u16) -> Self;
    /// Whether the move promotes the piece it moves (false in games without promotion).
    #[inline]
    fn is_promotion(self) -> bool {
        false
    }
    /// `true` for everything but `NONE`.
    #[inline]
    fn is_some(self) -> bool {
        self != Self::NONE
    }
}

/// How a finished game ended, seen from the side to move in the final position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The side to move has won (e.g. shogi: the opponent's perpetual check, entering-king win).
    Win,
    /// The side to move has lost (checkmated; shogi: no legal move, sennichite by its own checks
    /// is not this: that is the checker losing).
    Loss,
    Draw,
}

/// Why a game ended by rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    Checkmate,
    Stalemate,
    FiftyMoveRule,
    Repetition,
    InsufficientMaterial,
    /// Shogi: fourfold repetition where one side gave check with every move of the cycle.
    PerpetualCheck,
    /// Shogi: entering-king declaration.
    EnteringKing,
    /// A configured game-length limit (shogi `MaxMovesToDraw`).
    MaxPlies,
}

/// A game decided by rule, from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub result: GameResult,
    pub reason: EndReason,
}

impl Outcome {
    /// The side to move is checkmated.
    pub const CHECKMATED: Outcome = Outcome {
        result: GameResult::Loss,
        reason: EndReason::Checkmate,
    };
    /// The side to move has no move and is not in check, a draw (chess; in shogi it loses).
    pub const STALEMATE: Outcome = Outcome {
        result: GameResult::Draw,
        reason: EndReason::Stalemate,
    };
}

/// One earlier position of the game, as repetition rules need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct HistoryEntry {
    /// `Game::hash` of that position (board, hands, side to move; chess: castling and en passant).
    pub hash: u64,
    /// Whether the side to move was in check there, i.e. the move that led to it gave check.
    pub in_check: bool,
}

/// Error for a move text that does not name a legal move in the current position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    #[error("malformed move '{0}'")]
    Malformed(String),
    #[error("illegal move '{0}'")]
    Illegal(String),
}

/// A game's rules as the engine uses them. Implemented by each game's position type.
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// The game's move.
    type Move: GameMove;
    /// A fixed-capacity list large enough for every legal position of the game.
    type Moves: MoveList<Self::Move>;
    /// Error for a malformed or impossible position text (FEN / SFEN); names the problem.
    type ParseError: std::error::Error + Display + Send + Sync + 'static;
    /// What the last move changed on the board (pieces removed from / placed on squares, hand
    /// counts): what an incremental evaluator needs to update from the parent position.
    type Delta: Copy + Debug + Default + Send + Sync;
    /// What a position precomputes so that many "does this move check?" questions are cheap
    /// (check squares per piece kind, discovered-check candidates).
    type CheckInfo: Copy;
    /// What a position precomputes to order quiet moves by the threats they escape or walk
    /// into (chess: the squares attacked by cheaper pieces); `()` in a game without them.
    type Threats: Copy + Default;

    /// Which registered game this is (`GameKind`: name and stored id); `None` only for test games
    /// outside the registry.
    const KIND: Option<GameKind>;
    /// Short lowercase name: `GameKind::name` of `KIND`.
    const NAME: &'static str;
    /// Number of board squares (64 / 81).
    const SQUARES: usize;
    /// Upper bound (exclusive) of `move_from_slot` (chess 64; shogi 81 squares + 7 drop kinds).
    const FROM_SLOTS: usize;
    /// Upper bound (exclusive) of `moved_piece_slot` (both colours' piece kinds).
    const PIECE_SLOTS: usize;
    /// Upper bound (exclusive) of `threat_bucket`: the butterfly history keeps one table per
    /// bucket (1: a game without threat buckets).
    const THREAT_BUCKETS: usize = 1;

    /// The standard initial position.
    fn startpos() -> Self;
    /// Parses FEN (chess: also X-FEN / Shredder-FEN) or SFEN.
    fn from_text(text: &str) -> Result<Self, Self::ParseError>;
    /// Writes FEN / SFEN; `from_text(to_text())` gives back an equal position.
    fn to_text(&self) -> String;

    fn side_to_move(&self) -> Side;
    /// Zobrist hash, kept incrementally by `make_move`.
    fn hash(&self) -> u64;
    /// Recomputes the hash from scratch (tests compare it with `hash`).
    fn hash_from_scratch(&self) -> u64;
    /// The hash after the legal move `m`, without playing it, so the search can prefetch the
    /// child's table entry early. Shogi: always exact. Chess: exact except that castling-right
    /// and new en-passant changes are left out (the prefetch then misses; nothing else uses it).
    fn hash_after(&self, m: Self::Move) -> u64;
    fn in_check(&self) -> bool;
    /// Plies played since the position given to `from_text` / `startpos` started the game
    /// (chess: derived from the full-move number; shogi: from the SFEN move number).
    fn game_ply(&self) -> u32;
    /// Plies since the last capture or pawn move (chess's fifty-move clock, which the search
    /// may scale its evaluation by); games without such a rule keep the default 0.
    fn fifty_move_clock(&self) -> u32 {
        0
    }
    /// The material on the board, both sides together, in pawns of 100 (chess: knight and
    /// bishop 300, rook 500, queen 900; kings and the pawns' promotions as they stand), which the
    /// search may scale its evaluation by (`SearchFeatures::material_scaling`); `None` for a game
    /// whose evaluation it does not scale (shogi: material never leaves the game).
    fn board_material(&self) -> Option<i32> {
        None
    }

    /// The number of pieces on the board (kings included) when the position is one endgame
    /// tables can hold (chess: no castling rights), for the search's tablebase probes
    /// (`search/tablebase.rs`); `None`, the default, for a game without tables.
    fn tablebase_pieces(&self) -> Option<u32> {
        None
    }

    /// Opens the endgame tables under `paths` (directories, separated as the game's tables
    /// are usually given: chess `SyzygyPath`, ':' on Unix, ';' on Windows). The default: the
    /// game has none.
    fn open_tablebases(paths: &str) -> Result<crate::search::tablebase::SharedTables<Self>, String>
    where
        Self: Sized,
    {
        let _ = paths;
        Err(format!("{} has no endgame tablebases", Self::NAME))
    }

    /// All legal moves, appended to `moves` (which is cleared first).
    fn generate_legal(&self, moves: &mut Self::Moves);
    /// Legal captures and promotions (chess: queen promotions at least; shogi: captures and
    /// promotions of rook/bishop/pawn); for quiescence when not in check.
    fn generate_noisy(&self, moves: &mut Self::Moves);
    /// Whether `m` is legal here (used on moves from the transposition table, killers, ...).
    fn is_legal_move(&self, m: Self::Move) -> bool;

    /// Plays `m`, which must be legal. Records the change in `delta()`.
    fn make_move(&mut self, m: Self::Move);
    /// Passes the move (null move); only called when not in check.
    fn make_null_move(&mut self);
    /// What the move that produced this position changed.
    fn delta(&self) -> &Self::Delta;

    /// Neither a capture nor a promotion (drops are quiet).
    fn is_quiet(&self, m: Self::Move) -> bool;
    /// Gain in centipawns of a capture/promotion for MVV ordering (captured value plus promotion
    /// gain); 0 for quiet moves.
    fn noisy_gain(&self, m: Self::Move) -> i32;
    /// Static exchange evaluation: is the material balance after the exchange on the move's
    /// destination square at least `threshold` (centipawns, game-specific piece values)?
    fn see_ge(&self, m: Self::Move, threshold: i32) -> bool;
    /// Whether the move gives check (for ordering, extensions and shogi mate detection).
    fn gives_check(&self, m: Self::Move) -> bool;
    /// The position's check info, for `gives_check_with`.
    fn check_info(&self) -> Self::CheckInfo;
    /// `gives_check` answered from `check_info()` (the same answer for every legal move).
    fn gives_check_with(&self, info: &Self::CheckInfo, m: Self::Move) -> bool {
        let _ = info;
        self.gives_check(m)
    }
    /// The opponent's threats, for `threat_order` (once per node that scores its quiets).
    fn threats(&self) -> Self::Threats {
        Self::Threats::default()
    }
    /// The ordering adjustment of the quiet move `m` by `threats` (added to its history score
    /// under `THREAT_ORDERING`): positive for a piece escaping an attack,
    /// negative for one walking into it; 0 in a game without threats.
    fn threat_order(&self, threats: &Self::Threats, m: Self::Move) -> i32 {
        let _ = (threats, m);
        0
    }
    /// Which butterfly-history table the quiet move `m` learns in and is scored by under
    /// `< THREAT_BUCKETS` (chess: whether its from and its to
    /// square are attacked by the opponent); 0 in a game without threat buckets.
    fn threat_bucket(&self, threats: &Self::Threats, m: Self::Move) -> usize {
        let _ = (threats, m);
        0
    }

    /// Index of where the move comes from, `< FROM_SLOTS` (drops get their own slots).
    fn move_from_slot(m: Self::Move) -> usize;
    /// Destination square index, `< SQUARES`.
    fn move_to_square(m: Self::Move) -> usize;
    /// Index of the coloured piece that moves (drops: the dropped piece), `< PIECE_SLOTS`.
    fn moved_piece_slot(&self, m: Self::Move) -> usize;

    /// Whether the search extends moves that give check by a ply. Shogi answers no: nearly
    /// every position offers checking drops, and the extension lost there
    /// (`docs/results.tsv`).
    const EXTEND_CHECKS: bool = true;

    /// Whether a null move is reasonable here (chess: the side to move has non-pawn material).
    fn null_move_allowed(&self) -> bool;

    /// A hash of the position's slow-changing structure (chess: both sides' pawns; shogi: the
    /// pawns on the board and both hands), the key of the search's correction history: static
    /// evaluations of positions that share it tend to err the same way.
    fn correction_key(&self) -> u64;

    /// Search techniques proven in some games only (`docs/results.tsv`); the rest of the search
    /// is the same in every game.
    ///
    /// Static evaluations are corrected by what searches found below positions with the same
    /// structure (`correction_key`), the same pieces (`piece_keys`) and the same last two moves
    /// (`correction::CorrectionHistory`). Chess.
    const CORRECTION_HISTORY: bool = false;
    /// Quiet moves are also ordered by `threat_order`: a piece leaving an attack by a cheaper
    /// piece first, one walking into it last. Chess.
    const THREAT_ORDERING: bool = false;
    /// A node entered by a search reduced three plies or more is searched a ply deeper when the
    /// reduced move held up (the static evaluation of the side that played it did not fall), and
    /// one reduced two or more a ply shallower otherwise when both sides' evaluations sum above
    /// a margin (hindsight depth adjustment). Chess. The default of the `hindsight_depth` search
    /// switch (`SearchFeatures`).
    const HINDSIGHT_DEPTH: bool = false;
    /// Late-move reductions are summed in fractions of a ply (the table's fraction, the
    /// history's share) and rounded down once, instead of each term rounded on its own. Chess.
    const FRACTIONAL_LMR: bool = false;
    /// The default of the `material_scaling` search switch (`SearchFeatures`). Chess.
    const MATERIAL_SCALING: bool = false;
    /// Quiescence in check searches every capture but only two quiet evasions once a line
    /// escapes mate (in shogi, drops between a ranging checker and the king multiply). Shogi.
    const QS_EVASION_PRUNING: bool = false;
    /// The search's rule checks scan the whole game history only when the position may occur
    /// before the root (`search::root_keys`): worth it where repetitions are searched back over
    /// the whole game (shogi has no irreversible moves), not where a counter of reversible
    /// plies bounds the scan (chess's halfmove clock). Shogi.
    const ROOT_KEY_FILTER: bool = false;
    /// The search parameters this game changes from `SearchParams::default()`, as
    /// `SearchParams::with_changes` takes them.
    const SEARCH_PARAMS: &'static str = "";
    /// For each side, a hash of its pieces on the board other than pawns (kind and square), the
    /// keys of the correction history's piece tables (`CORRECTION_HISTORY`).
    fn piece_keys(&self) -> [u64; 2];

    /// The outcome when the side to move has no legal move (chess: mate or stalemate; shogi:
    /// always a loss).
    fn no_moves_outcome(&self) -> Outcome;
    /// Outcomes by rule that don't need move generation: repetition, 50-move rule, insufficient
    /// material, max plies, entering king ... `history` lists earlier positions oldest first (the
    /// last entry is the parent of `self`). With `in_search`, a single earlier occurrence within
    /// the history counts as a repetition (the usual search shortcut); otherwise the game's strict
    /// rule applies (chess threefold, shogi fourfold with perpetual-check detection). The outcome
    /// may depend on `history` only back to the earliest entry with `self`'s hash: the search
    /// passes only its own plies when the position occurs nowhere before them (`RootKeys`).
    fn rule_outcome(&self, history: &[HistoryEntry], in_search: bool) -> Option<Outcome>;
    /// Shogi: whether the side to move may declare an entering-king win now (per the rule this
    /// position was configured with). Chess: always false.
    fn can_declare_win(&self) -> bool {
        false
    }
    /// A mating move if one is found cheaply (shogi's mate-in-1 check); `None` is always safe.
    fn mate_in_one(&self) -> Option<Self::Move> {
        self.mate_in_one_with(&mut None)
    }
    /// `mate_in_one`, sharing the position's check info with the caller: it is computed into
    /// `check_info` if the search needs it and it is not there yet.
    fn mate_in_one_with(&self, _check_info: &mut Option<Self::CheckInfo>) -> Option<Self::Move> {
        None
    }
    /// `mate_in_one_with` for a position in check whose legal moves (`evasions`) the caller
    /// has generated already.
    fn mate_in_one_among(
        &self,
        _evasions: &[Self::Move],
        _check_info: &mut Option<Self::CheckInfo>,
    ) -> Option<Self::Move> {
        None
    }

    /// Parses a move in the engine protocol's coordinate notation (UCI / USI) and checks legality.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveParseError>;
    /// Writes a move in UCI / USI notation (chess: king-takes-rook castling in Chess960 mode).
    fn format_move(&self, m: Self::Move) -> String;
    /// Parses a move as CECP (xboard) may send it: chess coordinates, castling as `O-O`, SAN;
    /// shogi xboard notation (`c3c4`, `P@e5`, `+` / `=` suffixes).
    fn parse_move_cecp(&self, text: &str) -> Result<Self::Move, MoveParseError>;
    /// Writes a move in CECP notation (chess: coordinate; shogi: xboard's shogi notation).
    fn format_move_cecp(&self, m: Self::Move) -> String;

    /// Counts leaf nodes of the legal move tree to `depth` (bulk-counted at the last ply).
    fn perft(&self, depth: u32) -> u64 {
        let mut moves = Self::Moves::default();
        self.generate_legal(&mut moves);
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        let mut total = 0;
        for &m in moves.as_slice() {
            let mut child = self.clone();
            child.make_move(m);
            total += child.perft(depth - 1);
        }
        total
    }
}

/// The rule every game's `Game::threat_order` applies once it knows whether a quiet move's
/// piece `leaves` and `enters` a square attacked by a cheaper piece: minus `value` for walking
/// into such an attack, plus `value` for escaping one, 0 otherwise.
pub fn threat_adjustment(leaves: bool, enters: bool, value: i32) -> i32 {
    match (leaves, enters) {
        (_, true) => -value,
        (true, false) => value,
        (false, false) => 0,
    }
}

/// Mixes two 64-bit words into a well-spread hash (splitmix64's finaliser).
#[inline]
pub fn mix_key(a: u64, b: u64) -> u64 {
    let mut x = a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
