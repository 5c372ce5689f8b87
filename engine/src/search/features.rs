//! Switches for individual search techniques. All on by default; turning one off is how a
//! self-play run measures what it is worth.

/// Which optional techniques the search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchFeatures {
    pub null_move: bool,
    pub late_move_reductions: bool,
    /// Reverse futility, futility, late-move and SEE pruning of the move loop.
    pub forward_pruning: bool,
    pub singular_extensions: bool,
    pub aspiration_windows: bool,
    /// Quiet moves get their history scores only when the move picker reaches them (off: every
    /// move is scored when the node's moves are generated).
    pub lazy_quiet_scoring: bool,
    /// A legal table move is searched before the node's other moves are generated (with lazy
    /// quiet scoring only). The tree searched is the same; a cutoff by the table move saves the
    /// generation and scoring of the rest.
    pub table_move_first: bool,
}

impl Default for SearchFeatures {
    fn default() -> Self {
        Self {
            null_move: true,
            late_move_reductions: true,
            forward_pruning: true,
            singular_extensions: true,
            aspiration_windows: true,
            lazy_quiet_scoring: true,
            table_move_first: true,
        }
    }
}
