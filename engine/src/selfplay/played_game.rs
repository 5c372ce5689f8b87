//! One self-play game between two search configurations, ended by the game's rules or by
//! adjudication (resignation when both sides agree on a decisive score, draw on a long run of
//! near-zero scores, a ply limit, optionally the endgame tables' verdict) or by a flag fall when
//! the players are on a clock.

use super::opening::Opening;
use super::time_control::{ClockUsage, GameClock, TimeControl};
use crate::eval::Evaluator;
use crate::game::{EndReason, Game, GameResult, HistoryEntry, Side};
use crate::movelist::MoveList;
use crate::search::tablebase::EndgameTables;
use crate::search::{
    Clock, Limits, Score, SearchControl, SearchFeatures, SearchOptions, SearchParams, SearchResult,
    Searcher,
};
use std::time::{Duration, Instant};

/// One side of a match: an evaluator, search settings and a per-move limit or a clock.
#[derive(Clone, Debug)]
pub struct PlayerConfig<E> {
    pub name: String,
    pub evaluator: E,
    pub options: SearchOptions,
    pub features: SearchFeatures,
    pub params: SearchParams,
    pub hash_mb: usize,
    pub nodes_per_move: Option<u64>,
    pub depth_per_move: Option<u32>,
    pub time_per_move_ms: Option<u64>,
    /// Play on a real clock kept by the game runner (searches see both sides' clocks).
    pub time_control: Option<TimeControl>,
}

impl<E> PlayerConfig<E> {
    /// A full-strength player of game `G` (the game's search defaults) limited to `nodes` per
    /// move, 8 MB hash.
    pub fn with_nodes<G: Game>(name: &str, evaluator: E, nodes: u64) -> Self
    where
        E: Evaluator<G>,
    {
        Self {
            name: name.to_string(),
            evaluator,
            // The game runner reads only each search's result.
            options: SearchOptions {
                report_progress: false,
                ..SearchOptions::default()
            },
            features: SearchFeatures::for_game::<G>(),
            params: SearchParams::for_game::<G>(),
            hash_mb: 8,
            nodes_per_move: Some(nodes),
            depth_per_move: None,
            time_per_move_ms: None,
            time_control: None,
        }
    }

    /// A full-strength player of game `G` on a clock (no node limit), 8 MB hash.
    pub fn with_time_control<G: Game>(name: &str, evaluator: E, time_control: TimeControl) -> Self
    where
        E: Evaluator<G>,
    {
        Self {
            nodes_per_move: None,
            time_control: Some(time_control),
            ..Self::with_nodes::<G>(name, evaluator, 0)
        }
    }
}

/// Something that picks moves in a self-play game.
pub trait SelfPlayer<G: Game> {
    /// Forgets what the previous game taught (hash, histories).
    fn new_game(&mut self);
    fn choose(&mut self, position: &G, history: &[HistoryEntry]) -> SearchResult<G::Move>;
    /// The clock this player wants the runner to keep; `None`: no clock.
    fn time_control(&self) -> Option<TimeControl> {
        None
    }
    /// Chooses a move knowing both sides' clocks (only called for games on a clock).
    fn choose_on_clock(
        &mut self,
        position: &G,
        history: &[HistoryEntry],
        clock: &Clock,
    ) -> SearchResult<G::Move> {
        let _ = clock;
        self.choose(position, history)
    }
    /// What a search that took `wall` and searched `nodes` costs this player's clock: the
    /// wall time, unless the player counts time in nodes (`SearchOptions::nodes_per_ms`).
    fn clock_charge(&self, wall: Duration, nodes: u64) -> Duration {
        let _ = nodes;
        wall
    }
}

/// A `PlayerConfig` with its own searcher.
pub struct SearchPlayer<G: Game, E: Evaluator<G>> {
    config: PlayerConfig<E>,
    searcher: Searcher<G, E>,
}

impl<G: Game, E: Evaluator<G>> SearchPlayer<G, E> {
    pub fn new(config: PlayerConfig<E>) -> Self {
        let mut searcher = Searcher::new(config.evaluator.clone());
        searcher.set_hash_mb(config.hash_mb);
        searcher.set_features(config.features);
        searcher.set_params(config.params);
        Self { config, searcher }
    }

    /// Searches on the thread that calls `choose` (see `Searcher::set_search_on_caller_thread`:
    /// that thread needs a `SEARCH_STACK_BYTES` stack).
    pub fn search_on_caller_thread(mut self) -> Self {
        self.searcher.set_search_on_caller_thread(true);
        self
    }
}

impl<G: Game, E: Evaluator<G>> SelfPlayer<G> for SearchPlayer<G, E> {
    fn new_game(&mut self) {
        self.searcher.clear();
    }

    fn choose(&mut self, position: &G, history: &[HistoryEntry]) -> SearchResult<G::Move> {
        self.search_with(position, history, None)
    }

    fn time_control(&self) -> Option<TimeControl> {
        self.config.time_control
    }

    fn choose_on_clock(
        &mut self,
        position: &G,
        history: &[HistoryEntry],
        clock: &Clock,
    ) -> SearchResult<G::Move> {
        self.search_with(position, history, Some(clock.clone()))
    }

    fn clock_charge(&self, wall: Duration, nodes: u64) -> Duration {
        nodes
            .checked_div(self.config.options.nodes_per_ms)
            .map_or(wall, Duration::from_millis)
    }
}

impl<G: Game, E: Evaluator<G>> SearchPlayer<G, E> {
    fn search_with(
        &mut self,
        position: &G,
        history: &[HistoryEntry],
        clock: Option<Clock>,
    ) -> SearchResult<G::Move> {
        let limits = Limits {
            nodes: self.config.nodes_per_move,
            depth: self.config.depth_per_move,
            move_time_ms: self.config.time_per_move_ms,
            clock,
            ..Limits::default()
        };
        let control = SearchControl::default();
        self.searcher.search(
            position,
            history,
            &limits,
            &self.config.options,
            &control,
            &mut |_| {},
        )
    }
}

/// When to end a game before the rules do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Draw after this many plies of the game proper (not counting the opening).
    pub max_plies: u32,
    /// Decisive when this many consecutive plies all show one side ahead by this much.
    pub resign: Option<(i32, u32)>,
    /// Draw when this many consecutive plies all have |score| at most this, from `draw_after_ply`.
    pub draw: Option<(i32, u32)>,
    pub draw_after_ply: u32,
}

impl Default for Adjudication {
    fn default() -> Self {
        Self {
            max_plies: 400,
            resign: Some((1000, 8)),
            draw: Some((10, 12)),
            draw_after_ply: 80,
        }
    }
}

/// Why a self-play game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    Rule(EndReason),
    /// A side declared an entering-king win.
    Declaration,
    ResignAdjudication,
    DrawAdjudication,
    MaxPlies,
    /// The mover's clock ran out (it loses).
    TimeForfeit,
    /// The endgame tables' verdict on a position reached by a capture or pawn move
    /// (`play_game_with_tables`).
    TablebaseAdjudication,
}

/// A finished self-play game: its opening, the moves and scores played after it, and how it
/// ended.
#[derive(Clone, Debug)]
pub struct PlayedGame<G: Game> {
    /// The position the opening moves start from.
    pub start: G,
    /// The players' names, first mover first (set by the match runner; empty elsewhere).
    pub players: [String; 2],
    pub opening: Vec<G::Move>,
    pub moves: Vec<G::Move>,
    /// The mover's score for each of `moves`.
    pub scores: Vec<Score>,
    /// `None` for a draw.
    pub winner: Option<Side>,
    pub end: GameEnd,
    /// Each side's clock at the end in ms (`None`: no clock); negative for the side that lost
    /// on time, by how much it overstepped.
    pub clock_left_ms: [Option<i64>; 2],
    /// Each side's use of its clock over the game (`None`: no clock).
    pub clock_usage: [Option<ClockUsage>; 2],
}

/// Centipawn view of a score for adjudication (mates count as very large).
fn score_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::MatePlies(p) if p > 0 => 30_000 - p,
        Score::MatePlies(p) => -30_000 - p,
    }
}

/// Plays `opening` out with `players[side.index()]` moving for each side. Players with a time
/// control play on a clock kept here: the wall time of each search is charged to the mover.
pub fn play_game<G: Game>(
    opening: &Opening<G>,
    players: [&mut dyn SelfPlayer<G>; 2],
    adjudication: &Adjudication,
) -> PlayedGame<G> {
    play_game_with_tables(opening, players, adjudication, None)
}

/// The result the tables give a position's side to move (`wdl` as `EndgameTables::probe_wdl`
/// gives it) under the 50-move rule: a win or loss only for ±2; cursed wins, blessed losses
/// and draws are draws.
pub fn tablebase_winner(mover: Side, wdl: i32) -> Option<Side> {
    match wdl {
        2.. => Some(mover),
        ..=-2 => Some(mover.flip()),
        _ => None,
    }
}

/// `play_game`, with endgame tables adjudicating: as soon as a move of the game (not of the
/// opening) reaches a position with the halfmove clock at zero (a capture or pawn move) that the
/// tables hold (`Game::tablebase_pieces` within `max_pieces`: no castling rights), the game ends
/// with the tables' result (`tablebase_winner`) unless the rules have ended it there already. A
/// failed probe lets the game go on. Up to that position the game is the one `play_game` plays.
pub fn play_game_with_tables<G: Game>(
    opening: &Opening<G>,
    players: [&mut dyn SelfPlayer<G>; 2],
    adjudication: &Adjudication,
    tables: Option<&dyn EndgameTables<G>>,
) -> PlayedGame<G> {
    let [first, second] = players;
    first.new_game();
    second.new_game();
    let players = [first, second];
    let mut clock = GameClock::new([players[0].time_control(), players[1].time_control()]);
    let mut position = opening.position.clone();
    let mut history = opening.history.clone();
    let mut record = PlayedGame {
        start: opening.start.clone(),
        players: [String::new(), String::new()],
        opening: opening.moves.clone(),
        moves: Vec::new(),
        scores: Vec::new(),
        winner: None,
        end: GameEnd::MaxPlies,
        clock_left_ms: [None, None],
        clock_usage: [None, None],
    };
    // Scores from the first side's point of view, latest last.
    let mut first_view: Vec<i32> = Vec::new();
    let mut legal = G::Moves::default();
    loop {
        let mover = position.side_to_move();
        position.generate_legal(&mut legal);
        let ruled = if legal.is_empty() {
            Some(position.no_moves_outcome())
        } else {
            position.rule_outcome(&history, false)
        };
        if let Some(outcome) = ruled {
            record.end = GameEnd::Rule(outcome.reason);
            record.winner = match outcome.result {
                GameResult::Win => Some(mover),
                GameResult::Loss => Some(mover.flip()),
                GameResult::Draw => None,
            };
            return finish(record, clock.as_ref());
        }
        if let Some(tables) = tables {
            let in_tables = !record.moves.is_empty()
                && position.fifty_move_clock() == 0
                && position
                    .tablebase_pieces()
                    .is_some_and(|pieces| pieces <= tables.max_pieces());
            if let Some(wdl) = in_tables.then(|| tables.probe_wdl(&position)).flatten() {
                record.end = GameEnd::TablebaseAdjudication;
                record.winner = tablebase_winner(mover, wdl);
                return finish(record, clock.as_ref());
            }
        }
        if record.moves.len() as u32 >= adjudication.max_plies {
            record.end = GameEnd::MaxPlies;
            return finish(record, clock.as_ref());
        }
        let started = Instant::now();
        let result = match &clock {
            Some(clock) => {
                players[mover.index()].choose_on_clock(&position, &history, &clock.search_clock())
            }
            None => players[mover.index()].choose(&position, &history),
        };
        if let Some(clock) = &mut clock {
            let used = players[mover.index()].clock_charge(started.elapsed(), result.nodes);
            if !clock.charge(mover, used) {
                record.end = GameEnd::TimeForfeit;
                record.winner = Some(mover.flip());
                return finish(record, Some(clock));
            }
        }
        if result.declare_win {
            record.end = GameEnd::Declaration;
            record.winner = Some(mover);
            return finish(record, clock.as_ref());
        }
        let Some(m) = result.best.filter(|&m| position.is_legal_move(m)) else {
            // A player that cannot produce a legal move forfeits.
            record.end = GameEnd::ResignAdjudication;
            record.winner = Some(mover.flip());
            return finish(record, clock.as_ref());
        };
        let cp = score_cp(result.score);
        first_view.push(if mover == Side::First { cp } else { -cp });
        history.push(HistoryEntry {
            hash: position.hash(),
            in_check: position.in_check(),
        });
        position.make_move(m);
        record.moves.push(m);
        record.scores.push(result.score);

        if let Some((threshold, plies)) = adjudication.resign {
            let plies = plies.max(1) as usize;
            if first_view.len() >= plies {
                let recent = &first_view[first_view.len() - plies..];
                if recent.iter().all(|&v| v >= threshold) {
                    record.end = GameEnd::ResignAdjudication;
                    record.winner = Some(Side::First);
                    return finish(record, clock.as_ref());
                }
                if recent.iter().all(|&v| v <= -threshold) {
                    record.end = GameEnd::ResignAdjudication;
                    record.winner = Some(Side::Second);
                    return finish(record, clock.as_ref());
                }
            }
        }
        if let Some((margin, plies)) = adjudication.draw {
            let plies = plies.max(1) as usize;
            if record.moves.len() as u32 >= adjudication.draw_after_ply
                && first_view.len() >= plies
                && first_view[first_view.len() - plies..]
                    .iter()
                    .all(|v| v.abs() <= margin)
            {
                record.end = GameEnd::DrawAdjudication;
                return finish(record, clock.as_ref());
            }
        }
    }
}

/// Stamps the final clock readings on a finished game.
fn finish<G: Game>(mut record: PlayedGame<G>, clock: Option<&GameClock>) -> PlayedGame<G> {
    if let Some(clock) = clock {
        record.clock_left_ms = clock.remaining_ms();
        record.clock_usage = clock.usage();
    }
    record
}
