//! SPSA tuning of the search parameters (`SearchParams`), as OpenBench and fishtest run it: each
//! iteration perturbs every tuned parameter by ±c_k at once (random signs), plays the two
//! perturbed configurations against each other, and moves the parameters along the signs in
//! proportion to the score difference. The state (current values and iterations done) is a
//! small text file, written atomically after every iteration, so a killed run resumes.
//!
//! Schedules (Spall): `c_k = c / (k + 1)^γ`, `a_k = a / (A + k + 1)^α` with α = 0.602,
//! γ = 0.101, A = iterations / 10; `c` is set so that `c_N` equals the parameter's `step`, and
//! `a` so that the learning rate `a_N / c_N²` equals `learning_rate` at the end.

use crate::search::{ParamSpec, SearchParams};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Write as _;
use std::path::Path;

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;
const STATE_HEADER: &str = "sente-spsa v1";

/// One tuned parameter: its spec and current (real-valued) estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct TunedParam {
    pub spec: ParamSpec,
    pub value: f64,
}

/// An SPSA run: the tuned parameters, the schedule and the iterations done.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    pub params: Vec<TunedParam>,
    /// Iterations planned (sets the schedules' constants).
    pub iterations: u64,
    /// Iterations done.
    pub done: u64,
    /// `a_N / c_N²` at the end of the run (OpenBench's `R_end`).
    pub learning_rate: f64,
    /// Seed of the perturbation signs (iteration k uses `seed ^ k`).
    pub seed: u64,
}

/// The two configurations of one iteration and the signs that made them.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    pub plus: SearchParams,
    pub minus: SearchParams,
    pub signs: Vec<f64>,
    /// `c_k` of each parameter.
    pub deltas: Vec<f64>,
}

impl Spsa {
    /// A run over `names` (all parameters when empty) starting from `start`.
    pub fn new(
        start: SearchParams,
        names: &[&str],
        iterations: u64,
        learning_rate: f64,
        seed: u64,
    ) -> Result<Self, String> {
        let mut params = Vec::new();
        for spec in SearchParams::SPECS {
            if names.is_empty() || names.contains(&spec.name) {
                params.push(TunedParam {
                    spec: *spec,
                    value: start.get(spec.name).unwrap_or(spec.default) as f64,
                });
            }
        }
        if let Some(unknown) = names
            .iter()
            .find(|n| !SearchParams::SPECS.iter().any(|s| s.name == **n))
        {
            return Err(format!("unknown search parameter `{unknown}`"));
        }
        if iterations == 0 {
            return Err("an SPSA run needs at least one iteration".to_string());
        }
        Ok(Self {
            params,
            iterations,
            done: 0,
            learning_rate,
            seed,
        })
    }

    fn big_a(&self) -> f64 {
        self.iterations as f64 / 10.0
    }

    /// `c_k` of a parameter at iteration `k`.
    fn c_k(&self, spec: &ParamSpec, k: u64) -> f64 {
        let c = spec.step as f64 * (self.iterations as f64).powf(GAMMA);
        c / ((k + 1) as f64).powf(GAMMA)
    }

    /// `a_k` of a parameter at iteration `k`.
    fn a_k(&self, spec: &ParamSpec, k: u64) -> f64 {
        let c_end = spec.step as f64;
        let a = self.learning_rate
            * c_end
            * c_end
            * (self.big_a() + self.iterations as f64).powf(ALPHA);
        a / (self.big_a() + (k + 1) as f64).powf(ALPHA)
    }

    /// The current estimate, rounded to the parameters' integers.
    pub fn current(&self, base: SearchParams) -> SearchParams {
        self.with_values(base, |p, _| p.value)
    }

    fn with_values(
        &self,
        base: SearchParams,
        value: impl Fn(&TunedParam, usize) -> f64,
    ) -> SearchParams {
        let mut changes = String::new();
        for (i, p) in self.params.iter().enumerate() {
            let v = value(p, i)
                .round()
                .clamp(p.spec.min as f64, p.spec.max as f64) as i32;
            let _ = write!(changes, "{}={v},", p.spec.name);
        }
        base.with_changes(&changes)
            .expect("clamped values of known parameters are accepted")
    }

    /// The configurations the next iteration plays against each other.
    pub fn perturbation(&self, base: SearchParams) -> Perturbation {
        let k = self.done;
        let mut rng =
            Xoshiro256PlusPlus::seed_from_u64(self.seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let signs: Vec<f64> = self
            .params
            .iter()
            .map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 })
            .collect();
        let deltas: Vec<f64> = self.params.iter().map(|p| self.c_k(&p.spec, k)).collect();
        Perturbation {
            plus: self.with_values(base, |p, i| p.value + deltas[i] * signs[i]),
            minus: self.with_values(base, |p, i| p.value - deltas[i] * signs[i]),
            signs,
            deltas,
        }
    }

    /// Applies the result of the iteration `perturbation` was made for: `score` is the plus
    /// side's points minus the minus side's (e.g. wins − losses of the plus configuration).
    pub fn update(&mut self, perturbation: &Perturbation, score: f64) {
        let k = self.done;
        let steps: Vec<f64> = self
            .params
            .iter()
            .zip(&perturbation.signs)
            .zip(&perturbation.deltas)
            .map(|((p, sign), c_k)| self.a_k(&p.spec, k) / c_k * score * sign)
            .collect();
        for (p, step) in self.params.iter_mut().zip(steps) {
            p.value = (p.value + step).clamp(p.spec.min as f64, p.spec.max as f64);
        }
        self.done += 1;
    }

    /// The state file's text.
    pub fn to_text(&self) -> String {
        let mut text = format!(
            "{STATE_HEADER}\niterations\t{}\ndone\t{}\nlearning_rate\t{}\nseed\t{}\n",
            self.iterations, self.done, self.learning_rate, self.seed
        );
        for p in &self.params {
            let _ = writeln!(text, "param\t{}\t{}", p.spec.name, p.value);
        }
        text
    }

    /// A run read back from `to_text`.
    pub fn from_text(text: &str) -> Result<Self, String> {
        let mut lines = text.lines();
        if lines.next() != Some(STATE_HEADER) {
            return Err(format!(
                "not an SPSA state (the first line must be `{STATE_HEADER}`)"
            ));
        }
        let mut state = Spsa {
            params: Vec::new(),
            iterations: 0,
            done: 0,
            learning_rate: 0.0,
            seed: 0,
        };
        for (number, line) in lines.enumerate() {
            let bad = || format!("line {}: `{line}` is malformed", number + 2);
            let fields: Vec<&str> = line.split('\t').collect();
            match fields.as_slice() {
                ["iterations", v] => state.iterations = v.parse().map_err(|_| bad())?,
                ["done", v] => state.done = v.parse().map_err(|_| bad())?,
                ["learning_rate", v] => state.learning_rate = v.parse().map_err(|_| bad())?,
                ["seed", v] => state.seed = v.parse().map_err(|_| bad())?,
                ["param", name, v] => {
                    let spec = SearchParams::SPECS
                        .iter()
                        .find(|s| s.name == *name)
                        .ok_or_else(|| {
                            format!("line {}: unknown parameter `{name}`", number + 2)
                        })?;
                    let value: f64 = v.parse().map_err(|_| bad())?;
                    if !value.is_finite() {
                        return Err(bad());
                    }
                    state.params.push(TunedParam { spec: *spec, value });
                }
                [""] => {}
                _ => return Err(bad()),
            }
        }
        if state.iterations == 0 || state.params.is_empty() || state.done > state.iterations {
            return Err("the SPSA state is incomplete".to_string());
        }
        Ok(state)
    }

    /// Writes the state to `path` atomically (a temporary file renamed over it).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_text())?;
        std::fs::rename(&tmp, path)
    }

    /// Whether this state continues a run of the same parameters and schedule.
    pub fn continues(&self, other: &Spsa) -> bool {
        self.iterations == other.iterations
            && self.learning_rate == other.learning_rate
            && self.seed == other.seed
            && self.params.len() == other.params.len()
            && self
                .params
                .iter()
                .zip(&other.params)
                .all(|(a, b)| a.spec.name == b.spec.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_ends_at_the_step_and_the_learning_rate() {
        let spsa = Spsa::new(SearchParams::default(), &["rfp_margin"], 1000, 0.002, 7).unwrap();
        let spec = spsa.params[0].spec;
        let n = spsa.iterations - 1;
        assert!((spsa.c_k(&spec, n) - spec.step as f64).abs() < 0.01 * spec.step as f64);
        let r_end = spsa.a_k(&spec, n) / spsa.c_k(&spec, n).powi(2);
        assert!((r_end - 0.002).abs() < 0.0001, "{r_end}");
        assert!(spsa.c_k(&spec, 0) > spsa.c_k(&spec, n));
    }

    #[test]
    fn perturbations_are_symmetric_and_reproducible() {
        let spsa = Spsa::new(SearchParams::default(), &[], 100, 0.002, 3).unwrap();
        let a = spsa.perturbation(SearchParams::default());
        let b = spsa.perturbation(SearchParams::default());
        assert_eq!(a, b);
        for (i, p) in spsa.params.iter().enumerate() {
            let plus = a.plus.get(p.spec.name).unwrap() as f64;
            let minus = a.minus.get(p.spec.name).unwrap() as f64;
            assert!(
                (plus - minus) * a.signs[i] > 0.0,
                "{}: the plus side moves along the sign",
                p.spec.name
            );
        }
    }

    /// A noisy objective with its optimum away from the default: SPSA's estimate must move
    /// toward it and end closer than it started.
    #[test]
    fn the_estimate_climbs_a_noisy_objective() {
        let target = 130.0;
        let mut spsa = Spsa::new(SearchParams::default(), &["rfp_margin"], 400, 0.01, 11).unwrap();
        let mut noise = Xoshiro256PlusPlus::seed_from_u64(5);
        let strength = |v: i32| -((v as f64 - target) / 40.0).powi(2);
        for _ in 0..spsa.iterations {
            let p = spsa.perturbation(SearchParams::default());
            let edge = strength(p.plus.rfp_margin) - strength(p.minus.rfp_margin);
            // Two games: each won by plus with a probability rising with its edge.
            let mut score = 0.0;
            for _ in 0..2 {
                let u = (noise.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                score += if u < 0.5 + edge.clamp(-0.5, 0.5) {
                    1.0
                } else {
                    -1.0
                };
            }
            spsa.update(&p, score);
        }
        let end = spsa.current(SearchParams::default()).rfp_margin as f64;
        assert!(
            (end - target).abs() < (80.0 - target).abs() / 2.0,
            "ended at {end}, target {target}"
        );
    }

    #[test]
    fn the_state_round_trips_and_damage_is_refused() {
        let mut spsa = Spsa::new(
            SearchParams::default(),
            &["lmr_base", "see_noisy"],
            50,
            0.002,
            9,
        )
        .unwrap();
        let p = spsa.perturbation(SearchParams::default());
        spsa.update(&p, 2.0);
        let back = Spsa::from_text(&spsa.to_text()).unwrap();
        assert_eq!(back, spsa);
        assert!(back.continues(&spsa));
        assert!(Spsa::from_text("garbage").is_err());
        assert!(Spsa::from_text(&spsa.to_text().replace("lmr_base", "nope")).is_err());
        assert!(Spsa::from_text(&spsa.to_text().replace("done\t1", "done\tx")).is_err());
        let truncated: String = spsa
            .to_text()
            .lines()
            .take(3)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(Spsa::from_text(&truncated).is_err());
        assert!(Spsa::new(SearchParams::default(), &["nope"], 10, 0.002, 1).is_err());
    }
}
