//! Training positions from datagen files: games are read memory-mapped, replayed through the
//! engine's rules, filtered, and turned into NNUE features with the engine's own feature code, in
//! parallel with rayon. Game order is shuffled per epoch with a seeded `rand_xoshiro`, positions
//! are shuffled within each pool, so a run is reproducible from its seed.

use crate::batch::{blend_target, Batch};
use anyhow::Result;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use sente::game::{Game, Side};

use crate::record_set::RecordSet;
use sente::nnue::{NnueGame, MAX_ACTIVE};
use sente_data::imported::visit_kept_positions;
use sente_data::position_filter::PositionFilter;
use sente_data::stored_game::{RecordError, StoredGame, RESULT_DRAW, RESULT_FIRST_WINS};
use std::borrow::Cow;
use std::path::PathBuf;

/// Which positions are used for training: the position filters shared with `datagen export`,
/// and the mirror augmentation.
#[derive(Clone, Copy, Default, PartialEq)]
pub struct Filter {
    pub positions: PositionFilter,
    /// Also train on each position's left-right mirror image, in games where that mirror is an
    /// exact symmetry (`NnueGame::mirrored_feature`; shogi). Validation sets never mirror.
    pub mirror: bool,
}

/// Written flat, as checkpoints record it in their settings (a resume compares that text).
impl std::fmt::Debug for Filter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = &self.positions;
        f.debug_struct("Filter")
            .field("min_ply", &p.min_ply)
            .field("skip_in_check", &p.skip_in_check)
            .field("skip_noisy_move", &p.skip_noisy_move)
            .field("max_abs_score", &p.max_abs_score)
            .field("mirror", &self.mirror)
            .finish()
    }
}

/// How targets are made from scores and results.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TargetBlend {
    /// Weight of the game result (λ); the rest goes to sigmoid(score / scale).
    pub lambda: f32,
    pub eval_scale: f32,
}

/// Records addressable by index, in memory or decoded on demand
/// (`crate::record_set::RecordView`); `None` is a record that no longer decodes (warned).
pub trait RecordAccess: Sync {
    fn count(&self) -> usize;
    fn get(&self, i: usize) -> Option<Cow<'_, StoredGame>>;
}

impl RecordAccess for [StoredGame] {
    fn count(&self) -> usize {
        self.len()
    }
    fn get(&self, i: usize) -> Option<Cow<'_, StoredGame>> {
        Some(Cow::Borrowed(&self[i]))
    }
}

impl RecordAccess for Vec<StoredGame> {
    fn count(&self) -> usize {
        self.len()
    }
    fn get(&self, i: usize) -> Option<Cow<'_, StoredGame>> {
        Some(Cow::Borrowed(&self[i]))
    }
}

impl RecordAccess for [&StoredGame] {
    fn count(&self) -> usize {
        self.len()
    }
    fn get(&self, i: usize) -> Option<Cow<'_, StoredGame>> {
        Some(Cow::Borrowed(self[i]))
    }
}

/// All games of the given files, decoded into memory (`RecordSet::add_files` says which are
/// kept, and how errors and damaged records are reported).
pub fn load_games<G: Game>(files: &[PathBuf]) -> Result<Vec<StoredGame>> {
    let mut set = RecordSet::default();
    let refs = set.add_files::<G>(files)?;
    Ok(refs
        .iter()
        .filter_map(|&r| set.get(r).map(Cow::into_owned))
        .collect())
}

/// Calls `visit(position, target)` for each position of `record` that passes `filter`, with its
/// training target (side to move's point of view). Fails if the record does not replay (games
/// from `load_games` always do); the positions before the bad move have been visited.
pub fn for_each_training_position<G: NnueGame>(
    record: &StoredGame,
    filter: &Filter,
    blend: &TargetBlend,
    mut visit: impl FnMut(&G, f32),
) -> Result<(), RecordError> {
    visit_kept_positions::<G>(record, &filter.positions, |pos, _, score| {
        let mover = pos.side_to_move();
        let result = match record.result {
            RESULT_DRAW => 0.5,
            RESULT_FIRST_WINS if mover == Side::First => 1.0,
            RESULT_FIRST_WINS => 0.0,
            _ if mover == Side::Second => 1.0,
            _ => 0.0,
        };
        visit(
            pos,
            blend_target(result, score as f32, blend.eval_scale, blend.lambda),
        );
    })?;
    Ok(())
}

/// Appends the usable positions of one game to `out`, as the features of a net with
/// `king_buckets` king buckets.
pub fn extract_game<G: NnueGame>(
    record: &StoredGame,
    filter: &Filter,
    blend: &TargetBlend,
    king_buckets: usize,
    out: &mut Batch,
) {
    let mut stm = [0u32; MAX_ACTIVE];
    let mut nstm = [0u32; MAX_ACTIVE];
    let replayed = for_each_training_position::<G>(record, filter, blend, |pos, target| {
        let mover = pos.side_to_move();
        let n = pos.active_features(mover, king_buckets, &mut stm);
        let n_other = pos.active_features(mover.flip(), king_buckets, &mut nstm);
        if n != n_other {
            return;
        }
        let bucket = pos.output_bucket() as u8;
        out.push(&stm[..n], &nstm[..n], bucket, target);
        if filter.mirror && G::mirrored_feature(0, king_buckets).is_some() {
            for f in stm[..n].iter_mut().chain(nstm[..n].iter_mut()) {
                *f = G::mirrored_feature(*f, king_buckets).unwrap_or(*f);
            }
            out.push(&stm[..n], &nstm[..n], bucket, target);
        }
    });
    warn_unreplayable(replayed);
}

/// Reports a record that stopped replaying midway. `load_games` drops records that do not
/// replay (naming file and game), so this only fires for records made elsewhere; they keep the
/// positions before the bad move.
pub fn warn_unreplayable(replayed: Result<(), RecordError>) {
    if let Err(e) = replayed {
        sente::eprintln_best_effort!(
            "tuner: a game does not replay ({e}); its later positions are skipped"
        );
    }
}

/// Extracts the positions of the records `indices` of `records` in parallel, concatenated in
/// that order.
pub fn extract_games<G: NnueGame>(
    records: &(impl RecordAccess + ?Sized),
    indices: &[u32],
    filter: &Filter,
    blend: &TargetBlend,
    king_buckets: usize,
) -> Batch {
    let parts: Vec<Batch> = indices
        .par_chunks(64)
        .map(|chunk| {
            let mut part = Batch::new();
            for &i in chunk {
                if let Some(record) = records.get(i as usize) {
                    extract_game::<G>(&record, filter, blend, king_buckets, &mut part);
                }
            }
            part
        })
        .collect();
    let mut all = Batch::new();
    for part in &parts {
        for i in 0..part.len() {
            let (s, n) = part.features(i);
            all.push(s, n, part.bucket[i], part.target[i]);
        }
    }
    all
}

/// Where the data stream stands: which epoch, and how many games of its order were used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bincode::Encode, bincode::Decode)]
pub struct StreamPosition {
    pub epoch: u64,
    pub next_game: u64,
}

fn shuffled(n: usize, seed: u64) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for i in (1..n).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// An endless, reproducible stream of shuffled training batches.
pub struct BatchStream<'a, G: NnueGame, R: RecordAccess + ?Sized> {
    games: &'a R,
    filter: Filter,
    blend: TargetBlend,
    /// The king buckets of the net being trained (its feature rows).
    king_buckets: usize,
    seed: u64,
    /// Games decoded per pool.
    pool_games: usize,
    position: StreamPosition,
    order: Vec<u32>,
    pool: Batch,
    pool_order: Vec<u32>,
    pool_next: usize,
    _game: std::marker::PhantomData<G>,
}

impl<'a, G: NnueGame, R: RecordAccess + ?Sized> BatchStream<'a, G, R> {
    pub fn new(
        games: &'a R,
        filter: Filter,
        blend: TargetBlend,
        king_buckets: usize,
        seed: u64,
        position: StreamPosition,
    ) -> Self {
        let order = shuffled(
            games.count(),
            seed ^ position.epoch.wrapping_mul(0x9E37_79B9),
        );
        Self {
            games,
            filter,
            blend,
            king_buckets,
            seed,
            pool_games: 2048,
            position,
            order,
            pool: Batch::new(),
            pool_order: Vec::new(),
            pool_next: 0,
            _game: std::marker::PhantomData,
        }
    }

    /// Where the stream stands (saved in checkpoints). Positions left in the current pool are
    /// dropped on resume, so the stream restarts exactly at a pool boundary.
    pub fn position(&self) -> StreamPosition {
        self.position
    }

    /// Starts a fresh pool at the next superbatch (so a resumed run sees the same data).
    pub fn discard_pool(&mut self) {
        self.pool.clear();
        self.pool_order.clear();
        self.pool_next = 0;
    }

    fn refill(&mut self) {
        let mut attempts = 0;
        loop {
            if self.position.next_game as usize >= self.games.count() {
                self.position.epoch += 1;
                self.position.next_game = 0;
                self.order = shuffled(
                    self.games.count(),
                    self.seed ^ self.position.epoch.wrapping_mul(0x9E37_79B9),
                );
            }
            let start = self.position.next_game as usize;
            let end = (start + self.pool_games).min(self.games.count());
            self.position.next_game = end as u64;
            self.pool = extract_games::<G>(
                self.games,
                &self.order[start..end],
                &self.filter,
                &self.blend,
                self.king_buckets,
            );
            let pool_seed = self.seed ^ (self.position.epoch << 32) ^ end as u64;
            self.pool_order = shuffled(self.pool.len(), pool_seed);
            self.pool_next = 0;
            attempts += 1;
            if !self.pool.is_empty() || attempts > 2 * (self.games.count() / self.pool_games + 1) {
                return;
            }
        }
    }

    /// Fills `batch` with the next `size` positions. Returns false if the data has no usable
    /// position at all.
    pub fn next_batch(&mut self, batch: &mut Batch, size: usize) -> bool {
        batch.clear();
        while batch.len() < size {
            if self.pool_next >= self.pool_order.len() {
                self.refill();
                if self.pool.is_empty() {
                    return false;
                }
            }
            let i = self.pool_order[self.pool_next] as usize;
            self.pool_next += 1;
            let (s, n) = self.pool.features(i);
            batch.push(s, n, self.pool.bucket[i], self.pool.target[i]);
        }
        true
    }
}

/// Validation positions: every usable position of `games` (at most `limit`), as the features of
/// a net with `king_buckets` king buckets.
pub fn validation_set<G: NnueGame>(
    games: &(impl RecordAccess + ?Sized),
    filter: &Filter,
    blend: &TargetBlend,
    king_buckets: usize,
    limit: usize,
) -> Batch {
    let filter = Filter {
        mirror: false,
        ..*filter
    };
    let all: Vec<u32> = (0..games.count() as u32).collect();
    let all = extract_games::<G>(games, &all, &filter, blend, king_buckets);
    if all.len() <= limit {
        return all;
    }
    let mut out = Batch::new();
    for i in 0..limit {
        let (s, n) = all.features(i);
        out.push(s, n, all.bucket[i], all.target[i]);
    }
    out
}
