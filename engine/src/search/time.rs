//! Time management: how long one search may think, from the clock, and the running deadline
//! checks (soft: don't start another iteration; hard: abort now). Pondering suspends the clock
//! until `ponderhit`, from which moment the budget counts as if the search had just started.

use super::limits::{Clock, Limits};
use super::params::SearchParams;
use super::time_shaping::{shape_budget, TimeShaping};
use crate::game::Side;
use std::time::Instant;

/// Time to think about one move, in milliseconds from the start of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Past this, no new iteration starts.
    pub soft_ms: u64,
    /// Past this, the search stops mid-iteration.
    pub hard_ms: u64,
}

/// Largest share of the remaining main time one move may take (per mille).
const MAX_SHARE_PERMILLE: u64 = 800;
/// A byoyomi period is lost whole if the move arrives late, so beyond the move overhead a
/// quarter of it, up to this much, is kept back for the operating system and the GUI (a loaded
/// machine delayed 3 of 40 moves past a 0.1 s byoyomi with only the 10 ms overhead kept).
const BYOYOMI_RESERVE_MAX_MS: u64 = 100;

/// Without byoyomi, this much of the main time (at most half of it) is never planned for: a
/// process descheduled for tens of milliseconds on a loaded machine must still find time on its
/// clock (1 s + 10 ms games flagged at nice 10 beside a busy process with only the overhead kept).
const LOW_CLOCK_RESERVE_MS: u64 = 50;

/// How a clock is spread over the moves: the number of moves the main time is spread over when
/// no `movestogo` says it, and how far past its share one move may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// Sudden death, with or without an increment (also the most `movestogo` counts for).
    pub fischer: u64,
    /// Main time followed by byoyomi periods (unused main time is lost when the game ends, and
    /// every later move still has its period).
    pub byoyomi: u64,
    /// The hard bound's main time, in percent of the move's share (the soft bound's main time).
    pub hard_percent: u64,
}

impl TimePlan {
    /// The plan `params` give a side that has played `moves_played` moves.
    pub fn of(params: &SearchParams, moves_played: usize) -> Self {
        Self {
            fischer: params.fischer_horizon.max(1) as u64,
            byoyomi: byoyomi_horizon(
                params.byoyomi_horizon,
                params.byoyomi_game_moves,
                moves_played,
            ),
            hard_percent: params.hard_bound_percent.max(100) as u64,
        }
    }
}

impl Default for TimePlan {
    /// The engine's, at the start of a game.
    fn default() -> Self {
        Self::of(&SearchParams::default(), 0)
    }
}

/// Splits the clock into a budget for `side`'s move. `None` means "no time limit" (no clock and
/// no move time). The move overhead is taken off every bound.
pub fn allocate_time(
    clock: Option<&Clock>,
    move_time_ms: Option<u64>,
    side: Side,
    move_overhead_ms: u64,
    plan: TimePlan,
) -> Option<TimeBudget> {
    if let Some(move_time) = move_time_ms {
        let hard = move_time.saturating_sub(move_overhead_ms).max(1);
        return Some(TimeBudget {
            soft_ms: hard,
            hard_ms: hard,
        });
    }
    let clock = clock?;
    let us = side.index();
    let main = clock.time_ms[us].unwrap_or(0);
    let inc = clock.inc_ms[us];
    let byoyomi = clock.byoyomi_ms[us];
    let open_horizon = if byoyomi > 0 {
        plan.byoyomi
    } else {
        plan.fischer
    }
    .max(1);
    let horizon = clock
        .moves_to_go
        .map(|m| (m as u64).clamp(1, plan.fischer.max(1)))
        .unwrap_or(open_horizon);

    // Byoyomi is spent per move anyway, so the overhead comes off it; otherwise off main time.
    let (main_usable, byoyomi_usable) = if byoyomi > 0 {
        let reserve = (byoyomi / 4).min(BYOYOMI_RESERVE_MAX_MS);
        (main, byoyomi.saturating_sub(move_overhead_ms + reserve))
    } else {
        let usable = main.saturating_sub(move_overhead_ms);
        (usable - LOW_CLOCK_RESERVE_MS.min(usable / 2), 0)
    };
    let cap = if horizon == 1 {
        main_usable * 9 / 10
    } else {
        main_usable * MAX_SHARE_PERMILLE / 1000
    };
    let base = main_usable / horizon + inc * 3 / 4;
    let main_soft = if horizon == 1 { cap * 7 / 10 } else { base };
    let main_hard = (base * plan.hard_percent / 100).min(cap);
    let main_soft = main_soft.min(main_hard);

    let hard = (main_hard + byoyomi_usable).max(1);
    let soft = if byoyomi_usable > 0 && main_usable == 0 {
        // Pure byoyomi: unused time is lost, so think until the hard bound.
        hard
    } else {
        (main_soft + byoyomi_usable * 9 / 10).clamp(1, hard)
    };
    Some(TimeBudget {
        soft_ms: soft,
        hard_ms: hard,
    })
}

/// The moves main time is spread over when byoyomi periods follow it: `min_moves`, or, when
/// `game_moves` is set, the moves left to that many after the `moves_played` of this side,
/// whichever is more. Never zero.
pub fn byoyomi_horizon(min_moves: i32, game_moves: i32, moves_played: usize) -> u64 {
    let left = if game_moves > 0 {
        game_moves as i64 - moves_played as i64
    } else {
        0
    };
    left.max(min_moves as i64).max(1) as u64
}

/// The deadline checks of one running search.
#[derive(Debug)]
pub struct TimeManager {
    start: Instant,
    budget: Option<TimeBudget>,
    /// Whether the search began as a ponder search that has not yet seen `ponderhit`.
    waiting_for_ponderhit: bool,
    /// Nodes per millisecond of a node clock; 0: wall time.
    nodes_per_ms: u64,
    /// The search's node count when last observed (node clock only).
    nodes: u64,
    /// Before this, the soft bound does not end the search (`MinimumThinkingTime`).
    floor_ms: u64,
}

impl TimeManager {
    /// The clock of a search for `side` within `limits`; see `allocate_time` for the rest.
    pub fn new<M>(
        limits: &Limits<M>,
        side: Side,
        move_overhead_ms: u64,
        plan: TimePlan,
        pondering: bool,
    ) -> Self {
        let budget = if limits.infinite {
            None
        } else {
            allocate_time(
                limits.clock.as_ref(),
                limits.move_time_ms,
                side,
                move_overhead_ms,
                plan,
            )
        };
        Self {
            start: Instant::now(),
            budget,
            waiting_for_ponderhit: pondering,
            nodes_per_ms: 0,
            nodes: 0,
            floor_ms: 0,
        }
    }

    /// Applies YaneuraOu's time options to a clock's budget (`time_shaping`); searches without
    /// a clock (move time, infinite, depth or nodes only) keep theirs.
    pub fn shaped<M>(
        mut self,
        limits: &Limits<M>,
        side: Side,
        move_overhead_ms: u64,
        shaping: &TimeShaping,
    ) -> Self {
        if let (Some(budget), Some(clock), None) =
            (self.budget, limits.clock.as_ref(), limits.move_time_ms)
        {
            let shaped = shape_budget(budget, clock, side, move_overhead_ms, shaping);
            self.budget = Some(shaped.budget);
            self.floor_ms = shaped.floor_ms;
        }
        self
    }

    /// Counts time in searched nodes, `nodes_per_ms` to the millisecond (0: wall time).
    pub fn with_node_clock(mut self, nodes_per_ms: u64) -> Self {
        self.nodes_per_ms = nodes_per_ms;
        self
    }

    /// Tells a node clock how many nodes the search has searched so far.
    #[inline]
    pub fn observe_nodes(&mut self, nodes: u64) {
        self.nodes = nodes;
    }

    /// Milliseconds since the search started (or since `ponderhit`); on a node clock, the nodes
    /// observed so far in milliseconds.
    pub fn elapsed_ms(&self) -> u64 {
        self.nodes
            .checked_div(self.nodes_per_ms)
            .unwrap_or_else(|| self.start.elapsed().as_millis() as u64)
    }

    /// Call with the current pondering flag: restarts the clock when pondering has just ended.
    /// Returns whether time limits apply now.
    pub fn update_ponder(&mut self, pondering: bool) -> bool {
        if self.waiting_for_ponderhit && !pondering {
            self.waiting_for_ponderhit = false;
            self.start = Instant::now();
        }
        !self.waiting_for_ponderhit
    }

    pub fn budget(&self) -> Option<TimeBudget> {
        self.budget
    }

    /// Whether the hard bound has passed (never while pondering).
    pub fn hard_expired(&self) -> bool {
        !self.waiting_for_ponderhit && self.budget.is_some_and(|b| self.elapsed_ms() >= b.hard_ms)
    }

    /// Whether a new iteration should not start; `scale_permille` stretches the soft bound (best
    /// move instability) but never past the hard bound.
    pub fn soft_expired(&self, scale_permille: u64) -> bool {
        !self.waiting_for_ponderhit
            && self.budget.is_some_and(|b| {
                let soft = (b.soft_ms * scale_permille / 1000)
                    .max(self.floor_ms)
                    .min(b.hard_ms);
                self.elapsed_ms() >= soft
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: u64, inc: u64, mtg: Option<u32>, byoyomi: u64) -> Clock {
        Clock {
            time_ms: [Some(time), Some(time)],
            inc_ms: [inc, inc],
            moves_to_go: mtg,
            byoyomi_ms: [byoyomi, byoyomi],
        }
    }

    fn budget(c: &Clock) -> TimeBudget {
        allocate_time(Some(c), None, Side::First, 10, TimePlan::default()).unwrap()
    }

    #[test]
    fn no_clock_and_no_movetime_is_unlimited() {
        assert_eq!(
            allocate_time(None, None, Side::First, 10, TimePlan::default()),
            None
        );
    }

    #[test]
    fn movetime_uses_everything_but_the_overhead() {
        let b = allocate_time(None, Some(1000), Side::Second, 10, TimePlan::default()).unwrap();
        assert_eq!(
            b,
            TimeBudget {
                soft_ms: 990,
                hard_ms: 990
            }
        );
        let tiny = allocate_time(None, Some(5), Side::Second, 10, TimePlan::default()).unwrap();
        assert_eq!(tiny.hard_ms, 1, "never zero: depth 1 still gets done");
    }

    #[test]
    fn sudden_death_spends_a_small_share() {
        let b = budget(&clock(60_000, 0, None, 0));
        assert_eq!(b.soft_ms, (60_000 - 10 - LOW_CLOCK_RESERVE_MS) / 30);
        assert_eq!(b.hard_ms, b.soft_ms * 4);
        // The plan's hard percent sets how far past its share a move may think.
        let plan = TimePlan {
            hard_percent: 250,
            ..TimePlan::default()
        };
        let short = allocate_time(
            Some(&clock(60_000, 0, None, 0)),
            None,
            Side::First,
            10,
            plan,
        );
        let short = short.unwrap();
        assert_eq!(short.soft_ms, b.soft_ms);
        assert_eq!(short.hard_ms, b.soft_ms * 5 / 2);
    }

    #[test]
    fn increment_adds_but_never_beyond_the_clock() {
        let with_inc = budget(&clock(10_000, 1000, None, 0));
        let without = budget(&clock(10_000, 0, None, 0));
        assert!(with_inc.soft_ms > without.soft_ms);
        // 1 s + 10 ms increment: a fast game must not flag.
        let bullet = budget(&clock(1_000, 10, None, 0));
        assert!(bullet.hard_ms <= 990 * 8 / 10);
        assert!(bullet.soft_ms <= bullet.hard_ms && bullet.soft_ms > 0);
        // Little time left but a big increment: the clock (which includes it) is the limit.
        let low = budget(&clock(100, 1000, None, 0));
        assert!(low.hard_ms <= 90 * 8 / 10, "{low:?}");
    }

    #[test]
    fn a_low_clock_keeps_a_reserve() {
        // 150 ms left, 100 ms increment: 50 ms are never planned for, so the hard bound leaves
        // them on the clock (with the overhead).
        let b = budget(&clock(150, 100, None, 0));
        assert!(b.hard_ms <= 150 - 10 - 50, "{b:?}");
        // A long 1 s + 10 ms game in which every move takes its soft bound settles with the
        // reserve still on the clock (without it, about 125 ms would be left).
        let mut left = 1000;
        for _ in 0..300 {
            left = left - budget(&clock(left, 10, None, 0)).soft_ms + 10;
        }
        assert!(left >= 150, "{left} ms left");
        // A clock below twice the reserve keeps half of it.
        let tiny = budget(&clock(40, 0, None, 0));
        assert!(tiny.hard_ms <= 15 && tiny.hard_ms >= 1, "{tiny:?}");
        // Byoyomi: the main time may be spent to the end, the period follows.
        let byoyomi = budget(&clock(150, 0, None, 1000));
        assert!(byoyomi.hard_ms > 150, "{byoyomi:?}");
    }

    #[test]
    fn moves_to_go_divides_the_remaining_time() {
        let b = budget(&clock(30_000, 0, Some(10), 0));
        assert_eq!(b.soft_ms, (30_000 - 10 - LOW_CLOCK_RESERVE_MS) / 10);
        let last = budget(&clock(30_000, 0, Some(1), 0));
        assert!(last.hard_ms <= (30_000 - 10) * 9 / 10);
        assert!(last.soft_ms >= 10_000);
    }

    #[test]
    fn byoyomi_alone_is_used_almost_fully() {
        let b = budget(&clock(0, 0, None, 5000));
        assert_eq!(
            b,
            TimeBudget {
                soft_ms: 4890,
                hard_ms: 4890
            }
        );
        let with_main = budget(&clock(60_000, 0, None, 5000));
        assert!(with_main.hard_ms > 4890 && with_main.hard_ms <= 60_000 * 8 / 10 + 4890);
        // A short byoyomi keeps a quarter back: 100 ms - 10 ms overhead - 25 ms.
        assert_eq!(budget(&clock(0, 0, None, 100)).hard_ms, 65);
    }

    #[test]
    fn the_byoyomi_horizon_spreads_only_main_time_followed_by_periods() {
        let with_periods = clock(10_000, 0, None, 100);
        let at = |byoyomi| {
            let plan = TimePlan {
                byoyomi,
                ..TimePlan::default()
            };
            allocate_time(Some(&with_periods), None, Side::First, 10, plan).unwrap()
        };
        // 10 s over 30 or 15 moves, plus 90% of the period's usable 65 ms.
        assert_eq!(at(30).soft_ms, 10_000 / 30 + 65 * 9 / 10);
        assert_eq!(at(15).soft_ms, 10_000 / 15 + 65 * 9 / 10);
        assert!(at(15).hard_ms > at(30).hard_ms);
        // Fischer clocks follow their own horizon, whatever the byoyomi horizon says.
        let fischer = clock(10_000, 100, None, 0);
        let fischer_at = |fischer_h, byoyomi| {
            let plan = TimePlan {
                fischer: fischer_h,
                byoyomi,
                ..TimePlan::default()
            };
            allocate_time(Some(&fischer), None, Side::First, 10, plan).unwrap()
        };
        assert_eq!(fischer_at(30, 15), fischer_at(30, 30));
        let usable = 10_000 - 10 - LOW_CLOCK_RESERVE_MS;
        assert_eq!(fischer_at(30, 30).soft_ms, usable / 30 + 75);
        assert_eq!(fischer_at(45, 30).soft_ms, usable / 45 + 75);
        // Moves to go still bound it.
        let control = clock(10_000, 0, Some(5), 100);
        let plan = TimePlan {
            fischer: 30,
            byoyomi: 15,
            ..TimePlan::default()
        };
        let five = allocate_time(Some(&control), None, Side::First, 10, plan).unwrap();
        assert_eq!(five.soft_ms, 10_000 / 5 + 65 * 9 / 10);
    }

    #[test]
    fn the_expected_game_length_spreads_main_time_over_the_moves_left() {
        // Off: the fixed horizon.
        assert_eq!(byoyomi_horizon(30, 0, 0), 30);
        assert_eq!(byoyomi_horizon(30, 0, 100), 30);
        // On: the moves left to the expected length, down to the fixed horizon.
        assert_eq!(byoyomi_horizon(15, 70, 0), 70);
        assert_eq!(byoyomi_horizon(15, 70, 40), 30);
        assert_eq!(byoyomi_horizon(15, 70, 60), 15);
        assert_eq!(byoyomi_horizon(15, 70, 500), 15);
        assert_eq!(byoyomi_horizon(0, 0, 0), 1, "never zero");
    }

    #[test]
    fn missing_own_time_moves_at_once() {
        let c = Clock {
            time_ms: [None, Some(100_000)],
            ..Clock::default()
        };
        let b = allocate_time(Some(&c), None, Side::First, 10, TimePlan::default()).unwrap();
        assert_eq!(b.hard_ms, 1);
    }

    #[test]
    fn ponder_suspends_the_clock() {
        let limits: Limits<u16> = Limits {
            move_time_ms: Some(1),
            ..Limits::default()
        };
        let mut tm = TimeManager::new(&limits, Side::First, 0, TimePlan::default(), true);
        std::thread::sleep(std::time::Duration::from_millis(3));
        assert!(!tm.hard_expired());
        assert!(tm.update_ponder(false));
        assert!(tm.elapsed_ms() < 3);
    }

    #[test]
    fn a_node_clock_counts_nodes_not_wall_time() {
        let limits: Limits<u16> = Limits {
            move_time_ms: Some(110),
            ..Limits::default()
        };
        let mut tm = TimeManager::new(&limits, Side::First, 10, TimePlan::default(), false)
            .with_node_clock(1000);
        std::thread::sleep(std::time::Duration::from_millis(120));
        assert!(!tm.hard_expired(), "wall time does not count");
        tm.observe_nodes(99_999);
        assert_eq!(tm.elapsed_ms(), 99);
        assert!(!tm.hard_expired() && !tm.soft_expired(1000));
        tm.observe_nodes(100_000);
        assert!(tm.hard_expired() && tm.soft_expired(1000));
    }
}
