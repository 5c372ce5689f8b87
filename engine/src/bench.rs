//! `sente bench`: a fixed-depth search over built-in positions of each game, printing the node
//! total (a signature of search behaviour) and nodes per second. One thread, 16 MB hash, cleared
//! before every position, so the node total is deterministic.

pub mod positions;

use crate::eval::Evaluator;
use crate::game::{Game, GameKind, HistoryEntry};
use crate::nnue::{EvalChoice, GameEval, NnueGame};
use crate::search::{Limits, SearchControl, SearchFeatures, SearchOptions, SearchParams, Searcher};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// The search a bench runs: switches and parameters changed from the game's own defaults
/// (`SearchFeatures::for_game`, `SearchParams::for_game`), as their `with_changes` take them,
/// for a technique's or a tuned set's signature before it becomes the default. Empty: the
/// engine's search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchSearch {
    pub features: String,
    pub params: String,
}

/// Depth used when none is given: a few seconds per game.
pub fn default_bench_depth(game: GameKind) -> u32 {
    match game {
        GameKind::Chess => 10,
        GameKind::Shogi => 8,
    }
}

/// The built-in bench positions of a game.
pub fn builtin_positions(game: GameKind) -> &'static [&'static str] {
    match game {
        GameKind::Chess => positions::CHESS,
        GameKind::Shogi => positions::SHOGI,
    }
}

fn game_kind(game: &str) -> Result<GameKind, BenchError> {
    GameKind::from_name(game).ok_or_else(|| BenchError::UnknownGame(game.to_string()))
}

/// Searches `texts` of `game` with the chosen evaluator (the game's default depth when `depth` is
/// `None`).
fn bench_game(
    game: GameKind,
    texts: &[&str],
    depth: Option<u32>,
    eval: BenchEval,
    search: BenchSearch,
    out: &mut dyn Write,
) -> Result<BenchSummary, BenchError> {
    let depth = depth.unwrap_or_else(|| default_bench_depth(game)).max(1);
    crate::dispatch_game!(game, G => {
        let evaluator = bench_eval::<G>(eval)?;
        writeln!(out, "evaluation: {}", evaluator.describe())?;
        if !search.features.is_empty() {
            writeln!(out, "search: {}", search.features)?;
        }
        if !search.params.is_empty() {
            writeln!(out, "params: {}", search.params)?;
        }
        bench_positions::<G, _>(texts, evaluator, depth, search, out)
    })
}
/// Hash size of bench searches.
const BENCH_HASH_MB: usize = 16;

/// Why a bench could not run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("{}", crate::game_kind::UnknownGame(.0.clone()))]
    UnknownGame(String),
    #[error("bench position {index} '{text}' is invalid: {reason}")]
    BadPosition {
        index: usize,
        text: String,
        reason: String,
    },
    #[error("writing the bench report failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Net(String),
    #[error("bench positions file {path}: {reason}")]
    PositionsFile { path: String, reason: String },
    #[error("bench search changes: {0}")]
    Search(String),
}

/// Totals of one bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchSummary {
    pub positions: usize,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub nps: u64,
}

/// A position text with an optional move list: `"<FEN/SFEN | startpos> [moves m1 m2 ...]"`.
pub fn parse_bench_position<G: Game>(text: &str) -> Result<(G, Vec<HistoryEntry>), String> {
    let (base, moves) = match text.split_once(" moves ") {
        Some((base, moves)) => (base.trim(), moves.split_whitespace().collect::<Vec<_>>()),
        None => (text.trim(), Vec::new()),
    };
    let mut pos = if base == "startpos" {
        G::startpos()
    } else {
        G::from_text(base).map_err(|e| e.to_string())?
    };
    let mut history = Vec::with_capacity(moves.len());
    for m in moves {
        let mv = pos.parse_move(m).map_err(|e| e.to_string())?;
        history.push(HistoryEntry {
            hash: pos.hash(),
            in_check: pos.in_check(),
        });
        pos.make_move(mv);
    }
    Ok((pos, history))
}

/// Searches each of `texts` to `depth` with the game's search changed by `search` and writes
/// one line per position and the totals.
pub fn bench_positions<G: Game, E: Evaluator<G>>(
    texts: &[&str],
    evaluator: E,
    depth: u32,
    search: impl Into<BenchSearch>,
    out: &mut dyn Write,
) -> Result<BenchSummary, BenchError> {
    let search = search.into();
    let mut parsed = Vec::with_capacity(texts.len());
    for (index, &text) in texts.iter().enumerate() {
        let position =
            parse_bench_position::<G>(text).map_err(|reason| BenchError::BadPosition {
                index: index + 1,
                text: text.to_string(),
                reason,
            })?;
        parsed.push(position);
    }
    let mut searcher = Searcher::new(evaluator);
    searcher.set_hash_mb(BENCH_HASH_MB);
    searcher.set_threads(1);
    let features = SearchFeatures::for_game::<G>()
        .with_changes(&search.features)
        .map_err(BenchError::Search)?;
    let params = SearchParams::for_game::<G>()
        .with_changes(&search.params)
        .map_err(BenchError::Search)?;
    searcher.set_features(features);
    searcher.set_params(params);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let options = SearchOptions::default();
    let control = SearchControl::default();
    let mut total_nodes = 0;
    let mut total_ms = 0u128;
    for (index, (pos, history)) in parsed.iter().enumerate() {
        searcher.clear();
        let started = Instant::now();
        let result = searcher.search(pos, history, &limits, &options, &control, &mut |_| {});
        let elapsed = started.elapsed();
        total_ms += elapsed.as_millis();
        total_nodes += result.nodes;
        let best = result
            .best
            .map_or_else(|| "(none)".to_string(), |m| pos.format_move(m));
        writeln!(
            out,
            "{:>3}/{} {:<8} nodes {:>10} {:>6} ms  {}",
            index + 1,
            parsed.len(),
            best,
            result.nodes,
            elapsed.as_millis(),
            pos.to_text()
        )?;
    }
    let elapsed_ms = total_ms.max(1) as u64;
    let summary = BenchSummary {
        positions: parsed.len(),
        nodes: total_nodes,
        elapsed_ms,
        nps: total_nodes * 1000 / elapsed_ms,
    };
    writeln!(out, "===========================")?;
    writeln!(out, "Total time (ms) : {}", summary.elapsed_ms)?;
    writeln!(out, "Nodes searched  : {}", summary.nodes)?;
    writeln!(out, "Nodes/second    : {}", summary.nps)?;
    out.flush()?;
    Ok(summary)
}

/// Which evaluator `sente bench` uses: the engine's one evaluator choice.
pub type BenchEval<'a> = EvalChoice<'a>;

fn bench_eval<G: NnueGame>(choice: BenchEval) -> Result<GameEval<G>, BenchError> {
    GameEval::select(choice).map_err(|e| BenchError::Net(e.to_string()))
}

/// `sente bench [game] [depth]`: the built-in positions of `game` (a `GameKind` name) with the
/// chosen evaluator and search switches.
pub fn run_bench(
    game: &str,
    depth: Option<u32>,
    eval: BenchEval,
    search: impl Into<BenchSearch>,
    out: &mut dyn Write,
) -> Result<BenchSummary, BenchError> {
    let game = game_kind(game)?;
    bench_game(
        game,
        builtin_positions(game),
        depth,
        eval,
        search.into(),
        out,
    )
}

/// `sente bench GAME --positions FILE`: the positions of FILE instead of the built-in ones, one
/// per line in the form `parse_bench_position` reads (blank lines and `#` comments skipped).
pub fn run_bench_file(
    game: &str,
    path: &Path,
    depth: Option<u32>,
    eval: BenchEval,
    search: impl Into<BenchSearch>,
    out: &mut dyn Write,
) -> Result<BenchSummary, BenchError> {
    let search = search.into();
    let file_error = |reason: String| BenchError::PositionsFile {
        path: path.display().to_string(),
        reason,
    };
    let text = std::fs::read_to_string(path).map_err(|e| file_error(e.to_string()))?;
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();
    if lines.is_empty() {
        return Err(file_error("no positions".to_string()));
    }
    bench_game(game_kind(game)?, &lines, depth, eval, search, out)
}
