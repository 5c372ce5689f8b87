//! The search's numeric constants (margins, reduction formula, history bonus), declared once as
//! a table of named parameters with their defaults and tuning ranges. `SearchParams::default()`
//! is the engine's search; a tuner (`datagen spsa`) or a match (`datagen match --a-params`)
//! changes named values, so one binary measures or tunes them.

use super::change_list::split_changes;
use crate::game::Game;

/// Late-move reductions are kept in this fraction of a ply (`reduction_table`).
pub const REDUCTION_GRAIN: i32 = 1024;

/// One tunable constant: its name, default, the range a tuner may move it in, and the SPSA
/// perturbation at the end of a tuning run (`step`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: i32,
}

macro_rules! search_params {
    ($($(#[doc = $doc:expr])* $field:ident: $default:literal, $min:literal ..= $max:literal, step $step:literal;)*) => {
        /// The search's tunable constants (see each field); `Default` is the engine's search.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $field: i32,)*
        }

        impl Default for SearchParams {
            fn default() -> Self {
                Self { $($field: $default,)* }
            }
        }

        impl SearchParams {
            /// Every parameter with its default and tuning range, in declaration order.
            pub const SPECS: &'static [ParamSpec] = &[
                $(ParamSpec { name: stringify!($field), default: $default, min: $min, max: $max, step: $step },)*
            ];

            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $(stringify!($field) => Some(&mut self.$field),)*
                    _ => None,
                }
            }

            /// The value of the parameter `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($field) => Some(self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

search_params! {
    /// Reverse futility: margin per ply of depth.
    rfp_margin: 80, 40..=160, step 8;
    /// Reverse futility: deepest node it applies to.
    rfp_depth: 8, 4..=12, step 1;
    /// Null move: base reduction.
    nmp_base: 3, 2..=5, step 1;
    /// Null move: one more ply of reduction per this many plies of depth.
    nmp_depth_divisor: 3, 2..=6, step 1;
    /// Null move: one more ply of reduction per this much eval above beta (at most
    /// `nmp_eval_cap`).
    nmp_eval_divisor: 200, 100..=400, step 20;
    /// Null move: the most plies the evaluation's margin over beta adds to the reduction.
    nmp_eval_cap: 3, 1..=8, step 1;
    /// Late-move pruning: quiets searched before the rest are skipped, `(base + depth²)`,
    /// halved when not improving.
    lmp_base: 3, 1..=8, step 1;
    /// Futility pruning of quiets: base margin.
    futility_base: 100, 40..=200, step 10;
    /// Futility pruning of quiets: margin per ply of reduced depth.
    futility_per_depth: 90, 40..=160, step 8;
    /// SEE pruning of quiets: threshold per squared ply of reduced depth.
    see_quiet: 25, 10..=60, step 3;
    /// SEE pruning of captures: threshold per ply of depth.
    see_noisy: 90, 40..=160, step 8;
    /// Singular extensions: the bound is the table value minus this × depth / 2.
    singular_margin: 4, 2..=8, step 1;
    /// Singular extensions: the shallowest node that tests its table move for singularity.
    singular_depth: 8, 4..=12, step 1;
    /// Late-move reductions: `base/100 + ln(depth) ln(moves) / (divisor/100)`.
    lmr_base: 75, 25..=125, step 8;
    /// Late-move reductions: the divisor of the log product, in hundredths.
    lmr_divisor: 225, 150..=350, step 12;
    /// Late-move reductions: one ply less per this much history.
    lmr_history_divisor: 8192, 4096..=16384, step 512;
    /// Aspiration window: initial half-width.
    aspiration_delta: 18, 8..=40, step 2;
    /// Quiescence futility: captures whose gain stays this far below alpha are skipped.
    qs_futility: 200, 80..=400, step 15;
    /// History bonus of a cutoff at depth d: `min(quadratic·d² + linear·d, max)`.
    history_quadratic: 16, 4..=96, step 2;
    /// History bonus: linear term.
    history_linear: 32, 0..=384, step 8;
    /// History bonus: the largest bonus.
    history_max: 1600, 800..=9600, step 100;
    /// `material_scaling`: the static evaluation is scaled by (base + board material / divisor)
    /// / 1024 (chess: 7,800 of material at the start, so 0.99 there and 0.75 with kings alone).
    material_scale_base: 768, 512..=1024, step 32;
    /// `material_scaling`: the board material's divisor in that factor.
    material_scale_divisor: 32, 16..=64, step 2;
    /// Time: moves the main time is spread over on a sudden-death or increment clock (no effect
    /// at fixed nodes).
    fischer_horizon: 30, 10..=60, step 2;
    /// Time: moves the main time is spread over when a byoyomi period follows it (no effect at
    /// fixed nodes, nor on Fischer clocks).
    byoyomi_horizon: 45, 8..=60, step 2;
    /// Time: moves a side is expected to play in a game with byoyomi (0: not used). Main time
    /// is then spread over the moves left to that many, and never over fewer than
    /// `byoyomi_horizon`.
    byoyomi_game_moves: 0, 0..=150, step 4;
    /// Time: the hard bound's main time in percent of the move's share of it (the search stops
    /// there even inside an iteration; no effect at fixed nodes).
    hard_bound_percent: 400, 150..=600, step 25;
    /// Time: after an iteration the search stops once this share (per mille) of the soft bound
    /// has passed, when the best move did not change lately.
    time_stable_permille: 700, 300..=1000, step 25;
    /// Time: each recent change of the best move (halved every iteration) adds this share.
    time_change_permille: 500, 0..=1200, step 50;
    /// Time: the largest share of the soft bound the changes may stretch it to.
    time_stretch_max_permille: 2000, 1000..=3000, step 100;
}

impl SearchParams {
    /// The bonus (or malus) of a history entry for a cutoff at `depth`.
    #[inline]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (depth * depth * self.history_quadratic + self.history_linear * depth).min(self.history_max)
    }

    /// The late-move reduction table, `[depth][moves searched]`, both below 64, in
    /// 1/`REDUCTION_GRAIN` plies (its whole plies are the formula's integer part).
    pub fn reduction_table(&self) -> Vec<[i32; 64]> {
        let base = self.lmr_base as f64 / 100.0;
        let divisor = self.lmr_divisor.max(1) as f64 / 100.0;
        (0..64)
            .map(|depth| {
                let mut row = [0; 64];
                for (count, r) in row.iter_mut().enumerate().skip(1) {
                    if depth > 0 {
                        let plies = base + (depth as f64).ln() * (count as f64).ln() / divisor;
                        *r = (plies * REDUCTION_GRAIN as f64) as i32;
                    }
                }
                row
            })
            .collect()
    }

    /// The engine's parameters in game `G`: the shared defaults with the game's own changes
    /// (`Game::SEARCH_PARAMS`).
    pub fn for_game<G: Game>() -> Self {
        Self::default()
            .with_changes(G::SEARCH_PARAMS)
            .expect("a game's search parameters lie in their ranges")
    }

    /// The parameters that differ from the shared defaults, as `with_changes` takes them
    /// (empty for the defaults).
    pub fn changes(&self) -> String {
        self.changes_from(&Self::default())
    }

    /// The parameters that differ from `base`, as `with_changes` takes them.
    pub fn changes_from(&self, base: &Self) -> String {
        Self::SPECS
            .iter()
            .filter_map(|spec| {
                let value = self.get(spec.name)?;
                (Some(value) != base.get(spec.name)).then(|| format!("{}={value}", spec.name))
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// These parameters changed by a comma-separated list of `name=value` (e.g.
    /// `rfp_margin=90,lmr_base=70`); an empty list changes nothing. Values outside a
    /// parameter's range are refused.
    pub fn with_changes(mut self, changes: &str) -> Result<Self, String> {
        for (name, value) in split_changes(changes, "name=value")? {
            let change = format!("{name}={value}");
            let spec = Self::SPECS
                .iter()
                .find(|spec| spec.name == name)
                .ok_or_else(|| {
                    let known: Vec<_> = Self::SPECS.iter().map(|s| s.name).collect();
                    format!(
                        "unknown search parameter `{name}` (known: {})",
                        known.join(", ")
                    )
                })?;
            let value: i32 = value
                .parse()
                .map_err(|_| format!("`{change}`: the value must be an integer"))?;
            if !(spec.min..=spec.max).contains(&value) {
                return Err(format!(
                    "`{change}`: {} must lie in {}..={}",
                    spec.name, spec.min, spec.max
                ));
            }
            *self.slot(spec.name).expect("every spec names a field") = value;
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_inside_their_ranges_and_steps_fit() {
        for spec in SearchParams::SPECS {
            assert!(
                spec.min <= spec.default && spec.default <= spec.max,
                "{spec:?}"
            );
            assert!(
                spec.step > 0 && spec.step <= spec.max - spec.min,
                "{spec:?}"
            );
            assert_eq!(SearchParams::default().get(spec.name), Some(spec.default));
        }
    }

    #[test]
    fn changes_set_named_values_and_refuse_bad_ones() {
        let p = SearchParams::default()
            .with_changes("rfp_margin=90, lmr_base=70")
            .unwrap();
        assert_eq!((p.rfp_margin, p.lmr_base), (90, 70));
        assert_eq!(p.changes(), "rfp_margin=90,lmr_base=70");
        assert_eq!(SearchParams::default().changes(), "");
        assert_eq!(
            SearchParams::default().with_changes(&p.changes()),
            Ok(p),
            "changes() round-trips"
        );
        assert!(SearchParams::default().with_changes("razor=3").is_err());
        assert!(SearchParams::default().with_changes("rfp_margin").is_err());
        assert!(SearchParams::default()
            .with_changes("rfp_margin=x")
            .is_err());
        assert!(SearchParams::default()
            .with_changes("rfp_margin=1000")
            .is_err());
    }

    #[test]
    fn each_game_starts_from_its_own_parameters() {
        let chess = SearchParams::for_game::<crate::chess::Position>();
        assert_eq!(chess.history_bonus(3), 32 * 9 + 128 * 3);
        assert_eq!(chess.changes_from(&chess), "");
        assert_eq!(
            chess.changes(),
            "lmr_base=100,history_quadratic=32,history_linear=128,history_max=3200,\
             material_scale_base=600,material_scale_divisor=20"
        );
        let shogi = SearchParams::for_game::<crate::shogi::Position>();
        assert_eq!(shogi.changes(), "");
        assert_eq!(
            shogi.changes_from(&chess),
            "lmr_base=75,history_quadratic=16,history_linear=32,history_max=1600,\
             material_scale_base=768,material_scale_divisor=32"
        );
    }

    #[test]
    fn the_default_reduction_table_and_bonus_are_the_engines_formulas() {
        let table = SearchParams::default().reduction_table();
        for (depth, row) in table.iter().enumerate() {
            for (count, &r) in row.iter().enumerate() {
                let expected = if depth == 0 || count == 0 {
                    0
                } else {
                    (0.75 + (depth as f64).ln() * (count as f64).ln() / 2.25) as i32
                };
                // In 1/REDUCTION_GRAIN plies; whole plies are the formula's integer part.
                assert_eq!(r / REDUCTION_GRAIN, expected, "depth {depth} count {count}");
            }
        }
        let p = SearchParams::default();
        assert_eq!(p.history_bonus(3), 16 * 9 + 32 * 3);
        assert_eq!(p.history_bonus(20), 1600);
    }
}
