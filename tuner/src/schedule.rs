//! Learning-rate schedules: constant, step decay and cosine annealing, parsed from the command
//! line (`constant:0.001`, `step:0.001:0.3:8` = ×0.3 every 8 superbatches,
//! `cosine:0.001:0.00001`).

use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LrSchedule {
    Constant(f32),
    /// Start rate, factor, every N superbatches.
    Step {
        start: f32,
        gamma: f32,
        every: u32,
    },
    /// From `start` down to `end` along a half cosine over the whole run.
    Cosine {
        start: f32,
        end: f32,
    },
}

impl LrSchedule {
    /// Learning rate during superbatch `superbatch` (0-based) of `total`.
    pub fn rate(&self, superbatch: u32, total: u32) -> f32 {
        match *self {
            LrSchedule::Constant(lr) => lr,
            LrSchedule::Step {
                start,
                gamma,
                every,
            } => start * gamma.powi((superbatch / every.max(1)) as i32),
            LrSchedule::Cosine { start, end } => {
                let t = if total <= 1 {
                    0.0
                } else {
                    superbatch as f32 / (total - 1) as f32
                };
                end + 0.5 * (start - end) * (1.0 + (std::f32::consts::PI * t).cos())
            }
        }
    }
}

impl FromStr for LrSchedule {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let parts: Vec<&str> = text.split(':').collect();
        let num = |i: usize| -> Result<f32, String> {
            parts
                .get(i)
                .ok_or_else(|| format!("schedule '{text}' is missing a value"))?
                .parse::<f32>()
                .map_err(|e| format!("schedule '{text}': {e}"))
        };
        match parts[0] {
            "constant" => Ok(LrSchedule::Constant(num(1)?)),
            "step" => Ok(LrSchedule::Step {
                start: num(1)?,
                gamma: num(2)?,
                every: num(3)? as u32,
            }),
            "cosine" => Ok(LrSchedule::Cosine {
                start: num(1)?,
                end: num(2)?,
            }),
            other => other
                .parse::<f32>()
                .map(LrSchedule::Constant)
                .map_err(|_| format!("unknown schedule '{text}' (constant:LR, step:LR:GAMMA:EVERY, cosine:START:END)")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_parse_and_follow_their_shape() {
        let step: LrSchedule = "step:0.01:0.5:2".parse().unwrap();
        assert_eq!(step.rate(0, 10), 0.01);
        assert_eq!(step.rate(2, 10), 0.005);
        let cos: LrSchedule = "cosine:0.01:0.001".parse().unwrap();
        assert!((cos.rate(0, 11) - 0.01).abs() < 1e-7);
        assert!((cos.rate(10, 11) - 0.001).abs() < 1e-7);
        assert!((cos.rate(5, 11) - 0.0055).abs() < 1e-6);
        assert_eq!(
            "0.002".parse::<LrSchedule>().unwrap(),
            LrSchedule::Constant(0.002)
        );
        assert!("wobble:1".parse::<LrSchedule>().is_err());
    }
}
