//! Test doubles for the protocol layer: a tiny take-away game and a scripted search backend, so
//! sessions and the controller can be tested without the real games or search.

use super::backend::SearchBackend;
use super::games::ProtocolGame;
use super::options::RuleSettings;
use crate::game::{
    EndReason, Game, GameMove, GameResult, HistoryEntry, MoveParseError, Outcome, Side,
};
use crate::movelist::{ArrayMoveList, MoveList};
use crate::search::{
    Limits, Score, ScoreBound, SearchControl, SearchEvent, SearchInfo, SearchOptions, SearchResult,
};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Take 1 to 3 stones; who cannot move loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Take(pub u16);

impl GameMove for Take {
    const NONE: Self = Take(0);
    fn to_bits(self) -> u16 {
        self.0
    }
    fn from_bits(bits: u16) -> Self {
        Take(bits)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pile {
    pub stones: u16,
    pub side: Side,
    pub ply: u32,
}

#[derive(Debug, thiserror::Error)]
#[error("bad pile '{0}'")]
pub struct PileError(String);

impl Game for Pile {
    type Move = Take;
    type Moves = ArrayMoveList<Take, 3>;
    type ParseError = PileError;
    type Delta = ();
    type CheckInfo = ();
    const KIND: Option<crate::game::GameKind> = None;
    const NAME: &'static str = "pile";
    const SQUARES: usize = 1;
    const FROM_SLOTS: usize = 1;
    const PIECE_SLOTS: usize = 1;

    fn startpos() -> Self {
        Pile {
            stones: 21,
            side: Side::First,
            ply: 0,
        }
    }
    fn from_text(text: &str) -> Result<Self, PileError> {
        let mut words = text.split_whitespace();
        let stones = words
            .next()
            .and_then(|w| w.parse().ok())
            .filter(|&n: &u16| n <= 1000)
            .ok_or_else(|| PileError(text.to_string()))?;
        let side = match words.next() {
            Some("w") | None => Side::First,
            Some("b") => Side::Second,
            _ => return Err(PileError(text.to_string())),
        };
        Ok(Pile {
            stones,
            side,
            ply: 0,
        })
    }
    fn to_text(&self) -> String {
        let side = if self.side == Side::First { "w" } else { "b" };
        format!("{} {side}", self.stones)
    }
    fn side_to_move(&self) -> Side {
        self.side
    }
    fn hash(&self) -> u64 {
        u64::from(self.stones) * 2 + self.side as u64
    }
    fn hash_from_scratch(&self) -> u64 {
        self.hash()
    }
    fn hash_after(&self, m: Take) -> u64 {
        let mut child = *self;
        child.make_move(m);
        child.hash()
    }
    fn in_check(&self) -> bool {
        false
    }
    fn game_ply(&self) -> u32 {
        self.ply
    }
    fn generate_legal(&self, moves: &mut Self::Moves) {
        moves.clear();
        for n in 1..=self.stones.min(3) {
            moves.push(Take(n));
        }
    }
    fn generate_noisy(&self, moves: &mut Self::Moves) {
        moves.clear();
    }
    fn is_legal_move(&self, m: Take) -> bool {
        (1..=self.stones.min(3)).contains(&m.0)
    }
    fn make_move(&mut self, m: Take) {
        self.stones -= m.0;
        self.side = self.side.flip();
        self.ply += 1;
    }
    fn make_null_move(&mut self) {
        self.side = self.side.flip();
    }
    fn delta(&self) -> &() {
        &()
    }
    fn is_quiet(&self, _: Take) -> bool {
        true
    }
    fn noisy_gain(&self, _: Take) -> i32 {
        0
    }
    fn see_ge(&self, _: Take, threshold: i32) -> bool {
        threshold <= 0
    }
    fn gives_check(&self, _: Take) -> bool {
        false
    }
    fn check_info(&self) {}
    fn move_from_slot(_: Take) -> usize {
        0
    }
    fn move_to_square(_: Take) -> usize {
        0
    }
    fn moved_piece_slot(&self, _: Take) -> usize {
        0
    }
    fn null_move_allowed(&self) -> bool {
        false
    }
    fn correction_key(&self) -> u64 {
        0
    }
    fn no_moves_outcome(&self) -> Outcome {
        Outcome {
            result: GameResult::Loss,
            reason: EndReason::Checkmate,
        }
    }
    fn rule_outcome(&self, _: &[HistoryEntry], _: bool) -> Option<Outcome> {
        None
    }
    fn parse_move(&self, text: &str) -> Result<Take, MoveParseError> {
        let n: u16 = text
            .strip_prefix('t')
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| MoveParseError::Malformed(text.to_string()))?;
        if self.is_legal_move(Take(n)) {
            Ok(Take(n))
        } else {
            Err(MoveParseError::Illegal(text.to_string()))
        }
    }
    fn format_move(&self, m: Take) -> String {
        format!("t{}", m.0)
    }
    fn parse_move_cecp(&self, text: &str) -> Result<Take, MoveParseError> {
        self.parse_move(text)
    }
    fn format_move_cecp(&self, m: Take) -> String {
        self.format_move(m)
    }
}

/// Plays the winning move (leave a multiple of 4) or takes one; waits for `stop` in infinite
/// or ponder searches, as a real search does.
pub struct ScriptedSearch;

impl SearchBackend<Pile> for ScriptedSearch {
    fn search(
        &mut self,
        root: &Pile,
        _history: &[HistoryEntry],
        limits: &Limits<Take>,
        _options: &SearchOptions,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchEvent<Take>),
    ) -> SearchResult<Take> {
        let wanted = root.stones % 4;
        let mut best = if wanted == 0 { Take(1) } else { Take(wanted) };
        if let Some(&first) = limits.search_moves.first() {
            if !limits.search_moves.contains(&best) {
                best = first;
            }
        }
        let best = root.is_legal_move(best).then_some(best);
        report(SearchEvent::Pv(SearchInfo {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score: Score::Cp(if wanted == 0 { -100 } else { 100 }),
            bound: ScoreBound::Exact,
            wdl: None,
            nodes: 1,
            time_ms: 0,
            nps: 0,
            hashfull: 0,
            pv: best.into_iter().collect(),
        }));
        while (limits.infinite || control.pondering.load(Ordering::SeqCst))
            && !control.stop.load(Ordering::SeqCst)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        SearchResult {
            best,
            ponder: Some(Take(1)),
            score: Score::Cp(0),
            depth: 1,
            nodes: 1,
            declare_win: false,
        }
    }
    /// Sizes above 60000 MB fail, as on a machine without that much memory.
    fn set_hash_mb(&mut self, mb: usize) -> Result<(), String> {
        if mb > 60_000 {
            return Err(format!(
                "cannot allocate a {mb} MB hash table; keeping 16 MB"
            ));
        }
        Ok(())
    }
    fn set_threads(&mut self, _: usize) -> Result<(), String> {
        Ok(())
    }
    fn clear(&mut self) {}
}

impl ProtocolGame for Pile {
    type Backend = ScriptedSearch;
    fn new_backend() -> ScriptedSearch {
        ScriptedSearch
    }
    fn load_evaluator(_: &mut ScriptedSearch, eval_file: &str) -> Result<String, String> {
        if eval_file.contains("missing") {
            Err(format!("cannot read net file '{eval_file}'"))
        } else {
            Ok("scripted evaluation".to_string())
        }
    }
    fn apply_rules(&mut self, _: &RuleSettings) {}
    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "White",
            Side::Second => "Black",
        }
    }
    fn with_side_to_move(&self, side: Side) -> Option<Self> {
        Some(Pile { side, ..*self })
    }
}
