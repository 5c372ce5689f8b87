//! The `Debug Log File` option's log: every line the engine reads (`>>`) and writes (`<<`),
//! each with a UTC timestamp to the millisecond, appended to a file shared by all clones of a
//! session's `Output`, so the protocol loop's input, the session's answers and the search
//! thread's `info` lines all land in one file, in order.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// An open log file.
pub struct DebugLog {
    file: File,
}

/// Which way a logged line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    In,
    Out,
}

impl DebugLog {
    /// Opens `path` for appending (created if missing).
    pub fn open(path: &str) -> Result<DebugLog, String> {
        if Path::new(path).is_dir() {
            return Err("is a directory".to_string());
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| e.to_string())?;
        Ok(DebugLog { file })
    }

    /// Appends one line (a failed write is dropped: logging never stops the engine).
    pub fn write(&mut self, direction: Direction, text: &str) {
        let arrow = match direction {
            Direction::In => ">>",
            Direction::Out => "<<",
        };
        let line = format!(
            "{} {arrow} {}\n",
            timestamp(SystemTime::now()),
            text.trim_end()
        );
        let _ = self.file.write_all(line.as_bytes());
        let _ = self.file.flush();
    }
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC).
pub fn timestamp(at: SystemTime) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs() as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (the proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        since.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_utc_dates() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let at = UNIX_EPOCH + Duration::from_millis(1_709_251_199_123); // leap day 2024
        assert_eq!(timestamp(at), "2024-02-29T23:59:59.123Z");
        let at = UNIX_EPOCH + Duration::from_secs(951_782_400); // 2000-02-29
        assert_eq!(timestamp(at), "2000-02-29T00:00:00.000Z");
    }
}
