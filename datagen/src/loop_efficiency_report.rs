//! `datagen loop --efficiency`: the per-generation table of the loop's cost and yield, read from
//! `GAME/efficiency.tsv` (`loop_efficiency`) and `GAME/promotions.tsv` (the SPRT line of each
//! promotion, written by `loop_match::decide`). A generation's cost is every row of all its
//! attempts; the CPU of generations that were never promoted counts toward the next promotion.
//! Self-play that killed processes did before a run finished is charged at the finishing
//! process's measured rate (`Generation::add_killed_runs`), marked `*` with a footnote.
//! Rows that do not parse are skipped with a warning naming the file and line.

use crate::loop_efficiency::{StepRow, EFFICIENCY_FILE, HEADER};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The steps the table gives a CPU column of their own (the others count in the total).
#[derive(Clone, Copy)]
enum Kind {
    Generate,
    Rescore,
    Train,
    Match,
    Other,
}

fn kind(step: &str) -> Kind {
    match step {
        "generate" => Kind::Generate,
        "rescore" => Kind::Rescore,
        "train" => Kind::Train,
        s if s == "match" || s.starts_with("match-r") => Kind::Match,
        _ => Kind::Other,
    }
}

/// CPU seconds and work of one kind of step.
#[derive(Clone, Copy, Default)]
struct Tally {
    cpu: f64,
    work: u64,
}

impl Tally {
    fn add(&mut self, row: &StepRow) {
        self.cpu += row.cpu_seconds;
        self.work += row.work;
    }

    /// Work per CPU-second.
    fn rate(&self, decimals: usize) -> String {
        if self.cpu > 0.0 {
            format!("{:.decimals$}", self.work as f64 / self.cpu)
        } else {
            "-".into()
        }
    }
}

/// One generation's rows.
#[derive(Default)]
struct Generation {
    attempts: BTreeSet<u32>,
    generate: Tally,
    rescore: Tally,
    train: Tally,
    matches: Tally,
    other: Tally,
    /// Attempts with a `decide` row.
    decided: BTreeSet<u32>,
    /// Per attempt: the `generate` rows' tally and the positions its `pool` rows added.
    generated_and_pooled: BTreeMap<u32, (Tally, u64)>,
    /// Self-play CPU estimated for positions that killed processes generated (`add_killed_runs`).
    killed: Tally,
}

impl Generation {
    fn add(&mut self, row: &StepRow) {
        self.attempts.insert(row.attempt);
        if row.step == "decide" {
            self.decided.insert(row.attempt);
        }
        let attempt = self.generated_and_pooled.entry(row.attempt).or_default();
        match row.step.as_str() {
            "generate" => attempt.0.add(row),
            "pool" => attempt.1 += row.work,
            _ => {}
        }
        match kind(&row.step) {
            Kind::Generate => self.generate.add(row),
            Kind::Rescore => self.rescore.add(row),
            Kind::Train => self.train.add(row),
            Kind::Match => self.matches.add(row),
            Kind::Other => self.other.add(row),
        }
    }

    /// A `generate` row counts only the process that finished the run: the positions that
    /// killed processes wrote before it (a session's end, `loop.sh stop`) are in the pool but
    /// their CPU is not. Each attempt whose pool got more positions than its `generate` rows
    /// counted is charged for the difference at the rate those rows measured, in `killed` and
    /// in the generate tally (an attempt without a measured rate, as with `[slurm]`, is not).
    fn add_killed_runs(&mut self) {
        for (generated, pooled) in self.generated_and_pooled.values() {
            if *pooled > generated.work && generated.work > 0 && generated.cpu > 0.0 {
                let positions = pooled - generated.work;
                let cpu = positions as f64 * generated.cpu / generated.work as f64;
                for tally in [&mut self.killed, &mut self.generate] {
                    tally.cpu += cpu;
                    tally.work += positions;
                }
            }
        }
    }

    fn cpu_seconds(&self) -> f64 {
        self.generate.cpu + self.rescore.cpu + self.train.cpu + self.matches.cpu + self.other.cpu
    }
}

/// A promotion's Elo gain and its 95% half-width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Promotion {
    pub elo: f64,
    pub error: f64,
}

/// `Elo +13.8 ± 10.7 (95%), …` → (13.8, 10.7).
pub fn parse_elo(result: &str) -> Option<Promotion> {
    let rest = &result[result.find("Elo ")? + 4..];
    let mut tokens = rest.split_whitespace();
    let elo: f64 = tokens.next()?.parse().ok()?;
    if tokens.next()? != "±" {
        return None;
    }
    let error: f64 = tokens.next()?.parse().ok()?;
    Some(Promotion { elo, error })
}

/// The report and the warnings about rows that were skipped.
pub struct Report {
    pub text: String,
    pub warnings: Vec<String>,
}

/// The report of the game directory `game_dir` (`DATA/GAME`).
pub fn report(game_dir: &Path) -> std::io::Result<Report> {
    let path = game_dir.join(EFFICIENCY_FILE);
    let efficiency = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Report {
                text: format!("no efficiency rows in {} yet\n", path.display()),
                warnings: Vec::new(),
            })
        }
        Err(e) => return Err(e),
    };
    let promotions_path = game_dir.join("promotions.tsv");
    let promotions = match std::fs::read_to_string(&promotions_path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
    Ok(report_of(
        &efficiency,
        &path.display().to_string(),
        &promotions,
        &promotions_path.display().to_string(),
    ))
}

/// The report of the texts of `efficiency.tsv` and `promotions.tsv` (named in warnings).
pub fn report_of(
    efficiency: &str,
    efficiency_name: &str,
    promotions: &str,
    promotions_name: &str,
) -> Report {
    let mut warnings = Vec::new();
    let mut generations: BTreeMap<u32, Generation> = BTreeMap::new();
    for (index, line) in efficiency.lines().enumerate() {
        if index == 0 && line == HEADER {
            continue;
        }
        match StepRow::parse(line) {
            Ok(row) => generations.entry(row.generation).or_default().add(&row),
            Err(e) => warnings.push(format!("{efficiency_name}:{}: {e}; row skipped", index + 1)),
        }
    }
    for g in generations.values_mut() {
        g.add_killed_runs();
    }
    let promoted =
        promotions_by_generation(&generations, promotions, promotions_name, &mut warnings);

    let mut rows = vec![[
        "gen",
        "attempts",
        "generate CPU-h",
        "rescore CPU-h",
        "train CPU-h",
        "match CPU-h",
        "total CPU-h",
        "gen pos/CPU-s",
        "train pos/CPU-s",
        "games/CPU-s",
        "Elo",
        "cost CPU-h",
        "Elo/CPU-h",
    ]
    .map(String::from)
    .to_vec()];
    let hours = |seconds: f64| format!("{:.3}", seconds / 3600.0);
    // CPU since the last promotion: a generation never promoted adds to the next one's cost.
    let mut carried = 0.0;
    let (mut total_elo, mut total_cost, mut promotions_counted) = (0.0, 0.0, 0);
    for (generation, g) in &generations {
        carried += g.cpu_seconds();
        let (elo, cost, per_hour) = match promoted.get(generation) {
            Some(p) => {
                let cost = carried;
                carried = 0.0;
                total_elo += p.elo;
                total_cost += cost;
                promotions_counted += 1;
                let per_hour = if cost > 0.0 {
                    format!("{:.2}", p.elo / (cost / 3600.0))
                } else {
                    "-".into()
                };
                (
                    format!("{:+.1} ± {:.1}", p.elo, p.error),
                    hours(cost),
                    per_hour,
                )
            }
            None => ("-".into(), "-".into(), "-".into()),
        };
        let generate_hours = if g.killed.work > 0 {
            format!("{}*", hours(g.generate.cpu))
        } else {
            hours(g.generate.cpu)
        };
        rows.push(vec![
            generation.to_string(),
            g.attempts.len().to_string(),
            generate_hours,
            hours(g.rescore.cpu),
            hours(g.train.cpu),
            hours(g.matches.cpu),
            hours(g.cpu_seconds()),
            g.generate.rate(1),
            g.train.rate(1),
            g.matches.rate(3),
            elo,
            cost,
            per_hour,
        ]);
    }
    let mut text = format!(
        "{efficiency_name}: CPU-hours this loop's process spent per step (all attempts of a \
         generation), work per CPU-second; cost: the CPU-hours since the previous promotion\n"
    );
    text += &table(&rows);
    for (generation, g) in generations.iter().filter(|(_, g)| g.killed.work > 0) {
        text += &format!(
            "* gen {generation}: includes {} CPU-hours estimated for {} positions that killed \
             processes generated (pooled but not counted), at the rate the finishing process \
             measured\n",
            hours(g.killed.cpu),
            g.killed.work
        );
    }
    if promotions_counted > 0 {
        let per_hour = if total_cost > 0.0 {
            format!("{:.2}", total_elo / (total_cost / 3600.0))
        } else {
            "-".into()
        };
        text += &format!(
            "promoted generations: {promotions_counted}; {total_elo:+.1} Elo over {} CPU-hours, {per_hour} Elo per CPU-hour\n",
            hours(total_cost)
        );
    }
    Report { text, warnings }
}

/// The promotions of `promotions.tsv` by the generation of the attempt that played them: its
/// seed field (`SEED (pool: …)`, seed = 10 × generation + attempt) matched against the attempts
/// in `generations` (promotions before the accounting began match none and are left out).
fn promotions_by_generation(
    generations: &BTreeMap<u32, Generation>,
    promotions: &str,
    name: &str,
    warnings: &mut Vec<String>,
) -> BTreeMap<u32, Promotion> {
    let mut promoted = BTreeMap::new();
    for (index, line) in promotions.lines().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        let warn = |why: &str| format!("{name}:{}: {why}; row skipped", index + 1);
        if fields.len() != 10 {
            warnings.push(warn(&format!(
                "{} fields, not the 10 of a promotion",
                fields.len()
            )));
            continue;
        }
        let Some(seed) = fields[6]
            .split_whitespace()
            .next()
            .and_then(|s| s.parse::<u64>().ok())
        else {
            warnings.push(warn(&format!("no seed in {:?}", fields[6])));
            continue;
        };
        let Some(promotion) = parse_elo(fields[8]) else {
            warnings.push(warn(&format!("no \"Elo X ± Y\" in {:?}", fields[8])));
            continue;
        };
        let played = |decided: bool| {
            generations.iter().find_map(|(generation, g)| {
                let attempts = if decided { &g.decided } else { &g.attempts };
                attempts
                    .iter()
                    .any(|a| u64::from(*generation) * 10 + u64::from(*a) == seed)
                    .then_some(*generation)
            })
        };
        if let Some(generation) = played(true).or_else(|| played(false)) {
            promoted.insert(generation, promotion);
        }
    }
    promoted
}

/// Right-aligned columns, two spaces apart.
fn table(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, width)| format!("{cell:>width$}"))
            .collect();
        text += cells.join("  ").trim_end();
        text += "\n";
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_elo_of_a_promotion_line() {
        let line = "Elo +13.8 ± 10.7 (95%), 2992 games, SPRT [0,10] LLR 2.98 H1";
        assert_eq!(
            parse_elo(line),
            Some(Promotion {
                elo: 13.8,
                error: 10.7
            })
        );
        assert_eq!(parse_elo("Elo -2.5 ± 1.0").map(|p| p.elo), Some(-2.5));
        assert_eq!(parse_elo("Elo +13.8 10.7"), None);
        assert_eq!(parse_elo("promoted by hand"), None);
    }
}
