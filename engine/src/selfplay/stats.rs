//! Match statistics: Elo from a score, its 95% error from the game (trinomial) or game-pair
//! (pentanomial) distribution, and the sequential probability ratio test (SPRT) in the usual
//! normal approximation of the log-likelihood ratio.

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_985;

/// Elo difference for an expected score in (0, 1); ±infinity at the ends.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Win/draw/loss counts of the first configuration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WdlCounts {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl WdlCounts {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

impl std::ops::Add for WdlCounts {
    type Output = Self;
    fn add(self, other: Self) -> Self {
        Self {
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
        }
    }
}

/// The games of `self` not in `other` (`other` a part of `self`: saturating, never below 0).
impl std::ops::Sub for WdlCounts {
    type Output = Self;
    fn sub(self, other: Self) -> Self {
        Self {
            wins: self.wins.saturating_sub(other.wins),
            draws: self.draws.saturating_sub(other.draws),
            losses: self.losses.saturating_sub(other.losses),
        }
    }
}

/// Game pairs (same opening, colours swapped) by the first configuration's pair score:
/// index 0 = 0 points, 1 = ½, 2 = 1, 3 = 1½, 4 = 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
}

impl std::ops::Add for Pentanomial {
    type Output = Self;
    fn add(self, other: Self) -> Self {
        Self(std::array::from_fn(|i| self.0[i] + other.0[i]))
    }
}

/// The pairs of `self` not in `other` (`other` a part of `self`: saturating, never below 0).
impl std::ops::Sub for Pentanomial {
    type Output = Self;
    fn sub(self, other: Self) -> Self {
        Self(std::array::from_fn(|i| {
            self.0[i].saturating_sub(other.0[i])
        }))
    }
}

/// Mean and variance of one sample (a game or a pair scaled to [0, 1]), from outcome counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreDistribution {
    pub mean: f64,
    /// Variance of a single sample.
    pub variance: f64,
    pub samples: u64,
}

impl ScoreDistribution {
    fn from_counts(values: &[f64], counts: &[u64]) -> Option<Self> {
        let samples: u64 = counts.iter().sum();
        if samples == 0 {
            return None;
        }
        let n = samples as f64;
        let mean = values
            .iter()
            .zip(counts)
            .map(|(v, &c)| v * c as f64)
            .sum::<f64>()
            / n;
        let variance = values
            .iter()
            .zip(counts)
            .map(|(v, &c)| (v - mean).powi(2) * c as f64)
            .sum::<f64>()
            / n;
        Some(Self {
            mean,
            variance,
            samples,
        })
    }

    /// Games as independent samples: 1, ½, 0.
    pub fn trinomial(c: &WdlCounts) -> Option<Self> {
        Self::from_counts(&[1.0, 0.5, 0.0], &[c.wins, c.draws, c.losses])
    }

    /// Game pairs as samples: 0, ¼, ½, ¾, 1 (pair score / 2).
    pub fn pentanomial(p: &Pentanomial) -> Option<Self> {
        Self::from_counts(&[0.0, 0.25, 0.5, 0.75, 1.0], &p.0)
    }

    /// Elo with its 95% interval half-width (`elo ± error`). An interval that reaches a score of
    /// 0 or 1 (every game lost or won, or too few games) has no finite width: the error is then
    /// infinite, never NaN.
    pub fn elo_with_error(&self) -> (f64, f64) {
        let stderr = (self.variance / self.samples as f64).sqrt();
        let low = elo_from_score(self.mean - Z95 * stderr);
        let high = elo_from_score(self.mean + Z95 * stderr);
        let error = (high - low) / 2.0;
        (
            elo_from_score(self.mean),
            if error.is_nan() { f64::INFINITY } else { error },
        )
    }

    /// Log-likelihood ratio of H1 (elo1) against H0 (elo0), normal approximation:
    /// N · (s1 − s0) · (2·s̄ − s0 − s1) / (2·σ²). The variance is at least 1/N: when every
    /// sample is the same (all pairs won, say) the measured spread is zero, while N samples only
    /// show that another outcome is rarer than about 1 in N. So the ratio still moves towards the
    /// hypothesis nearer the mean as identical samples accumulate (quadratically in N), instead
    /// of staying at zero for ever, and a handful of them decides nothing.
    pub fn sprt_llr(&self, elo0: f64, elo1: f64) -> f64 {
        let variance = self.variance.max(1.0 / self.samples.max(1) as f64);
        let s0 = score_from_elo(elo0);
        let s1 = score_from_elo(elo1);
        self.samples as f64 * (s1 - s0) * (2.0 * self.mean - s0 - s1) / (2.0 * variance)
    }
}

/// An SPRT's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// LLR above the upper bound: the change gains at least elo1 (H1).
    AcceptH1,
    /// LLR below the lower bound: it does not gain elo0 (H0).
    AcceptH0,
    Continue,
}

impl Sprt {
    /// (lower, upper) LLR bounds: ln(β/(1−α)), ln((1−β)/α).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_from_known_scores() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(elo_from_score(0.75), 190.848, 0.01));
        assert!(close(elo_from_score(0.25), -190.848, 0.01));
        assert!(close(elo_from_score(10.0 / 11.0), 400.0, 1e-9));
        assert!(close(score_from_elo(elo_from_score(0.6)), 0.6, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn a_match_lost_or_won_whole_has_an_infinite_error_not_nan() {
        for (wins, losses, elo) in [(0, 6, f64::NEG_INFINITY), (6, 0, f64::INFINITY)] {
            let d = ScoreDistribution::trinomial(&WdlCounts {
                wins,
                draws: 0,
                losses,
            })
            .unwrap();
            assert_eq!(d.elo_with_error(), (elo, f64::INFINITY));
        }
        let lost_pairs = ScoreDistribution::pentanomial(&Pentanomial([3, 0, 0, 0, 0])).unwrap();
        assert_eq!(
            lost_pairs.elo_with_error(),
            (f64::NEG_INFINITY, f64::INFINITY)
        );
    }

    #[test]
    fn trinomial_error_matches_a_hand_computation() {
        // 40 W, 20 D, 40 L: mean ½, variance 0.2, stderr √0.002 = 0.044721.
        let d = ScoreDistribution::trinomial(&WdlCounts {
            wins: 40,
            draws: 20,
            losses: 40,
        })
        .unwrap();
        assert!(close(d.mean, 0.5, 1e-12) && close(d.variance, 0.2, 1e-12));
        let (elo, error) = d.elo_with_error();
        assert!(close(elo, 0.0, 1e-9));
        // ±1.96 · 0.044721 = ±0.087652 → Elo(0.587652) = 61.55.
        assert!(close(error, 61.55, 0.05), "{error}");
    }

    #[test]
    fn pentanomial_of_pairs_with_known_variance() {
        // Pairs: 10 × ½ point, 30 × 1 point, 10 × 1½ points → scaled 0.25/0.5/0.75.
        let p = Pentanomial([0, 10, 30, 10, 0]);
        let d = ScoreDistribution::pentanomial(&p).unwrap();
        assert!(close(d.mean, 0.5, 1e-12));
        // Variance = (10·0.0625 + 10·0.0625) / 50 = 0.025.
        assert!(close(d.variance, 0.025, 1e-12));
        assert_eq!(d.samples, 50);
        assert!(ScoreDistribution::pentanomial(&Pentanomial::default()).is_none());
    }

    #[test]
    fn sprt_llr_on_known_counts() {
        // 60 W, 80 D, 40 L: mean 100/180, variance from the counts; elo0 = 0, elo1 = 10.
        let d = ScoreDistribution::trinomial(&WdlCounts {
            wins: 60,
            draws: 80,
            losses: 40,
        })
        .unwrap();
        let mean: f64 = 100.0 / 180.0;
        let variance =
            (60.0 * (1.0 - mean).powi(2) + 80.0 * (0.5 - mean).powi(2) + 40.0 * mean.powi(2))
                / 180.0;
        let s0 = 0.5;
        let s1 = 1.0 / (1.0 + 10f64.powf(-10.0 / 400.0));
        let expected = 180.0 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance);
        assert!(close(d.sprt_llr(0.0, 10.0), expected, 1e-9));
        assert!(close(expected, 0.9222, 0.001), "{expected}");
        // Even results favour H0; twice the same results double the LLR.
        let even = ScoreDistribution::trinomial(&WdlCounts {
            wins: 50,
            draws: 80,
            losses: 50,
        })
        .unwrap();
        assert!(even.sprt_llr(0.0, 10.0) < 0.0);
        let double = ScoreDistribution::trinomial(&WdlCounts {
            wins: 120,
            draws: 160,
            losses: 80,
        })
        .unwrap();
        assert!(close(double.sprt_llr(0.0, 10.0), 2.0 * expected, 1e-9));
    }

    #[test]
    fn identical_outcomes_still_move_the_sprt_towards_the_nearer_hypothesis() {
        let pairs = |won: u64, lost: u64| {
            ScoreDistribution::pentanomial(&Pentanomial([lost, 0, 0, 0, won])).unwrap()
        };
        let sprt = Sprt {
            elo0: -1500.0,
            elo1: -500.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // Every pair won: far above both hypotheses, so H1, and more so with more pairs.
        let (won8, won16) = (pairs(8, 0), pairs(16, 0));
        assert_eq!(won16.variance, 0.0);
        assert!(won16.sprt_llr(-1500.0, -500.0) > won8.sprt_llr(-1500.0, -500.0));
        assert_eq!(
            sprt.verdict(won16.sprt_llr(-1500.0, -500.0)),
            SprtVerdict::AcceptH1
        );
        // Every pair lost at [0, 10]: a few decide nothing, two dozen say H0.
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            ..sprt
        };
        for few in 1..=4 {
            let llr = pairs(0, few).sprt_llr(0.0, 10.0);
            assert!(llr < 0.0, "{llr}");
            assert_eq!(sprt.verdict(llr), SprtVerdict::Continue, "{few} pairs");
        }
        assert_eq!(
            sprt.verdict(pairs(0, 24).sprt_llr(0.0, 10.0)),
            SprtVerdict::AcceptH0
        );
    }

    #[test]
    fn sprt_bounds_and_verdicts() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944, 0.001) && close(upper, 2.944, 0.001));
        assert_eq!(sprt.verdict(3.0), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(-3.0), SprtVerdict::AcceptH0);
        assert_eq!(sprt.verdict(0.5), SprtVerdict::Continue);
    }
}
