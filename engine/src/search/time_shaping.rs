//! YaneuraOu's time options on top of a clock's budget: `NetworkDelay2` (the worst-case delay
//! kept off the last moment a move may arrive), `MinimumThinkingTime` (no iteration-based early
//! answer before it, within the hard bound) and `SlowMover` (the planned time in percent).
//! `NetworkDelay` itself is the move overhead `allocate_time` already takes off every bound.
//! `TimeShaping::default()` changes nothing.

use super::limits::Clock;
use super::time::TimeBudget;
use crate::game::Side;

/// The shaping options, in milliseconds and percent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeShaping {
    /// The hard bound never passes main time + increment + byoyomi minus this (0: no cap beyond
    /// the move overhead and the byoyomi reserve).
    pub network_delay2_ms: u64,
    /// No answer before this minus the move overhead unless the hard bound comes first
    /// (0: off).
    pub minimum_thinking_ms: u64,
    /// The soft bound (planned time) in percent, never past the hard bound; pure byoyomi, whose
    /// plan is the whole period, is left alone.
    pub slow_mover_percent: u64,
}

impl Default for TimeShaping {
    fn default() -> Self {
        Self {
            network_delay2_ms: 0,
            minimum_thinking_ms: 0,
            slow_mover_percent: 100,
        }
    }
}

/// A shaped budget: the bounds and the earliest moment an iteration may end the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapedBudget {
    pub budget: TimeBudget,
    /// Before this, the soft bound (however scaled) does not end the search.
    pub floor_ms: u64,
}

/// Applies `shaping` to the budget `allocate_time` gave `side` on `clock`.
pub fn shape_budget(
    budget: TimeBudget,
    clock: &Clock,
    side: Side,
    move_overhead_ms: u64,
    shaping: &TimeShaping,
) -> ShapedBudget {
    let us = side.index();
    let mut hard = budget.hard_ms;
    let mut soft = budget.soft_ms;
    if soft < hard && shaping.slow_mover_percent != 100 {
        soft = (soft * shaping.slow_mover_percent / 100).clamp(1, hard);
    }
    if shaping.network_delay2_ms > 0 {
        let total = clock.time_ms[us].unwrap_or(0) + clock.inc_ms[us] + clock.byoyomi_ms[us];
        hard = hard.min(total.saturating_sub(shaping.network_delay2_ms).max(1));
        soft = soft.min(hard);
    }
    let floor = shaping
        .minimum_thinking_ms
        .saturating_sub(move_overhead_ms)
        .min(hard);
    ShapedBudget {
        budget: TimeBudget {
            soft_ms: soft,
            hard_ms: hard,
        },
        floor_ms: floor,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time::{allocate_time, TimePlan};

    fn clock(main: u64, byoyomi: u64) -> Clock {
        Clock {
            time_ms: [Some(main), Some(main)],
            inc_ms: [0, 0],
            moves_to_go: None,
            byoyomi_ms: [byoyomi, byoyomi],
        }
    }

    fn shaped(c: &Clock, overhead: u64, shaping: TimeShaping) -> ShapedBudget {
        let budget = allocate_time(Some(c), None, Side::First, overhead, TimePlan::default());
        shape_budget(budget.unwrap(), c, Side::First, overhead, &shaping)
    }

    #[test]
    fn the_default_changes_nothing() {
        for c in [clock(0, 10_000), clock(60_000, 5_000), clock(600_000, 0)] {
            let plain = allocate_time(Some(&c), None, Side::First, 10, TimePlan::default());
            let s = shaped(&c, 10, TimeShaping::default());
            assert_eq!(s.budget, plain.unwrap());
            assert_eq!(s.floor_ms, 0);
        }
    }

    #[test]
    fn network_delay2_keeps_the_worst_delay_off_the_last_moment() {
        // Byoyomi 10 s, no main time: YaneuraOu's example, 600 ms early at the latest.
        let shaping = TimeShaping {
            network_delay2_ms: 600,
            ..TimeShaping::default()
        };
        let s = shaped(&clock(0, 10_000), 10, shaping);
        assert_eq!(s.budget.hard_ms, 9_400);
        assert_eq!(s.budget.soft_ms, 9_400);
        // Main time left: the cap is main + byoyomi - 600, above the planned bounds.
        let plain = shaped(&clock(60_000, 10_000), 10, TimeShaping::default());
        let capped = shaped(&clock(60_000, 10_000), 10, shaping);
        assert_eq!(capped.budget, plain.budget);
        // A delay past the whole clock still leaves a move.
        let huge = TimeShaping {
            network_delay2_ms: 50_000,
            ..TimeShaping::default()
        };
        assert_eq!(shaped(&clock(0, 10_000), 10, huge).budget.hard_ms, 1);
    }

    #[test]
    fn minimum_thinking_time_is_a_floor_under_the_hard_bound() {
        let shaping = TimeShaping {
            minimum_thinking_ms: 2_000,
            ..TimeShaping::default()
        };
        // Ten minutes + 10 s byoyomi: planned time is above 2 s anyway, the floor is 2 s - 10.
        let s = shaped(&clock(600_000, 10_000), 10, shaping);
        assert_eq!(s.floor_ms, 1_990);
        // One second of byoyomi: the floor can never pass the hard bound.
        let short = shaped(&clock(0, 1_000), 10, shaping);
        assert_eq!(short.floor_ms, short.budget.hard_ms);
        assert!(short.budget.hard_ms < 1_000);
    }

    #[test]
    fn slow_mover_scales_the_plan_not_the_hard_bound() {
        let c = clock(600_000, 0);
        let plain = shaped(&c, 10, TimeShaping::default()).budget;
        let half = shaped(
            &c,
            10,
            TimeShaping {
                slow_mover_percent: 50,
                ..TimeShaping::default()
            },
        )
        .budget;
        assert_eq!(half.soft_ms, plain.soft_ms / 2);
        assert_eq!(half.hard_ms, plain.hard_ms);
        let double = shaped(
            &c,
            10,
            TimeShaping {
                slow_mover_percent: 1000,
                ..TimeShaping::default()
            },
        )
        .budget;
        assert_eq!(double.soft_ms, plain.hard_ms, "never past the hard bound");
        // Pure byoyomi is planned to its end already.
        let b = clock(0, 5_000);
        let slow = TimeShaping {
            slow_mover_percent: 30,
            ..TimeShaping::default()
        };
        assert_eq!(
            shaped(&b, 10, slow).budget,
            shaped(&b, 10, TimeShaping::default()).budget
        );
    }
}
