//! The arguments of UCI's and USI's `go` command, parsed without any game behind them, and the
//! clock they describe.

use crate::search::Clock;

/// USI `go mate` takes a time (ms or `infinite`); UCI `go mate` a number of moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateRequest {
    /// UCI: find a mate in at most this many moves.
    Moves(u32),
    /// USI: solve the tsume within this many milliseconds.
    TimeMs(u64),
    /// USI: solve the tsume without a time limit.
    Infinite,
}

/// Which of the two sibling protocols a session speaks, and so how its `go` reads (they differ
/// in clock sides and `mate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Usi,
}

/// Everything a `go` line may say. Move texts stay unparsed (the session checks them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub search_moves: Vec<String>,
    pub ponder: bool,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: u64,
    pub binc: u64,
    pub moves_to_go: Option<u32>,
    pub byoyomi: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<MateRequest>,
    pub move_time: Option<u64>,
    pub infinite: bool,
    pub perft: Option<u32>,
}

const KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "byoyomi",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Parses the tokens after `go`. Unknown tokens are skipped, as the specifications ask; values
/// that are not numbers are skipped too and reported in the returned warnings.
pub fn parse_go(args: &[&str], dialect: Dialect) -> (GoParams, Vec<String>) {
    let mut go = GoParams::default();
    let mut warnings = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        let value = args.get(i).copied();
        match key {
            "searchmoves" => {
                while i < args.len() && !KEYWORDS.contains(&args[i]) {
                    go.search_moves.push(args[i].to_string());
                    i += 1;
                }
            }
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "mate" if dialect == Dialect::Usi => {
                if value == Some("infinite") {
                    go.mate = Some(MateRequest::Infinite);
                    i += 1;
                } else {
                    match number(key, value, &mut warnings) {
                        Some(ms) => {
                            go.mate = Some(MateRequest::TimeMs(ms));
                            i += 1;
                        }
                        None => {
                            // `go mate abc`: said, skipped, and solved without a time limit.
                            if value.is_some_and(|v| !KEYWORDS.contains(&v)) {
                                warnings.push("go mate: solving without a time limit".into());
                                i += 1;
                            }
                            go.mate = Some(MateRequest::Infinite);
                        }
                    }
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "byoyomi" | "depth" | "nodes"
            | "mate" | "movetime" | "perft" => {
                let Some(n) = number(key, value, &mut warnings) else {
                    // Skip the bad value itself unless it is the next keyword.
                    if value.is_some_and(|v| !KEYWORDS.contains(&v)) {
                        i += 1;
                    }
                    continue;
                };
                i += 1;
                let small = u32::try_from(n).unwrap_or(u32::MAX);
                match key {
                    "wtime" => go.wtime = Some(n),
                    "btime" => go.btime = Some(n),
                    "winc" => go.winc = n,
                    "binc" => go.binc = n,
                    "movestogo" => go.moves_to_go = (small > 0).then_some(small),
                    "byoyomi" => go.byoyomi = Some(n),
                    "depth" => go.depth = Some(small),
                    "nodes" => go.nodes = Some(n),
                    "mate" => go.mate = Some(MateRequest::Moves(small)),
                    "movetime" => go.move_time = Some(n),
                    _ => go.perft = Some(small),
                }
            }
            _ => warnings.push(format!("ignoring unknown go token '{key}'")),
        }
    }
    (go, warnings)
}

/// A non-negative number (negative clock readings, which some GUIs send after an overrun, count
/// as 0). `None` with a warning when the value is missing or not a number.
fn number(key: &str, value: Option<&str>, warnings: &mut Vec<String>) -> Option<u64> {
    let Some(text) = value else {
        warnings.push(format!("go {key}: missing value"));
        return None;
    };
    match text.parse::<i64>() {
        Ok(n) => Some(n.max(0) as u64),
        Err(_) => {
            warnings.push(format!("go {key}: '{text}' is not a number"));
            None
        }
    }
}

impl GoParams {
    /// The clocks, indexed by `Side` (UCI: white moves first; USI: black/sente moves first).
    /// Any clock word (`wtime`, `btime`, `winc`, `binc`, `movestogo`, `byoyomi`) makes a clock;
    /// a side whose time is missing has no main time left (as YaneuraOu and Fairy-Stockfish read
    /// cshogi's `go byoyomi 100`), so such a search answers within its increment or byoyomi.
    pub fn clock(&self, dialect: Dialect) -> Option<Clock> {
        let any_clock_word = self.wtime.is_some()
            || self.btime.is_some()
            || self.winc > 0
            || self.binc > 0
            || self.moves_to_go.is_some()
            || self.byoyomi.is_some();
        if !any_clock_word {
            return None;
        }
        let (first, second, first_inc, second_inc) = match dialect {
            Dialect::Uci => (self.wtime, self.btime, self.winc, self.binc),
            Dialect::Usi => (self.btime, self.wtime, self.binc, self.winc),
        };
        let byoyomi = self.byoyomi.unwrap_or(0);
        Some(Clock {
            time_ms: [first, second],
            inc_ms: [first_inc, second_inc],
            moves_to_go: self.moves_to_go,
            byoyomi_ms: [byoyomi, byoyomi],
        })
    }

    /// `go` with nothing that bounds the search (bare `go`, `go ponder`, `go searchmoves ...`)
    /// or with `infinite` means an infinite search; every limit word bounds it.
    pub fn is_unbounded(&self, dialect: Dialect) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.move_time.is_none()
                && !matches!(self.mate, Some(MateRequest::Moves(_)))
                && self.clock(dialect).is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(line: &str) -> (GoParams, Vec<String>) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        parse_go(&tokens, Dialect::Uci)
    }

    fn usi(line: &str) -> (GoParams, Vec<String>) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        parse_go(&tokens, Dialect::Usi)
    }

    #[test]
    fn clocks_and_limits() {
        let (go, warnings) =
            uci("wtime 300000 btime 290000 winc 2000 binc 1000 movestogo 40 depth 12");
        assert!(warnings.is_empty());
        let clock = go.clock(Dialect::Uci).unwrap();
        assert_eq!(clock.time_ms, [Some(300000), Some(290000)]);
        assert_eq!(clock.inc_ms, [2000, 1000]);
        assert_eq!(clock.moves_to_go, Some(40));
        assert_eq!(go.depth, Some(12));
        assert!(!go.is_unbounded(Dialect::Uci));
    }

    #[test]
    fn one_sided_clock_and_negative_time() {
        let (go, _) = uci("wtime -50");
        let clock = go.clock(Dialect::Uci).unwrap();
        assert_eq!(clock.time_ms, [Some(0), None]);
    }

    #[test]
    fn bare_go_is_infinite() {
        assert!(uci("").0.is_unbounded(Dialect::Uci));
        assert!(uci("ponder").0.is_unbounded(Dialect::Uci));
        assert!(!uci("nodes 100").0.is_unbounded(Dialect::Uci));
        assert!(!uci("mate 3").0.is_unbounded(Dialect::Uci));
    }

    #[test]
    fn searchmoves_stop_at_the_next_keyword() {
        let (go, _) = uci("infinite searchmoves e2e4 d2d4 depth 5");
        assert_eq!(go.search_moves, vec!["e2e4", "d2d4"]);
        assert_eq!(go.depth, Some(5));
        assert!(go.infinite);
    }

    #[test]
    fn bad_numbers_are_skipped_with_a_warning() {
        let (go, warnings) = uci("depth x nodes 1000 movetime");
        assert_eq!(go.depth, None);
        assert_eq!(go.nodes, Some(1000));
        assert_eq!(warnings.len(), 2);
        let (go, warnings) = uci("joho depth 3");
        assert_eq!(go.depth, Some(3));
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn usi_sides_byoyomi_and_mate() {
        let (go, _) = usi("btime 60000 wtime 50000 byoyomi 10000");
        let clock = go.clock(Dialect::Usi).unwrap();
        assert_eq!(clock.time_ms, [Some(60000), Some(50000)]);
        assert_eq!(clock.byoyomi_ms, [10000, 10000]);
        assert_eq!(usi("mate 5000").0.mate, Some(MateRequest::TimeMs(5000)));
        assert_eq!(usi("mate infinite").0.mate, Some(MateRequest::Infinite));
        assert_eq!(usi("mate").0.mate, Some(MateRequest::Infinite));
        // Issue 59: a negative time is no time; a word is said, skipped and means no limit.
        assert_eq!(usi("mate -5").0.mate, Some(MateRequest::TimeMs(0)));
        let (go, warnings) = usi("mate abc");
        assert_eq!(go.mate, Some(MateRequest::Infinite));
        assert_eq!(
            warnings,
            [
                "go mate: 'abc' is not a number",
                "go mate: solving without a time limit"
            ]
        );
        assert_eq!(uci("mate 4").0.mate, Some(MateRequest::Moves(4)));
        assert!(!usi("byoyomi 1000").0.is_unbounded(Dialect::Usi));
    }

    #[test]
    fn clock_words_without_main_time_bound_the_search() {
        // cshogi's `Engine.go(byoyomi=100)`: no btime/wtime, so no main time.
        let (go, _) = usi("byoyomi 100");
        let clock = go.clock(Dialect::Usi).expect("byoyomi alone is a clock");
        assert_eq!(clock.time_ms, [None, None]);
        assert_eq!(clock.byoyomi_ms, [100, 100]);
        let (go, _) = usi("ponder byoyomi 100");
        assert!(go.clock(Dialect::Usi).is_some());
        for line in [
            "winc 100",
            "binc 100",
            "movestogo 5",
            "byoyomi 100",
            "wtime 0",
        ] {
            let (go, _) = uci(line);
            assert!(go.clock(Dialect::Uci).is_some(), "{line}");
            assert!(!go.is_unbounded(Dialect::Uci), "{line}");
            let (go, _) = usi(line);
            assert!(!go.is_unbounded(Dialect::Usi), "{line}");
        }
        for line in [
            "",
            "ponder",
            "infinite",
            "searchmoves e2e4",
            "byoyomi 100 infinite",
        ] {
            assert!(uci(line).0.is_unbounded(Dialect::Uci), "{line}");
        }
    }

    #[test]
    fn perft_and_movetime() {
        let (go, _) = uci("perft 3");
        assert_eq!(go.perft, Some(3));
        let (go, _) = uci("movetime 250");
        assert_eq!(go.move_time, Some(250));
    }
}
