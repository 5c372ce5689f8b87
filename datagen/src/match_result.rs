//! Machine-readable match results: `datagen match --result FILE` writes one (`key=value` lines:
//! the players by content, the limits and opening settings, seed, total pairs, shard, W/D/L,
//! pentanomial pair counts, losses on time, and whether the match ended; it is kept current
//! while the match runs, so a killed match leaves the pairs it finished), and `datagen
//! match-merge FILES` adds the results of a match's shards (and of later rounds with other
//! seeds) into one Elo ± error and an optional SPRT verdict, computed with the engine's match
//! statistics.

use anyhow::{anyhow, bail, Context, Result};
use sente::game::GameKind;
use sente::selfplay::{Pentanomial, ScoreDistribution, Sprt, SprtVerdict, WdlCounts};
use sente_data::shard::Shard;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const HEADER: &str = "sente match result v1";

/// What must agree between results that are merged: the game, both players (by content), the
/// move limits and the opening settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchSetup {
    pub game: GameKind,
    /// Player A / B as given (`classical` or a path) — informational.
    pub a: String,
    pub b: String,
    /// Players by content (`classical`, `default`, `fnv1a64:<hex>`).
    pub a_eval: String,
    pub b_eval: String,
    /// `nodes=N` or `tc=BASE+INC overhead=MS`, with ` adjudication=...` when the match's
    /// `--resign` / `--draw` / `--max-plies` are not the defaults.
    pub limits: String,
    /// Random plies, verification and book (by checksum).
    pub openings: String,
}

/// The result of one match shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    pub setup: MatchSetup,
    pub seed: u64,
    /// Pairs of the whole (unsharded) match.
    pub pairs: u64,
    pub shard: Shard,
    pub wdl: WdlCounts,
    pub pentanomial: Pentanomial,
    pub time_forfeits: [u64; 2],
    /// False while the match runs: a file that stays so belongs to a match that was killed (or
    /// is still running). Files written before this field existed were written at the end.
    pub ended: bool,
}

impl MatchResult {
    pub fn render(&self) -> String {
        let s = &self.setup;
        let p = &self.pentanomial.0;
        format!(
            "{HEADER}\ngame={}\na={}\nb={}\na_eval={}\nb_eval={}\nlimits={}\nopenings={}\nseed={}\npairs={}\nshard={}\nwdl={} {} {}\npentanomial={} {} {} {} {}\ntime_forfeits={} {}\nended={}\n",
            s.game, s.a, s.b, s.a_eval, s.b_eval, s.limits, s.openings, self.seed, self.pairs,
            self.shard, self.wdl.wins, self.wdl.draws, self.wdl.losses, p[0], p[1], p[2], p[3],
            p[4], self.time_forfeits[0], self.time_forfeits[1],
            if self.ended { "yes" } else { "no" }
        )
    }

    pub fn parse(text: &str) -> Result<Self> {
        let mut lines = text.lines();
        if lines.next() != Some(HEADER) {
            bail!("does not start with '{HEADER}'");
        }
        let mut fields = BTreeMap::new();
        for line in lines.filter(|l| !l.is_empty()) {
            let (key, value) = line
                .split_once('=')
                .ok_or_else(|| anyhow!("line '{line}' is not key=value"))?;
            fields.insert(key, value);
        }
        let field = |key: &str| -> Result<String> {
            fields
                .get(key)
                .map(|v| v.to_string())
                .ok_or_else(|| anyhow!("no {key}= line"))
        };
        let numbers = |key: &str, count: usize| -> Result<Vec<u64>> {
            let text = field(key)?;
            let values = text
                .split_whitespace()
                .map(|n| n.parse::<u64>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| anyhow!("{key}={text}: not numbers"))?;
            if values.len() != count {
                bail!("{key}={text}: expected {count} numbers");
            }
            Ok(values)
        };
        let wdl = numbers("wdl", 3)?;
        let penta = numbers("pentanomial", 5)?;
        let forfeits = numbers("time_forfeits", 2)?;
        let ended = match fields.get("ended").copied() {
            None | Some("yes") => true,
            Some("no") => false,
            Some(other) => bail!("ended={other}: expected yes or no"),
        };
        let result = Self {
            setup: MatchSetup {
                game: field("game")?.parse()?,
                a: field("a")?,
                b: field("b")?,
                a_eval: field("a_eval")?,
                b_eval: field("b_eval")?,
                limits: field("limits")?,
                openings: field("openings")?,
            },
            seed: numbers("seed", 1)?[0],
            pairs: numbers("pairs", 1)?[0],
            shard: field("shard")?.parse()?,
            wdl: WdlCounts {
                wins: wdl[0],
                draws: wdl[1],
                losses: wdl[2],
            },
            pentanomial: Pentanomial([penta[0], penta[1], penta[2], penta[3], penta[4]]),
            time_forfeits: [forfeits[0], forfeits[1]],
            ended,
        };
        if result.wdl.games() != 2 * result.pentanomial.pairs() {
            bail!(
                "{} games but {} pairs",
                result.wdl.games(),
                result.pentanomial.pairs()
            );
        }
        if result.pentanomial.pairs() > result.shard.share_of(result.pairs) {
            bail!(
                "{} pairs played, more than shard {} of {} pairs holds",
                result.pentanomial.pairs(),
                result.shard,
                result.pairs
            );
        }
        Ok(result)
    }

    pub fn write(&self, path: &Path) -> Result<()> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, self.render())
            .and_then(|()| std::fs::rename(&tmp, path))
            .with_context(|| format!("writing {}", path.display()))
    }

    pub fn read(path: &Path) -> Result<Self> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        Self::parse(&text).with_context(|| format!("{}: bad match result", path.display()))
    }
}

/// Results added up.
#[derive(Clone, Debug, PartialEq)]
pub struct MergedMatch {
    pub setup: MatchSetup,
    pub wdl: WdlCounts,
    pub pentanomial: Pentanomial,
    pub time_forfeits: [u64; 2],
    pub elo: f64,
    pub elo_error: f64,
    pub sprt: Option<(Sprt, f64, SprtVerdict)>,
    /// Notes on incomplete rounds (shards missing or short of their pairs).
    pub notes: Vec<String>,
}

/// Adds up results of one match setup: shards of one seed must share a shard count and differ
/// in index (a result given twice is refused); several seeds are successive rounds.
pub fn merge(results: &[MatchResult], sprt: Option<Sprt>) -> Result<MergedMatch> {
    let Some(first) = results.first() else {
        bail!("no results to merge");
    };
    let mut rounds: BTreeMap<u64, (u64, u64, Vec<Shard>)> = BTreeMap::new();
    let mut wdl = WdlCounts::default();
    let mut pentanomial = Pentanomial::default();
    let mut time_forfeits = [0u64; 2];
    let mut notes = Vec::new();
    for result in results {
        if result.setup != first.setup {
            bail!(
                "results of different matches: {:?} and {:?}",
                first.setup,
                result.setup
            );
        }
        let round =
            rounds
                .entry(result.seed)
                .or_insert((result.shard.count, result.pairs, Vec::new()));
        if round.0 != result.shard.count || round.1 != result.pairs {
            bail!(
                "seed {}: results with different shard counts or pair totals ({}/{} pairs and {}/{} pairs)",
                result.seed, round.0, round.1, result.shard, result.pairs
            );
        }
        if round.2.contains(&result.shard) {
            bail!("seed {}: shard {} given twice", result.seed, result.shard);
        }
        round.2.push(result.shard);
        if !result.ended {
            notes.push(format!(
                "seed {} shard {}: the match had not ended when its result was written (killed, or still running)",
                result.seed, result.shard
            ));
        }
        if result.pentanomial.pairs() < result.shard.share_of(result.pairs) {
            notes.push(format!(
                "seed {} shard {}: {} of {} pairs played",
                result.seed,
                result.shard,
                result.pentanomial.pairs(),
                result.shard.share_of(result.pairs)
            ));
        }
        wdl.wins += result.wdl.wins;
        wdl.draws += result.wdl.draws;
        wdl.losses += result.wdl.losses;
        for (total, n) in pentanomial.0.iter_mut().zip(result.pentanomial.0) {
            *total += n;
        }
        for (total, n) in time_forfeits.iter_mut().zip(result.time_forfeits) {
            *total += n;
        }
    }
    for (seed, (count, _, shards)) in &rounds {
        if shards.len() as u64 != *count {
            notes.push(format!("seed {seed}: {} of {count} shards", shards.len()));
        }
    }
    let distribution = ScoreDistribution::pentanomial(&pentanomial);
    let (elo, elo_error) = distribution.map_or((0.0, f64::INFINITY), |d| d.elo_with_error());
    let sprt = sprt.and_then(|s| {
        let llr = distribution?.sprt_llr(s.elo0, s.elo1);
        Some((s, llr, s.verdict(llr)))
    });
    Ok(MergedMatch {
        setup: first.setup.clone(),
        wdl,
        pentanomial,
        time_forfeits,
        elo,
        elo_error,
        sprt,
        notes,
    })
}

/// Reads and merges result files.
pub fn merge_files(files: &[PathBuf], sprt: Option<Sprt>) -> Result<MergedMatch> {
    let results = files
        .iter()
        .map(|f| MatchResult::read(f))
        .collect::<Result<Vec<_>>>()?;
    merge(&results, sprt)
}

impl std::fmt::Display for MergedMatch {
    /// The same lines as `datagen match` prints, plus notes on incomplete rounds.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut text = format!(
            "{} vs {}: {} games, W {} D {} L {}\npairs (0, ½, 1, 1½, 2 points): {:?}\nElo {:+.1} ± {:.1} (95%)",
            self.setup.a,
            self.setup.b,
            self.wdl.games(),
            self.wdl.wins,
            self.wdl.draws,
            self.wdl.losses,
            self.pentanomial.0,
            self.elo,
            self.elo_error
        );
        if self.setup.limits.starts_with("tc=") {
            let _ = write!(
                text,
                "\nlosses on time: {} {}, {} {}",
                self.setup.a, self.time_forfeits[0], self.setup.b, self.time_forfeits[1]
            );
        }
        if let Some((s, llr, verdict)) = self.sprt {
            let (lower, upper) = s.bounds();
            let _ = write!(
                text,
                "\nSPRT [{}, {}] α={} β={}: LLR {:.2} ({:.2}, {:.2}) → {:?}",
                s.elo0, s.elo1, s.alpha, s.beta, llr, lower, upper, verdict
            );
        }
        for note in &self.notes {
            let _ = write!(text, "\nnote: {note}");
        }
        f.write_str(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(seed: u64, shard: Shard, penta: [u64; 5]) -> MatchResult {
        let p = Pentanomial(penta);
        // W/D/L consistent with the pairs: 2 → WW, 1½ → WD, 1 → DD, ½ → DL, 0 → LL.
        let wdl = WdlCounts {
            wins: 2 * penta[4] + penta[3],
            draws: penta[3] + 2 * penta[2] + penta[1],
            losses: penta[1] + 2 * penta[0],
        };
        MatchResult {
            setup: MatchSetup {
                game: GameKind::Chess,
                a: "new.nnue".into(),
                b: "classical".into(),
                a_eval: "fnv1a64:0123".into(),
                b_eval: "classical".into(),
                limits: "nodes=5000".into(),
                openings: "random_plies=8 verify_nodes=1000 verify_margin=200".into(),
            },
            seed,
            pairs: 100,
            shard,
            wdl,
            pentanomial: p,
            time_forfeits: [0, 0],
            ended: true,
        }
    }

    #[test]
    fn a_result_written_while_the_match_ran_is_merged_with_a_note() {
        let full = result(3, Shard::new(0, 1).unwrap(), [1, 2, 10, 8, 4]);
        let mut running = result(4, Shard::new(0, 1).unwrap(), [0, 1, 3, 2, 1]);
        running.ended = false;
        assert!(running.render().contains("\nended=no\n"));
        assert_eq!(MatchResult::parse(&running.render()).unwrap(), running);
        // Files from before the field was written were written at the match's end.
        let old = full.render().replace("ended=yes\n", "");
        assert!(MatchResult::parse(&old).unwrap().ended);
        assert!(MatchResult::parse(&full.render().replace("ended=yes", "ended=maybe")).is_err());
        let merged = merge(&[full.clone(), running], None).unwrap();
        assert_eq!(merged.pentanomial, Pentanomial([1, 3, 13, 10, 5]));
        assert!(
            merged
                .notes
                .iter()
                .any(|n| n.starts_with("seed 4 shard 0/1: the match had not ended")),
            "{:?}",
            merged.notes
        );
        assert!(!merge(&[full], None)
            .unwrap()
            .notes
            .iter()
            .any(|n| n.contains("had not ended")));
    }

    #[test]
    fn results_round_trip_and_damage_is_refused() {
        let r = result(3, Shard::new(1, 4).unwrap(), [1, 2, 10, 8, 4]);
        assert_eq!(MatchResult::parse(&r.render()).unwrap(), r);
        assert!(MatchResult::parse(&r.render().replace("wdl=", "wdl=1")).is_err());
        assert!(MatchResult::parse(&r.render().replace("shard=1/4", "shard=4/4")).is_err());
        assert!(MatchResult::parse("hello").is_err());
    }

    #[test]
    fn merged_shards_equal_one_match_of_the_summed_counts() {
        let shards: Vec<MatchResult> = (0..4)
            .map(|i| result(3, Shard::new(i, 4).unwrap(), [1, 2, 10 - i, 8, 4 + i]))
            .collect();
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let merged = merge(&shards, Some(sprt)).unwrap();
        let total = Pentanomial([4, 8, 34, 32, 22]);
        assert_eq!(merged.pentanomial, total);
        let d = ScoreDistribution::pentanomial(&total).unwrap();
        assert_eq!((merged.elo, merged.elo_error), d.elo_with_error());
        let (_, llr, _) = merged.sprt.unwrap();
        assert_eq!(llr, d.sprt_llr(0.0, 10.0));
        assert!(merged.notes.is_empty(), "{:?}", merged.notes);

        // A shard twice, or a different match, is refused; a missing shard is noted.
        let twice = [shards[0].clone(), shards[0].clone()];
        assert!(merge(&twice, None).is_err());
        let mut other = shards[1].clone();
        other.setup.limits = "nodes=1000".into();
        assert!(merge(&[shards[0].clone(), other], None).is_err());
        let partial = merge(&shards[..3], None).unwrap();
        assert!(partial.notes.iter().any(|n| n.contains("3 of 4 shards")));
    }
}
