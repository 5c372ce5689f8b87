//! What a search tells the protocol layer: scores, progress lines and the final result.

/// A search score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many plies: positive when the side to move mates, negative when it is mated
    /// (`Mate(0)` is impossible at a root with moves; a mated root has no search).
    MatePlies(i32),
}

impl Score {
    /// Full moves to mate for UCI (`score mate N`): plies rounded up, sign kept.
    pub fn mate_moves(plies: i32) -> i32 {
        if plies > 0 {
            (plies + 1) / 2
        } else {
            -((-plies + 1) / 2)
        }
    }
}

/// Whether a reported score is exact or a bound from a failed aspiration search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// Win/draw/loss estimate in permille, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// One principal variation at one depth.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo<M> {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of this line among the MultiPV lines.
    pub multipv: usize,
    pub score: Score,
    pub bound: ScoreBound,
    pub wdl: Option<Wdl>,
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
    /// Transposition table fill in permille.
    pub hashfull: u32,
    /// Endgame-table probes that hit so far (`None` when no tables are loaded).
    pub tb_hits: Option<u64>,
    /// Legal line starting with the best move; never runs past the end of the game.
    pub pv: Vec<M>,
}

/// Progress messages a search sends while it runs.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchEvent<M> {
    /// A finished (or bound-failed) iteration for one PV line.
    Pv(SearchInfo<M>),
    /// The root move being searched (sent only after the first second).
    CurrentMove {
        depth: u32,
        mv: M,
        /// 1-based.
        number: usize,
    },
}

/// The answer of a finished search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// `None` only when the root has no legal move.
    pub best: Option<M>,
    /// The expected reply, for pondering.
    pub ponder: Option<M>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    /// Shogi: the side to move declares an entering-king win instead of moving (USI
    /// `bestmove win`); `best` then still holds a legal move for protocols without declarations.
    pub declare_win: bool,
}
