//! CECP time controls: `level`, `st`, `sd`, `nps`, `time` and `otim`, parsed without any game
//! behind them and turned into search limits for the engine's move.

use crate::game::Side;
use crate::search::{Clock, Limits};

/// Why a time-control command could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    #[error("expected {expected} arguments, got {got}")]
    ArgumentCount { expected: usize, got: usize },
    #[error("'{0}' is not a number")]
    BadNumber(String),
    #[error("'{0}' is not a time in minutes or minutes:seconds")]
    BadBase(String),
}

/// Conventional or incremental clock (`level MPS BASE INC`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// Moves per session; 0 = the whole game.
    pub moves_per_session: u32,
    pub base_ms: u64,
    pub inc_ms: u64,
}

/// xboard's default time control.
const DEFAULT_LEVEL: Level = Level {
    moves_per_session: 40,
    base_ms: 300_000,
    inc_ms: 0,
};

/// How the engine's thinking time is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Timing {
    Level(Level),
    /// Exactly this long per move (`st`).
    PerMove {
        ms: u64,
    },
}

/// Everything CECP has said about time and depth.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct CecpClock {
    pub timing: Option<Timing>,
    /// Engine's remaining time (`time`), ms.
    pub engine_ms: Option<u64>,
    /// Opponent's remaining time (`otim`), ms.
    pub opponent_ms: Option<u64>,
    /// `sd`: depth limit.
    pub depth: Option<u32>,
    /// `nps`: node rate that replaces the wall clock; `None` or 0 = wall clock.
    pub nps: Option<u64>,
}

/// Parses `level MPS BASE INC` arguments; BASE is `M`, `M:SS` (trailing characters such as
/// `25+5` are ignored as the specification asks), INC may be fractional seconds.
pub fn parse_level(args: &[&str]) -> Result<Level, ClockError> {
    if args.len() != 3 {
        return Err(ClockError::ArgumentCount {
            expected: 3,
            got: args.len(),
        });
    }
    let moves_per_session = args[0]
        .parse::<u32>()
        .map_err(|_| ClockError::BadNumber(args[0].to_string()))?;
    let base_ms = parse_base(args[1])?;
    let inc_ms = seconds_to_ms(args[2])?;
    Ok(Level {
        moves_per_session,
        base_ms,
        inc_ms,
    })
}

fn parse_base(text: &str) -> Result<u64, ClockError> {
    let bad = || ClockError::BadBase(text.to_string());
    let numeric: String = text
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ':' || *c == '.')
        .collect();
    let (minutes, seconds) = match numeric.split_once(':') {
        Some((m, s)) => (m, s),
        None => (numeric.as_str(), "0"),
    };
    let minutes: f64 = minutes.parse().map_err(|_| bad())?;
    let seconds: f64 = seconds.parse().map_err(|_| bad())?;
    let total = minutes * 60_000.0 + seconds * 1000.0;
    if !total.is_finite() || total < 0.0 {
        return Err(bad());
    }
    Ok(total.round() as u64)
}

/// Seconds (integer or fractional, as `st` and the level increment give them) to ms.
pub fn seconds_to_ms(text: &str) -> Result<u64, ClockError> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| ClockError::BadNumber(text.to_string()))?;
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(ClockError::BadNumber(text.to_string()));
    }
    Ok((seconds * 1000.0).round().min(u64::MAX as f64 / 2.0) as u64)
}

/// `time` / `otim` centiseconds to ms; readings below zero count as zero.
pub fn centiseconds_to_ms(text: &str) -> Result<u64, ClockError> {
    let cs: f64 = text
        .parse()
        .map_err(|_| ClockError::BadNumber(text.to_string()))?;
    if !cs.is_finite() {
        return Err(ClockError::BadNumber(text.to_string()));
    }
    Ok((cs.max(0.0) * 10.0).round() as u64)
}

impl CecpClock {
    /// `new`: depth limit and node rate end with the game; the time control stays.
    pub fn reset_for_new_game(&mut self) {
        self.depth = None;
        self.nps = None;
        self.engine_ms = None;
        self.opponent_ms = None;
    }

    /// Limits for the engine's own move. `engine_moves_made` counts the engine side's moves
    /// so far in the game (for moves-per-session clocks).
    pub fn limits<M>(&self, engine: Side, engine_moves_made: u32) -> Limits<M> {
        let mut limits = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        let nps = self.nps.filter(|&n| n > 0);
        // Without any time control, xboard's own default (40 moves in 5 minutes) applies.
        let timing = self.timing.unwrap_or(Timing::Level(DEFAULT_LEVEL));
        match timing {
            Timing::PerMove { ms } => match nps {
                Some(rate) => limits.nodes = Some((rate.saturating_mul(ms) / 1000).max(1)),
                None => limits.move_time_ms = Some(ms),
            },
            Timing::Level(level) => {
                let moves_to_go = (level.moves_per_session > 0)
                    .then(|| level.moves_per_session - engine_moves_made % level.moves_per_session);
                let own = self.engine_ms.unwrap_or(level.base_ms);
                let other = self.opponent_ms.unwrap_or(level.base_ms);
                match nps {
                    Some(rate) => {
                        let share = own / u64::from(moves_to_go.unwrap_or(30).max(1));
                        let budget_ms = share + level.inc_ms;
                        limits.nodes = Some((rate.saturating_mul(budget_ms) / 1000).max(1));
                    }
                    None => {
                        let mut time_ms = [None, None];
                        time_ms[engine.index()] = Some(own);
                        time_ms[engine.flip().index()] = Some(other);
                        limits.clock = Some(Clock {
                            time_ms,
                            inc_ms: [level.inc_ms; 2],
                            moves_to_go,
                            byoyomi_ms: [0; 2],
                        });
                    }
                }
            }
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_forms() {
        assert_eq!(
            parse_level(&["40", "5", "0"]).unwrap(),
            Level {
                moves_per_session: 40,
                base_ms: 300_000,
                inc_ms: 0
            }
        );
        assert_eq!(parse_level(&["40", "0:30", "0"]).unwrap().base_ms, 30_000);
        assert_eq!(parse_level(&["0", "2:30", "2"]).unwrap().base_ms, 150_000);
        assert_eq!(parse_level(&["0", "0:20", "1"]).unwrap().inc_ms, 1000);
        assert_eq!(parse_level(&["0", "1", "0.5"]).unwrap().inc_ms, 500);
        assert_eq!(
            parse_level(&["40", "25+5", "0"]).unwrap().base_ms,
            1_500_000
        );
        assert!(parse_level(&["40", "5"]).is_err());
        assert!(parse_level(&["x", "5", "0"]).is_err());
        assert!(parse_level(&["40", "abc", "0"]).is_err());
        assert!(parse_level(&["40", "5", "-1"]).is_err());
    }

    #[test]
    fn st_and_time_units() {
        assert_eq!(seconds_to_ms("0.5").unwrap(), 500);
        assert_eq!(seconds_to_ms("30").unwrap(), 30_000);
        assert_eq!(seconds_to_ms("86400").unwrap(), 86_400_000);
        assert!(seconds_to_ms("fast").is_err());
        assert_eq!(centiseconds_to_ms("29996").unwrap(), 299_960);
        assert_eq!(centiseconds_to_ms("-5").unwrap(), 0);
    }

    #[test]
    fn limits_from_level_and_clocks() {
        let clock = CecpClock {
            timing: Some(Timing::Level(parse_level(&["40", "5", "0"]).unwrap())),
            engine_ms: Some(100_000),
            opponent_ms: Some(90_000),
            depth: Some(6),
            nps: None,
        };
        let limits: Limits<u16> = clock.limits(Side::Second, 45);
        let c = limits.clock.unwrap();
        assert_eq!(c.time_ms, [Some(90_000), Some(100_000)]);
        assert_eq!(c.moves_to_go, Some(35));
        assert_eq!(limits.depth, Some(6));
        assert!(!limits.infinite);
    }

    #[test]
    fn nps_turns_time_into_nodes() {
        let clock = CecpClock {
            timing: Some(Timing::PerMove { ms: 20_000_000 }),
            nps: Some(1),
            ..CecpClock::default()
        };
        let limits: Limits<u16> = clock.limits(Side::First, 0);
        assert_eq!(limits.nodes, Some(20_000));
        assert_eq!(limits.move_time_ms, None);
        let clock = CecpClock {
            timing: Some(Timing::PerMove { ms: 500 }),
            ..CecpClock::default()
        };
        let limits: Limits<u16> = clock.limits(Side::First, 0);
        assert_eq!(limits.move_time_ms, Some(500));
        let limits: Limits<u16> = CecpClock::default().limits(Side::First, 0);
        assert!(!limits.infinite);
        assert_eq!(limits.clock.unwrap().moves_to_go, Some(40));
    }
}
