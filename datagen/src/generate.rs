//! Self-play data generation: games in parallel with rayon, each seeded from (seed, game index)
//! so the output is bit-identical whatever the thread count; games go to free threads in index
//! order and are written in chunks of `GAMES_PER_CHUNK` games in index order as each chunk
//! completes; a killed run restarted with the same arguments resumes after its last complete
//! chunk. Openings are random plies from the start position or from a
//! book position chosen by (seed, game index).

use crate::book::{Book, BookSummary};
use crate::format::{self, GameRecord, SCORE_LIMIT, SCORE_NONE};
use crate::players::DatagenGame;
use crate::progress::Progress;
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use sente::eval::Evaluator;
use sente::game::{Game, GameMove, Side};
use sente::search::{Limits, Score, SearchControl, SearchOptions, SearchResult, Searcher};
use sente::selfplay::{
    play_game, random_opening, Adjudication, GameEnd, Opening, PlayerConfig, SearchPlayer,
    SelfPlayer,
};
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Instant;

/// One played game: its record, the nodes its searches took and their time in seconds.
type PlayedGame = (GameRecord, u64, f64);

/// Games per chunk: fixed, so chunk boundaries (and the file) don't depend on the thread count.
pub const GAMES_PER_CHUNK: u64 = 32;
/// Stack for the game threads, which run the searches themselves (the search recurses deeply).
const THREAD_STACK_BYTES: usize = sente::search::SEARCH_STACK_BYTES;

/// Everything that determines a run's output (written to `run.txt` and checked on resume).
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateConfig {
    pub game: String,
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
}

impl GenerateConfig {
    /// The settings as `run.txt` holds them; a book adds a line with its checksum.
    fn manifest(&self, book: Option<BookSummary>) -> String {
        let mut text = format!(
            "sente datagen v{}\ngame={}\nnodes={}\nseed={}\nrandom_plies={}\nverify_nodes={}\nverify_margin={}\nadjudication={:?}\nevaluator={}\ndfrc={}\n",
            format::FORMAT_VERSION,
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
}

impl GenerateSummary {
    pub fn add_game(&mut self, record: &GameRecord) {
        self.games += 1;
        self.positions += record.scores.iter().filter(|&&s| s != SCORE_NONE).count() as u64;
        match record.result {
            format::RESULT_FIRST_WINS => self.first_wins += 1,
            format::RESULT_DRAW => self.draws += 1,
            _ => self.second_wins += 1,
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
            &SearchOptions::default(),
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

/// The searchers one game needs (opening verifier and both players), reused from game to game
/// so that their tables are allocated once per thread rather than once per game; every game
/// clears them first, so a game never depends on the one before.
struct GamePlayers<G: Game, E: Evaluator<G>> {
    verifier: Searcher<G, E>,
    first: CountingPlayer<G, E>,
    second: CountingPlayer<G, E>,
}

impl<G: Game, E: Evaluator<G>> GamePlayers<G, E> {
    fn new(config: &GenerateConfig, evaluator: &E) -> Self {
        // Game threads have search-sized stacks: searches run on them, no thread per search.
        let player = |name: &str| CountingPlayer {
            inner: SearchPlayer::new(PlayerConfig::with_nodes(
                name,
                evaluator.clone(),
                config.nodes,
            ))
            .search_on_caller_thread(),
            nodes: 0,
            seconds: 0.0,
        };
        let mut verifier = Searcher::new(evaluator.clone());
        verifier.set_hash_mb(4);
        verifier.set_search_on_caller_thread(true);
        Self {
            verifier,
            first: player("first"),
            second: player("second"),
        }
    }
}

/// Plays game `index` with `players` and turns it into a record.
fn play_one<G: DatagenGame, E: Evaluator<G> + Sync>(
    config: &GenerateConfig,
    players: &mut GamePlayers<G, E>,
    book: Option<&Book<G>>,
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
    for player in [&mut *first, &mut *second] {
        player.nodes = 0;
        player.seconds = 0.0;
    }
    let game = play_game(&opening, [&mut *first, &mut *second], &config.adjudication);
    let record = GameRecord {
        start: opening.position.to_text(),
        moves: game.moves.iter().map(|m| m.to_bits()).collect(),
        scores: game.scores.iter().map(|&s| stored_score(s)).collect(),
        result: match game.winner {
            Some(Side::First) => format::RESULT_FIRST_WINS,
            None => format::RESULT_DRAW,
            Some(Side::Second) => format::RESULT_SECOND_WINS,
        },
        end: end_code(game.end),
    };
    (
        record,
        first.nodes + second.nodes,
        first.seconds + second.seconds,
    )
}

/// Paths of a run's files inside its output directory.
pub fn data_path(out: &Path) -> PathBuf {
    out.join("data.bin")
}

fn manifest_path(out: &Path) -> PathBuf {
    out.join("run.txt")
}

/// Reads the existing data file (if any), checks the manifest, cuts a torn tail, and returns how
/// many games and positions are already complete.
fn resume_point(
    out: &Path,
    config: &GenerateConfig,
    book: Option<BookSummary>,
) -> Result<(u64, GenerateSummary)> {
    let manifest = manifest_path(out);
    let data = data_path(out);
    let expected = config.manifest(book);
    if !data.exists() {
        std::fs::write(&manifest, &expected).context("writing run.txt")?;
        return Ok((0, GenerateSummary::default()));
    }
    let existing = std::fs::read_to_string(&manifest).unwrap_or_default();
    if existing != expected {
        bail!(
            "{} holds a run with other settings; use another --out or the same arguments\n--- existing\n{}--- requested\n{}",
            out.display(),
            existing,
            expected
        );
    }
    let bytes = std::fs::read(&data).with_context(|| format!("reading {}", data.display()))?;
    let (chunks, error) = format::scan(&bytes);
    let valid_end = chunks.last().map_or(0, |c| c.end());
    if let Some(e) = error {
        eprintln!("datagen: dropping an incomplete chunk at the end ({e}); resuming after it");
        let file = OpenOptions::new().write(true).open(&data)?;
        file.set_len(valid_end as u64)?;
        file.sync_all()?;
    }
    let mut summary = GenerateSummary::default();
    for info in &chunks {
        let (info, payload) = format::parse_chunk(&bytes, info.offset)?;
        for record in format::decode_games(&info, payload)? {
            summary.add_game(&record);
        }
    }
    summary.bytes = valid_end as u64;
    let next = chunks.last().map_or(0, |c| c.first_game + c.games as u64);
    Ok((next, summary))
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
    if config.games.is_none() && config.positions.is_none() {
        bail!("give --games or --positions");
    }
    if book.is_some() && config.dfrc {
        bail!("--book and --dfrc both choose the start position; give one");
    }
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let (mut next_game, mut total) = resume_point(out, config, book.map(Book::summary))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(THREAD_STACK_BYTES)
        .build()?;
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(data_path(out))?;
    let target_games = config.games.unwrap_or(u64::MAX);
    let target_positions = config.positions.unwrap_or(u64::MAX);
    let mut progress = Progress::new(config.games, config.positions, total);
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
                        let played = play_one::<G, E>(config, &mut players, book, index);
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
            while total.games < target_games && total.positions < target_positions {
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
                let records: Vec<GameRecord> = games.iter().map(|g| g.0.clone()).collect();
                let chunk = format::encode_chunk(format::game_id::<G>(), next_game, &records);
                format::append_chunk(&mut file, &chunk)?;
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
    total.searched_nodes = session.searched_nodes;
    total.search_seconds = session.search_seconds;
    total.seconds = session.seconds;
    Ok(total)
}
