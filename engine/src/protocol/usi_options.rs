//! YaneuraOu's USI extension options that Sente declares beyond the shared ones: search
//! limits (`DepthLimit`, `NodesLimit`), time shaping (`NetworkDelay2`, `MinimumThinkingTime`,
//! `SlowMover`), analysis output (`ConsiderationMode`, `OutputFailLHPV`), `ResignValue` and the
//! book (`USI_OwnBook`, `BookFile` and its filters). Names and ranges follow YaneuraOu; the few
//! defaults that differ keep Sente's own behaviour (see docs/gui.md).

use super::options::{OptionDef, OptionEffect, OptionId, OptionKind};
use crate::search::time_shaping::TimeShaping;

/// Which YaneuraOu option a `setoption` changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UsiOption {
    DepthLimit,
    NodesLimit,
    NetworkDelay2,
    MinimumThinkingTime,
    SlowMover,
    ConsiderationMode,
    OutputFailLhPv,
    ResignValue,
    OwnBook,
    BookFile,
    BookMoves,
    BookIgnoreRate,
    BookEvalDiff,
    BookEvalBlackLimit,
    BookEvalWhiteLimit,
    BookDepthLimit,
    ConsiderBookMoveCount,
    IgnoreBookPly,
    SkillLevel,
}

/// `ResignValue`'s default and largest value: never resign.
pub const NEVER_RESIGN: i64 = 99_999;

/// `BookFile`'s value for "no book" (YaneuraOu's `no_book`); an empty value means the same.
pub const NO_BOOK: &str = "no_book";

/// How the book chooses among its moves for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSettings {
    /// `USI_OwnBook`: whether the engine plays from its book at all.
    pub own_book: bool,
    /// `BookFile`: the `.db` file (`no_book` or empty: none).
    pub file: String,
    /// `BookMoves`: the book answers positions up to this SFEN move number (0: never).
    pub moves: u32,
    /// `BookIgnoreRate`: percent of hits treated as misses.
    pub ignore_rate: u32,
    /// `BookEvalDiff`: moves within this many centipawns of the best book move are candidates.
    pub eval_diff: i32,
    /// `BookEvalBlackLimit` / `BookEvalWhiteLimit`: the lowest eval a move may have for black
    /// (sente) / white (gote) to move.
    pub eval_limit: [i32; 2],
    /// `BookDepthLimit`: moves searched shallower than this are ignored (0: any depth).
    pub depth_limit: u32,
    /// `ConsiderBookMoveCount`: pick in proportion to the moves' counts (else uniformly).
    pub weighted: bool,
    /// `IgnoreBookPly`: match a position whatever its move number.
    pub ignore_ply: bool,
}

impl Default for BookSettings {
    fn default() -> Self {
        Self {
            own_book: true,
            file: NO_BOOK.to_string(),
            moves: 16,
            ignore_rate: 0,
            eval_diff: 30,
            eval_limit: [0, -140],
            depth_limit: 16,
            weighted: false,
            ignore_ply: false,
        }
    }
}

impl BookSettings {
    /// The book file to read, `None` for none.
    pub fn path(&self) -> Option<&str> {
        let file = self.file.trim();
        (!file.is_empty() && file != NO_BOOK).then_some(file)
    }
}

/// The protocol-side YaneuraOu settings (the time options live in `SearchOptions`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsiSettings {
    /// `DepthLimit`: the deepest iteration of every search (0: none).
    pub depth_limit: u32,
    /// `NodesLimit`: the most nodes of every search (0: none).
    pub nodes_limit: u64,
    /// `ConsiderationMode`: analysis output for GUIs' consideration mode.
    pub consideration_mode: bool,
    /// `OutputFailLHPV`: print the fail-high / fail-low lines of aspiration re-searches.
    pub output_fail_lh_pv: bool,
    /// `ResignValue`: answer `bestmove resign` at or below minus this many centipawns.
    pub resign_value: i32,
    pub book: BookSettings,
    /// `SkillLevel`: 20 full strength, 0 weakest (`strength::skill_level`).
    pub skill_level: u32,
}

impl Default for UsiSettings {
    fn default() -> Self {
        Self {
            depth_limit: 0,
            nodes_limit: 0,
            consideration_mode: false,
            output_fail_lh_pv: true,
            resign_value: NEVER_RESIGN as i32,
            book: BookSettings::default(),
            skill_level: 20,
        }
    }
}

impl UsiSettings {
    /// `DepthLimit` folded into a `go`'s own depth: the smaller one applies.
    pub fn depth(&self, go_depth: Option<u32>) -> Option<u32> {
        fold_limit(go_depth, self.depth_limit)
    }

    /// `NodesLimit` folded into a `go`'s own node count.
    pub fn nodes(&self, go_nodes: Option<u64>) -> Option<u64> {
        fold_limit(go_nodes, self.nodes_limit)
    }
}

fn fold_limit<T: Ord + Copy + Default>(go: Option<T>, option: T) -> Option<T> {
    if option == T::default() {
        return go;
    }
    Some(go.map_or(option, |g| g.min(option)))
}

const fn def(id: UsiOption, name: &'static str, kind: OptionKind) -> OptionDef {
    OptionDef {
        id: OptionId::Usi(id),
        name,
        kind,
    }
}

const fn spin(id: UsiOption, name: &'static str, default: i64, min: i64, max: i64) -> OptionDef {
    def(id, name, OptionKind::Spin { default, min, max })
}

const fn check(id: UsiOption, name: &'static str, default: bool) -> OptionDef {
    def(id, name, OptionKind::Check { default })
}

const BOOK_EVAL_MAX: i64 = 99_999;

/// The declarations, in the order `usi` lists them.
pub const YANEURAOU_OPTIONS: [OptionDef; 19] = [
    spin(UsiOption::DepthLimit, "DepthLimit", 0, 0, i32::MAX as i64),
    spin(UsiOption::NodesLimit, "NodesLimit", 0, 0, i64::MAX),
    spin(UsiOption::NetworkDelay2, "NetworkDelay2", 0, 0, 10_000),
    spin(
        UsiOption::MinimumThinkingTime,
        "MinimumThinkingTime",
        0,
        0,
        100_000,
    ),
    spin(UsiOption::SlowMover, "SlowMover", 100, 1, 1000),
    check(UsiOption::ConsiderationMode, "ConsiderationMode", false),
    check(UsiOption::OutputFailLhPv, "OutputFailLHPV", true),
    spin(
        UsiOption::ResignValue,
        "ResignValue",
        NEVER_RESIGN,
        0,
        NEVER_RESIGN,
    ),
    check(UsiOption::OwnBook, "USI_OwnBook", true),
    def(
        UsiOption::BookFile,
        "BookFile",
        OptionKind::Text {
            default: NO_BOOK,
            file: true,
        },
    ),
    spin(UsiOption::BookMoves, "BookMoves", 16, 0, 10_000),
    spin(UsiOption::BookIgnoreRate, "BookIgnoreRate", 0, 0, 100),
    spin(
        UsiOption::BookEvalDiff,
        "BookEvalDiff",
        30,
        0,
        BOOK_EVAL_MAX,
    ),
    spin(
        UsiOption::BookEvalBlackLimit,
        "BookEvalBlackLimit",
        0,
        -BOOK_EVAL_MAX,
        BOOK_EVAL_MAX,
    ),
    spin(
        UsiOption::BookEvalWhiteLimit,
        "BookEvalWhiteLimit",
        -140,
        -BOOK_EVAL_MAX,
        BOOK_EVAL_MAX,
    ),
    spin(
        UsiOption::BookDepthLimit,
        "BookDepthLimit",
        16,
        0,
        BOOK_EVAL_MAX,
    ),
    check(
        UsiOption::ConsiderBookMoveCount,
        "ConsiderBookMoveCount",
        false,
    ),
    check(UsiOption::IgnoreBookPly, "IgnoreBookPly", false),
    spin(UsiOption::SkillLevel, "SkillLevel", 20, 0, 20),
];

/// A checked option value, as `options` parsed it.
pub enum UsiValue<'a> {
    Bool(bool),
    Int(i64),
    Text(&'a str),
}

/// Stores a checked value (`parse_value` enforced the declared type and range).
pub fn store(
    usi: &mut UsiSettings,
    time: &mut TimeShaping,
    id: UsiOption,
    value: UsiValue<'_>,
) -> OptionEffect {
    let int = match value {
        UsiValue::Int(n) => n,
        _ => 0,
    };
    let boolean = matches!(value, UsiValue::Bool(true));
    let book = &mut usi.book;
    match id {
        UsiOption::DepthLimit => usi.depth_limit = int as u32,
        UsiOption::NodesLimit => usi.nodes_limit = int as u64,
        UsiOption::NetworkDelay2 => time.network_delay2_ms = int as u64,
        UsiOption::MinimumThinkingTime => time.minimum_thinking_ms = int as u64,
        UsiOption::SlowMover => time.slow_mover_percent = int as u64,
        UsiOption::ConsiderationMode => usi.consideration_mode = boolean,
        UsiOption::OutputFailLhPv => usi.output_fail_lh_pv = boolean,
        UsiOption::ResignValue => usi.resign_value = int as i32,
        UsiOption::OwnBook => book.own_book = boolean,
        UsiOption::BookFile => {
            if let UsiValue::Text(path) = value {
                book.file = path.to_string();
            }
        }
        UsiOption::BookMoves => book.moves = int as u32,
        UsiOption::BookIgnoreRate => book.ignore_rate = int as u32,
        UsiOption::BookEvalDiff => book.eval_diff = int as i32,
        UsiOption::BookEvalBlackLimit => book.eval_limit[0] = int as i32,
        UsiOption::BookEvalWhiteLimit => book.eval_limit[1] = int as i32,
        UsiOption::BookDepthLimit => book.depth_limit = int as u32,
        UsiOption::ConsiderBookMoveCount => book.weighted = boolean,
        UsiOption::IgnoreBookPly => book.ignore_ply = boolean,
        UsiOption::SkillLevel => usi.skill_level = int as u32,
    }
    OptionEffect::None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_fold_into_go_limits() {
        let mut usi = UsiSettings::default();
        assert_eq!(usi.depth(None), None);
        assert_eq!(usi.depth(Some(7)), Some(7));
        usi.depth_limit = 5;
        usi.nodes_limit = 1000;
        assert_eq!(usi.depth(None), Some(5));
        assert_eq!(usi.depth(Some(7)), Some(5));
        assert_eq!(usi.depth(Some(3)), Some(3));
        assert_eq!(usi.nodes(None), Some(1000));
        assert_eq!(usi.nodes(Some(500)), Some(500));
    }

    #[test]
    fn book_path_treats_no_book_and_empty_as_none() {
        let mut book = BookSettings::default();
        assert_eq!(book.path(), None);
        book.file = " ".to_string();
        assert_eq!(book.path(), None);
        book.file = "/books/standard_book.db".to_string();
        assert_eq!(book.path(), Some("/books/standard_book.db"));
    }
}
