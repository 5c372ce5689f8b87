//! The `Debug Log File` option's log: every line the engine reads (`>>`) and writes (`<<`),
//! each with a UTC timestamp to the millisecond, appended to a file shared by all clones of a
//! session's `Output`, so the protocol loop's input, the session's answers and the search
//! thread's `info` lines all land in one file, in order.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::time::SystemTime;

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
    let t = crate::utc_time::UtcTime::at(at);
    format!("{}T{}.{:03}Z", t.date(), t.clock(), t.millisecond)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn timestamps_are_utc_dates() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let at = UNIX_EPOCH + Duration::from_millis(1_709_251_199_123); // leap day 2024
        assert_eq!(timestamp(at), "2024-02-29T23:59:59.123Z");
        let at = UNIX_EPOCH + Duration::from_secs(951_782_400); // 2000-02-29
        assert_eq!(timestamp(at), "2000-02-29T00:00:00.000Z");
    }
}
