//! Depth-first proof-number search (df-pn) for forced mates by continuous checks ("tsume"), generic
//! over the game. Drops are ordinary moves here, so shogi's tsume problems with pieces in hand are
//! solved the same way as chess check sequences. Backs USI `go mate`.
//!
//! OR nodes (attacker to move) consider only checking moves; AND nodes (defender) consider every
//! legal evasion. Proof and disproof numbers live in a fixed-size table allocated once per solver.
//! A position repeated on the current path counts as disproved (a repetition is not a mate).
//!
//! The first proof found is not always the shortest mate, so `solve` then searches again with a
//! ply bound two plies below the mate it has, until no shorter mate exists (or the budget ends):
//! the answer is a shortest mate. Bounded searches key their table entries by the plies left,
//! so a disproof that only holds for a few plies left is never taken for a general one.

use super::proof_table::ProofTable;
use crate::game::{Game, GameMove};
use crate::movelist::MoveList;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Proof/disproof number meaning "infinite" (proved or disproved for good).
const INFINITE: u32 = u32::MAX / 2;
/// Deepest path the solver follows; deeper lines count as unproven.
const MAX_PLY: usize = 256;
/// Nodes between checks of the clock and the stop flag.
const CHECK_INTERVAL: u64 = 4096;

/// What the solver concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer<M> {
    /// A forced mate; the line starts with the attacker's move and ends in checkmate.
    Mate(Vec<M>),
    /// No mate by continuous checks exists.
    NoMate,
    /// The time or node budget ran out (or the search was stopped) first.
    Unknown,
}

/// A df-pn mate solver for game `G`.
pub struct MateSolver<G: Game> {
    table: ProofTable,
    path: Vec<u64>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    next_check: u64,
    /// Bounded search: the most plies a mate may take from the root (`None`: unbounded).
    ply_bound: Option<usize>,
    _game: std::marker::PhantomData<G>,
}

/// Key of a node: the position hash, salted so OR and AND nodes of the same position differ,
/// and, in a bounded search, so that each number of plies left has its own entry.
fn node_key(hash: u64, or_node: bool, plies_left: Option<usize>) -> u64 {
    let side = if or_node {
        hash
    } else {
        hash ^ 0x9E37_79B9_7F4A_7C15
    };
    match plies_left {
        None => side,
        Some(left) => side ^ (left as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93),
    }
}

impl<G: Game> MateSolver<G> {
    /// A solver with a proof table of about `table_mb` megabytes; when that much memory cannot
    /// be had, the largest smaller table (halving down to 1 MB) and a message saying so.
    pub fn with_fallback(table_mb: usize) -> (Self, Option<String>) {
        let (table, note) = ProofTable::with_fallback(table_mb);
        (Self::with_table(table), note)
    }

    /// A solver with a proof table of about `table_mb` megabytes, or `None` when that much
    /// memory cannot be had.
    pub fn try_new(table_mb: usize) -> Option<Self> {
        ProofTable::try_new(table_mb).map(Self::with_table)
    }

    /// A solver with a proof table of about `table_mb` megabytes (a smaller one when that much
    /// memory cannot be had; see `with_fallback`).
    pub fn new(table_mb: usize) -> Self {
        Self::with_fallback(table_mb).0
    }

    fn with_table(table: ProofTable) -> Self {
        Self {
            table,
            path: Vec::with_capacity(MAX_PLY),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            next_check: 0,
            ply_bound: None,
            _game: std::marker::PhantomData,
        }
    }

    /// Nodes visited by the last `solve`.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Looks for a mate by continuous checks for the side to move in `root`, until `deadline`,
    /// `node_limit` nodes, or `stop` is set.
    pub fn solve(
        &mut self,
        root: &G,
        deadline: Option<Instant>,
        node_limit: Option<u64>,
        stop: &AtomicBool,
    ) -> MateAnswer<G::Move> {
        self.nodes = 0;
        self.aborted = false;
        self.next_check = 0;
        self.deadline = deadline;
        self.node_limit = node_limit.unwrap_or(u64::MAX);
        self.ply_bound = None;
        let answer = self.solve_bounded(root, stop);
        let MateAnswer::Mate(mut best) = answer else {
            return answer;
        };
        // Shorten: look for a mate two plies shorter until there is none (or the budget ends).
        while best.len() >= 3 {
            self.ply_bound = Some(best.len() - 2);
            match self.solve_bounded(root, stop) {
                MateAnswer::Mate(line) if line.len() < best.len() => best = line,
                _ => break,
            }
        }
        self.ply_bound = None;
        MateAnswer::Mate(best)
    }

    /// One df-pn search from `root` under the current `ply_bound`.
    fn solve_bounded(&mut self, root: &G, stop: &AtomicBool) -> MateAnswer<G::Move> {
        self.path.clear();
        let (pn, dn) = self.mid(root, true, INFINITE - 1, INFINITE - 1, stop);
        if pn == 0 {
            match self.proof_line(root) {
                Some(line) => MateAnswer::Mate(line),
                None => MateAnswer::Unknown,
            }
        } else if dn == 0 {
            MateAnswer::NoMate
        } else {
            MateAnswer::Unknown
        }
    }

    /// Plies a node at `depth` plies from the root has left under the bound.
    fn plies_left(&self, depth: usize) -> Option<usize> {
        self.ply_bound.map(|bound| bound.saturating_sub(depth))
    }

    fn out_of_budget(&mut self, stop: &AtomicBool) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_INTERVAL;
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The moves of a node: checks for the attacker, all legal moves for the defender.
    fn children(pos: &G, or_node: bool, moves: &mut G::Moves) {
        pos.generate_legal(moves);
        if or_node {
            let mut checks = G::Moves::default();
            for &m in moves.as_slice() {
                if pos.gives_check(m) {
                    checks.push(m);
                }
            }
            *moves = checks;
        }
    }

    /// Proof/disproof numbers of a child (at `depth` plies from the root) as known so far (1/1
    /// for an unseen node).
    fn child_numbers(&self, child: &G, child_or: bool, depth: usize) -> (u32, u32) {
        self.table
            .get(
                node_key(child.hash(), child_or, self.plies_left(depth)),
                child_or,
            )
            .unwrap_or((1, 1))
    }

    /// Multiple iterative deepening: expands `pos` until its proof number reaches `pn_limit` or
    /// its disproof number reaches `dn_limit`. Returns the node's (pn, dn).
    fn mid(
        &mut self,
        pos: &G,
        or_node: bool,
        pn_limit: u32,
        dn_limit: u32,
        stop: &AtomicBool,
    ) -> (u32, u32) {
        self.nodes += 1;
        let depth = self.path.len();
        let key = node_key(pos.hash(), or_node, self.plies_left(depth));
        let start_nodes = self.nodes;

        // Under a ply bound, an attacker with no ply left cannot mate any more.
        if or_node && self.plies_left(depth) == Some(0) {
            // Keyed by the plies left, so this disproof holds wherever the node recurs.
            self.table.put(key, or_node, INFINITE, 0, 1);
            return (INFINITE, 0);
        }
        if depth >= MAX_PLY || self.path.contains(&pos.hash()) {
            // Too deep or a repetition on the path: not a mate along this line. Not stored, as it
            // depends on the path.
            return (INFINITE, 0);
        }

        let mut moves = G::Moves::default();
        Self::children(pos, or_node, &mut moves);
        if moves.is_empty() {
            // Attacker without checks: disproved. Defender without moves: proved (checkmate or,
            // in shogi, any position without moves is lost).
            let numbers = if or_node {
                (INFINITE, 0)
            } else {
                (0, INFINITE)
            };
            self.table.put(key, or_node, numbers.0, numbers.1, 1);
            return numbers;
        }

        self.path.push(pos.hash());
        let (mut pn, mut dn);
        loop {
            let mut best = 0usize;
            let mut best_primary = INFINITE + 1;
            let mut second_primary = INFINITE + 1;
            let mut best_secondary = 0u32;
            let mut sum_secondary = 0u32;
            let mut min_primary = INFINITE + 1;
            for (i, &m) in moves.as_slice().iter().enumerate() {
                let mut child = pos.clone();
                child.make_move(m);
                let attacker_out_of_plies = !or_node && self.plies_left(depth + 1) == Some(0);
                let (cpn, cdn) = if attacker_out_of_plies || self.path.contains(&child.hash()) {
                    (INFINITE, 0)
                } else {
                    self.child_numbers(&child, !or_node, depth + 1)
                };
                // At OR nodes the attacker minimises pn; at AND nodes the defender minimises dn.
                let (primary, secondary) = if or_node { (cpn, cdn) } else { (cdn, cpn) };
                sum_secondary = sum_secondary.saturating_add(secondary).min(INFINITE);
                min_primary = min_primary.min(primary);
                if primary < best_primary {
                    second_primary = best_primary;
                    best_primary = primary;
                    best = i;
                    best_secondary = secondary;
                } else if primary < second_primary {
                    second_primary = primary;
                }
            }
            if or_node {
                pn = min_primary;
                dn = sum_secondary;
            } else {
                pn = sum_secondary;
                dn = min_primary;
            }
            if pn >= pn_limit || dn >= dn_limit || pn == 0 || dn == 0 {
                break;
            }
            if self.out_of_budget(stop) {
                break;
            }
            let m = moves.as_slice()[best];
            let mut child = pos.clone();
            child.make_move(m);
            let limit_primary = if or_node { pn_limit } else { dn_limit };
            let limit_secondary = if or_node { dn_limit } else { pn_limit };
            let own_secondary = if or_node { dn } else { pn };
            let child_primary_limit = limit_primary.min(second_primary.saturating_add(1));
            let child_secondary_limit = limit_secondary
                .saturating_sub(own_secondary)
                .saturating_add(best_secondary)
                .min(INFINITE);
            let (cpn_limit, cdn_limit) = if or_node {
                (child_primary_limit, child_secondary_limit)
            } else {
                (child_secondary_limit, child_primary_limit)
            };
            self.mid(&child, !or_node, cpn_limit, cdn_limit, stop);
        }
        self.path.pop();
        let work = (self.nodes - start_nodes).min(u32::MAX as u64) as u32;
        self.table.put(key, or_node, pn, dn, work.max(1));
        (pn, dn)
    }

    /// Follows proved nodes from the root to a checkmate: the attacker plays a proved check
    /// (preferring those proved with the least further checking), the defender the evasion
    /// whose proof took the most work (the toughest defence).
    fn proof_line(&self, root: &G) -> Option<Vec<G::Move>> {
        let mut line = Vec::new();
        let mut pos = root.clone();
        let mut or_node = true;
        let mut seen: Vec<u64> = Vec::new();
        loop {
            let mut moves = G::Moves::default();
            Self::children(&pos, or_node, &mut moves);
            if moves.is_empty() {
                // Mate reached when the defender is to move with no move and in the attacker's
                // favour; a missing check at an OR node means the line broke.
                return if or_node { None } else { Some(line) };
            }
            if seen.contains(&pos.hash()) || line.len() > 2 * MAX_PLY {
                return None;
            }
            seen.push(pos.hash());
            let mut chosen = None;
            let mut chosen_work = 0u32;
            let child_left = self.plies_left(line.len() + 1);
            for &m in moves.as_slice() {
                let mut child = pos.clone();
                child.make_move(m);
                let child_key = node_key(child.hash(), !or_node, child_left);
                let entry = self
                    .table
                    .bucket_entries(child_key)
                    .iter()
                    .find(|e| e.key == child_key && e.or_node != or_node);
                let (proved, work) = match entry {
                    Some(e) => (e.pn == 0, e.work),
                    None if or_node => {
                        // An attacker's check whose entry was replaced may still be mate at
                        // once: the defender has no move.
                        let mut replies = G::Moves::default();
                        child.generate_legal(&mut replies);
                        (replies.is_empty(), 0)
                    }
                    None => (false, 0),
                };
                if !proved {
                    if !or_node {
                        // A defence that isn't proved means the stored proof is incomplete.
                        return None;
                    }
                    continue;
                }
                let better = match chosen {
                    None => true,
                    Some(_) if or_node => work < chosen_work,
                    Some(_) => work > chosen_work,
                };
                if better {
                    chosen = Some(m);
                    chosen_work = work;
                }
            }
            let m = chosen?;
            debug_assert!(m.is_some());
            line.push(m);
            pos.make_move(m);
            or_node = !or_node;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Position;

    fn solve(sfen: &str) -> Vec<String> {
        let pos = Position::from_text(sfen).unwrap();
        let mut solver = MateSolver::<Position>::new(16);
        let stop = AtomicBool::new(false);
        match solver.solve(&pos, None, Some(20_000_000), &stop) {
            MateAnswer::Mate(line) => {
                let mut p = pos;
                line.iter()
                    .map(|&m| {
                        let text = p.format_move(m);
                        p.make_move(m);
                        text
                    })
                    .collect()
            }
            other => panic!("{sfen}: {other:?}"),
        }
    }

    /// Issue 20, item 5: the first proof of this problem is a 5-ply mate, but R*2c mates in 3.
    #[test]
    fn the_answer_is_a_shortest_mate() {
        let line = solve("7k1/9/8n/6L2/9/9/9/9/K8 b RG 1");
        assert_eq!(line.len(), 3, "{line:?}");
        assert_eq!(line[0], "R*2c", "{line:?}");
        assert_eq!(solve("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"), ["G*5b"]);
    }

    /// Issue 20, item 4: a tsume without the attacker's king is solved.
    #[test]
    fn a_tsume_without_the_attackers_king_is_solved() {
        assert_eq!(
            solve("7k1/9/6G2/9/9/9/9/9/9 b SR 1"),
            ["S*2b", "2a1b", "R*1c"]
        );
    }
}
