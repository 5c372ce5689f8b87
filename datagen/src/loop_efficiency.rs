//! The loop's step accounting: one row per completed step in `GAME/efficiency.tsv` (next to
//! `loop-state.toml`) with the step's wall time, the CPU time this process spent on it (user +
//! system of all its threads, from `/proc/self/stat`) and its work count. Owns the row format
//! (written here, parsed by `loop_efficiency_report`), the process CPU clock and the work unit
//! of each step. A row that cannot be written is a warning in the log, never a loop failure.

use crate::loop_runner::{log, utc_now};
use crate::loop_state::{LoopState, Step};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// The accounting file's name inside the game directory.
pub const EFFICIENCY_FILE: &str = "efficiency.tsv";

/// The file's first line.
pub const HEADER: &str = "time\tgeneration\tattempt\tstep\twall_s\tcpu_s\twork\tunit";

/// Clock ticks per second of `/proc/self/stat`'s `utime` and `stime`. The workspace has no
/// direct libc dependency to ask `sysconf(_SC_CLK_TCK)`; Linux reports these fields in
/// USER_HZ, which is 100 on every architecture the kernel supports for user space.
const CLOCK_TICKS_PER_SECOND: f64 = 100.0;

/// CPU seconds (user + system, all threads) this process has used, from `/proc/self/stat`;
/// `None` where that file is missing or unreadable (not Linux).
pub fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    cpu_seconds_of_stat(&stat)
}

/// `utime + stime` (fields 14 and 15) of a `/proc/PID/stat` line, in seconds. The command name
/// (field 2, in parentheses) may hold spaces and parentheses: the fields are counted after its
/// last `)`.
fn cpu_seconds_of_stat(stat: &str) -> Option<f64> {
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (the state).
    let utime: u64 = fields.get(14 - 3)?.parse().ok()?;
    let stime: u64 = fields.get(15 - 3)?.parse().ok()?;
    Some((utime + stime) as f64 / CLOCK_TICKS_PER_SECOND)
}

/// The unit of a step's work count.
pub fn unit(step: Step) -> &'static str {
    match step {
        Step::Rescore | Step::Generate | Step::Pool => "positions",
        Step::Train => "training positions",
        Step::Match => "games",
        Step::Decide => "-",
        Step::Publish => "nets",
    }
}

/// The step column: the state's step, `match-rK` for a step that played match round K.
pub fn step_label(before: &LoopState, after: &LoopState) -> String {
    let name = match before.step {
        Step::Rescore => "rescore",
        Step::Generate => "generate",
        Step::Pool => "pool",
        Step::Train => "train",
        Step::Match if after.step == Step::Match && after.round > before.round => {
            return format!("match-r{}", before.round)
        }
        Step::Match => "match",
        Step::Decide => "decide",
        Step::Publish => "publish",
    };
    name.to_string()
}

/// One row of `efficiency.tsv`.
#[derive(Clone, Debug, PartialEq)]
pub struct StepRow {
    /// `YYYY-MM-DD HH:MM:SS` UTC, when the step ended.
    pub time: String,
    pub generation: u32,
    pub attempt: u32,
    /// `rescore`, `generate`, `pool`, `train`, `match`, `match-rK`, `decide` or `publish`.
    pub step: String,
    pub wall_seconds: f64,
    pub cpu_seconds: f64,
    pub work: u64,
    pub unit: String,
}

impl StepRow {
    pub fn render(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{:.3}\t{:.2}\t{}\t{}",
            self.time,
            self.generation,
            self.attempt,
            self.step,
            self.wall_seconds,
            self.cpu_seconds,
            self.work,
            self.unit
        )
    }

    /// Parses a row; the error says which field is wrong.
    pub fn parse(line: &str) -> Result<Self, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [time, generation, attempt, step, wall, cpu, work, unit] = fields[..] else {
            return Err(format!("{} fields, not 8", fields.len()));
        };
        fn number<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, String> {
            text.trim()
                .parse()
                .map_err(|_| format!("{name} {text:?} is not a number"))
        }
        let seconds = |name: &str, text: &str| -> Result<f64, String> {
            let value: f64 = number(name, text)?;
            if value.is_finite() && value >= 0.0 {
                Ok(value)
            } else {
                Err(format!("{name} {text:?} is not a non-negative number"))
            }
        };
        if step.is_empty() {
            return Err("empty step".into());
        }
        Ok(StepRow {
            time: time.to_string(),
            generation: number("generation", generation)?,
            attempt: number("attempt", attempt)?,
            step: step.to_string(),
            wall_seconds: seconds("wall_s", wall)?,
            cpu_seconds: seconds("cpu_s", cpu)?,
            work: number("work", work)?,
            unit: unit.to_string(),
        })
    }
}

/// The clocks at a step's start.
pub struct StepClock {
    wall: Instant,
    cpu: Option<f64>,
}

impl StepClock {
    pub fn start() -> Self {
        StepClock {
            wall: Instant::now(),
            cpu: process_cpu_seconds(),
        }
    }

    /// Appends the row of the step that went from `before` to `after` with `work` done to
    /// `GAME/efficiency.tsv` (relative to the data root, the loop's working directory); a
    /// failure is logged as a warning.
    pub fn record(self, game: &str, before: &LoopState, after: &LoopState, work: u64) {
        let wall_seconds = self.wall.elapsed().as_secs_f64();
        let (Some(start), Some(end)) = (self.cpu, process_cpu_seconds()) else {
            log(
                game,
                "warning: no efficiency row (the process CPU time in /proc/self/stat is unreadable)",
            );
            return;
        };
        let row = StepRow {
            time: utc_now(),
            generation: before.generation,
            attempt: before.attempt,
            step: step_label(before, after),
            wall_seconds,
            cpu_seconds: (end - start).max(0.0),
            work,
            unit: unit(before.step).to_string(),
        };
        let path = Path::new(game).join(EFFICIENCY_FILE);
        if let Err(e) = append_row(&path, &row) {
            log(
                game,
                &format!(
                    "warning: could not append to {}: {e}; the loop goes on",
                    path.display()
                ),
            );
        }
    }
}

/// Appends `row` to `path` (created with its header), flushed.
pub fn append_row(path: &Path, row: &StepRow) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    let mut text = String::new();
    if file.metadata()?.len() == 0 {
        text += HEADER;
        text += "\n";
    }
    text += &row.render();
    text += "\n";
    file.write_all(text.as_bytes())?;
    file.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_time_is_counted_after_the_command_name() {
        let stat = "4242 (a (weird) name) R 1 2 3 4 5 6 7 8 9 10 250 130 7 8 20 0 9 0 1 2 3";
        assert_eq!(cpu_seconds_of_stat(stat), Some(3.8));
        assert_eq!(cpu_seconds_of_stat("4242 (short) R 1 2"), None);
        assert!(process_cpu_seconds().is_some_and(|s| s >= 0.0));
    }

    #[test]
    fn a_row_reads_back_as_written_and_a_bad_one_says_why() {
        let row = StepRow {
            time: "2025-01-02 03:04:05".into(),
            generation: 7,
            attempt: 2,
            step: "match-r1".into(),
            wall_seconds: 12.5,
            cpu_seconds: 24.25,
            work: 1000,
            unit: "games".into(),
        };
        assert_eq!(StepRow::parse(&row.render()), Ok(row));
        let bad = "2025-01-02 03:04:05\t7\t2\ttrain\t1.0\t-3\t5\tgames";
        assert!(StepRow::parse(bad).unwrap_err().contains("cpu_s"));
        assert!(StepRow::parse("x\ty").unwrap_err().contains("2 fields"));
    }
}
