//! Wall-clock UTC time as calendar fields, for the timestamps of logs, game records and result
//! rows (no time-zone database: UTC only, the proleptic Gregorian calendar).

use std::time::{SystemTime, UNIX_EPOCH};

/// A moment in UTC, split into calendar fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UtcTime {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub millisecond: u32,
}

impl UtcTime {
    /// The current time.
    pub fn now() -> Self {
        Self::at(SystemTime::now())
    }

    /// The time `at` (before 1970: the epoch).
    pub fn at(at: SystemTime) -> Self {
        let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
        let secs = since.as_secs() as i64;
        let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
        let (year, month, day) = civil_date(days);
        Self {
            year,
            month,
            day,
            hour: (rest / 3600) as u32,
            minute: (rest / 60 % 60) as u32,
            second: (rest % 60) as u32,
            millisecond: since.subsec_millis(),
        }
    }

    /// `YYYY-MM-DD`.
    pub fn date(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// `HH:MM:SS`.
    pub fn clock(&self) -> String {
        format!("{:02}:{:02}:{:02}", self.hour, self.minute, self.second)
    }
}

/// (year, month, day) of the day `days` after 1970-01-01.
pub fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn civil_dates_match_known_days() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_788), (2026, 12, 1));
        assert_eq!(civil_date(-1), (1969, 12, 31));
    }

    #[test]
    fn fields_of_a_known_moment() {
        let at = UNIX_EPOCH + Duration::from_millis(1_709_251_199_123);
        let t = UtcTime::at(at);
        assert_eq!(
            (t.date(), t.clock(), t.millisecond),
            ("2024-02-29".into(), "23:59:59".into(), 123)
        );
    }
}
