//! Switches for individual search techniques. All on by default; turning one off is how a
//! self-play run measures what it is worth.

use super::change_list::split_changes;
use crate::game::Game;

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
    /// Static evaluations are corrected by what searches found below positions with the same
    /// structure (`correction::CorrectionHistory`).
    pub correction_history: bool,
    /// The correction history also keys each side's pieces other than pawns and the last two
    /// moves, and corrects by the blend of its tables (with `correction_history`).
    pub correction_tables: bool,
    /// Quiescence in check searches every capture but only two quiet evasions once a line
    /// escapes mate (in shogi, drops between a ranging checker and the king multiply).
    pub qs_evasion_pruning: bool,
    /// Reverse futility returns halfway between the evaluation and beta ("fail firm") instead
    /// of the evaluation itself.
    pub fail_firm_rfp: bool,
    /// Quiet moves with a very bad history are pruned at shallow depth.
    pub history_pruning: bool,
    /// A singular move far below the singular bound is extended by two plies (a bounded number
    /// of times per line).
    pub double_extensions: bool,
    /// Captures and promotions learn a history of their own (piece, square, captured kind) that
    /// orders them after their gain.
    pub capture_history: bool,
    /// The soft time bound stretches when the best move holds a small share of the root's
    /// nodes and shrinks when it holds most of them.
    pub node_time_management: bool,
    /// Drops (shogi) are reduced one ply less by late-move reductions.
    pub drop_lmr: bool,
    /// Late-move reductions at expected cut nodes add two plies instead of one.
    pub deep_cut_node_lmr: bool,
    /// Shallow nodes far below alpha are settled by quiescence ("razoring").
    pub razoring: bool,
    /// A capture that beats beta by a margin in a reduced search cuts the node ("probcut").
    pub probcut: bool,
    /// Quiet moves are reduced one ply more by late-move reductions when the table move is a
    /// capture or promotion (the position's best continuation is tactical).
    pub tt_capture_lmr: bool,
    /// A node whose side to move has a reversible move back into a position on the line
    /// (`Game::upcoming_repetition`, chess) raises alpha to the draw score before searching.
    pub upcoming_repetition: bool,
    /// A table cutoff by a quiet table move rewards it (history, killer, counter-move) as a
    /// searched cutoff would.
    pub tt_cutoff_history: bool,
    /// A node that fails low with no move above alpha rewards the opponent's quiet move that led
    /// to it in the continuation history (the move refuted everything here).
    pub prior_countermove_bonus: bool,
    /// A late move whose reduced search beat alpha is re-searched one ply deeper when it beat
    /// the best value by a margin, and one ply shallower when it barely did.
    pub lmr_deeper_shallower: bool,
    /// Nodes that were ever on a principal variation keep a mark in the table and are reduced
    /// one ply less by late-move reductions, as PV nodes are.
    pub tt_pv: bool,
    /// The opponent's quiet move into a node learns, in the butterfly history, how much it
    /// changed the static evaluation (a move that left the mover better off scores higher).
    pub eval_diff_history: bool,
    /// The soft time bound stretches when the score falls (against the previous search for the
    /// same side and against the iteration three back) and shrinks when it rises.
    pub falling_eval_time: bool,
    /// Moves that give check are extended by one ply (when not singular-tested), in games that
    /// ask for it (`Game::EXTEND_CHECKS`: chess, not shogi).
    pub check_extensions: bool,
    /// Quiet moves that give check are pruned like other quiets (late-move, futility, SEE and
    /// history pruning); off, they are exempt. Quiet mates in one are found by the node's mate
    /// probe either way.
    pub check_pruning: bool,
    /// Moves that give check are reduced a ply less by late-move reductions.
    pub check_lmr: bool,
    /// Quiet moves are also scored and rewarded by the continuation history of the move four
    /// plies back (the side to move's own move before last), beside those one and two back.
    pub continuation_ply4: bool,
    /// Quiet moves are also ordered by threats (`Game::threat_order`): a piece leaving an
    /// attack by a cheaper piece first, one walking into it last (chess).
    pub threat_ordering: bool,
    /// A quiet move that gives check is ordered before the other fresh quiets' equals
    /// (`CHECK_ORDER_BONUS` added to its history score).
    pub check_ordering: bool,
    /// Quiet moves are also scored and rewarded by a structure history: (pawn structure,
    /// `Game::correction_key`) × (piece, to square), as Stockfish's pawn history.
    pub pawn_history: bool,
    /// A table move that is not singular is searched shallower: two plies less at an expected
    /// cut node, one ply less when its table value is no better than the singular search's
    /// (beside the one ply less a table value at or above beta always costs it).
    pub negative_extensions: bool,
    /// Late moves are reduced one ply more when the children searched so far at the next ply
    /// (this node's and its siblings') cut off more than three times: the opponent refutes
    /// easily here (Stockfish's cutoff count).
    pub cutoff_count_lmr: bool,
    /// Each aspiration re-search after a fail-high (in a row, since the last fail-low) searches
    /// the root one ply shallower (Stockfish's `failedHighCnt`). Twenty-second session: chess
    /// +39.0 ± 21.2 (572 games at 20,000 nodes), shogi +31.2 ± 18.5 (1,362 games at 10,000).
    pub aspiration_fail_high_reduction: bool,
    /// A search stopped inside an iteration plays the iteration's new best move when a later
    /// root move beat the previous best to the end (otherwise the last completed iteration's).
    pub partial_iteration_best: bool,
    /// Time management counts every new best root move found inside an iteration (a later root
    /// move that beat the best so far, aspiration re-searches included) as a best-move change,
    /// as Stockfish's `bestMoveChanges`; off: only a completed iteration whose best move differs
    /// from the previous one's counts.
    pub root_change_time: bool,
    /// Quiescence's fail-high results lean towards beta ("fail firm", as Stockfish): a
    /// stand-pat cutoff returns halfway between the evaluation and beta, and a capture's cutoff
    /// three quarters of its value and one of beta, so a lucky exchange overstates less.
    pub qs_fail_firm: bool,
    /// Captures and promotions that do not give check are pruned at shallow depth when even
    /// the material they win and a margin (`noisy_futility_base` +
    /// `noisy_futility_per_depth` per ply of reduced depth) leave the static evaluation at or
    /// below alpha (Stockfish's futility pruning of captures).
    pub noisy_futility: bool,
    /// A node entered by a search reduced three plies or more is searched a ply deeper when the
    /// reduced move held up (its static evaluation, for the side that played it, did not fall),
    /// and one reduced two or more a ply shallower otherwise when both sides' evaluations sum
    /// above a margin (Stockfish's hindsight depth adjustment).
    pub hindsight_depth: bool,
    /// Late-move reductions are summed in fractions of a ply (the table's fraction, the
    /// history's share) and rounded down once, instead of each term rounded on its own.
    pub fractional_lmr: bool,
    /// A quiet move whose reduced search beat alpha and was searched again at full depth
    /// teaches the continuation histories what that search found: a bonus when it reached
    /// beta, a malus when it fell back to alpha or below (Stockfish's post-LMR update).
    pub lmr_research_history: bool,
    /// Futility and SEE pruning of a quiet move use its own pruning depth, the reduced depth
    /// moved a ply deeper per `pruning_history_divisor` of its history (shallower when
    /// negative), as Stockfish's; off: one reduced depth for every quiet of the node, and
    /// futility prunes them all at once.
    pub history_pruning_depth: bool,
    /// The static evaluation shrinks toward zero as the fifty-move clock runs (scaled by
    /// (200 − clock) / 200, as Stormphrax's and Stockfish's), so a search prefers the line that
    /// makes progress to one that shuffles a won position toward the draw. Only games with such
    /// a clock (`Game::fifty_move_clock`): chess.
    pub fifty_move_scaling: bool,
    /// Quiescence outside check searches at most two noisy moves of a node by its ordering,
    /// then only those that recapture on the square of the move before, promote or give check
    /// (Stockfish's `moveCount > 2` cut in `qsearch`).
    pub qs_late_move_pruning: bool,
    /// The butterfly history keeps one table per threat bucket (`Game::threat_bucket`; chess:
    /// whether the move's from and to squares are attacked by the opponent), so a quiet move
    /// learns and is scored apart when it escapes an attack, walks into one, or neither (the
    /// threat-indexed history of Stormphrax and Viridithas). A game with one bucket is unchanged.
    pub threat_history: bool,
    /// The static evaluation is scaled by the material left on the board
    /// (`Game::board_material`): by (`material_scale_base` + material / `material_scale_divisor`)
    /// / 1024 (`SearchParams`; 768 and 32 by default), about 1 with
    /// every piece on the board and 3/4 with kings alone, as Viridithas' and Alexandria's, so a
    /// search ahead keeps material and one behind trades it. Games without a board material
    /// (shogi) are unchanged.
    pub material_scaling: bool,
    /// Quiet moves in the first `history::LOW_PLIES` plies from the root also learn in a
    /// low-ply history (ply × from × to, cleared for each search) that orders them, weighted
    /// most at the root, as Stockfish's `lowPlyHistory`: the root's lines are searched again
    /// and again by every iteration, and what refuted them there matters most.
    pub low_ply_history: bool,
    /// Optimism, as Stockfish's: each iteration's root line sets a bias from its previous score
    /// s, `optimism_scale` × s / (|s| + `optimism_damping`), which the static evaluation of the
    /// root's side gains (and the opponent's loses), weighted by (`optimism_base` + board material
    /// / 32) / 1024 (`SearchParams`). A side ahead plays on for more, one behind for less.
    /// Games without a board material (shogi) are unchanged.
    pub optimism: bool,
    /// Reverse futility's margin is a third of a ply's `rfp_margin` smaller when the opponent's
    /// last move worsened its own position (this node's static evaluation is above the
    /// parent's, negated), as Stockfish's `opponentWorsening` in `futility_margin`.
    pub rfp_opponent_worsening: bool,
    /// Reverse futility's margin is `rfp_cut_node_percent` of itself at a cut node the table
    /// knows nothing of, as Stockfish's smaller `futilityMult` when `cutNode && !ttHit`.
    pub rfp_cut_node: bool,
    /// Once a move raises alpha without reaching beta, the node's other moves are searched two
    /// plies shallower (at depths 3 to 13, not at the root, not for a mate score), as
    /// Stockfish's "reduce other moves if we have found at least one score improvement".
    pub alpha_raise_reduction: bool,
    /// Before the move loop, a table entry at most four plies shallower whose lower bound is
    /// `small_probcut_margin` above beta ends the node with beta plus that margin, as
    /// Stockfish's "small ProbCut idea" (also in check, also on the principal variation).
    pub small_probcut: bool,
    /// The correction history learns the error of the evaluation it corrects (the raw one after
    /// the fifty-move scaling, the material scaling and the optimism) instead of the raw
    /// evaluation's. With a scaling on, the raw error holds the scaling's own change besides
    /// the net's error, and since the correction is added after the scaling, each update moved
    /// the entries further by that change (toward zero for a scaled-down score) until their
    /// bound.
    pub scaled_correction_error: bool,
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
            correction_history: false,
            correction_tables: false,
            qs_evasion_pruning: false,
            fail_firm_rfp: false,
            history_pruning: false,
            double_extensions: false,
            capture_history: false,
            node_time_management: false,
            drop_lmr: false,
            deep_cut_node_lmr: false,
            razoring: false,
            probcut: false,
            tt_capture_lmr: false,
            upcoming_repetition: false,
            tt_cutoff_history: false,
            prior_countermove_bonus: false,
            lmr_deeper_shallower: false,
            tt_pv: false,
            eval_diff_history: false,
            falling_eval_time: false,
            check_extensions: true,
            check_pruning: false,
            check_lmr: true,
            continuation_ply4: false,
            threat_ordering: false,
            check_ordering: false,
            pawn_history: false,
            negative_extensions: false,
            cutoff_count_lmr: false,
            aspiration_fail_high_reduction: true,
            partial_iteration_best: false,
            root_change_time: false,
            qs_fail_firm: false,
            noisy_futility: false,
            hindsight_depth: false,
            fractional_lmr: false,
            lmr_research_history: false,
            history_pruning_depth: false,
            fifty_move_scaling: false,
            qs_late_move_pruning: false,
            threat_history: false,
            material_scaling: false,
            low_ply_history: false,
            optimism: false,
            rfp_opponent_worsening: false,
            rfp_cut_node: false,
            alpha_raise_reduction: false,
            small_probcut: false,
            scaled_correction_error: false,
        }
    }
}

impl SearchFeatures {
    /// The switches' names, as `with_changes` takes them.
    pub const NAMES: [&'static str; 56] = [
        "null_move",
        "late_move_reductions",
        "forward_pruning",
        "singular_extensions",
        "aspiration_windows",
        "lazy_quiet_scoring",
        "table_move_first",
        "correction_history",
        "fail_firm_rfp",
        "history_pruning",
        "double_extensions",
        "capture_history",
        "node_time_management",
        "drop_lmr",
        "deep_cut_node_lmr",
        "razoring",
        "probcut",
        "tt_capture_lmr",
        "upcoming_repetition",
        "tt_cutoff_history",
        "prior_countermove_bonus",
        "lmr_deeper_shallower",
        "tt_pv",
        "eval_diff_history",
        "falling_eval_time",
        "check_extensions",
        "check_pruning",
        "check_lmr",
        "continuation_ply4",
        "correction_tables",
        "qs_evasion_pruning",
        "threat_ordering",
        "check_ordering",
        "pawn_history",
        "negative_extensions",
        "cutoff_count_lmr",
        "aspiration_fail_high_reduction",
        "partial_iteration_best",
        "root_change_time",
        "qs_fail_firm",
        "noisy_futility",
        "hindsight_depth",
        "fractional_lmr",
        "lmr_research_history",
        "history_pruning_depth",
        "fifty_move_scaling",
        "qs_late_move_pruning",
        "threat_history",
        "material_scaling",
        "low_ply_history",
        "optimism",
        "rfp_opponent_worsening",
        "rfp_cut_node",
        "alpha_raise_reduction",
        "small_probcut",
        "scaled_correction_error",
    ];

    fn switch(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "null_move" => &mut self.null_move,
            "late_move_reductions" => &mut self.late_move_reductions,
            "forward_pruning" => &mut self.forward_pruning,
            "singular_extensions" => &mut self.singular_extensions,
            "aspiration_windows" => &mut self.aspiration_windows,
            "lazy_quiet_scoring" => &mut self.lazy_quiet_scoring,
            "table_move_first" => &mut self.table_move_first,
            "correction_history" => &mut self.correction_history,
            "fail_firm_rfp" => &mut self.fail_firm_rfp,
            "history_pruning" => &mut self.history_pruning,
            "double_extensions" => &mut self.double_extensions,
            "capture_history" => &mut self.capture_history,
            "node_time_management" => &mut self.node_time_management,
            "drop_lmr" => &mut self.drop_lmr,
            "deep_cut_node_lmr" => &mut self.deep_cut_node_lmr,
            "razoring" => &mut self.razoring,
            "probcut" => &mut self.probcut,
            "tt_capture_lmr" => &mut self.tt_capture_lmr,
            "upcoming_repetition" => &mut self.upcoming_repetition,
            "tt_cutoff_history" => &mut self.tt_cutoff_history,
            "prior_countermove_bonus" => &mut self.prior_countermove_bonus,
            "lmr_deeper_shallower" => &mut self.lmr_deeper_shallower,
            "tt_pv" => &mut self.tt_pv,
            "eval_diff_history" => &mut self.eval_diff_history,
            "falling_eval_time" => &mut self.falling_eval_time,
            "check_extensions" => &mut self.check_extensions,
            "check_pruning" => &mut self.check_pruning,
            "check_lmr" => &mut self.check_lmr,
            "continuation_ply4" => &mut self.continuation_ply4,
            "correction_tables" => &mut self.correction_tables,
            "qs_evasion_pruning" => &mut self.qs_evasion_pruning,
            "threat_ordering" => &mut self.threat_ordering,
            "check_ordering" => &mut self.check_ordering,
            "pawn_history" => &mut self.pawn_history,
            "negative_extensions" => &mut self.negative_extensions,
            "cutoff_count_lmr" => &mut self.cutoff_count_lmr,
            "aspiration_fail_high_reduction" => &mut self.aspiration_fail_high_reduction,
            "partial_iteration_best" => &mut self.partial_iteration_best,
            "root_change_time" => &mut self.root_change_time,
            "qs_fail_firm" => &mut self.qs_fail_firm,
            "noisy_futility" => &mut self.noisy_futility,
            "hindsight_depth" => &mut self.hindsight_depth,
            "fractional_lmr" => &mut self.fractional_lmr,
            "lmr_research_history" => &mut self.lmr_research_history,
            "history_pruning_depth" => &mut self.history_pruning_depth,
            "fifty_move_scaling" => &mut self.fifty_move_scaling,
            "qs_late_move_pruning" => &mut self.qs_late_move_pruning,
            "threat_history" => &mut self.threat_history,
            "material_scaling" => &mut self.material_scaling,
            "low_ply_history" => &mut self.low_ply_history,
            "optimism" => &mut self.optimism,
            "rfp_opponent_worsening" => &mut self.rfp_opponent_worsening,
            "rfp_cut_node" => &mut self.rfp_cut_node,
            "alpha_raise_reduction" => &mut self.alpha_raise_reduction,
            "small_probcut" => &mut self.small_probcut,
            "scaled_correction_error" => &mut self.scaled_correction_error,
            _ => return None,
        })
    }

    /// The engine's switches in game `G`: the shared defaults with the game's own changes
    /// (`Game::SEARCH_FEATURES`).
    pub fn for_game<G: Game>() -> Self {
        Self::default()
            .with_changes(G::SEARCH_FEATURES)
            .expect("a game's search changes name real switches")
    }

    /// The switches that differ from the shared defaults, as `with_changes` takes them (empty
    /// for the defaults).
    pub fn changes(&self) -> String {
        self.changes_from(Self::default())
    }

    /// The switches that differ from `base`, as `with_changes` takes them.
    pub fn changes_from(&self, base: Self) -> String {
        let (mut this, mut default) = (*self, base);
        Self::NAMES
            .iter()
            .filter_map(|name| {
                let value = *this.switch(name)?;
                (value != *default.switch(name)?)
                    .then(|| format!("{name}={}", if value { "on" } else { "off" }))
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// These switches changed by a comma-separated list of `name=on|off` (e.g.
    /// `correction_history=off,null_move=off`); an empty list changes nothing.
    pub fn with_changes(mut self, changes: &str) -> Result<Self, String> {
        for (name, value) in split_changes(changes, "name=on or name=off")? {
            let change = format!("{name}={value}");
            let value = match value {
                "on" | "true" | "1" => true,
                "off" | "false" | "0" => false,
                _ => return Err(format!("`{change}`: the value must be on or off")),
            };
            *self.switch(name).ok_or_else(|| {
                format!(
                    "unknown search feature `{name}` (known: {})",
                    Self::NAMES.join(", ")
                )
            })? = value;
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_starts_from_its_own_changes() {
        let chess = SearchFeatures::for_game::<crate::chess::Position>();
        assert!(chess.correction_history && chess.correction_tables && chess.threat_ordering);
        assert_eq!(
            chess.changes(),
            "correction_history=on,correction_tables=on,threat_ordering=on,\
             partial_iteration_best=on,hindsight_depth=on,fractional_lmr=on,threat_history=on,\
             material_scaling=on,scaled_correction_error=on"
        );
        assert_eq!(chess.changes_from(chess), "");
        let shogi = SearchFeatures::for_game::<crate::shogi::Position>();
        assert!(shogi.qs_evasion_pruning && !chess.qs_evasion_pruning);
        assert_eq!(
            shogi.changes(),
            "qs_evasion_pruning=on,partial_iteration_best=on,threat_history=on"
        );
        assert_eq!(
            shogi.changes_from(chess),
            "correction_history=off,correction_tables=off,qs_evasion_pruning=on,threat_ordering=off,\
             hindsight_depth=off,fractional_lmr=off,material_scaling=off,\
             scaled_correction_error=off"
        );
    }

    #[test]
    fn changes_turn_named_switches_on_and_off() {
        let f = SearchFeatures::default()
            .with_changes("correction_history=on, null_move=off")
            .unwrap();
        assert!(f.correction_history && !f.null_move && f.late_move_reductions);
        assert_eq!(f.changes(), "null_move=off,correction_history=on");
        assert_eq!(SearchFeatures::default().changes(), "");
        assert_eq!(
            SearchFeatures::default().with_changes(""),
            Ok(SearchFeatures::default())
        );
        let mut all_off = SearchFeatures::default();
        for name in SearchFeatures::NAMES {
            all_off = all_off.with_changes(&format!("{name}=off")).unwrap();
        }
        assert!(
            all_off
                .with_changes("table_move_first=on")
                .unwrap()
                .table_move_first
        );
        assert!(SearchFeatures::default().with_changes("razor=off").is_err());
        assert!(SearchFeatures::default().with_changes("null_move").is_err());
        assert!(SearchFeatures::default()
            .with_changes("null_move=maybe")
            .is_err());
    }
}
