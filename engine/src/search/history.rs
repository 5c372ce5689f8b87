//! Move-ordering statistics learned during search: killers, counter-moves, butterfly history
//! (side × threat bucket × from-slot × to-square) and continuation history (previous
//! piece/square × piece/square). Sized from the game's constants once per thread; never
//! allocated during search.

use super::large_pages::LargePageArray;
use crate::game::{Game, GameMove, Side};

/// Largest magnitude of a history value (the "gravity" update keeps values inside it).
pub const HISTORY_MAX: i32 = 16_384;

/// Gravity update: moves `entry` toward ±HISTORY_MAX by `bonus`, slower near the bound.
fn apply(entry: &mut i16, bonus: i32) {
    let current = *entry as i32;
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let updated = current + bonus - current * bonus.abs() / HISTORY_MAX;
    *entry = updated.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

/// Index of a (piece slot, to square) pair, used by the continuation tables.
pub type PieceTo = usize;

/// How many earlier moves' continuation histories a quiet move is scored by.
pub const CONTINUATION_PLIES: usize = 2;
/// The (piece, to) of the moves one and two plies back (`None`: none, or a null move), whose
/// continuation histories score a quiet move; the first is also the counter-move's key.
pub type ContinuationKeys = [Option<PieceTo>; CONTINUATION_PLIES];

pub struct HistoryTables<G: Game> {
    /// `[side][threat bucket][from_slot][to]` (`Game::threat_bucket`).
    butterfly: Vec<i16>,
    /// `[previous piece_to][piece_to]` (10 MB in shogi: huge pages spare its TLB misses), then
    /// one row of zeros that scores a missing key without a branch (`quiet_rows`).
    continuation: LargePageArray<i16>,
    /// The rows of `continuation` written since the last `clear` (which clears only those: a
    /// shogi continuation table is 10 MB, and self-play clears every searcher before each game
    /// and each opening check).
    continuation_written: WrittenRows,
    /// `[previous piece_to]` → the refutation last seen.
    counter: Vec<G::Move>,
    /// Two killers per ply.
    killers: Vec<[G::Move; 2]>,
}

impl<G: Game> HistoryTables<G> {
    /// Number of (piece slot, to square) pairs: a constant per game, so indexing multiplies by
    /// constants.
    const PIECE_TO_COUNT: usize = G::PIECE_SLOTS * G::SQUARES;
    /// Entries of one side's butterfly tables (all threat buckets).
    const BUTTERFLY_LEN: usize = G::THREAT_BUCKETS * G::FROM_SLOTS * G::SQUARES;

    pub fn new(max_ply: usize) -> Self {
        match Self::try_new(max_ply) {
            Some(tables) => tables,
            None => panic!("cannot allocate the history tables"),
        }
    }

    /// As `new`, or `None` when the continuation history (the big table) cannot be allocated.
    pub fn try_new(max_ply: usize) -> Option<Self> {
        Some(Self {
            butterfly: vec![0; 2 * Self::BUTTERFLY_LEN],
            continuation: LargePageArray::try_new(
                (Self::PIECE_TO_COUNT + 1) * Self::PIECE_TO_COUNT,
            )?,
            continuation_written: WrittenRows::new(Self::PIECE_TO_COUNT),
            counter: vec![G::Move::NONE; Self::PIECE_TO_COUNT],
            killers: vec![[G::Move::NONE; 2]; max_ply + 2],
        })
    }

    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        let n = Self::PIECE_TO_COUNT;
        let continuation = &mut *self.continuation;
        self.continuation_written
            .drain(|row| continuation[row * n..][..n].fill(0));
        self.counter.fill(G::Move::NONE);
        self.clear_killers();
    }

    pub fn clear_killers(&mut self) {
        self.killers.fill([G::Move::NONE; 2]);
    }

    /// The (piece, to) index of `m` played in `pos`.
    pub fn piece_to(&self, pos: &G, m: G::Move) -> PieceTo {
        pos.moved_piece_slot(m) * G::SQUARES + G::move_to_square(m)
    }

    fn butterfly_index(&self, side: Side, bucket: usize, m: G::Move) -> usize {
        side.index() * Self::BUTTERFLY_LEN + butterfly_offset::<G>(bucket, m)
    }

    /// The butterfly history of `side`'s move `m` in threat bucket `bucket`.
    pub fn butterfly(&self, side: Side, bucket: usize, m: G::Move) -> i32 {
        self.butterfly[self.butterfly_index(side, bucket, m)] as i32
    }

    pub fn continuation(&self, previous: Option<PieceTo>, current: PieceTo) -> i32 {
        previous.map_or(0, |p| {
            self.continuation[p * Self::PIECE_TO_COUNT + current] as i32
        })
    }

    /// The rows that score the quiet moves of one node (`QuietRows::score`), looked up once:
    /// `side`'s butterfly table and the continuation row of each earlier move, a row of zeros
    /// standing in for a missing key.
    pub fn quiet_rows(&self, side: Side, previous: ContinuationKeys) -> QuietRows<'_, G> {
        let n = Self::PIECE_TO_COUNT;
        let butterfly_len = Self::BUTTERFLY_LEN;
        let row = |key: Option<usize>, zero_row: usize| key.unwrap_or(zero_row) * n;
        QuietRows {
            butterfly: &self.butterfly[side.index() * butterfly_len..][..butterfly_len],
            continuation: previous.map(|p| &self.continuation[row(p, n)..][..n]),
            game: std::marker::PhantomData,
        }
    }

    /// Combined quiet-move score: butterfly (in threat bucket `bucket`) plus the continuations
    /// of the earlier moves.
    pub fn quiet_score(
        &self,
        side: Side,
        bucket: usize,
        m: G::Move,
        current: PieceTo,
        previous: ContinuationKeys,
    ) -> i32 {
        previous
            .iter()
            .fold(self.butterfly(side, bucket, m), |sum, &p| {
                sum + self.continuation(p, current)
            })
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move in all its tables (the butterfly table of
    /// threat bucket `bucket`).
    pub fn update_quiet(
        &mut self,
        side: Side,
        bucket: usize,
        m: G::Move,
        current: PieceTo,
        previous: ContinuationKeys,
        bonus: i32,
    ) {
        let index = self.butterfly_index(side, bucket, m);
        apply(&mut self.butterfly[index], bonus);
        self.update_continuation(current, previous, bonus);
    }

    /// Rewards (`bonus > 0`) or punishes a move of `side` in the butterfly table (of threat
    /// bucket `bucket`) only.
    pub fn update_butterfly(&mut self, side: Side, bucket: usize, m: G::Move, bonus: i32) {
        let index = self.butterfly_index(side, bucket, m);
        apply(&mut self.butterfly[index], bonus);
    }

    /// Rewards (`bonus > 0`) or punishes the move `current` in the continuation tables of the
    /// moves before it.
    pub fn update_continuation(
        &mut self,
        current: PieceTo,
        previous: ContinuationKeys,
        bonus: i32,
    ) {
        for p in previous.into_iter().flatten() {
            self.continuation_written.mark(p);
            let index = p * Self::PIECE_TO_COUNT + current;
            apply(&mut self.continuation[index], bonus);
        }
    }

    pub fn clear_killers_at(&mut self, ply: usize) {
        self.killers[ply] = [G::Move::NONE; 2];
    }

    pub fn killers(&self, ply: usize) -> [G::Move; 2] {
        self.killers[ply]
    }

    pub fn add_killer(&mut self, ply: usize, m: G::Move) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
    }

    pub fn counter(&self, previous: Option<PieceTo>) -> G::Move {
        previous.map_or(G::Move::NONE, |p| self.counter[p])
    }

    pub fn set_counter(&mut self, previous: Option<PieceTo>, m: G::Move) {
        if let Some(p) = previous {
            self.counter[p] = m;
        }
    }
}

/// Which rows of a table were written since it was last cleared: one bit per row.
struct WrittenRows(Vec<u64>);

impl WrittenRows {
    fn new(rows: usize) -> Self {
        Self(vec![0; rows.div_ceil(64)])
    }

    #[inline]
    fn mark(&mut self, row: usize) {
        self.0[row / 64] |= 1 << (row % 64);
    }

    /// Calls `clear_row` with every marked row, and unmarks them.
    fn drain(&mut self, mut clear_row: impl FnMut(usize)) {
        for (i, word) in self.0.iter_mut().enumerate() {
            while *word != 0 {
                clear_row(i * 64 + word.trailing_zeros() as usize);
                *word &= *word - 1;
            }
        }
    }
}

/// Index of the move `m` in threat bucket `bucket` within one side's butterfly tables.
#[inline]
fn butterfly_offset<G: Game>(bucket: usize, m: G::Move) -> usize {
    debug_assert!(bucket < G::THREAT_BUCKETS);
    (bucket * G::FROM_SLOTS + G::move_from_slot(m)) * G::SQUARES + G::move_to_square(m)
}

/// One node's rows of the quiet-move tables (`HistoryTables::quiet_rows`): a quiet move's score
/// is a sum of three lookups, without a branch per missing key.
pub struct QuietRows<'a, G: Game> {
    /// `[threat bucket][from_slot][to]` of the side to move.
    butterfly: &'a [i16],
    /// `[piece_to]` after each earlier move (zeros for a missing one).
    continuation: [&'a [i16]; CONTINUATION_PLIES],
    game: std::marker::PhantomData<G>,
}

impl<G: Game> QuietRows<'_, G> {
    /// `HistoryTables::quiet_score` of the quiet move `m` (whose (piece, to) index is
    /// `current`, in threat bucket `bucket`).
    #[inline]
    pub fn score(&self, m: G::Move, current: PieceTo, bucket: usize) -> i32 {
        let from_to = butterfly_offset::<G>(bucket, m);
        self.continuation
            .iter()
            .fold(self.butterfly[from_to] as i32, |sum, row| {
                sum + row[current] as i32
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_s_rows_score_as_the_tables_do_with_and_without_keys() {
        use crate::chess::Position;
        let pos = Position::startpos();
        let mut tables = HistoryTables::<Position>::new(8);
        let side = pos.side_to_move();
        let moves: Vec<_> = ["g1f3", "b1c3", "e2e4", "a2a3"]
            .iter()
            .map(|text| pos.parse_move(text).unwrap())
            .collect();
        let keys: ContinuationKeys = [Some(3), Some(70)];
        for (i, &m) in moves.iter().enumerate() {
            let current = tables.piece_to(&pos, m);
            let bonus = 300 * (i as i32 + 1) * if i % 2 == 0 { 1 } else { -1 };
            let threat_bucket = i % <Position as Game>::THREAT_BUCKETS;
            tables.update_quiet(side, threat_bucket, m, current, keys, bonus);
        }
        for previous in [keys, [None, Some(70)], [None; CONTINUATION_PLIES]] {
            let rows = tables.quiet_rows(side, previous);
            for &m in &moves {
                for threat_bucket in 0..<Position as Game>::THREAT_BUCKETS {
                    let current = tables.piece_to(&pos, m);
                    let expected = tables.quiet_score(side, threat_bucket, m, current, previous);
                    assert_eq!(
                        rows.score(m, current, threat_bucket),
                        expected,
                        "{previous:?} {threat_bucket}"
                    );
                }
            }
        }
        let rows = tables.quiet_rows(side, keys);
        let current = tables.piece_to(&pos, moves[0]);
        assert_ne!(
            rows.score(moves[0], current, 0),
            0,
            "the rows see the learned values"
        );
    }

    #[test]
    fn clear_zeroes_every_written_row_and_only_those_need_it() {
        use crate::shogi::Position;
        let pos = Position::startpos();
        let mut tables = HistoryTables::<Position>::new(8);
        let side = pos.side_to_move();
        let moves = {
            use crate::movelist::MoveList;
            let mut list = <Position as Game>::Moves::default();
            pos.generate_legal(&mut list);
            list.as_slice().to_vec()
        };
        let n = HistoryTables::<Position>::PIECE_TO_COUNT;
        for round in 0..3 {
            for (i, &m) in moves.iter().enumerate() {
                let current = tables.piece_to(&pos, m);
                // Keys spread over the whole table, first and last rows included.
                let key = |k: usize| Some((i * 977 + k * 131 + round * 17) % n);
                let keys: ContinuationKeys = [key(0), Some(n - 1 - i % 7)];
                tables.update_quiet(side, 0, m, current, keys, 400 + i as i32);
                tables.update_continuation(current, [Some(0), key(2)], 200);
            }
            assert!(tables.continuation.iter().any(|&v| v != 0));
            tables.clear();
            assert!(tables.continuation.iter().all(|&v| v == 0), "round {round}");
            assert!(tables.butterfly.iter().all(|&v| v == 0));
        }
    }

    #[test]
    fn each_threat_bucket_is_a_butterfly_table_of_its_own() {
        use crate::chess::Position;
        let pos = Position::startpos();
        let m = pos.parse_move("g1f3").unwrap();
        let mut tables = HistoryTables::<Position>::new(8);
        let side = pos.side_to_move();
        let buckets = <Position as Game>::THREAT_BUCKETS;
        assert_eq!(buckets, 4);
        for bucket in 0..buckets {
            tables.update_butterfly(side, bucket, m, 100 * (bucket as i32 + 1));
        }
        let values: Vec<i32> = (0..buckets)
            .map(|bucket| tables.butterfly(side, bucket, m))
            .collect();
        assert_eq!(values, [100, 200, 300, 400]);
        assert_eq!(tables.butterfly(side.flip(), 3, m), 0, "the other side's");
        tables.clear();
        assert!((0..buckets).all(|bucket| tables.butterfly(side, bucket, m) == 0));
    }

    #[test]
    fn gravity_keeps_values_bounded_and_signed() {
        let mut e = 0i16;
        for _ in 0..1000 {
            apply(&mut e, 1600);
        }
        assert!(e as i32 <= HISTORY_MAX && e > 16_000);
        for _ in 0..1000 {
            apply(&mut e, -1600);
        }
        assert!(e as i32 >= -HISTORY_MAX && e < -16_000);
    }

    #[test]
    fn every_continuation_key_scores_and_learns_a_quiet_move() {
        use crate::chess::Position;
        let pos = Position::startpos();
        let m = pos.parse_move("g1f3").unwrap();
        let mut tables = HistoryTables::<Position>::new(8);
        let current = tables.piece_to(&pos, m);
        let side = pos.side_to_move();
        let keys: ContinuationKeys = [Some(3), Some(70)];
        let one_back: ContinuationKeys = [Some(3), None];
        tables.update_quiet(side, 0, m, current, keys, 1000);
        let per_table = tables.butterfly(side, 0, m);
        assert!(per_table > 0);
        for key in keys {
            assert_eq!(tables.continuation(key, current), per_table);
        }
        assert_eq!(tables.quiet_score(side, 0, m, current, keys), 3 * per_table);
        assert_eq!(
            tables.quiet_score(side, 0, m, current, one_back),
            2 * per_table
        );
        // A `None` key neither scores nor learns.
        tables.update_quiet(side, 0, m, current, one_back, -1000);
        assert!(tables.continuation(Some(70), current) == per_table);
        assert!(tables.continuation(Some(3), current) < per_table);
    }
}
