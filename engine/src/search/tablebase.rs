//! Endgame tablebases in the search, for any game that has them: the tables' interface
//! (`EndgameTables`, a game's prober behind a trait object), the probe settings the protocols
//! set (`TablebaseOptions`), the root's ranking of moves by distance to zeroing (falling back
//! to win/draw/loss) that keeps a won ending won within the 50-move rule, and the win/draw/loss
//! probe inside the search, made where Stockfish makes it: within the piece limit, right after
//! a capture or pawn move (halfmove clock zero) and without castling rights.
//!
//! A game without tables (`Game::tablebase_pieces` returns `None`, shogi) never probes; with no
//! tables loaded the search's only cost is one comparison per node.

use super::tt::Bound;
use super::value::{to_tt, MATE_BOUND, MAX_PLY};
use super::worker::{SharedSearch, Worker, NO_EVAL};
use crate::eval::Evaluator;
use crate::game::{Game, GameResult, HistoryEntry};
use crate::movelist::MoveList;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Win/draw/loss as Syzygy tables store it, from the side to move: −2 loss, −1 a loss the
/// 50-move rule saves ("blessed"), 0 draw, 1 a win the 50-move rule spoils ("cursed"), 2 win.
pub type TbWdl = i32;

/// A set of endgame tables for game `G`, shared by every search thread.
pub trait EndgameTables<G: Game>: Send + Sync {
    /// The most pieces (kings included) of any table in the set.
    fn max_pieces(&self) -> u32;
    /// The win/draw/loss value of `pos`, as if it had just been reached by a capture or pawn
    /// move; `None` when the position is not in the tables or the probe failed.
    fn probe_wdl(&self, pos: &G) -> Option<TbWdl>;
    /// Distance to zeroing in plies, signed by the result (positive: the side to move wins;
    /// zero: draw; values beyond ±100 are cursed wins and blessed losses); `None` when the
    /// position is not in the DTZ tables or the probe failed. A value may be one ply more than
    /// the truth where the tables store it rounded (the Syzygy format's convention).
    fn probe_dtz(&self, pos: &G) -> Option<i32>;
    /// One line for the user: how many tables, up to how many pieces, from where.
    fn describe(&self) -> String;
}

/// The shared handle the searcher keeps.
pub type SharedTables<G> = Arc<dyn EndgameTables<G>>;

/// Probe settings, as Stockfish's options name them (`SyzygyProbeDepth`, `Syzygy50MoveRule`,
/// `SyzygyProbeLimit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TablebaseOptions {
    /// Positions with as many pieces as the limit are probed only from this remaining depth.
    pub probe_depth: i32,
    /// Whether the 50-move rule counts: cursed wins and blessed losses are draws (on), or wins
    /// and losses (off).
    pub rule50: bool,
    /// Positions with more pieces than this are never probed.
    pub probe_limit: u32,
}

impl Default for TablebaseOptions {
    fn default() -> Self {
        Self {
            probe_depth: 1,
            rule50: true,
            probe_limit: 7,
        }
    }
}

/// A proven tablebase win at the root, below every mate score (`TB_WIN - ply` in the search).
pub const TB_WIN: i32 = MATE_BOUND - 1 - MAX_PLY as i32;

/// What every search thread reads of the tables during one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct TablebaseSearch {
    /// Tables are loaded (the `tbhits` count is reported).
    pub loaded: bool,
    /// Positions with at most this many pieces are probed in the search; 0: no probes.
    pub cardinality: u32,
    pub probe_depth: i32,
    pub rule50: bool,
    /// The root's tablebase score, reported instead of the search's unless that is a mate.
    pub root_score: Option<i32>,
}

/// One root move as the tables rank it (Stockfish's ranks: 1000 a win within the 50-move
/// rule, less the nearer the rule comes; 0 a draw; −1000 a loss).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove<M> {
    pub mv: M,
    pub rank: i32,
    /// The score shown for the move.
    pub score: i32,
}

/// What the root's ranking gives one search.
#[derive(Clone, Debug)]
pub struct RootTablebase<M> {
    /// The moves to search, the best-ranked ones (empty: the tables do not restrict the root).
    pub moves: Vec<M>,
    /// The settings of the search's probes and the score to report.
    pub search: TablebaseSearch,
    /// Root probes made (counted as table hits).
    pub hits: u64,
}

const MAX_DTZ: i32 = 1000;

impl<M> RankedMove<M> {
    /// `mv` with its `rank` and the score `rank_score` shows for it under `bound`.
    fn new(mv: M, rank: i32, bound: i32) -> Self {
        RankedMove {
            mv,
            rank,
            score: rank_score(rank, bound),
        }
    }
}

/// `root` after the legal move `m`, and the result for the side to move there when it has no
/// legal move (mated or stalemated; `None` while it has moves).
fn child_and_no_moves_result<G: Game>(root: &G, m: G::Move) -> (G, Option<GameResult>) {
    let mut child = root.clone();
    child.make_move(m);
    let mut replies = G::Moves::default();
    child.generate_legal(&mut replies);
    let result = replies.is_empty().then(|| child.no_moves_outcome().result);
    (child, result)
}

/// The display score of a rank (a sure win or loss beyond any evaluation; cursed wins and
/// blessed losses a few centipawns either side of a draw, growing as the rule nears).
fn rank_score(rank: i32, bound: i32) -> i32 {
    if rank >= bound {
        TB_WIN
    } else if rank > 0 {
        (rank - 800).max(3) * 100 / 200
    } else if rank == 0 {
        0
    } else if rank > -bound {
        (rank + 800).min(-3) * 100 / 200
    } else {
        -TB_WIN
    }
}

/// Whether a position since the last capture or pawn move (the root included) repeats.
fn repeated_since_zeroing<G: Game>(root: &G, history: &[HistoryEntry]) -> bool {
    let span = (root.fifty_move_clock() as usize).min(history.len());
    let recent = &history[history.len() - span..];
    let mut hashes: Vec<u64> = recent.iter().map(|e| e.hash).collect();
    hashes.push(root.hash());
    hashes.sort_unstable();
    hashes.windows(2).any(|w| w[0] == w[1])
}

/// Ranks each of `candidates` (legal root moves) by DTZ, as Stockfish's root probe does; `None`
/// when a probe fails (a table missing).
pub fn rank_by_dtz<G: Game>(
    tables: &dyn EndgameTables<G>,
    root: &G,
    history: &[HistoryEntry],
    candidates: &[G::Move],
    rule50: bool,
) -> Option<Vec<RankedMove<G::Move>>> {
    let cnt50 = root.fifty_move_clock() as i32;
    let rep = repeated_since_zeroing(root, history);
    let bound = if rule50 { 900 } else { 1 };
    let mut line: Vec<HistoryEntry> = history.to_vec();
    line.push(HistoryEntry {
        hash: root.hash(),
        in_check: root.in_check(),
    });
    let mut ranked = Vec::with_capacity(candidates.len());
    for &m in candidates {
        let (child, no_moves_result) = child_and_no_moves_result(root, m);
        let dtz = if let Some(result) = no_moves_result {
            // Mate is a win at once; stalemate a draw.
            i32::from(result == GameResult::Loss)
        } else if child.fifty_move_clock() == 0 {
            // A zeroing move: the value after it is a fresh phase's.
            match -tables.probe_wdl(&child)? {
                2 => 1,
                1 => 101,
                0 => 0,
                -1 => -101,
                _ => -1,
            }
        } else if child
            .rule_outcome(&line, false)
            .is_some_and(|o| o.result == GameResult::Draw)
        {
            0
        } else {
            let d = -tables.probe_dtz(&child)?;
            d.signum() * (d.abs() + 1) * i32::from(d != 0)
        };
        // A move back to a position of the phase is no progress: ranked below the wins that
        // do not repeat, so the winner does not walk into a repetition the loser can claim.
        let revisits = child.fifty_move_clock() != 0
            && line[line.len() - (cnt50 as usize + 1).min(line.len())..]
                .iter()
                .any(|e| e.hash == child.hash());
        let rank = if dtz > 0 {
            if revisits {
                // Still a win, but below every win that does not repeat.
                (MAX_DTZ - 200 - (dtz + cnt50)).max(1)
            } else if dtz + cnt50 <= 99 && !rep {
                MAX_DTZ
            } else {
                MAX_DTZ - (dtz + cnt50)
            }
        } else if dtz < 0 {
            if -dtz * 2 + cnt50 < 100 {
                -MAX_DTZ
            } else {
                -MAX_DTZ + (-dtz + cnt50)
            }
        } else {
            0
        };
        ranked.push(RankedMove::new(m, rank, bound));
    }
    Some(ranked)
}

/// Ranks each of `candidates` by WDL alone (no DTZ tables); `None` when a probe fails.
pub fn rank_by_wdl<G: Game>(
    tables: &dyn EndgameTables<G>,
    root: &G,
    candidates: &[G::Move],
    rule50: bool,
) -> Option<Vec<RankedMove<G::Move>>> {
    const WDL_TO_RANK: [i32; 5] = [-MAX_DTZ, -MAX_DTZ + 101, 0, MAX_DTZ - 101, MAX_DTZ];
    let bound = if rule50 { 900 } else { 1 };
    let mut ranked = Vec::with_capacity(candidates.len());
    for &m in candidates {
        let (child, no_moves_result) = child_and_no_moves_result(root, m);
        let wdl = if let Some(result) = no_moves_result {
            2 * i32::from(result == GameResult::Loss)
        } else {
            -tables.probe_wdl(&child)?
        };
        let wdl = if rule50 { wdl } else { wdl.signum() * 2 };
        let rank = WDL_TO_RANK[(wdl + 2) as usize];
        ranked.push(RankedMove::new(m, rank, bound));
    }
    Some(ranked)
}

/// The root's tablebase ranking for one search: which moves keep the best result (a win kept
/// within the 50-move rule first), the score to show, and whether the search probes. With
/// the root in the tables and DTZ available the search does not probe (the ranking has
/// decided); with WDL only it probes while the root is won.
pub fn prepare_root<G: Game>(
    tables: Option<&dyn EndgameTables<G>>,
    options: &TablebaseOptions,
    root: &G,
    history: &[HistoryEntry],
    search_moves: &[G::Move],
) -> RootTablebase<G::Move> {
    let Some(tables) = tables else {
        return RootTablebase {
            moves: Vec::new(),
            search: TablebaseSearch::default(),
            hits: 0,
        };
    };
    let cardinality = tables.max_pieces().min(options.probe_limit);
    let mut search = TablebaseSearch {
        loaded: true,
        cardinality,
        probe_depth: options.probe_depth,
        rule50: options.rule50,
        root_score: None,
    };
    let pieces = root.tablebase_pieces();
    let in_tables = cardinality > 0 && pieces.is_some_and(|p| p <= cardinality);
    if !in_tables {
        return RootTablebase {
            moves: Vec::new(),
            search,
            hits: 0,
        };
    }
    let mut legal = G::Moves::default();
    root.generate_legal(&mut legal);
    let candidates: Vec<G::Move> = legal
        .as_slice()
        .iter()
        .copied()
        .filter(|m| search_moves.is_empty() || search_moves.contains(m))
        .collect();
    let candidates = if candidates.is_empty() {
        legal.as_slice().to_vec()
    } else {
        candidates
    };
    let (ranked, dtz) = match rank_by_dtz(tables, root, history, &candidates, options.rule50) {
        Some(r) => (r, true),
        None => match rank_by_wdl(tables, root, &candidates, options.rule50) {
            Some(r) => (r, false),
            None => {
                return RootTablebase {
                    moves: Vec::new(),
                    search,
                    hits: 0,
                }
            }
        },
    };
    let best = ranked.iter().map(|r| r.rank).max().unwrap_or(0);
    let moves: Vec<G::Move> = ranked
        .iter()
        .filter(|r| r.rank == best)
        .map(|r| r.mv)
        .collect();
    let score = ranked
        .iter()
        .find(|r| r.rank == best)
        .map_or(0, |r| r.score);
    search.root_score = Some(score);
    if dtz || score <= 0 {
        search.cardinality = 0;
    }
    RootTablebase {
        moves,
        search,
        hits: ranked.len() as u64,
    }
}

impl<G: Game, E: Evaluator<G>> Worker<G, E> {
    /// The search's tablebase probe at a non-root node: the value to return when the tables
    /// decide the node (stored in the table as Stockfish stores it), or `None` to search on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probe_tablebase(
        &mut self,
        pos: &G,
        shared: &SharedSearch,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        tt_eval: Option<i32>,
        in_check: bool,
    ) -> Option<i32> {
        if shared.tablebase.cardinality == 0 {
            return None;
        }
        self.probe_tablebase_node(pos, shared, alpha, beta, depth, ply, tt_eval, in_check)
    }

    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn probe_tablebase_node(
        &mut self,
        pos: &G,
        shared: &SharedSearch,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        tt_eval: Option<i32>,
        in_check: bool,
    ) -> Option<i32> {
        let config = &shared.tablebase;
        if pos.fifty_move_clock() != 0 {
            return None;
        }
        let pieces = pos.tablebase_pieces()?;
        if pieces > config.cardinality
            || (pieces == config.cardinality && depth < config.probe_depth)
        {
            return None;
        }
        let wdl = self.tablebase.as_ref()?.probe_wdl(pos)?;
        shared.tb_hits.fetch_add(1, Ordering::Relaxed);
        let draw_score = i32::from(config.rule50);
        let (value, bound) = if wdl < -draw_score {
            (-TB_WIN + ply as i32, Bound::Upper)
        } else if wdl > draw_score {
            (TB_WIN - ply as i32, Bound::Lower)
        } else {
            (2 * wdl * draw_score, Bound::Exact)
        };
        let decides = match bound {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        };
        if !decides {
            return None;
        }
        let raw_eval = if in_check {
            NO_EVAL
        } else {
            tt_eval.unwrap_or_else(|| self.evaluate(pos))
        };
        shared.tt.store(
            pos.hash(),
            0,
            to_tt(value, ply),
            raw_eval,
            (depth + 6).min(MAX_PLY as i32 - 1),
            bound,
        );
        Some(value)
    }
}

/// The score to report for a root value: the tables' verdict on the root unless the search
/// found a mate.
pub fn shown_score(config: &TablebaseSearch, value: i32) -> i32 {
    match config.root_score {
        Some(score) if !super::value::is_mate_value(value) => score,
        _ => value,
    }
}
