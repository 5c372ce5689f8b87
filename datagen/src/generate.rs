//! Self-play data generation: games in parallel with rayon, each seeded from (seed, game index)
//! so the output is bit-identical whatever the thread count; games go to free threads in index
//! order and are written in chunks of `GAMES_PER_CHUNK` games in index order as each chunk
//! completes; a killed run restarted with the same arguments resumes after its last complete
//! chunk, and one whose file has damaged chunks keeps their bytes aside, plays their games again
//! and rebuilds the file (`resume_point`, `repair`). Openings are random plies from the start
//! position or from a
//! book position chosen by (seed, game index); one searcher moves for both sides unless
//! `--searchers per-side` (`side_searchers`). With endgame tables (`--syzygy`) a game ends as
//! soon as it reaches a position the tables hold by a capture or pawn move, with their result.

use crate::book::{Book, BookSummary};
use crate::players::DatagenGame;
use crate::progress::Progress;
use crate::side_searchers::{BothSides, SideSearchers};
use crate::tablebases::Tablebases;
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use sente::eval::Evaluator;
use sente::game::{Game, GameKind, GameMove, Side};
use sente::search::tablebase::EndgameTables;
use sente::search::{
    Limits, Score, SearchControl, SearchFeatures, SearchOptions, SearchResult, Searcher,
};
use sente::selfplay::{
    play_game_with_tables, random_opening, Adjudication, GameEnd, Opening, PlayerConfig,
    SearchPlayer, SelfPlayer,
};
use sente_data::chunk::{
    append_chunk, encode_chunk, game_id, read_chunk, ChunkError, ChunkInfo, FORMAT_VERSION,
};
use sente_data::data_paths::{run_data_file, DATA_FILE};
use sente_data::file::{check_regular_file, map_file};
use sente_data::scan::scan;
use sente_data::shard::Shard;
use sente_data::stored_game::{
    StoredGame, RESULT_DRAW, RESULT_FIRST_WINS, RESULT_SECOND_WINS, SCORE_LIMIT,
};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// One played game: its record, the nodes its searches took and their time in seconds.
type PlayedGame = (StoredGame, u64, f64);

/// Games per chunk: fixed, so chunk boundaries (and the file) don't depend on the thread count.
pub const GAMES_PER_CHUNK: u64 = 32;
/// Stack for the game threads, which run the searches themselves (the search recurses deeply).
const THREAD_STACK_BYTES: usize = sente::search::SEARCH_STACK_BYTES;

/// Everything that determines a run's output (written to `run.txt` and checked on resume).
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateConfig {
    pub game: GameKind,
    pub games: Option<u64>,
    pub positions: Option<u64>,
    pub nodes: u64,
    pub seed: u64,
    pub random_plies: u32,
    /// Nodes of the search that checks an opening; 0 skips the check.
    pub verify_nodes: u64,
    /// Openings whose verification score exceeds this (centipawns) are redrawn.
    pub verify_margin: i32,
    pub adjudication: Adjudication,
    /// Evaluator description (`classical` or a net file's name and checksum).
    pub evaluator: String,
    /// Chess: random Chess960/DFRC start positions.
    pub dfrc: bool,
    /// The players' search switches changed from the game's defaults (`name=on|off,...`, in
    /// `SearchFeatures::changes_from` form: empty when the defaults are played).
    pub search: String,
    /// One searcher for both sides of a game, or one per side.
    pub searchers: SideSearchers,
}

/// The search switches self-play changes from the game's defaults unless told otherwise.
/// `material_scaling` scales the static evaluation by the material left (chess: 0.75 with bare
/// kings); scores recorded with it would teach the next net a scaled evaluation, which its own
/// search then scales again, generation after generation. The data keeps the net's own units.
pub const DATAGEN_SEARCH: &str = "material_scaling=off";

impl GenerateConfig {
    /// The settings as `run.txt` holds them; a book adds a line with its checksum.
    fn manifest(&self, book: Option<BookSummary>) -> String {
        let mut text = format!(
            "sente datagen v{}\ngame={}\nnodes={}\nseed={}\nrandom_plies={}\nverify_nodes={}\nverify_margin={}\nadjudication={:?}\nevaluator={}\ndfrc={}\n",
            FORMAT_VERSION,
            self.game,
            self.nodes,
            self.seed,
            self.random_plies,
            self.verify_nodes,
            self.verify_margin,
            self.adjudication,
            self.evaluator,
            self.dfrc
        );
        // Only runs that change a switch name one, so older runs stay resumable.
        if !self.search.is_empty() {
            text.push_str(&format!("search={}\n", self.search));
        }
        // Runs without the line played a searcher per side: `--searchers per-side` resumes them.
        if self.searchers != SideSearchers::PerSide {
            text.push_str(&format!("searchers={}\n", self.searchers));
        }
        if let Some(book) = book {
            text.push_str(&format!(
                "book={:016x} ({} positions)\n",
                book.checksum, book.positions
            ));
        }
        text
    }
}

/// Totals of a run (or of the part done by this invocation).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GenerateSummary {
    pub games: u64,
    pub positions: u64,
    pub first_wins: u64,
    pub draws: u64,
    pub second_wins: u64,
    pub searched_nodes: u64,
    pub search_seconds: f64,
    pub bytes: u64,
    pub seconds: f64,
    /// Games the endgame tables ended (`END_TABLEBASE`).
    pub tablebase_games: u64,
    /// `datagen rescore --syzygy`: positions of this invocation labelled by the tables.
    pub tablebase_labels: u64,
    /// Positions written by this invocation (a resumed run's totals count the earlier ones).
    pub session_positions: u64,
}

impl GenerateSummary {
    pub fn add_game(&mut self, record: &StoredGame) {
        self.games += 1;
        self.positions += record.scored_plies();
        match record.result {
            RESULT_FIRST_WINS => self.first_wins += 1,
            RESULT_DRAW => self.draws += 1,
            _ => self.second_wins += 1,
        }
        if record.end == END_TABLEBASE {
            self.tablebase_games += 1;
        }
    }
}

/// The seed of game `index`: splitmix64 of the run seed and the index.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Centipawns for storage: clamped, mates at the ends of the range.
pub fn stored_score(score: Score) -> i16 {
    match score {
        Score::Cp(cp) => cp.clamp(-(SCORE_LIMIT as i32 - 1000), SCORE_LIMIT as i32 - 1000) as i16,
        Score::MatePlies(p) if p > 0 => SCORE_LIMIT - p.min(999) as i16,
        Score::MatePlies(p) => -SCORE_LIMIT + (-p).min(999) as i16,
    }
}

/// The stored end code of a game the endgame tables adjudicated.
pub const END_TABLEBASE: u8 = 13;

/// Code stored for how a game ended.
pub fn end_code(end: GameEnd) -> u8 {
    use sente::game::EndReason::*;
    match end {
        GameEnd::Rule(reason) => match reason {
            Checkmate => 0,
            Stalemate => 1,
            FiftyMoveRule => 2,
            Repetition => 3,
            InsufficientMaterial => 4,
            PerpetualCheck => 5,
            EnteringKing => 6,
            MaxPlies => 7,
        },
        GameEnd::Declaration => 8,
        GameEnd::ResignAdjudication => 9,
        GameEnd::DrawAdjudication => 10,
        GameEnd::MaxPlies => 11,
        GameEnd::TimeForfeit => 12,
        GameEnd::TablebaseAdjudication => END_TABLEBASE,
    }
}

/// A player that counts the nodes and time its searches take.
struct CountingPlayer<G: Game, E: Evaluator<G>> {
    inner: SearchPlayer<G, E>,
    nodes: u64,
    seconds: f64,
}

impl<G: Game, E: Evaluator<G>> SelfPlayer<G> for CountingPlayer<G, E> {
    fn new_game(&mut self) {
        self.inner.new_game();
    }

    fn choose(
        &mut self,
        position: &G,
        history: &[sente::game::HistoryEntry],
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let result = self.inner.choose(position, history);
        self.seconds += start.elapsed().as_secs_f64();
        self.nodes += result.nodes;
        result
    }
}

/// Salt of the seed that picks a game's book line (kept apart from the random plies' seed).
pub const BOOK_SALT: u64 = 0xB00C_5EED;

/// How openings are drawn and checked (shared by `run` and `match`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningSettings {
    pub seed: u64,
    pub random_plies: u32,
    /// Nodes of the search that checks an opening; 0 skips the check.
    pub verify_nodes: u64,
    /// Openings whose verification score exceeds this (centipawns) are redrawn.
    pub verify_margin: i32,
}

/// `changes` (search switches, `name=on|off,...`) checked and written as what differs from
/// `G`'s defaults, the form `GenerateConfig::search` and `run.txt` hold.
pub fn search_changes<G: Game>(changes: &str) -> Result<String> {
    let defaults = SearchFeatures::for_game::<G>();
    let features = defaults
        .with_changes(changes)
        .map_err(|e| anyhow::anyhow!("--search: {e}"))?;
    Ok(features.changes_from(defaults))
}

impl GenerateConfig {
    fn opening_settings(&self) -> OpeningSettings {
        OpeningSettings {
            seed: self.seed,
            random_plies: self.random_plies,
            verify_nodes: self.verify_nodes,
            verify_margin: self.verify_margin,
        }
    }
}

/// Where a game's opening starts: one start position, or a book line per draw.
pub enum OpeningSource<'a, G: Game> {
    Start(G),
    Book(&'a Book<G>),
}

/// The `draw`-th candidate opening of game `index` (draw 0 first, later ones after a rejected
/// verification): the start (or book line `game_seed(seed ^ salt, index) % lines`), then the
/// configured random plies on top.
fn draw_opening<G: Game>(
    source: &OpeningSource<G>,
    config: &OpeningSettings,
    index: u64,
    draw: u64,
) -> Opening<G> {
    let redraw = draw.wrapping_mul(0xA076_1D64_78BD_642F);
    let ply_seed = game_seed(config.seed ^ redraw, index);
    match source {
        OpeningSource::Start(start) => random_opening(start, config.random_plies, ply_seed),
        OpeningSource::Book(book) => book.opening(
            game_seed(config.seed ^ BOOK_SALT ^ redraw, index),
            config.random_plies,
            ply_seed,
        ),
    }
}

/// Draws the opening of game `index`, then (optionally) a verification search that rejects
/// lopsided positions; up to 16 draws.
pub fn opening_for<G: Game, E: Evaluator<G>>(
    source: &OpeningSource<G>,
    config: &OpeningSettings,
    index: u64,
    verifier: &mut Searcher<G, E>,
) -> Opening<G> {
    let mut opening = draw_opening(source, config, index, 0);
    if config.verify_nodes == 0 {
        return opening;
    }
    for attempt in 1..=16u64 {
        verifier.clear();
        let limits = Limits {
            nodes: Some(config.verify_nodes),
            ..Limits::default()
        };
        let result = verifier.search(
            &opening.position,
            &opening.history,
            &limits,
            &SearchOptions {
                report_progress: false,
                ..SearchOptions::default()
            },
            &SearchControl::default(),
            &mut |_| {},
        );
        let balanced = match result.score {
            Score::Cp(cp) => cp.abs() <= config.verify_margin,
            Score::MatePlies(_) => false,
        };
        if balanced {
            break;
        }
        opening = draw_opening(source, config, index, attempt);
    }
    opening
}

/// The searchers one game needs (opening verifier and the players: `first` moves for both sides
/// unless `SideSearchers::PerSide` gives the second side its own), reused from game to game
/// so that their tables are allocated once per thread rather than once per game; every game
/// clears them first, so a game never depends on the one before.
struct GamePlayers<G: Game, E: Evaluator<G>> {
    verifier: Searcher<G, E>,
    first: CountingPlayer<G, E>,
    /// The second side's own searcher (`SideSearchers::PerSide` only).
    second: Option<CountingPlayer<G, E>>,
}

impl<G: Game, E: Evaluator<G>> GamePlayers<G, E> {
    fn new(config: &GenerateConfig, evaluator: &E) -> Self {
        // Game threads have search-sized stacks: searches run on them, no thread per search.
        let features = SearchFeatures::for_game::<G>()
            .with_changes(&config.search)
            .expect("generate_shard checked GenerateConfig::search");
        let player = |name: &str| {
            let mut player = PlayerConfig::with_nodes(name, evaluator.clone(), config.nodes);
            player.features = features;
            CountingPlayer {
                inner: SearchPlayer::new(player).search_on_caller_thread(),
                nodes: 0,
                seconds: 0.0,
            }
        };
        let mut verifier = Searcher::new(evaluator.clone());
        verifier.set_hash_mb(4);
        verifier.set_search_on_caller_thread(true);
        Self {
            verifier,
            first: player("first"),
            second: (config.searchers == SideSearchers::PerSide).then(|| player("second")),
        }
    }
}

/// Plays game `index` with `players` (adjudicated by `tables` if given) and turns it into a
/// record.
fn play_one<G: DatagenGame, E: Evaluator<G> + Sync>(
    config: &GenerateConfig,
    players: &mut GamePlayers<G, E>,
    book: Option<&Book<G>>,
    tables: Option<&dyn EndgameTables<G>>,
    index: u64,
) -> PlayedGame {
    let source = match book {
        Some(book) => OpeningSource::Book(book),
        None => OpeningSource::Start(G::start_for_game(
            config.dfrc,
            game_seed(config.seed ^ 0xDF2C, index),
        )),
    };
    let opening = opening_for(
        &source,
        &config.opening_settings(),
        index,
        &mut players.verifier,
    );
    let GamePlayers { first, second, .. } = players;
    for player in std::iter::once(&mut *first).chain(second.as_mut()) {
        player.nodes = 0;
        player.seconds = 0.0;
    }
    let game = match second {
        Some(second) => play_game_with_tables(
            &opening,
            [&mut *first, &mut *second],
            &config.adjudication,
            tables,
        ),
        None => {
            let both: RefCell<&mut dyn SelfPlayer<G>> = RefCell::new(&mut *first);
            let [mut first_side, mut second_side] = BothSides::seats(&both);
            play_game_with_tables(
                &opening,
                [&mut first_side, &mut second_side],
                &config.adjudication,
                tables,
            )
        }
    };
    let (nodes, seconds) = std::iter::once(&*first)
        .chain(second.as_ref())
        .fold((0, 0.0), |(n, s), p| (n + p.nodes, s + p.seconds));
    let record = StoredGame {
        start: opening.position.to_text(),
        moves: game.moves.iter().map(|m| m.to_bits()).collect(),
        scores: game.scores.iter().map(|&s| stored_score(s)).collect(),
        result: match game.winner {
            Some(Side::First) => RESULT_FIRST_WINS,
            None => RESULT_DRAW,
            Some(Side::Second) => RESULT_SECOND_WINS,
        },
        end: end_code(game.end),
    };
    (record, nodes, seconds)
}

/// The settings file inside a run's output directory (beside `DATA_FILE`).
pub(crate) fn manifest_path(out: &Path) -> PathBuf {
    out.join("run.txt")
}

/// Smallest encoded game record (start text length, two vector lengths, result and end codes):
/// bounds how many games a damaged stretch of bytes can have held.
const MIN_RECORD_BYTES: u64 = 26;

/// What a restart found in an existing data file.
struct ResumePlan {
    /// The next game index to play after the file's last valid chunk.
    next_game: u64,
    /// Totals of the valid chunks.
    summary: GenerateSummary,
    /// When the file has damaged chunks (already copied to quarantine files): the old file, its
    /// valid chunks in order, and the game ranges whose chunks were lost and are played again.
    repair: Option<Repair>,
}

struct Repair {
    map: memmap2::Mmap,
    chunks: Vec<ChunkInfo>,
    missing: Vec<std::ops::Range<u64>>,
    /// The run's shard: missing local game `k` is global game `shard.global(k)`.
    shard: Shard,
}

/// The first `OUT/data.bin.damaged-<n>` that does not exist yet.
pub(crate) fn quarantine_path(data: &Path) -> PathBuf {
    let name = data.file_name().map_or_else(
        || DATA_FILE.to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    (1u64..)
        .map(|n| data.with_file_name(format!("{name}.damaged-{n}")))
        .find(|p| std::fs::symlink_metadata(p).is_err())
        .expect("a free name")
}

/// Writes `bytes` to a new file and syncs it.
pub(crate) fn write_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("creating {}", path.display()))?;
    std::io::Write::write_all(&mut file, bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("writing {}", path.display()))
}

/// Reads the existing data file (if any) and checks the manifest. A torn tail (an incomplete
/// chunk at the very end) is cut. Damaged chunks are never deleted: their bytes are copied to
/// `data.bin.damaged-<n>` first, and the plan says which games to play again (see `repair`).
fn resume_point(
    out: &Path,
    config: &GenerateConfig,
    book: Option<BookSummary>,
    tables: Option<String>,
    shard: Shard,
) -> Result<ResumePlan> {
    let manifest = manifest_path(out);
    let data = run_data_file(out);
    let mut expected = config.manifest(book);
    // Only runs with tables name them, so older runs stay resumable.
    if let Some(line) = tables {
        expected.push_str(&line);
    }
    if !shard.is_whole() {
        // Unsharded runs keep their manifest as it was, so older runs stay resumable.
        expected.push_str(&format!("shard={shard}\n"));
    }
    if std::fs::symlink_metadata(&data).is_err() {
        std::fs::write(&manifest, &expected)
            .with_context(|| format!("writing {}", manifest.display()))?;
        return Ok(ResumePlan {
            next_game: 0,
            summary: GenerateSummary::default(),
            repair: None,
        });
    }
    check_regular_file(&data)?;
    let existing = std::fs::read_to_string(&manifest).unwrap_or_default();
    if existing != expected {
        bail!(
            "{} holds a run with other settings; use another --out or the same arguments\n--- existing\n{}--- requested\n{}",
            out.display(),
            existing,
            expected
        );
    }
    let map = map_file(&data)?;
    let scan = scan(&map);
    let game_id = config.game.id();
    // Valid chunks that hold another game or do not decode are damaged too.
    let mut damaged: Vec<(usize, usize, String)> = scan
        .damaged
        .iter()
        .map(|d| (d.offset, d.len, d.error.to_string()))
        .collect();
    let mut chunks = Vec::new();
    let mut summary = GenerateSummary::default();
    // A run's chunks follow each other in game order; damaged stretches in between can only
    // have held as many games as their bytes allow. A chunk out of that order has a damaged
    // header (the checksum covers payloads only).
    let mut expected_game = 0u64;
    let mut damaged_since = 0u64;
    let mut stretches = scan.damaged.iter().peekable();
    for info in &scan.chunks {
        while let Some(d) = stretches.next_if(|d| d.offset < info.offset) {
            damaged_since += d.len as u64;
        }
        let in_order = info.first_game >= expected_game
            && info.first_game - expected_game <= damaged_since / MIN_RECORD_BYTES;
        let decoded = if !in_order {
            Err(ChunkError::Header {
                offset: info.offset,
                detail: format!(
                    "games {}..{} after game {expected_game}",
                    info.first_game,
                    info.first_game.saturating_add(info.games as u64)
                ),
            })
        } else if info.game_id != game_id {
            Err(ChunkError::WrongGame {
                offset: info.offset,
                expected: game_id,
                found: info.game_id,
            })
        } else {
            read_chunk(&map, info.offset)
        };
        match decoded {
            Ok((_, records)) => {
                records.iter().for_each(|r| summary.add_game(r));
                chunks.push(*info);
                expected_game = info.first_game + info.games as u64;
                damaged_since = 0;
            }
            Err(e) => {
                damaged_since += (info.end() - info.offset) as u64;
                damaged.push((info.offset, info.end() - info.offset, e.to_string()));
            }
        }
    }
    damaged.sort_by_key(|d| d.0);
    let valid_end = chunks.last().map_or(0, |c| c.end());
    let next_game = chunks.last().map_or(0, |c| c.first_game + c.games as u64);
    summary.bytes = valid_end as u64;
    if damaged.is_empty() {
        if let Some((offset, e)) = &scan.torn_tail {
            sente::eprintln_best_effort!(
                "datagen: {}: dropping an incomplete chunk at the end (byte {offset}: {e}); resuming after it",
                data.display()
            );
            drop(map);
            let file = OpenOptions::new()
                .write(true)
                .open(&data)
                .with_context(|| format!("opening {}", data.display()))?;
            file.set_len(valid_end as u64)
                .and_then(|()| file.sync_all())
                .with_context(|| format!("truncating {}", data.display()))?;
        }
        return Ok(ResumePlan {
            next_game,
            summary,
            repair: None,
        });
    }
    // The games lost with damaged chunks: the gaps between the valid chunks' game ranges (a run
    // starts at game 0). Games after the last valid chunk are simply played next.
    let mut missing = Vec::new();
    let mut expected_game = 0u64;
    for c in &chunks {
        if c.first_game < expected_game {
            bail!(
                "{}: chunk at byte {} starts at game {}, before game {expected_game}; the file is not one run's data, nothing was changed",
                data.display(),
                c.offset,
                c.first_game
            );
        }
        if c.first_game > expected_game {
            missing.push(expected_game..c.first_game);
        }
        expected_game = c.first_game + c.games as u64;
    }
    let lost_games: u64 = missing.iter().map(|r| r.end - r.start).sum();
    let damaged_bytes: u64 = damaged.iter().map(|d| d.1 as u64).sum();
    if lost_games > damaged_bytes / MIN_RECORD_BYTES {
        bail!(
            "{}: the valid chunks skip {lost_games} games, more than {damaged_bytes} damaged bytes can have held; nothing was changed",
            data.display()
        );
    }
    for (offset, len, error) in &damaged {
        let number = scan.chunks.iter().filter(|c| c.offset < *offset).count()
            + scan.damaged.iter().filter(|d| d.offset < *offset).count()
            + 1;
        let quarantine = quarantine_path(&data);
        write_synced(&quarantine, &map[*offset..offset + len])?;
        sente::eprintln_best_effort!(
            "datagen: {}: chunk {number} (bytes {offset}..{}) is damaged ({error}); its bytes are kept in {}, its games are played again",
            data.display(),
            offset + len,
            quarantine.display()
        );
    }
    Ok(ResumePlan {
        next_game,
        summary,
        repair: Some(Repair {
            map,
            chunks,
            missing,
            shard,
        }),
    })
}

/// Plays the games of `range` in parallel (each from its own seed, so they are the games an
/// uninterrupted run played).
#[allow(clippy::too_many_arguments)]
fn play_range<G: DatagenGame, E: Evaluator<G> + Sync>(
    pool: &rayon::ThreadPool,
    config: &GenerateConfig,
    evaluator: &E,
    book: Option<&Book<G>>,
    tables: Option<&dyn EndgameTables<G>>,
    range: std::ops::Range<u64>,
    shard: Shard,
) -> Vec<PlayedGame> {
    pool.install(|| {
        range
            .into_par_iter()
            .map_init(
                || GamePlayers::new(config, evaluator),
                |players, index| {
                    play_one::<G, E>(config, players, book, tables, shard.global(index))
                },
            )
            .collect()
    })
}

/// Rebuilds the data file without its damaged chunks: the valid chunks are copied and the lost
/// games are played again and written in their place, in game order, into a new file that then
/// replaces `data.bin` (so the result is the file an undamaged run writes). Killed midway, the
/// old file is intact and the next restart repairs again.
#[allow(clippy::too_many_arguments)]
fn repair<G: DatagenGame, E: Evaluator<G> + Sync>(
    pool: &rayon::ThreadPool,
    config: &GenerateConfig,
    evaluator: &E,
    book: Option<&Book<G>>,
    tables: Option<&dyn EndgameTables<G>>,
    out: &Path,
    plan: Repair,
    total: &mut GenerateSummary,
) -> Result<()> {
    let data = run_data_file(out);
    let mut bytes = Vec::with_capacity(plan.map.len());
    let mut missing = plan.missing.iter().peekable();
    let mut chunks = plan.chunks.iter().peekable();
    loop {
        let next_chunk = chunks.peek().map(|c| c.first_game);
        let next_gap = missing.peek().map(|r| r.start);
        match (next_chunk, next_gap) {
            (Some(c), g) if g.is_none_or(|g| c < g) => {
                let c = chunks.next().expect("peeked");
                bytes.extend_from_slice(&plan.map[c.offset..c.end()]);
            }
            (_, Some(_)) => {
                let gap = missing.next().expect("peeked").clone();
                sente::eprintln_best_effort!(
                    "datagen: playing games {}..{} again",
                    gap.start,
                    gap.end
                );
                let mut start = gap.start;
                while start < gap.end {
                    let end = (start + GAMES_PER_CHUNK).min(gap.end);
                    let played = play_range(
                        pool,
                        config,
                        evaluator,
                        book,
                        tables,
                        start..end,
                        plan.shard,
                    );
                    let records: Vec<StoredGame> = played.iter().map(|g| g.0.clone()).collect();
                    records.iter().for_each(|r| total.add_game(r));
                    bytes.extend_from_slice(&encode_chunk(game_id::<G>(), start, &records));
                    start = end;
                }
            }
            (None, None) => break,
            (Some(_), None) => unreachable!("handled by the first arm"),
        }
    }
    let tmp = data.with_extension("bin.repair");
    let _ = std::fs::remove_file(&tmp);
    write_synced(&tmp, &bytes)?;
    drop(plan.map);
    std::fs::rename(&tmp, &data)
        .with_context(|| format!("renaming {} to {}", tmp.display(), data.display()))?;
    if let Ok(dir) = std::fs::File::open(out) {
        let _ = dir.sync_all();
    }
    total.bytes = bytes.len() as u64;
    sente::eprintln_best_effort!(
        "datagen: {} repaired ({} bytes); resuming",
        data.display(),
        bytes.len()
    );
    Ok(())
}

/// Runs (or resumes) a generation into `out`, openings from the start position.
pub fn generate<G: DatagenGame, E: Evaluator<G> + Sync>(
    evaluator: &E,
    config: &GenerateConfig,
    threads: usize,
    out: &Path,
) -> Result<GenerateSummary> {
    generate_with_book(evaluator, config, None, threads, out)
}

/// Runs (or resumes) a generation into `out`; with a book, each game starts from a book line
/// (and the book's checksum joins the manifest, so a resume with another book is refused).
pub fn generate_with_book<G: DatagenGame, E: Evaluator<G> + Sync>(
    evaluator: &E,
    config: &GenerateConfig,
    book: Option<&Book<G>>,
    threads: usize,
    out: &Path,
) -> Result<GenerateSummary> {
    generate_shard(
        evaluator,
        config,
        book,
        None,
        Shard::WHOLE,
        threads,
        out,
        None,
    )
}

/// Runs (or resumes) shard `shard` of a generation into `out`: the games of global index
/// `i ≡ shard.index (mod shard.count)` below `config.games`, each played exactly as the unsharded
/// run plays game `i`. Chunk headers hold the shard's local game indices (`run.txt` gains a line
/// `shard=I/N`). `Shard::WHOLE` is the plain run.
///
/// With `max_time` the run also stops at the first chunk boundary after that much time
/// (`datagen run --max-time`): the file then ends with a whole chunk, joins a pool as it is, and
/// the same command resumes the run where it stopped. Games in flight at the stop are dropped
/// (the resumed run plays them again from their seeds).
///
/// With `tables` (`datagen run --syzygy`) the tables adjudicate (`play_game_with_tables`) and
/// `run.txt` gains a line naming them (a resume with other tables, or none, is refused).
#[allow(clippy::too_many_arguments)]
pub fn generate_shard<G: DatagenGame, E: Evaluator<G> + Sync>(
    evaluator: &E,
    config: &GenerateConfig,
    book: Option<&Book<G>>,
    tables: Option<&Tablebases<G>>,
    shard: Shard,
    threads: usize,
    out: &Path,
    max_time: Option<Duration>,
) -> Result<GenerateSummary> {
    if config.games.is_none() && config.positions.is_none() {
        bail!("give --games or --positions");
    }
    if book.is_some() && config.dfrc {
        bail!("--book and --dfrc both choose the start position; give one");
    }
    if config.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let canonical = search_changes::<G>(&config.search)?;
    if canonical != config.search {
        bail!(
            "search changes `{}` are not in canonical form; give `{canonical}`",
            config.search
        );
    }
    if !shard.is_whole() && (config.games.is_none() || config.positions.is_some()) {
        bail!("--shard splits a fixed game count: give --games (the whole run's total) and no --positions");
    }
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let _writer = crate::run_lock::lock_output(out)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(THREAD_STACK_BYTES)
        .build()?;
    let tables_line = tables.map(Tablebases::manifest_line);
    let plan = resume_point(out, config, book.map(Book::summary), tables_line, shard)?;
    let tables = tables.map(Tablebases::as_dyn);
    let (mut next_game, mut total) = (plan.next_game, plan.summary);
    if let Some(damaged) = plan.repair {
        repair(
            &pool, config, evaluator, book, tables, out, damaged, &mut total,
        )?;
    }
    let data = run_data_file(out);
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&data)
        .with_context(|| format!("opening {}", data.display()))?;
    let target_games = config.games.map_or(u64::MAX, |games| shard.share_of(games));
    let target_positions = config.positions.unwrap_or(u64::MAX);
    let shard_games = config.games.map(|games| shard.share_of(games));
    let mut progress = Progress::new(shard_games, config.positions, total);
    let started = Instant::now();
    let mut session = GenerateSummary::default();
    let idle_players: Mutex<Vec<GamePlayers<G, E>>> = Mutex::new(Vec::new());
    // Games are handed out in index order to whichever thread is free (no barrier at chunk
    // ends, so a long game never leaves the other threads idle) and written chunk by chunk in
    // index order as soon as a chunk is complete.
    let first_game = next_game;
    let last_game = next_game.saturating_add(target_games.saturating_sub(total.games));
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(u64, PlayedGame)>();
    std::thread::scope(|scope| -> Result<()> {
        let (stop, idle_players) = (&stop, &idle_players);
        scope.spawn(move || {
            pool.install(|| {
                (first_game..last_game)
                    .take_while(|_| !stop.load(Ordering::Relaxed))
                    .par_bridge()
                    .for_each_with(sender, |sender, index| {
                        let reused = idle_players.lock().unwrap_or_else(|e| e.into_inner()).pop();
                        let mut players =
                            reused.unwrap_or_else(|| GamePlayers::new(config, evaluator));
                        let global = shard.global(index);
                        let played = play_one::<G, E>(config, &mut players, book, tables, global);
                        idle_players
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push(players);
                        // The receiver is gone once the target is reached: the game is dropped.
                        let _ = sender.send((index, played));
                    })
            })
        });
        let mut finished: BTreeMap<u64, PlayedGame> = BTreeMap::new();
        let mut write_chunks = || -> Result<()> {
            let time_left = || max_time.is_none_or(|limit| started.elapsed() < limit);
            while total.games < target_games && total.positions < target_positions && time_left() {
                let count = GAMES_PER_CHUNK.min(target_games - total.games);
                let chunk_games = next_game..next_game + count;
                while chunk_games.clone().any(|i| !finished.contains_key(&i)) {
                    let Ok((index, played)) = receiver.recv() else {
                        bail!("the game threads stopped before game {next_game} was played");
                    };
                    finished.insert(index, played);
                }
                let games: Vec<PlayedGame> =
                    chunk_games.filter_map(|i| finished.remove(&i)).collect();
                let records: Vec<StoredGame> = games.iter().map(|g| g.0.clone()).collect();
                let chunk = encode_chunk(game_id::<G>(), next_game, &records);
                append_chunk(&mut file, &chunk)
                    .with_context(|| format!("writing {}", data.display()))?;
                for (record, nodes, seconds) in &games {
                    total.add_game(record);
                    session.add_game(record);
                    session.searched_nodes += nodes;
                    session.search_seconds += seconds;
                }
                total.bytes += chunk.len() as u64;
                session.bytes += chunk.len() as u64;
                next_game += count;
                progress.update(&total, &session, started.elapsed().as_secs_f64());
            }
            Ok(())
        };
        let written = write_chunks();
        // Games in flight finish and are dropped; no new game starts.
        stop.store(true, Ordering::Relaxed);
        drop(receiver);
        written
    })?;
    session.seconds = started.elapsed().as_secs_f64();
    progress.finish(&total, &session);
    if total.games < target_games && total.positions < target_positions {
        sente::eprintln_best_effort!(
            "datagen: stopped after --max-time at game {next_game} ({} positions in the file); \
             the same command resumes the run",
            total.positions
        );
    }
    total.searched_nodes = session.searched_nodes;
    total.search_seconds = session.search_seconds;
    total.seconds = session.seconds;
    total.session_positions = session.positions;
    Ok(total)
}
