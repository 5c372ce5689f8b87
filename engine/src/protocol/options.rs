//! Engine options as every protocol exposes them: their declarations (name, type, default,
//! range), parsing and validation of the values a GUI sends, and the typed settings they set.
//!
//! Each protocol shows a subset (`OptionTable`) under its own spellings (Stockfish's for UCI,
//! YaneuraOu's for USI, the union for CECP); all of them write into one `EngineSettings`.

use super::usi_options::{self, UsiOption, UsiSettings, UsiValue};
use crate::game::GameKind;
use crate::search::{strength, SearchOptions};
use crate::shogi::{EnteringKingRule, ShogiRules};

/// What kind of control an option is, with its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check {
        default: bool,
    },
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo {
        default: &'static str,
        choices: &'static [&'static str],
    },
    Button,
    /// A free text value (UCI `string`); `file` selects USI's `filename` / CECP's `-file`.
    Text {
        default: &'static str,
        file: bool,
    },
}

/// Which setting an option changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    Hash,
    Threads,
    ClearHash,
    Ponder,
    MultiPv,
    MoveOverhead,
    /// Stockfish's `nodestime`: a node clock (`SearchOptions::nodes_per_ms`).
    NodesTime,
    Chess960,
    ShowWdl,
    AnalyseMode,
    LimitStrength,
    Elo,
    EvalFile,
    EnteringKingRule,
    MaxMovesToDraw,
    SyzygyPath,
    SyzygyProbeDepth,
    Syzygy50MoveRule,
    SyzygyProbeLimit,
    OwnBook,
    BookFile,
    BookBestMove,
    BookDepth,
    DebugLogFile,
    /// YaneuraOu's USI extensions (`usi_options`).
    Usi(UsiOption),
}

/// One declared option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionDef {
    pub id: OptionId,
    pub name: &'static str,
    pub kind: OptionKind,
}

/// Why a `setoption` / `option NAME=VALUE` was not applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("no such option '{0}'")]
    Unknown(String),
    #[error("option '{name}' needs a value")]
    MissingValue { name: &'static str },
    #[error("option '{name}': '{value}' is not true or false")]
    NotABool { name: &'static str, value: String },
    #[error("option '{name}': '{value}' is not an integer")]
    NotANumber { name: &'static str, value: String },
    #[error("option '{name}': {value} is outside {min}..={max}")]
    OutOfRange {
        name: &'static str,
        value: i64,
        min: i64,
        max: i64,
    },
    #[error("option '{name}': '{value}' is not one of {choices}")]
    NotAChoice {
        name: &'static str,
        value: String,
        choices: String,
    },
}

/// The `EnteringKingRule` option's values, named as YaneuraOu names them, and the shogi rule
/// each one selects.
const ENTERING_KING_NAMES: [&str; 3] = ["NoEnteringKing", "CSARule24", "CSARule27"];
const ENTERING_KING_RULES: [EnteringKingRule; 3] = [
    EnteringKingRule::None,
    EnteringKingRule::Points24,
    EnteringKingRule::Points27,
];

/// The option's default, CSA's 27-point rule as in YaneuraOu; positions made outside the
/// protocols allow no declaration (`EnteringKingRule::default()`).
const DEFAULT_ENTERING_KING: EnteringKingRule = EnteringKingRule::Points27;

/// The option value that selects `rule`.
const fn entering_king_name(rule: EnteringKingRule) -> &'static str {
    match rule {
        EnteringKingRule::None => ENTERING_KING_NAMES[0],
        EnteringKingRule::Points24 => ENTERING_KING_NAMES[1],
        EnteringKingRule::Points27 => ENTERING_KING_NAMES[2],
    }
}

/// Game rules the protocols can switch, applied to every position the engine sets up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSettings {
    /// Chess: Chess960 castling rules and king-takes-rook notation.
    pub chess960: bool,
    /// Shogi: the entering-king declaration rule and the game-length limit (`MaxMovesToDraw`).
    pub shogi: ShogiRules,
}

impl Default for RuleSettings {
    fn default() -> Self {
        Self {
            chess960: false,
            shogi: ShogiRules {
                entering_king: DEFAULT_ENTERING_KING,
                max_plies: 0,
            },
        }
    }
}

/// Every setting an option can change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    pub hash_mb: usize,
    pub threads: usize,
    pub ponder: bool,
    pub analyse_mode: bool,
    pub eval_file: String,
    pub search: SearchOptions,
    pub limit_strength: bool,
    pub elo: u32,
    pub rules: RuleSettings,
    /// Chess: the directories of Syzygy tables (`SyzygyPath`); empty: none.
    pub syzygy_path: String,
    /// Chess: the Polyglot opening book (`OwnBook`, `BookFile`, `BookBestMove`, `BookDepth`).
    pub book: BookSettings,
    /// Where every line in and out is logged (`Debug Log File`); empty: nowhere.
    pub debug_log_file: String,
    /// YaneuraOu's USI extensions beyond the search options.
    pub usi: UsiSettings,
}

/// How the engine plays from its own opening book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSettings {
    /// Play book moves at all (`OwnBook`).
    pub enabled: bool,
    /// The Polyglot `.bin` file (`BookFile`).
    pub file: String,
    /// Always the move of the highest weight (on), or a pick weighted by the weights (off).
    pub best_move: bool,
    /// Book moves are played only in the game's first this many plies.
    pub max_plies: u32,
}

impl Default for BookSettings {
    fn default() -> Self {
        Self {
            enabled: false,
            file: String::new(),
            best_move: false,
            max_plies: DEFAULT_BOOK_DEPTH as u32,
        }
    }
}

impl Default for EngineSettings {
    fn default() -> Self {
        Self {
            hash_mb: DEFAULT_HASH_MB as usize,
            threads: 1,
            ponder: false,
            analyse_mode: false,
            eval_file: String::new(),
            search: SearchOptions::default(),
            limit_strength: false,
            elo: ELO_MIN as u32,
            rules: RuleSettings::default(),
            syzygy_path: String::new(),
            book: BookSettings::default(),
            debug_log_file: String::new(),
            usi: UsiSettings::default(),
        }
    }
}

impl EngineSettings {
    /// The search options with the strength limit folded in (`UCI_LimitStrength` with `UCI_Elo`,
    /// else the skill level, read as `game`'s: `strength::skill_level`).
    pub fn search_options(&self, game: Option<GameKind>) -> SearchOptions {
        let mut options = self.search.clone();
        options.skill = if self.limit_strength {
            strength::chess_elo_skill(self.elo)
        } else {
            strength::skill_level(game, self.usi.skill_level)
        };
        options
    }
}

/// What applying an option asks of the engine beyond storing the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionEffect {
    None,
    /// Forget the transposition table and histories.
    ClearHash,
    /// Game rules changed: positions must be set up again with the new rules.
    RulesChanged,
}

const DEFAULT_HASH_MB: i64 = 16;
const MAX_HASH_MB: i64 = 65536;
const MAX_THREADS: i64 = 1024;
const ELO_MIN: i64 = crate::search::strength::CHESS_ELO_MIN as i64;
const ELO_MAX: i64 = crate::search::strength::CHESS_ELO_MAX as i64;
const DEFAULT_BOOK_DEPTH: i64 = 256;

const fn def(id: OptionId, name: &'static str, kind: OptionKind) -> OptionDef {
    OptionDef { id, name, kind }
}

const THREADS: OptionDef = def(
    OptionId::Threads,
    "Threads",
    OptionKind::Spin {
        default: 1,
        min: 1,
        max: MAX_THREADS,
    },
);
const MULTI_PV: OptionDef = def(
    OptionId::MultiPv,
    "MultiPV",
    OptionKind::Spin {
        default: 1,
        min: 1,
        max: 500,
    },
);
const EVAL_FILE: OptionDef = def(
    OptionId::EvalFile,
    "EvalFile",
    OptionKind::Text {
        default: "",
        file: true,
    },
);
const ENTERING_KING: OptionDef = def(
    OptionId::EnteringKingRule,
    "EnteringKingRule",
    OptionKind::Combo {
        default: entering_king_name(DEFAULT_ENTERING_KING),
        choices: &ENTERING_KING_NAMES,
    },
);
const MAX_MOVES_TO_DRAW: OptionDef = def(
    OptionId::MaxMovesToDraw,
    "MaxMovesToDraw",
    OptionKind::Spin {
        default: 0,
        min: 0,
        max: 100_000,
    },
);
const HASH: OptionDef = def(
    OptionId::Hash,
    "Hash",
    OptionKind::Spin {
        default: DEFAULT_HASH_MB,
        min: 1,
        max: MAX_HASH_MB,
    },
);
const CLEAR_HASH: OptionDef = def(OptionId::ClearHash, "Clear Hash", OptionKind::Button);
const MOVE_OVERHEAD: OptionDef = def(
    OptionId::MoveOverhead,
    "Move Overhead",
    OptionKind::Spin {
        default: 10,
        min: 0,
        max: 5000,
    },
);
/// Stockfish's `nodestime`, one spelling in every protocol: when above 0, each millisecond the
/// GUI's clock gives a move is that many searched nodes, so time management (the clock's split,
/// `SlowMover`, `MinimumThinkingTime`, `NetworkDelay2`) plays out the same on any machine.
const NODES_TIME: OptionDef = def(
    OptionId::NodesTime,
    "nodestime",
    OptionKind::Spin {
        default: 0,
        min: 0,
        max: 10_000,
    },
);
const SHOW_WDL: OptionDef = def(
    OptionId::ShowWdl,
    "UCI_ShowWDL",
    OptionKind::Check { default: false },
);
const LIMIT_STRENGTH: OptionDef = def(
    OptionId::LimitStrength,
    "UCI_LimitStrength",
    OptionKind::Check { default: false },
);
/// Stockfish's `Skill Level` (UCI; `SkillLevel` in CECP, as YaneuraOu's USI option): 0..19 limit
/// the strength, 20 is full strength; `UCI_LimitStrength` with `UCI_Elo` overrides it.
const fn skill_level_def(name: &'static str) -> OptionDef {
    def(
        OptionId::Usi(UsiOption::SkillLevel),
        name,
        OptionKind::Spin {
            default: 20,
            min: 0,
            max: 20,
        },
    )
}
const ELO: OptionDef = def(
    OptionId::Elo,
    "UCI_Elo",
    OptionKind::Spin {
        default: ELO_MIN,
        min: ELO_MIN,
        max: ELO_MAX,
    },
);

const SYZYGY_PATH: OptionDef = def(
    OptionId::SyzygyPath,
    "SyzygyPath",
    OptionKind::Text {
        default: "",
        file: false,
    },
);
const SYZYGY_PROBE_DEPTH: OptionDef = def(
    OptionId::SyzygyProbeDepth,
    "SyzygyProbeDepth",
    OptionKind::Spin {
        default: 1,
        min: 1,
        max: 100,
    },
);
const SYZYGY_50_MOVE_RULE: OptionDef = def(
    OptionId::Syzygy50MoveRule,
    "Syzygy50MoveRule",
    OptionKind::Check { default: true },
);
const SYZYGY_PROBE_LIMIT: OptionDef = def(
    OptionId::SyzygyProbeLimit,
    "SyzygyProbeLimit",
    OptionKind::Spin {
        default: 7,
        min: 0,
        max: 7,
    },
);
const OWN_BOOK: OptionDef = def(
    OptionId::OwnBook,
    "OwnBook",
    OptionKind::Check { default: false },
);
const BOOK_FILE: OptionDef = def(
    OptionId::BookFile,
    "BookFile",
    OptionKind::Text {
        default: "",
        file: true,
    },
);
const BOOK_BEST_MOVE: OptionDef = def(
    OptionId::BookBestMove,
    "BookBestMove",
    OptionKind::Check { default: false },
);
const BOOK_DEPTH: OptionDef = def(
    OptionId::BookDepth,
    "BookDepth",
    OptionKind::Spin {
        default: DEFAULT_BOOK_DEPTH,
        min: 0,
        max: 1024,
    },
);
/// Stockfish's spelling (UCI); USI and CECP names carry no spaces.
const DEBUG_LOG_FILE: OptionDef = def(
    OptionId::DebugLogFile,
    "Debug Log File",
    OptionKind::Text {
        default: "",
        file: true,
    },
);
const DEBUG_LOG_FILE_NO_SPACES: OptionDef = def(
    OptionId::DebugLogFile,
    "DebugLogFile",
    OptionKind::Text {
        default: "",
        file: true,
    },
);

/// UCI options, spelled as Stockfish spells them.
const UCI_OPTIONS: &[OptionDef] = &[
    THREADS,
    HASH,
    CLEAR_HASH,
    def(
        OptionId::Ponder,
        "Ponder",
        OptionKind::Check { default: false },
    ),
    MULTI_PV,
    MOVE_OVERHEAD,
    NODES_TIME,
    def(
        OptionId::Chess960,
        "UCI_Chess960",
        OptionKind::Check { default: false },
    ),
    SHOW_WDL,
    def(
        OptionId::AnalyseMode,
        "UCI_AnalyseMode",
        OptionKind::Check { default: false },
    ),
    skill_level_def("Skill Level"),
    LIMIT_STRENGTH,
    ELO,
    EVAL_FILE,
    SYZYGY_PATH,
    SYZYGY_PROBE_DEPTH,
    SYZYGY_50_MOVE_RULE,
    SYZYGY_PROBE_LIMIT,
    OWN_BOOK,
    BOOK_FILE,
    BOOK_BEST_MOVE,
    BOOK_DEPTH,
    DEBUG_LOG_FILE,
];

/// USI options, following YaneuraOu's conventions (no spaces in names).
const USI_OPTIONS: &[OptionDef] = &[
    def(
        OptionId::Hash,
        "USI_Hash",
        OptionKind::Spin {
            default: DEFAULT_HASH_MB,
            min: 1,
            max: MAX_HASH_MB,
        },
    ),
    def(
        OptionId::Ponder,
        "USI_Ponder",
        OptionKind::Check { default: false },
    ),
    THREADS,
    MULTI_PV,
    def(
        OptionId::MoveOverhead,
        "NetworkDelay",
        OptionKind::Spin {
            default: 10,
            min: 0,
            max: 10_000,
        },
    ),
    NODES_TIME,
    EVAL_FILE,
    ENTERING_KING,
    MAX_MOVES_TO_DRAW,
    DEBUG_LOG_FILE_NO_SPACES,
    usi_options::YANEURAOU_OPTIONS[0],
    usi_options::YANEURAOU_OPTIONS[1],
    usi_options::YANEURAOU_OPTIONS[2],
    usi_options::YANEURAOU_OPTIONS[3],
    usi_options::YANEURAOU_OPTIONS[4],
    usi_options::YANEURAOU_OPTIONS[5],
    usi_options::YANEURAOU_OPTIONS[6],
    usi_options::YANEURAOU_OPTIONS[7],
    usi_options::YANEURAOU_OPTIONS[8],
    usi_options::YANEURAOU_OPTIONS[9],
    usi_options::YANEURAOU_OPTIONS[10],
    usi_options::YANEURAOU_OPTIONS[11],
    usi_options::YANEURAOU_OPTIONS[12],
    usi_options::YANEURAOU_OPTIONS[13],
    usi_options::YANEURAOU_OPTIONS[14],
    usi_options::YANEURAOU_OPTIONS[15],
    usi_options::YANEURAOU_OPTIONS[16],
    usi_options::YANEURAOU_OPTIONS[17],
    usi_options::YANEURAOU_OPTIONS[18],
];

/// USI options GUIs send without the engine declaring them (Shogidokoro); accepted silently.
const USI_IMPLICIT: &[OptionDef] = &[def(
    OptionId::AnalyseMode,
    "USI_AnalyseMode",
    OptionKind::Check { default: false },
)];

/// CECP options (`feature option=...`). Hash and threads also come as `memory` and `cores`.
/// Names carry no spaces: xboard allows them, but python-chess splits option features on spaces.
const CECP_OPTIONS: &[OptionDef] = &[
    HASH,
    THREADS,
    def(OptionId::ClearHash, "ClearHash", OptionKind::Button),
    MULTI_PV,
    def(
        OptionId::MoveOverhead,
        "MoveOverhead",
        OptionKind::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
    ),
    NODES_TIME,
    skill_level_def("SkillLevel"),
    LIMIT_STRENGTH,
    ELO,
    EVAL_FILE,
    ENTERING_KING,
    MAX_MOVES_TO_DRAW,
    SYZYGY_PATH,
    SYZYGY_PROBE_DEPTH,
    SYZYGY_50_MOVE_RULE,
    SYZYGY_PROBE_LIMIT,
    OWN_BOOK,
    BOOK_FILE,
    BOOK_BEST_MOVE,
    BOOK_DEPTH,
    DEBUG_LOG_FILE_NO_SPACES,
];

/// A protocol's view of the options: which it declares and how it parses values.
#[derive(Clone, Copy, Debug)]
pub struct OptionTable {
    declared: &'static [OptionDef],
    implicit: &'static [OptionDef],
}

impl OptionTable {
    pub const UCI: OptionTable = OptionTable {
        declared: UCI_OPTIONS,
        implicit: &[],
    };
    pub const USI: OptionTable = OptionTable {
        declared: USI_OPTIONS,
        implicit: USI_IMPLICIT,
    };
    pub const CECP: OptionTable = OptionTable {
        declared: CECP_OPTIONS,
        implicit: &[CLEAR_HASH, MOVE_OVERHEAD],
    };

    pub fn declared(&self) -> &'static [OptionDef] {
        self.declared
    }

    /// Looks an option up by name, ignoring case and surrounding/repeated whitespace.
    pub fn find(&self, name: &str) -> Option<&'static OptionDef> {
        let wanted = collapse_spaces(name);
        self.declared
            .iter()
            .chain(self.implicit)
            .find(|d| d.name.eq_ignore_ascii_case(&wanted))
    }

    /// Parses `value` for the option `name` and stores it in `settings`.
    pub fn apply(
        &self,
        settings: &mut EngineSettings,
        name: &str,
        value: Option<&str>,
    ) -> Result<OptionEffect, OptionError> {
        let def = self
            .find(name)
            .ok_or_else(|| OptionError::Unknown(name.trim().to_string()))?;
        let parsed = parse_value(def, value)?;
        Ok(store(settings, def.id, parsed))
    }
}

/// A value checked against its option's type.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Value {
    Bool(bool),
    Int(i64),
    Text(String),
    Pressed,
}

fn parse_value(def: &OptionDef, value: Option<&str>) -> Result<Value, OptionError> {
    let name = def.name;
    let text = value.map(str::trim);
    match def.kind {
        OptionKind::Button => Ok(Value::Pressed),
        OptionKind::Check { .. } => {
            let text = text.ok_or(OptionError::MissingValue { name })?;
            match text.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" => Ok(Value::Bool(true)),
                "false" | "0" | "off" => Ok(Value::Bool(false)),
                _ => Err(OptionError::NotABool {
                    name,
                    value: text.to_string(),
                }),
            }
        }
        OptionKind::Spin { min, max, .. } => {
            let text = text.ok_or(OptionError::MissingValue { name })?;
            let number: i64 = text.parse().map_err(|_| OptionError::NotANumber {
                name,
                value: text.to_string(),
            })?;
            if number < min || number > max {
                return Err(OptionError::OutOfRange {
                    name,
                    value: number,
                    min,
                    max,
                });
            }
            Ok(Value::Int(number))
        }
        OptionKind::Combo { choices, .. } => {
            let text = text.ok_or(OptionError::MissingValue { name })?;
            choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(text))
                .map(|c| Value::Text(c.to_string()))
                .ok_or_else(|| OptionError::NotAChoice {
                    name,
                    value: text.to_string(),
                    choices: choices.join(", "),
                })
        }
        OptionKind::Text { .. } => {
            let text = text.unwrap_or("");
            let text = if text == "<empty>" { "" } else { text };
            Ok(Value::Text(text.to_string()))
        }
    }
}

fn store(settings: &mut EngineSettings, id: OptionId, value: Value) -> OptionEffect {
    let int = |v: &Value| match v {
        Value::Int(n) => *n,
        _ => 0,
    };
    let boolean = |v: &Value| matches!(v, Value::Bool(true));
    let text = |v: Value| match v {
        Value::Text(t) => t,
        _ => String::new(),
    };
    match id {
        OptionId::Hash => settings.hash_mb = int(&value) as usize,
        OptionId::Threads => settings.threads = int(&value) as usize,
        OptionId::ClearHash => return OptionEffect::ClearHash,
        OptionId::Ponder => settings.ponder = boolean(&value),
        OptionId::MultiPv => settings.search.multi_pv = int(&value) as usize,
        OptionId::MoveOverhead => settings.search.move_overhead_ms = int(&value) as u64,
        OptionId::NodesTime => settings.search.nodes_per_ms = int(&value) as u64,
        OptionId::Chess960 => {
            settings.rules.chess960 = boolean(&value);
            return OptionEffect::RulesChanged;
        }
        OptionId::ShowWdl => settings.search.show_wdl = boolean(&value),
        OptionId::AnalyseMode => settings.analyse_mode = boolean(&value),
        OptionId::LimitStrength => settings.limit_strength = boolean(&value),
        OptionId::Elo => settings.elo = int(&value) as u32,
        OptionId::EvalFile => {
            if let Value::Text(path) = value {
                settings.eval_file = path;
            }
        }
        OptionId::EnteringKingRule => {
            // `parse_value` only lets the declared names through.
            if let Value::Text(name) = &value {
                if let Some(index) = ENTERING_KING_NAMES.iter().position(|n| n == name) {
                    settings.rules.shogi.entering_king = ENTERING_KING_RULES[index];
                }
            }
            return OptionEffect::RulesChanged;
        }
        OptionId::SyzygyPath => settings.syzygy_path = text(value),
        OptionId::SyzygyProbeDepth => settings.search.tablebase.probe_depth = int(&value) as i32,
        OptionId::Syzygy50MoveRule => settings.search.tablebase.rule50 = boolean(&value),
        OptionId::SyzygyProbeLimit => settings.search.tablebase.probe_limit = int(&value) as u32,
        OptionId::OwnBook => settings.book.enabled = boolean(&value),
        OptionId::BookFile => settings.book.file = text(value),
        OptionId::BookBestMove => settings.book.best_move = boolean(&value),
        OptionId::BookDepth => settings.book.max_plies = int(&value) as u32,
        OptionId::DebugLogFile => settings.debug_log_file = text(value),
        OptionId::MaxMovesToDraw => {
            settings.rules.shogi.max_plies = int(&value) as u32;
            return OptionEffect::RulesChanged;
        }
        OptionId::Usi(id) => {
            let value = match &value {
                Value::Bool(b) => UsiValue::Bool(*b),
                Value::Int(n) => UsiValue::Int(*n),
                Value::Text(text) => UsiValue::Text(text),
                Value::Pressed => UsiValue::Bool(true),
            };
            let time = &mut settings.search.time_shaping;
            return usi_options::store(&mut settings.usi, time, id, value);
        }
    }
    OptionEffect::None
}

fn collapse_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `option name X type T ...` as UCI and USI declare an option.
pub fn uci_declaration(def: &OptionDef, usi: bool) -> String {
    let name = def.name;
    match def.kind {
        OptionKind::Check { default } => format!("option name {name} type check default {default}"),
        OptionKind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionKind::Combo { default, choices } => {
            let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        }
        OptionKind::Button => format!("option name {name} type button"),
        OptionKind::Text { default, file } => {
            let kind = if usi && file { "filename" } else { "string" };
            let default = if default.is_empty() {
                "<empty>"
            } else {
                default
            };
            format!("option name {name} type {kind} default {default}")
        }
    }
}

/// `feature option="NAME -type ..."` as CECP declares an option.
pub fn cecp_declaration(def: &OptionDef) -> String {
    let name = def.name;
    let body = match def.kind {
        OptionKind::Check { default } => format!("{name} -check {}", u8::from(default)),
        OptionKind::Spin { default, min, max } => format!("{name} -spin {default} {min} {max}"),
        OptionKind::Combo { default, choices } => {
            let list: Vec<String> = choices
                .iter()
                .map(|c| {
                    if *c == default {
                        format!("*{c}")
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            format!("{name} -combo {}", list.join(" /// "))
        }
        OptionKind::Button => format!("{name} -button"),
        OptionKind::Text { default, file } => {
            format!("{name} -{} {default}", if file { "file" } else { "string" })
        }
    };
    format!("feature option=\"{body}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_spaces_collapse() {
        let mut s = EngineSettings::default();
        let effect = OptionTable::UCI.apply(&mut s, "  clear   HASH ", None);
        assert_eq!(effect, Ok(OptionEffect::ClearHash));
        OptionTable::UCI
            .apply(&mut s, "move overhead", Some("250"))
            .unwrap();
        assert_eq!(s.search.move_overhead_ms, 250);
        OptionTable::UCI
            .apply(&mut s, "hash", Some(" 64 "))
            .unwrap();
        assert_eq!(s.hash_mb, 64);
    }

    #[test]
    fn every_protocol_sets_the_node_clock() {
        for table in [OptionTable::UCI, OptionTable::USI, OptionTable::CECP] {
            let mut s = EngineSettings::default();
            assert_eq!(s.search.nodes_per_ms, 0);
            table.apply(&mut s, "nodestime", Some("500")).unwrap();
            assert_eq!(s.search.nodes_per_ms, 500);
            assert!(table.apply(&mut s, "NodesTime", Some("10001")).is_err());
            assert_eq!(s.search.nodes_per_ms, 500);
        }
    }

    #[test]
    fn bad_values_leave_settings_alone() {
        let mut s = EngineSettings::default();
        let before = s.clone();
        assert!(matches!(
            OptionTable::UCI.apply(&mut s, "Hash", Some("lots")),
            Err(OptionError::NotANumber { .. })
        ));
        assert!(matches!(
            OptionTable::UCI.apply(&mut s, "Hash", Some("0")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            OptionTable::UCI.apply(&mut s, "Threads", None),
            Err(OptionError::MissingValue { .. })
        ));
        assert!(matches!(
            OptionTable::UCI.apply(&mut s, "Ponder", Some("maybe")),
            Err(OptionError::NotABool { .. })
        ));
        assert!(matches!(
            OptionTable::UCI.apply(&mut s, "Nonsense", Some("1")),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(s, before);
    }

    #[test]
    fn string_values_keep_spaces_and_empty_marker() {
        let mut s = EngineSettings::default();
        OptionTable::UCI
            .apply(&mut s, "EvalFile", Some("/some dir/my net.nnue"))
            .unwrap();
        assert_eq!(s.eval_file, "/some dir/my net.nnue");
        OptionTable::UCI
            .apply(&mut s, "EvalFile", Some("<empty>"))
            .unwrap();
        assert_eq!(s.eval_file, "");
    }

    #[test]
    fn usi_rules_and_implicit_options() {
        let mut s = EngineSettings::default();
        // The default the USI option shows, not the rule-less `EnteringKingRule::default()`.
        assert_eq!(s.rules.shogi.entering_king, EnteringKingRule::Points27);
        OptionTable::USI
            .apply(&mut s, "EnteringKingRule", Some("NoEnteringKing"))
            .unwrap();
        assert_eq!(s.rules.shogi.entering_king, EnteringKingRule::None);
        let effect = OptionTable::USI
            .apply(&mut s, "EnteringKingRule", Some("csarule24"))
            .unwrap();
        assert_eq!(effect, OptionEffect::RulesChanged);
        assert_eq!(s.rules.shogi.entering_king, EnteringKingRule::Points24);
        assert!(OptionTable::USI
            .apply(&mut s, "EnteringKingRule", Some("TryRule"))
            .is_err());
        OptionTable::USI
            .apply(&mut s, "MaxMovesToDraw", Some("256"))
            .unwrap();
        assert_eq!(s.rules.shogi.max_plies, 256);
        OptionTable::USI
            .apply(&mut s, "USI_AnalyseMode", Some("true"))
            .unwrap();
        assert!(s.analyse_mode);
        OptionTable::USI
            .apply(&mut s, "USI_Hash", Some("128"))
            .unwrap();
        assert_eq!(s.hash_mb, 128);
    }

    #[test]
    fn strength_limit_reaches_search_options() {
        let mut s = EngineSettings::default();
        assert_eq!(s.search_options(Some(GameKind::Chess)).skill, None);
        OptionTable::UCI
            .apply(&mut s, "UCI_LimitStrength", Some("true"))
            .unwrap();
        OptionTable::UCI
            .apply(&mut s, "UCI_Elo", Some("2000"))
            .unwrap();
        assert_eq!(
            s.search_options(Some(GameKind::Chess)).skill,
            crate::search::strength::chess_elo_skill(2000)
        );
    }

    #[test]
    fn declarations_are_well_formed() {
        let forbidden = ["name", "type", "default", "min", "max", "var"];
        for def in UCI_OPTIONS {
            for word in def.name.split(' ') {
                assert!(!forbidden.contains(&word.to_ascii_lowercase().as_str()));
            }
            assert!(uci_declaration(def, false).starts_with("option name "));
        }
        for def in USI_OPTIONS.iter().chain(CECP_OPTIONS) {
            assert!(!def.name.contains(' '), "USI and CECP names have no spaces");
        }
        assert_eq!(
            uci_declaration(&HASH, false),
            "option name Hash type spin default 16 min 1 max 65536"
        );
        assert_eq!(
            cecp_declaration(&ENTERING_KING),
            "feature option=\"EnteringKingRule -combo NoEnteringKing /// CSARule24 /// *CSARule27\""
        );
        assert_eq!(
            uci_declaration(&EVAL_FILE, true),
            "option name EvalFile type filename default <empty>"
        );
    }
}

/// Splits the text after `setoption` (`name <id> [value <x>]`) into name and value. Both may
/// contain spaces; keywords are matched case-insensitively. `None` when `name` is missing.
pub fn split_setoption(text: &str) -> Option<(&str, Option<&str>)> {
    let text = text.trim();
    let keyword = text.get(..4)?;
    if !keyword.eq_ignore_ascii_case("name") {
        return None;
    }
    let body = &text[4..];
    if !body.is_empty() && !body.starts_with(char::is_whitespace) {
        return None;
    }
    let body = body.trim_start();
    // Find a standalone `value` token after at least one name token.
    let mut offset = 0;
    for (index, token) in body.split_whitespace().enumerate() {
        let at = offset + body[offset..].find(token).unwrap_or(0);
        offset = at + token.len();
        if index > 0 && token.eq_ignore_ascii_case("value") {
            let name = body[..at].trim();
            let value = body[offset..].trim();
            return Some((name, Some(value)));
        }
    }
    Some((body.trim(), None))
}

#[cfg(test)]
mod setoption_tests {
    use super::split_setoption;

    #[test]
    fn splits_names_and_values_with_spaces() {
        assert_eq!(
            split_setoption("name Clear Hash"),
            Some(("Clear Hash", None))
        );
        assert_eq!(
            split_setoption("NAME  Move   Overhead VALUE 30 "),
            Some(("Move   Overhead", Some("30")))
        );
        assert_eq!(
            split_setoption("name EvalFile value /a b/c value.nnue"),
            Some(("EvalFile", Some("/a b/c value.nnue")))
        );
        assert_eq!(split_setoption("name Hash value"), Some(("Hash", Some(""))));
        assert_eq!(split_setoption("Hash value 3"), None);
        assert_eq!(split_setoption("namely x"), None);
        assert_eq!(split_setoption(""), None);
    }
}
