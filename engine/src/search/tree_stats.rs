//! Counters of the search tree's shape, for comparing it with another engine's
//! (`scripts/bench/tree_stats.py`): nodes by kind and depth, what cut them off, how many moves a
//! node searched before it failed high or low, and how many were reduced. They count only in a
//! build with the `tree-stats` feature (`cargo build --release -p sente --features tree-stats`);
//! elsewhere every call is empty and compiles away. The protocol's `treestats` command prints
//! them (`treestat NAME VALUE` lines, then `treestat end`) and `treestats reset` zeroes them.

/// What a counter counts. Those with a depth are also counted by the node's depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeStat {
    /// Nodes of the main search (depth ≥ 1), by depth on entry.
    MainNodes,
    /// Quiescence nodes.
    QuiescenceNodes,
    /// Nodes the transposition table's bound settled.
    TableCutoffs,
    /// Nodes reverse futility returned from, by depth.
    ReverseFutility,
    /// Nodes whose null-move search beat beta, by depth.
    NullMoveCutoffs,
    /// Nodes the singular search's multi-cut returned from.
    MultiCuts,
    /// Nodes that reached the move loop.
    MoveLoops,
    /// Moves made in the move loop (pruned moves are not counted).
    MovesSearched,
    /// Moves searched first at a reduced depth (late-move reductions that took at least a ply),
    /// by the node's depth.
    Reduced,
    /// Reduced moves searched again at full depth because they beat alpha.
    ReducedResearched,
    /// Move loops that ended in a beta cutoff.
    FailHighs,
    /// Beta cutoffs by the first move searched.
    FailHighFirst,
    /// Moves searched by the nodes that failed high (their sum).
    FailHighMoves,
    /// Move loops in which no move beat alpha.
    FailLows,
    /// Moves searched by the nodes that failed low (their sum).
    FailLowMoves,
}

/// Depth buckets of the counters kept by depth: 1 to `DEPTH_BUCKETS`, the last holding every
/// deeper node.
pub const DEPTH_BUCKETS: usize = 10;

impl TreeStat {
    /// Every counter, in the order `treestats` prints them.
    pub const ALL: [TreeStat; 15] = [
        TreeStat::MainNodes,
        TreeStat::QuiescenceNodes,
        TreeStat::TableCutoffs,
        TreeStat::ReverseFutility,
        TreeStat::NullMoveCutoffs,
        TreeStat::MultiCuts,
        TreeStat::MoveLoops,
        TreeStat::MovesSearched,
        TreeStat::Reduced,
        TreeStat::ReducedResearched,
        TreeStat::FailHighs,
        TreeStat::FailHighFirst,
        TreeStat::FailHighMoves,
        TreeStat::FailLows,
        TreeStat::FailLowMoves,
    ];

    /// The name `treestats` prints (the reference engine's patch prints the same names).
    pub fn name(self) -> &'static str {
        match self {
            TreeStat::MainNodes => "main_nodes",
            TreeStat::QuiescenceNodes => "qsearch_nodes",
            TreeStat::TableCutoffs => "tt_cutoffs",
            TreeStat::ReverseFutility => "reverse_futility",
            TreeStat::NullMoveCutoffs => "null_move_cutoffs",
            TreeStat::MultiCuts => "multi_cuts",
            TreeStat::MoveLoops => "move_loops",
            TreeStat::MovesSearched => "moves_searched",
            TreeStat::Reduced => "reduced",
            TreeStat::ReducedResearched => "reduced_researched",
            TreeStat::FailHighs => "fail_highs",
            TreeStat::FailHighFirst => "fail_high_first",
            TreeStat::FailHighMoves => "fail_high_moves",
            TreeStat::FailLows => "fail_lows",
            TreeStat::FailLowMoves => "fail_low_moves",
        }
    }

    /// Whether the counter is also kept by depth.
    pub fn by_depth(self) -> bool {
        matches!(
            self,
            TreeStat::MainNodes
                | TreeStat::ReverseFutility
                | TreeStat::NullMoveCutoffs
                | TreeStat::Reduced
        )
    }
}

/// Whether this build counts (the `tree-stats` feature).
pub const ENABLED: bool = cfg!(feature = "tree-stats");

#[cfg(feature = "tree-stats")]
mod counters {
    use super::{TreeStat, DEPTH_BUCKETS};
    use std::sync::atomic::{AtomicU64, Ordering};

    const SLOTS: usize = TreeStat::ALL.len() * (1 + DEPTH_BUCKETS);
    static COUNTS: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];

    /// The slot of `stat`'s total (`bucket` 0) or of its depth bucket 1..=DEPTH_BUCKETS.
    fn slot(stat: TreeStat, bucket: usize) -> usize {
        stat as usize * (1 + DEPTH_BUCKETS) + bucket
    }

    pub fn add(stat: TreeStat, depth: i32, amount: u64) {
        COUNTS[slot(stat, 0)].fetch_add(amount, Ordering::Relaxed);
        if stat.by_depth() {
            let bucket = depth.clamp(1, DEPTH_BUCKETS as i32) as usize;
            COUNTS[slot(stat, bucket)].fetch_add(amount, Ordering::Relaxed);
        }
    }

    pub fn get(stat: TreeStat, bucket: usize) -> u64 {
        COUNTS[slot(stat, bucket)].load(Ordering::Relaxed)
    }

    pub fn reset() {
        for count in &COUNTS {
            count.store(0, Ordering::Relaxed);
        }
    }
}

/// Counts one `stat` at a node of `depth` (ignored by the counters without a depth).
#[inline(always)]
pub fn record(stat: TreeStat, depth: i32) {
    add(stat, depth, 1);
}

/// Adds `amount` to `stat` at a node of `depth`.
#[inline(always)]
pub fn add(stat: TreeStat, depth: i32, amount: u64) {
    #[cfg(feature = "tree-stats")]
    counters::add(stat, depth, amount);
    #[cfg(not(feature = "tree-stats"))]
    let _ = (stat, depth, amount);
}

/// Zeroes every counter.
pub fn reset() {
    #[cfg(feature = "tree-stats")]
    counters::reset();
}

/// The counters as `(name, value)` pairs: each total, then for those kept by depth
/// `name@D` for D = 1..=DEPTH_BUCKETS (the last: that depth or deeper). Empty without the
/// feature.
pub fn report() -> Vec<(String, u64)> {
    #[cfg(feature = "tree-stats")]
    {
        let mut lines = Vec::new();
        for stat in TreeStat::ALL {
            lines.push((stat.name().to_string(), counters::get(stat, 0)));
            if stat.by_depth() {
                for bucket in 1..=DEPTH_BUCKETS {
                    lines.push((
                        format!("{}@{bucket}", stat.name()),
                        counters::get(stat, bucket),
                    ));
                }
            }
        }
        lines
    }
    #[cfg(not(feature = "tree-stats"))]
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_all_is_in_declaration_order() {
        for (i, stat) in TreeStat::ALL.iter().enumerate() {
            assert_eq!(*stat as usize, i);
            assert!(TreeStat::ALL[..i].iter().all(|s| s.name() != stat.name()));
        }
    }
}
