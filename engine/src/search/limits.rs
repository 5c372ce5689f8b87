//! What a protocol asks of one search: limits, clocks and options that bound it.

/// Remaining clock of both sides, as the protocols send it. Indexed by `Side::index()`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Remaining main time in ms; `None` when the GUI sent none for that side.
    pub time_ms: [Option<u64>; 2],
    /// Increment per move in ms (CECP/UCI inc, USI binc/winc).
    pub inc_ms: [u64; 2],
    /// Moves to the next time control; `None` for sudden death / increment.
    pub moves_to_go: Option<u32>,
    /// Shogi byoyomi: per-move allowance once the main time is spent (USI sends one value for both).
    pub byoyomi_ms: [u64; 2],
}

/// Everything that bounds one search. `Limits::default()` is an infinite search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits<M> {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Exact time for this move in ms (UCI `movetime`, CECP `st`).
    pub move_time_ms: Option<u64>,
    /// Search for a mate in this many moves (UCI `go mate N`).
    pub mate_in: Option<u32>,
    /// `go infinite` / analyze: run until stopped.
    pub infinite: bool,
    pub clock: Option<Clock>,
    /// Restrict the root to these moves (UCI/USI `searchmoves`, CECP `exclude`/`include`); empty =
    /// all legal moves.
    pub search_moves: Vec<M>,
}

impl<M> Default for Limits<M> {
    fn default() -> Self {
        Self {
            depth: None,
            nodes: None,
            move_time_ms: None,
            mate_in: None,
            infinite: false,
            clock: None,
            search_moves: Vec::new(),
        }
    }
}

/// Engine settings that shape a search (set through protocol options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Number of principal variations to report (MultiPV), at least 1.
    pub multi_pv: usize,
    /// Safety margin subtracted from every time budget (Stockfish's "Move Overhead"), in ms.
    pub move_overhead_ms: u64,
    /// Report win/draw/loss estimates with each score.
    pub show_wdl: bool,
    /// The strength limiter's skill (chess `UCI_LimitStrength` + `UCI_Elo`, shogi `SkillLevel`);
    /// `None`: full strength.
    pub skill: Option<super::strength::Skill>,
    /// A node clock (Stockfish's "nodestime"): when above zero, every millisecond of the time
    /// budget is this many searched nodes instead of wall time, so time management plays out
    /// the same on a loaded machine as on a quiet one. A runner that charges clocks in nodes
    /// the same way makes whole games on a clock reproducible.
    pub nodes_per_ms: u64,
    /// Endgame-table probe settings (`SyzygyProbeDepth`, `Syzygy50MoveRule`,
    /// `SyzygyProbeLimit`); they matter only once tables are set on the searcher.
    pub tablebase: super::tablebase::TablebaseOptions,
    /// YaneuraOu's `NetworkDelay2`, `MinimumThinkingTime` and `SlowMover` (USI).
    pub time_shaping: super::time_shaping::TimeShaping,
    /// Whether the search reports progress (`SearchEvent`s: info lines, current move). A caller
    /// that reads only the result (self-play, matches, rescoring) turns it off, and the search
    /// then neither builds the lines nor reads the clock to decide whether to send them; the
    /// search itself is the same.
    pub report_progress: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            multi_pv: 1,
            move_overhead_ms: 10,
            show_wdl: false,
            skill: None,
            nodes_per_ms: 0,
            tablebase: Default::default(),
            time_shaping: Default::default(),
            report_progress: true,
        }
    }
}
