//! Real clocks for self-play: a time control (`BASE+INC` in seconds, the `INC` either a Fischer
//! increment or a byoyomi period) and the game clock the runner keeps for both sides (time used
//! is subtracted after each move, the increment added; once main time is gone a move may use one
//! byoyomi period; a clock below zero means a loss on time).

use crate::game::Side;
use crate::search::Clock;
use std::str::FromStr;
use std::time::Duration;

/// Main time plus an increment per move (Fischer) or a byoyomi period (shogi: once the main
/// time is spent, each move may take this long, and unused byoyomi is lost), in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub increment_ms: u64,
    pub byoyomi_ms: u64,
}

/// A time-control text that is not `BASE` or `BASE+INC` in (non-negative) seconds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    #[error("time control '{0}' is not BASE+INC in seconds (e.g. 10+0.1)")]
    Malformed(String),
    #[error("time control '{0}' has no main time")]
    NoMainTime(String),
}

/// Seconds (decimal, non-negative, finite) to whole milliseconds.
fn seconds_to_ms(text: &str) -> Option<u64> {
    let seconds: f64 = text.trim().parse().ok()?;
    (seconds.is_finite() && (0.0..1e9).contains(&seconds))
        .then(|| (seconds * 1000.0).round() as u64)
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// `BASE+INC` or `BASE`, both in seconds: `10+0.1`, `60`, `1+0.01`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let malformed = || TimeControlError::Malformed(text.to_string());
        let (base, increment) = match text.split_once('+') {
            Some((base, increment)) => (base, increment),
            None => (text, "0"),
        };
        let base_ms = seconds_to_ms(base).ok_or_else(malformed)?;
        let increment_ms = seconds_to_ms(increment).ok_or_else(malformed)?;
        if base_ms == 0 {
            return Err(TimeControlError::NoMainTime(text.to_string()));
        }
        Ok(Self {
            base_ms,
            increment_ms,
            byoyomi_ms: 0,
        })
    }
}

impl TimeControl {
    /// The same control with its increment read as a byoyomi period (`10+0.1` as 10 s of main
    /// time and 0.1 s byoyomi, as `scripts/match.py --byoyomi` reads it).
    pub fn increment_as_byoyomi(self) -> Self {
        Self {
            base_ms: self.base_ms,
            increment_ms: 0,
            byoyomi_ms: self.byoyomi_ms + self.increment_ms,
        }
    }

    /// `increment_as_byoyomi` when `byoyomi` is set (a `--byoyomi` flag), else the same control.
    pub fn with_byoyomi(self, byoyomi: bool) -> Self {
        if byoyomi {
            self.increment_as_byoyomi()
        } else {
            self
        }
    }
}

/// How much of its clock a player used: thinking time against the time it was given (the main
/// time plus one increment or byoyomi period per move), as `scripts/match.py` counts it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockUsage {
    pub used_ms: u64,
    pub given_ms: u64,
    pub moves: u64,
}

impl ClockUsage {
    /// Both records together (e.g. one player's games of a match).
    pub fn add(&mut self, other: ClockUsage) {
        self.used_ms += other.used_ms;
        self.given_ms += other.given_ms;
        self.moves += other.moves;
    }

    /// Share of the given time that was used, in percent (0 when nothing was given).
    pub fn percent(&self) -> f64 {
        if self.given_ms == 0 {
            0.0
        } else {
            100.0 * self.used_ms as f64 / self.given_ms as f64
        }
    }

    /// Average thinking time per move in ms (0 without moves).
    pub fn ms_per_move(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.used_ms as f64 / self.moves as f64
        }
    }
}

/// The clocks of one game, kept by the runner. A side without a time control has no clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    controls: [Option<TimeControl>; 2],
    /// Remaining time in ms; negative once a side has overstepped.
    remaining_ms: [i64; 2],
    /// What each side has used of the time it was given so far.
    usage: [ClockUsage; 2],
}

impl GameClock {
    /// Both clocks at their main time. `None` when neither side plays on a clock.
    pub fn new(controls: [Option<TimeControl>; 2]) -> Option<Self> {
        if controls.iter().all(Option::is_none) {
            return None;
        }
        Some(Self {
            controls,
            remaining_ms: controls.map(|c| c.map_or(0, |c| c.base_ms as i64)),
            usage: controls.map(|c| ClockUsage {
                given_ms: c.map_or(0, |c| c.base_ms),
                ..ClockUsage::default()
            }),
        })
    }

    /// What the searcher is told: both sides' remaining time and increments.
    pub fn search_clock(&self) -> Clock {
        let mut clock = Clock::default();
        for side in [Side::First, Side::Second] {
            let i = side.index();
            if let Some(control) = self.controls[i] {
                clock.time_ms[i] = Some(self.remaining_ms[i].max(0) as u64);
                clock.inc_ms[i] = control.increment_ms;
                clock.byoyomi_ms[i] = control.byoyomi_ms;
            }
        }
        clock
    }

    /// Charges `side` for a move that took `elapsed`. Returns `false` when its clock ran out
    /// (the increment is only added to a clock that did not). With byoyomi, the part of the move
    /// beyond the main time left is free up to one period; the clock then reads zero.
    pub fn charge(&mut self, side: Side, elapsed: Duration) -> bool {
        let i = side.index();
        let Some(control) = self.controls[i] else {
            return true;
        };
        let used = elapsed.as_millis().min(i64::MAX as u128) as i64;
        let usage = &mut self.usage[i];
        usage.used_ms += used as u64;
        usage.given_ms += control.increment_ms + control.byoyomi_ms;
        usage.moves += 1;
        if control.byoyomi_ms > 0 {
            let beyond_main = (used - self.remaining_ms[i].max(0)).max(0);
            if beyond_main == 0 {
                self.remaining_ms[i] -= used;
                return true;
            }
            let byoyomi = control.byoyomi_ms.min(i64::MAX as u64) as i64;
            self.remaining_ms[i] = (byoyomi - beyond_main).min(0);
            return beyond_main <= byoyomi;
        }
        self.remaining_ms[i] = self.remaining_ms[i].saturating_sub(used);
        if self.remaining_ms[i] < 0 {
            return false;
        }
        self.remaining_ms[i] += control.increment_ms as i64;
        true
    }

    /// Each side's use of its clock so far (`None` for a side without a clock).
    pub fn usage(&self) -> [Option<ClockUsage>; 2] {
        [0, 1].map(|i| self.controls[i].map(|_| self.usage[i]))
    }

    /// Remaining ms of each side (`None` for a side without a clock); negative after a flag fall.
    pub fn remaining_ms(&self) -> [Option<i64>; 2] {
        [0, 1].map(|i| self.controls[i].map(|_| self.remaining_ms[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_base_plus_increment_in_seconds() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!((tc.base_ms, tc.increment_ms), (10_000, 100));
        let tc: TimeControl = "1+0.01".parse().unwrap();
        assert_eq!((tc.base_ms, tc.increment_ms), (1_000, 10));
        let tc: TimeControl = "60".parse().unwrap();
        assert_eq!((tc.base_ms, tc.increment_ms), (60_000, 0));
        for bad in [
            "", "+1", "10+", "a+1", "-1+0", "10+-1", "1+2+3", "inf+0", "NaN",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(
            "0+1".parse::<TimeControl>(),
            Err(TimeControlError::NoMainTime("0+1".into()))
        );
    }

    #[test]
    fn clock_subtracts_time_used_and_adds_the_increment() {
        let tc = TimeControl {
            base_ms: 1000,
            increment_ms: 100,
            byoyomi_ms: 0,
        };
        let mut clock = GameClock::new([Some(tc), Some(tc)]).unwrap();
        assert!(clock.charge(Side::First, Duration::from_millis(300)));
        assert_eq!(clock.remaining_ms(), [Some(800), Some(1000)]);
        let seen = clock.search_clock();
        assert_eq!(seen.time_ms, [Some(800), Some(1000)]);
        assert_eq!(seen.inc_ms, [100, 100]);
        // Using exactly the remaining time is still in time, and earns the increment.
        assert!(clock.charge(Side::Second, Duration::from_millis(1000)));
        assert_eq!(clock.remaining_ms(), [Some(800), Some(100)]);
        assert!(!clock.charge(Side::Second, Duration::from_millis(105)));
        assert_eq!(clock.remaining_ms(), [Some(800), Some(-5)]);
        assert_eq!(clock.search_clock().time_ms[1], Some(0));
        // Use counts every move's thinking time against the main time and the increments.
        let [first, second] = clock.usage().map(Option::unwrap);
        assert_eq!(
            first,
            ClockUsage {
                used_ms: 300,
                given_ms: 1100,
                moves: 1
            }
        );
        assert_eq!(
            (second.used_ms, second.given_ms, second.moves),
            (1105, 1200, 2)
        );
        assert!((first.percent() - 100.0 * 300.0 / 1100.0).abs() < 1e-9);
        assert_eq!(second.ms_per_move(), 552.5);
    }

    #[test]
    fn a_side_without_a_clock_never_flags() {
        assert_eq!(GameClock::new([None, None]), None);
        let tc = TimeControl {
            base_ms: 10,
            increment_ms: 0,
            byoyomi_ms: 0,
        };
        let mut clock = GameClock::new([None, Some(tc)]).unwrap();
        assert!(clock.charge(Side::First, Duration::from_secs(100)));
        assert_eq!(clock.remaining_ms(), [None, Some(10)]);
        assert_eq!(clock.search_clock().time_ms, [None, Some(10)]);
        assert_eq!(clock.usage()[0], None);
    }

    #[test]
    fn byoyomi_is_free_beyond_main_time_and_lost_when_unused() {
        let tc: TimeControl = "1+0.2".parse().unwrap();
        let tc = tc.increment_as_byoyomi();
        assert_eq!((tc.base_ms, tc.increment_ms, tc.byoyomi_ms), (1000, 0, 200));
        let mut clock = GameClock::new([Some(tc), Some(tc)]).unwrap();
        let seen = clock.search_clock();
        assert_eq!(
            (seen.time_ms[0], seen.inc_ms[0], seen.byoyomi_ms[0]),
            (Some(1000), 0, 200)
        );
        // Within main time: main time pays.
        assert!(clock.charge(Side::First, Duration::from_millis(700)));
        assert_eq!(clock.remaining_ms(), [Some(300), Some(1000)]);
        // 300 ms of main time and 150 of byoyomi: main time is gone, the period is not charged.
        assert!(clock.charge(Side::First, Duration::from_millis(450)));
        assert_eq!(clock.remaining_ms(), [Some(0), Some(1000)]);
        // Each later move may take one whole period, and no more.
        assert!(clock.charge(Side::First, Duration::from_millis(200)));
        assert_eq!(clock.remaining_ms(), [Some(0), Some(1000)]);
        assert!(!clock.charge(Side::First, Duration::from_millis(230)));
        assert_eq!(clock.remaining_ms(), [Some(-30), Some(1000)]);
        // Main time and a whole period in one move is in time.
        assert!(clock.charge(Side::Second, Duration::from_millis(1200)));
        assert_eq!(clock.remaining_ms(), [Some(-30), Some(0)]);
        // Given: the main time and one period per move, used or not.
        let [first, second] = clock.usage().map(Option::unwrap);
        assert_eq!(
            (first.used_ms, first.given_ms, first.moves),
            (1580, 1800, 4)
        );
        assert_eq!((second.used_ms, second.given_ms), (1200, 1200));
    }
}
