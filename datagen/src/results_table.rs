//! The results table (`docs/results.tsv`): one tab-separated row per match or SPRT, appended by
//! `datagen match --result-row FILE` and `datagen match-merge --result-row FILE`. The columns are
//! documented in `docs/search-tuning.md`; a file that does not start with this table's header is
//! refused, so a row never lands in some other file.

use crate::match_result::{MatchSetup, MergedMatch};
use anyhow::{bail, Context, Result};
use sente::selfplay::{MatchReport, Pentanomial, Sprt, SprtVerdict, WdlCounts};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The command-line options of `match` and `match-merge` that append the result's row.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ResultRowArgs {
    /// Append the result as one row to the results table FILE (`docs/results.tsv`; created
    /// with its header when missing).
    #[arg(long, value_name = "FILE")]
    pub result_row: Option<PathBuf>,
    /// What the match tests, for the row's `change` column (default: the two players' names).
    #[arg(long, value_name = "TEXT", default_value = "", requires = "result_row")]
    pub change: String,
}

impl ResultRowArgs {
    /// Refuses a `--result-row` file that is not a results table before anything is played.
    pub fn check(&self) -> Result<()> {
        match &self.result_row {
            Some(path) => existing_table(path).map(|_| ()),
            None => Ok(()),
        }
    }

    /// Appends the row of a finished `datagen match` of `setup` (when asked for).
    pub fn append_match(&self, setup: &MatchSetup, report: &MatchReport) -> Result<()> {
        let Some(path) = &self.result_row else {
            return Ok(());
        };
        let row = ResultRow::of_match(
            setup,
            &self.change,
            report.wdl,
            report.pentanomial,
            report.elo,
            report.elo_error,
            report.sprt,
        );
        append(path, &row)
    }

    /// Appends the row of a `datagen match-merge` (when asked for).
    pub fn append_merged(&self, merged: &MergedMatch) -> Result<()> {
        let Some(path) = &self.result_row else {
            return Ok(());
        };
        let row = ResultRow::of_match(
            &merged.setup,
            &self.change,
            merged.wdl,
            merged.pentanomial,
            merged.elo,
            merged.elo_error,
            merged.sprt,
        );
        append(path, &row)
    }
}

/// The table's header line (without its newline).
pub const HEADER: &str = "date\tcommit\tchange\tgame\tlimit\tgames\tw\td\tl\tpentanomial\telo\terror\tllr\tverdict\trevert_to\tnote";

/// One test's row: what was tested, where, and how it came out (the first player's, A's, view).
#[derive(Clone, Debug, PartialEq)]
pub struct ResultRow {
    /// `YYYY-MM-DD` (UTC).
    pub date: String,
    /// The engine's commit (short hash; empty when unknown).
    pub commit: String,
    pub change: String,
    pub game: String,
    pub limit: String,
    pub wdl: WdlCounts,
    pub pentanomial: Pentanomial,
    pub elo: f64,
    pub error: f64,
    pub sprt: Option<(Sprt, f64, SprtVerdict)>,
    pub note: String,
}

impl ResultRow {
    /// The row of a match of `setup` with these counts, today, at the current commit; `change`
    /// names what was tested (empty: the two players' names).
    #[allow(clippy::too_many_arguments)]
    pub fn of_match(
        setup: &MatchSetup,
        change: &str,
        wdl: WdlCounts,
        pentanomial: Pentanomial,
        elo: f64,
        error: f64,
        sprt: Option<(Sprt, f64, SprtVerdict)>,
    ) -> Self {
        let players = format!("{} vs {}", setup.a, setup.b);
        let change = if change.trim().is_empty() {
            players.clone()
        } else {
            change.trim().to_string()
        };
        let mut note = players;
        if let Some((s, _, _)) = sprt {
            note = format!("sprt [{}, {}]; {note}", s.elo0, s.elo1);
        }
        Self {
            date: today_utc(),
            commit: current_commit(),
            change,
            game: setup.game.name().to_string(),
            limit: setup.limits.clone(),
            wdl,
            pentanomial,
            elo,
            error,
            sprt,
            note,
        }
    }

    /// The row as one line of the table (no newline); tabs and line breaks in the text fields
    /// become spaces.
    pub fn line(&self) -> String {
        let text = |s: &str| s.replace(['\t', '\n', '\r'], " ");
        let (llr, verdict) = match self.sprt {
            Some((_, llr, verdict)) => (
                format!("{llr:.2}"),
                match verdict {
                    SprtVerdict::AcceptH1 => "H1",
                    SprtVerdict::AcceptH0 => "H0",
                    SprtVerdict::Continue => "open",
                },
            ),
            None => (String::new(), "open"),
        };
        let error = if self.error.is_finite() {
            format!("{:.1}", self.error)
        } else {
            String::new()
        };
        let pentanomial = self
            .pentanomial
            .0
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(",");
        [
            text(&self.date),
            text(&self.commit),
            text(&self.change),
            text(&self.game),
            text(&self.limit),
            self.wdl.games().to_string(),
            self.wdl.wins.to_string(),
            self.wdl.draws.to_string(),
            self.wdl.losses.to_string(),
            pentanomial,
            format!("{:+.1}", self.elo),
            error,
            llr,
            verdict.to_string(),
            String::new(),
            text(&self.note),
        ]
        .join("\t")
    }
}

/// The table at `path` as it is (empty when missing), refused when its first line is not the
/// header.
fn existing_table(path: &Path) -> Result<String> {
    let existing = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("--result-row {}", path.display())),
    };
    if !existing.is_empty() && existing.lines().next() != Some(HEADER) {
        bail!(
            "--result-row {}: line 1 is not the results table's header ({HEADER:?})",
            path.display()
        );
    }
    Ok(existing)
}

/// Appends `row` to the table at `path`, writing the header first into a new or empty file.
pub fn append(path: &Path, row: &ResultRow) -> Result<()> {
    let existing = existing_table(path)?;
    let mut out = String::new();
    if existing.is_empty() {
        out.push_str(HEADER);
        out.push('\n');
    } else if !existing.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&row.line());
    out.push('\n');
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(out.as_bytes()))
        .with_context(|| format!("--result-row {}", path.display()))
}

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today_utc() -> String {
    sente::utc_time::UtcTime::now().date()
}

/// The commit the working directory's checkout is at (`git rev-parse --short HEAD`), or empty
/// where there is no git or no repository.
pub fn current_commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente::game::GameKind;

    fn setup() -> MatchSetup {
        MatchSetup {
            game: GameKind::Chess,
            a: "classical [material_scaling=off]".to_string(),
            b: "classical".to_string(),
            a_eval: "classical".to_string(),
            b_eval: "classical".to_string(),
            limits: "nodes=2000".to_string(),
            openings: "random_plies=8".to_string(),
        }
    }

    #[test]
    fn a_row_has_every_column_and_appends_below_one_header() {
        let wdl = WdlCounts {
            wins: 5,
            draws: 2,
            losses: 3,
        };
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let mut row = ResultRow::of_match(
            &setup(),
            "",
            wdl,
            Pentanomial([0, 1, 2, 1, 1]),
            34.86,
            120.0,
            Some((sprt, 0.4, SprtVerdict::Continue)),
        );
        row.date = "2026-12-01".to_string();
        row.commit = "abc1234".to_string();
        let line = row.line();
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), HEADER.split('\t').count());
        assert_eq!(
            fields[..14],
            [
                "2026-12-01",
                "abc1234",
                "classical [material_scaling=off] vs classical",
                "chess",
                "nodes=2000",
                "10",
                "5",
                "2",
                "3",
                "0,1,2,1,1",
                "+34.9",
                "120.0",
                "0.40",
                "open"
            ]
        );
        assert!(fields[15].starts_with("sprt [0, 10]"), "{line}");

        let dir = std::env::temp_dir().join(format!("results-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("results.tsv");
        let _ = std::fs::remove_file(&path);
        append(&path, &row).unwrap();
        row.change = "tab\there".to_string();
        append(&path, &row).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], HEADER);
        assert!(lines[2].contains("\ttab here\t"));

        let other = dir.join("other.txt");
        std::fs::write(&other, "not a table\n").unwrap();
        let args = ResultRowArgs {
            result_row: Some(other.clone()),
            change: String::new(),
        };
        assert!(args.check().is_err());
        let error = append(&other, &row).unwrap_err().to_string();
        assert!(
            error.contains("other.txt") && error.contains("header"),
            "{error}"
        );
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "not a table\n");
        let _ = std::fs::remove_dir_all(dir);
    }
}
