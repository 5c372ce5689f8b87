//! `datagen rescore`: re-labels the search scores of existing data (data files, run directories,
//! pools) with another evaluator at a fixed node count, into a run-style directory
//! (`OUT/data.bin`, `OUT/run.txt` with the settings and the source files, `OUT/evaluator.txt`)
//! that `datagen pool add` takes. Every game is replayed through the rules and each scored ply is
//! searched again; moves, start, result, end and unscored plies stay as they were. Each game is
//! searched with a freshly cleared searcher and chunks are written in input order, so the output
//! does not depend on the thread count; a killed rescoring rerun with the same arguments resumes
//! after its last complete chunk and ends with the same bytes. With endgame tables (`--syzygy`,
//! chess) the scored plies the tables hold get the tables' score (`Tablebases::score`) instead of
//! a search.

use crate::generate::{
    manifest_path, quarantine_path, stored_score, write_synced, GenerateSummary, GAMES_PER_CHUNK,
};
use crate::players::DatagenGame;
use crate::progress::Progress;
use crate::run_info::{evaluator_label, read_indexed_games, EVALUATOR_FILE};
use crate::tablebases::Tablebases;
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use sente::eval::Evaluator;
use sente::game::{Game, GameKind, HistoryEntry};
use sente::search::SearchFeatures;
use sente::selfplay::{PlayerConfig, SearchPlayer, SelfPlayer};
use sente_data::chunk::{
    append_chunk, checksum, encode_chunk, game_id, game_kind, read_chunk, FORMAT_VERSION,
};
use sente_data::data_paths::{expand_data_paths, run_data_file};
use sente_data::file::{check_regular_file, map_file};
use sente_data::scan::scan;
use sente_data::shard::Shard;
use sente_data::stored_game::{RecordError, StoredGame, SCORE_NONE};
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// What `datagen rescore` was asked to do (its command-line arguments).
#[derive(Clone, Debug, clap::Args)]
pub struct RescoreSettings {
    #[arg(long)]
    pub game: GameKind,
    /// The evaluator that labels the positions.
    #[command(flatten)]
    pub evaluator: crate::cli::evaluator_args::EvaluatorArgs,
    /// Node limit of each position's search.
    #[arg(long)]
    pub nodes: u64,
    /// Games searched at once (the output does not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Output directory: data.bin, run.txt (settings and sources), evaluator.txt.
    #[arg(long)]
    pub out: PathBuf,
    /// Data files, run directories or pools, rescored in this order.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub search: crate::cli::search_change_args::SearchChangeArgs,
}

/// `datagen rescore`: [`rescore_with_tables`] for the settings' game.
pub fn execute(settings: &RescoreSettings, syzygy: Option<&str>) -> Result<()> {
    sente::dispatch_game!(settings.game, G => rescore_with_tables::<G>(settings, syzygy))?;
    Ok(())
}

/// One input data file, checked whole before anything is searched.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Source {
    path: PathBuf,
    /// Games in the file, and how many of them replay (the ones rescored).
    games: u64,
    replayable: u64,
    bytes: u64,
    /// FNV-1a 64 of the file.
    checksum: u64,
}

/// Expands the inputs into data files and reads each one strictly (every checksum, chunks
/// contiguous, no torn tail, the expected game): a damaged file is an error naming it. Games that
/// do not replay are reported with the file and game index, and will be skipped.
fn check_sources<G: Game>(inputs: &[PathBuf]) -> Result<Vec<Source>> {
    let mut sources = Vec::new();
    for path in expand_data_paths(inputs)? {
        let mut replayable = 0u64;
        let counts = read_indexed_games(&path, game_kind::<G>(), Shard::WHOLE, |index, record| {
            match record.replay::<G>(|_, _, _| {}) {
                Ok(_) => replayable += 1,
                Err(e) => sente::eprintln_best_effort!(
                    "datagen: {}: game {index} does not replay ({e}); skipped",
                    path.display()
                ),
            }
            Ok(())
        })?;
        sources.push(Source {
            path,
            games: counts.games,
            replayable,
            bytes: counts.bytes,
            checksum: counts.checksum,
        });
    }
    Ok(sources)
}

/// The seed column of the output (`run.txt`'s `seed=`): FNV-1a 64 of the sources' checksums and
/// sizes, so that rescorings of different data are different series in a pool and rescorings of
/// the same data with the same evaluator and nodes are the same series.
fn sources_seed(sources: &[Source]) -> u64 {
    let text: String = sources
        .iter()
        .map(|s| format!("{:016x}\t{}\n", s.checksum, s.bytes))
        .collect();
    checksum(text.as_bytes())
}

/// The settings as `run.txt` holds them (checked on resume): `datagen run`'s keys that `pool
/// add` reads (game, nodes, seed, evaluator), the evaluator by content, and one line per source
/// file (checksum, bytes, games, path).
fn manifest(
    settings: &RescoreSettings,
    label: &str,
    search: &str,
    tables: Option<String>,
    sources: &[Source],
) -> String {
    let mut text = format!(
        "sente datagen v{FORMAT_VERSION}\ncommand=rescore\ngame={}\nnodes={}\nseed={}\nevaluator={}\nevaluator_label={label}\nsources={}\n",
        settings.game,
        settings.nodes,
        sources_seed(sources),
        settings.evaluator.net,
        sources.len()
    );
    // Only rescorings that change a switch name one, so older ones stay resumable.
    if !search.is_empty() {
        text.push_str(&format!("search={search}\n"));
    }
    // Only rescorings with tables name them, so older ones stay resumable.
    if let Some(line) = tables {
        text.push_str(&line);
    }
    for s in sources {
        text.push_str(&format!(
            "source={:016x}\t{}\t{}\t{}\n",
            s.checksum,
            s.bytes,
            s.games,
            s.path.display()
        ));
    }
    text
}

/// Checks the settings of an existing output and finds where to resume: the games of its valid
/// chunks from the start of the file (in order, 32 games each but the last). A torn tail is
/// dropped; anything else after the last good chunk (damage, chunks out of place) is copied to
/// `data.bin.damaged-<n>` first, then cut, and rescored again. A new output gets its `run.txt`.
fn resume_point(
    out: &Path,
    manifest: &str,
    game: GameKind,
    target: u64,
) -> Result<GenerateSummary> {
    let manifest_file = manifest_path(out);
    let data = run_data_file(out);
    if std::fs::symlink_metadata(&data).is_err() {
        std::fs::write(&manifest_file, manifest)
            .with_context(|| format!("writing {}", manifest_file.display()))?;
        return Ok(GenerateSummary::default());
    }
    check_regular_file(&data)?;
    let existing = std::fs::read_to_string(&manifest_file).unwrap_or_default();
    if existing != manifest {
        bail!(
            "{} holds a rescoring (or run) with other settings (evaluator, nodes or inputs); use another --out or the same arguments\n--- existing\n{existing}--- requested\n{manifest}",
            out.display()
        );
    }
    let map = map_file(&data)?;
    let scan = scan(&map);
    let mut summary = GenerateSummary::default();
    let mut end = 0usize;
    let mut problem = None;
    for info in &scan.chunks {
        let first = summary.games;
        let in_place = info.offset == end
            && info.game_id == game.id()
            && info.first_game == first
            && (info.games as u64 == GAMES_PER_CHUNK || first + info.games as u64 == target);
        if !in_place {
            problem = Some(format!(
                "chunk at byte {} is not the chunk of games {first}.. expected there",
                info.offset
            ));
            break;
        }
        match read_chunk(&map, info.offset) {
            Ok((_, records)) => records.iter().for_each(|r| summary.add_game(r)),
            Err(e) => {
                problem = Some(e.to_string());
                break;
            }
        }
        end = info.end();
    }
    if end < map.len() {
        match &scan.torn_tail {
            Some((offset, e)) if *offset == end => sente::eprintln_best_effort!(
                "datagen: {}: dropping an incomplete chunk at the end (byte {offset}: {e}); resuming after it",
                data.display()
            ),
            _ => {
                let why = problem
                    .or_else(|| scan.damaged.first().map(|d| d.to_string()))
                    .unwrap_or_else(|| "not a valid chunk".to_string());
                let quarantine = quarantine_path(&data);
                write_synced(&quarantine, &map[end..])?;
                sente::eprintln_best_effort!(
                    "datagen: {}: bytes {end}..{} are damaged or out of place ({why}); they are kept in {}, their games are rescored again",
                    data.display(),
                    map.len(),
                    quarantine.display()
                );
            }
        }
        drop(map);
        let file = OpenOptions::new()
            .write(true)
            .open(&data)
            .with_context(|| format!("opening {}", data.display()))?;
        file.set_len(end as u64)
            .and_then(|()| file.sync_all())
            .with_context(|| format!("truncating {}", data.display()))?;
    }
    summary.bytes = end as u64;
    Ok(summary)
}

/// A searcher for rescoring: the self-play player at `nodes` per position with search switches
/// `features`, searching on the calling thread (which needs a `SEARCH_STACK_BYTES` stack).
pub fn rescoring_player<G: Game, E: Evaluator<G>>(
    evaluator: &E,
    nodes: u64,
    features: SearchFeatures,
) -> SearchPlayer<G, E> {
    let mut config = PlayerConfig::with_nodes("rescore", evaluator.clone(), nodes);
    config.features = features;
    SearchPlayer::new(config).search_on_caller_thread()
}

/// `record` with each scored ply searched again by `player` (cleared first, so the result depends
/// on nothing searched before) and scored as `datagen run` scores its moves (`stored_score`);
/// unscored plies keep `SCORE_NONE`, everything else is unchanged. Also returns the nodes
/// searched. Fails if the game does not replay.
pub fn rescore_game<G: Game, E: Evaluator<G>>(
    record: &StoredGame,
    player: &mut SearchPlayer<G, E>,
) -> Result<(StoredGame, u64), RecordError> {
    rescore_game_with_tables(record, player, None).map(|(game, nodes, _)| (game, nodes))
}

/// `rescore_game`, with the scored plies that `tables` hold scored by them (`Tablebases::score`,
/// no search; a failed probe searches as usual). Also returns how many plies the tables scored.
/// The tables hold a suffix of a game (pieces and castling rights never come back), so the
/// plies before it are searched exactly as `rescore_game` searches them.
pub fn rescore_game_with_tables<G: Game, E: Evaluator<G>>(
    record: &StoredGame,
    player: &mut SearchPlayer<G, E>,
    tables: Option<&Tablebases<G>>,
) -> Result<(StoredGame, u64, u64), RecordError> {
    player.new_game();
    let mut history: Vec<HistoryEntry> = Vec::with_capacity(record.moves.len());
    let mut scores = Vec::with_capacity(record.scores.len());
    let mut nodes = 0;
    let mut labels = 0;
    record.replay::<G>(|position, _, score| {
        let by_tables = || tables.and_then(|t| t.score(position));
        if score == SCORE_NONE {
            scores.push(SCORE_NONE);
        } else if let Some(label) = by_tables() {
            labels += 1;
            scores.push(label);
        } else {
            let result = player.choose(position, &history);
            nodes += result.nodes;
            scores.push(stored_score(result.score));
        }
        history.push(HistoryEntry {
            hash: position.hash(),
            in_check: position.in_check(),
        });
    })?;
    Ok((
        StoredGame {
            scores,
            ..record.clone()
        },
        nodes,
        labels,
    ))
}

/// The rescoring's writer: rescores batches of games in parallel and appends them in order as
/// chunks of `GAMES_PER_CHUNK` games.
struct Writer<'a, G: Game, E: Evaluator<G>> {
    pool: rayon::ThreadPool,
    evaluator: &'a E,
    tables: Option<&'a Tablebases<G>>,
    nodes: u64,
    features: SearchFeatures,
    /// Searchers between batches (allocated once per thread, cleared for every game).
    idle: Mutex<Vec<SearchPlayer<G, E>>>,
    file: std::fs::File,
    data: PathBuf,
    total: GenerateSummary,
    session: GenerateSummary,
    progress: Progress,
    started: Instant,
}

impl<G: Game, E: Evaluator<G> + Sync> Writer<'_, G, E> {
    /// Rescores `games` (whole chunks, or the last one) and appends their chunks.
    fn write(&mut self, games: &[StoredGame]) -> Result<()> {
        let (idle, evaluator, nodes, features) =
            (&self.idle, self.evaluator, self.nodes, self.features);
        let tables = self.tables;
        type Rescored = (StoredGame, u64, f64, u64);
        let rescored: Vec<Result<Rescored, RecordError>> = self.pool.install(|| {
            games
                .par_iter()
                .map(|record| {
                    let reused = idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
                    let mut player =
                        reused.unwrap_or_else(|| rescoring_player(evaluator, nodes, features));
                    let start = Instant::now();
                    let result = rescore_game_with_tables(record, &mut player, tables).map(
                        |(game, nodes, labels)| {
                            (game, nodes, start.elapsed().as_secs_f64(), labels)
                        },
                    );
                    idle.lock().unwrap_or_else(|e| e.into_inner()).push(player);
                    result
                })
                .collect()
        });
        let rescored = rescored
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .context("a game checked before no longer replays")?;
        for chunk in rescored.chunks(GAMES_PER_CHUNK as usize) {
            let records: Vec<StoredGame> = chunk.iter().map(|g| g.0.clone()).collect();
            let bytes = encode_chunk(game_id::<G>(), self.total.games, &records);
            append_chunk(&mut self.file, &bytes)
                .with_context(|| format!("writing {}", self.data.display()))?;
            for (record, nodes, seconds, labels) in chunk {
                self.total.add_game(record);
                self.session.add_game(record);
                self.session.searched_nodes += nodes;
                self.session.search_seconds += seconds;
                self.session.tablebase_labels += labels;
            }
            self.total.bytes += bytes.len() as u64;
            self.session.bytes += bytes.len() as u64;
            let elapsed = self.started.elapsed().as_secs_f64();
            self.progress.update(&self.total, &self.session, elapsed);
        }
        Ok(())
    }
}

/// Rescores (or resumes rescoring) `settings.inputs` into `settings.out`. Returns the totals
/// (games, positions, results and bytes of the whole output; nodes and times of this invocation).
pub fn rescore<G: DatagenGame>(settings: &RescoreSettings) -> Result<GenerateSummary> {
    rescore_with_tables::<G>(settings, None)
}

/// `rescore`, with the positions that the Syzygy tables in `syzygy` (directories, chess) hold
/// scored by the tables (`rescore_game_with_tables`); `run.txt` then names the tables, and the
/// totals count the positions they scored in this invocation (`tablebase_labels`).
pub fn rescore_with_tables<G: DatagenGame>(
    settings: &RescoreSettings,
    syzygy: Option<&str>,
) -> Result<GenerateSummary> {
    if settings.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    if settings.threads == 0 {
        bail!("--threads must be at least 1");
    }
    if settings.game != game_kind::<G>() {
        bail!("--game {} for {} data", settings.game, G::NAME);
    }
    let search = crate::generate::search_changes::<G>(&settings.search.search)?;
    // The tables are opened (and checked) before anything is read or searched.
    let tables = syzygy.map(Tablebases::<G>::open).transpose()?;
    let features = SearchFeatures::for_game::<G>()
        .with_changes(&search)
        .map_err(anyhow::Error::msg)?;
    let evaluator = G::load_eval(&settings.evaluator.net)?;
    let label = evaluator_label(&settings.evaluator.net)?;
    let sources = check_sources::<G>(&settings.inputs)?;
    let out = &settings.out;
    let data = run_data_file(out);
    if let Ok(output) = data.canonicalize() {
        for source in &sources {
            if source.path.canonicalize().is_ok_and(|p| p == output) {
                bail!(
                    "{} is the output file; give another --out",
                    source.path.display()
                );
            }
        }
    }
    let target: u64 = sources.iter().map(|s| s.replayable).sum();
    let skipped: u64 = sources.iter().map(|s| s.games - s.replayable).sum();
    if target == 0 {
        bail!("no games to rescore in the inputs");
    }
    if skipped > 0 {
        sente::eprintln_best_effort!("datagen: {skipped} games do not replay and are left out");
    }
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let _writer = crate::run_lock::lock_output(out)?;
    let tables_line = tables.as_ref().map(Tablebases::manifest_line);
    let manifest = manifest(settings, &label, &search, tables_line, &sources);
    let total = resume_point(out, &manifest, settings.game, target)?;
    // The evaluator by content, for `pool add` (run.txt also keeps the name as given).
    let evaluator_file = out.join(EVALUATOR_FILE);
    std::fs::write(&evaluator_file, format!("{label}\n"))
        .with_context(|| format!("writing {}", evaluator_file.display()))?;
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&data)
        .with_context(|| format!("opening {}", data.display()))?;
    let mut writer = Writer {
        pool: rayon::ThreadPoolBuilder::new()
            .num_threads(settings.threads)
            .stack_size(sente::search::SEARCH_STACK_BYTES)
            .build()?,
        evaluator: &evaluator,
        tables: tables.as_ref(),
        nodes: settings.nodes,
        features,
        idle: Mutex::new(Vec::new()),
        file,
        data: data.clone(),
        total,
        session: GenerateSummary::default(),
        progress: Progress::new(Some(target), None, total),
        started: Instant::now(),
    };
    // One whole chunk per thread in each batch, so that a resumed rescoring (which starts at a
    // chunk boundary) cuts the games into the same chunks whatever the thread count.
    let batch_len = settings.threads * GAMES_PER_CHUNK as usize;
    let mut batch = Vec::with_capacity(batch_len);
    let mut skip = total.games;
    for source in &sources {
        let map = map_file(&source.path)?;
        let bytes = map.get(..source.bytes as usize).unwrap_or(&map);
        if bytes.len() as u64 != source.bytes || checksum(bytes) != source.checksum {
            bail!(
                "{} changed after it was checked (its checksum is not the one in run.txt any more); nothing more was written",
                source.path.display()
            );
        }
        for info in scan(bytes).chunks {
            let (_, games) = read_chunk(bytes, info.offset)
                .with_context(|| format!("reading {}", source.path.display()))?;
            for record in games {
                if record.replay::<G>(|_, _, _| {}).is_err() {
                    continue;
                }
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                batch.push(record);
                if batch.len() == batch_len {
                    writer.write(&batch)?;
                    batch.clear();
                }
            }
        }
    }
    if !batch.is_empty() {
        writer.write(&batch)?;
    }
    let mut total = writer.total;
    let mut session = writer.session;
    session.seconds = writer.started.elapsed().as_secs_f64();
    writer.progress.finish(&total, &session);
    total.searched_nodes = session.searched_nodes;
    total.search_seconds = session.search_seconds;
    total.seconds = session.seconds;
    total.session_positions = session.positions;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente::chess::Position;
    use sente::game::GameMove;
    use sente_data::stored_game::RESULT_DRAW;

    fn opening() -> StoredGame {
        let start = Position::startpos();
        let mut pos = start;
        let mut moves = Vec::new();
        for text in ["e2e4", "e7e5", "g1f3", "b8c6"] {
            let m = pos.parse_move(text).unwrap();
            moves.push(m.to_bits());
            pos.make_move(m);
        }
        StoredGame {
            start: start.to_text(),
            moves,
            scores: vec![SCORE_NONE, 7, SCORE_NONE, -7],
            result: RESULT_DRAW,
            end: 3,
        }
    }

    /// Runs `f` on a thread with a search-sized stack (the player searches on its caller).
    fn on_search_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new()
            .stack_size(sente::search::SEARCH_STACK_BYTES)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap()
    }

    /// A game keeps everything but its searched scores, and the same player gives the same
    /// scores again whatever it searched before.
    #[test]
    fn a_game_gets_new_scores_for_its_scored_plies_only() {
        let record = opening();
        let (rescored, nodes) = on_search_stack(|| {
            let eval = <Position as DatagenGame>::load_eval("classical").unwrap();
            let mut player = rescoring_player(&eval, 300, SearchFeatures::for_game::<Position>());
            let first = rescore_game(&opening(), &mut player).unwrap();
            assert_eq!(rescore_game(&opening(), &mut player).unwrap(), first);
            first
        });
        assert!(nodes > 0);
        let unchanged = |g: &StoredGame| (g.start.clone(), g.moves.clone(), g.result, g.end);
        assert_eq!(unchanged(&rescored), unchanged(&record));
        assert_eq!(
            (rescored.scores[0], rescored.scores[2]),
            (SCORE_NONE, SCORE_NONE)
        );
        assert!(rescored.scores[1] != SCORE_NONE && rescored.scores[3] != SCORE_NONE);

        let mut broken = record;
        broken.moves[2] = broken.moves[0];
        let error = on_search_stack(move || {
            let eval = <Position as DatagenGame>::load_eval("classical").unwrap();
            rescore_game(
                &broken,
                &mut rescoring_player(&eval, 100, SearchFeatures::for_game::<Position>()),
            )
            .unwrap_err()
        });
        assert_eq!(error, RecordError::IllegalMove { ply: 2 });
    }
}
