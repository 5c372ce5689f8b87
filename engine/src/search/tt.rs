//! The transposition table: a fixed array of 64-byte buckets of four entries, shared lock-free by
//! all search threads. Each entry is two `AtomicU64` words, the key word holding `hash ^ data`, so
//! a torn write (two threads storing at once) fails verification instead of returning foreign data.

use super::large_pages::LargePageArray;
use super::prefetch::prefetch;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (all moves failed low).
    Upper = 1,
    /// The true value is at least the score (a move failed high).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// The bound a search result `best` proves, given the window it was searched with.
    #[inline]
    pub fn of_result(best: i32, original_alpha: i32, beta: i32, pv_node: bool) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if pv_node && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    fn from_bits(bits: u64) -> Option<Bound> {
        match bits {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// A verified table entry. Scores are stored relative to the node (mate distances from it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub move_bits: u16,
    pub score: i32,
    pub static_eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// Depths are stored offset so that quiescence entries (depth 0 and -1) fit in an unsigned byte.
const DEPTH_OFFSET: i32 = 2;
const ENTRIES_PER_BUCKET: usize = 4;
/// Generation counter width (5 bits).
const AGE_MASK: u64 = 0x1f;

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    /// `[key ^ data, data]` for each of the four entries.
    words: [AtomicU64; 2 * ENTRIES_PER_BUCKET],
}

/// Packs an entry into 64 bits: move 16, score 16, eval 16, depth 8, bound 2, age 5 (the top
/// bit stays clear).
fn pack(move_bits: u16, score: i32, eval: i32, depth: i32, bound: Bound, age: u64) -> u64 {
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let eval = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    move_bits as u64
        | score << 16
        | eval << 32
        | depth << 48
        | (bound as u64) << 56
        | (age & AGE_MASK) << 58
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = Bound::from_bits((data >> 56) & 3)?;
    Some(TtEntry {
        move_bits: data as u16,
        score: (data >> 16) as u16 as i16 as i32,
        static_eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET,
        bound,
    })
}

fn data_depth(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32
}

fn data_age(data: u64) -> u64 {
    (data >> 58) & AGE_MASK
}

/// The shared table. All methods take `&self`; threads store and probe concurrently.
pub struct TranspositionTable {
    buckets: LargePageArray<Bucket>,
    age: AtomicU64,
}

impl TranspositionTable {
    /// A cleared table of (at most) `mb` megabytes, at least one bucket.
    pub fn new(mb: usize) -> Self {
        match Self::try_new(mb) {
            Some(table) => table,
            None => panic!("cannot allocate a {mb} MB transposition table"),
        }
    }

    /// As `new`, or `None` when the memory cannot be had.
    pub fn try_new(mb: usize) -> Option<Self> {
        let bytes = mb.max(1).checked_mul(1024 * 1024)?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        Some(Self {
            buckets: LargePageArray::try_new(count)?,
            age: AtomicU64::new(0),
        })
    }

    /// Size in megabytes (rounded down).
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empties every entry. Exclusive access makes the words plain memory: one bulk fill instead
    /// of an atomic store per word (self-play clears the table before every game).
    pub fn clear(&mut self) {
        for bucket in self.buckets.iter_mut() {
            for word in &mut bucket.words {
                *word.get_mut() = 0;
            }
        }
        *self.age.get_mut() = 0;
    }

    /// Starts a new search generation: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, hash: u64) -> &Bucket {
        let index = ((hash as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading `hash`'s bucket into the cache. Called as soon as a move is made, so that
    /// the child's probe a little later finds its bucket there instead of waiting on memory.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        prefetch(self.bucket(hash));
    }

    /// The entry stored for `hash`, if any survives verification.
    pub fn probe(&self, hash: u64) -> Option<TtEntry> {
        let bucket = self.bucket(hash);
        for slot in 0..ENTRIES_PER_BUCKET {
            let key_word = bucket.words[2 * slot].load(Ordering::Relaxed);
            let data = bucket.words[2 * slot + 1].load(Ordering::Relaxed);
            if key_word ^ data == hash {
                return unpack(data);
            }
        }
        None
    }

    /// Stores an entry for `hash`, replacing the same position's entry or the least valuable
    /// one of the bucket (shallow and old). Keeps the old move when the new one is empty.
    pub fn store(
        &self,
        hash: u64,
        move_bits: u16,
        score: i32,
        static_eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let age = self.age.load(Ordering::Relaxed) & AGE_MASK;
        let bucket = self.bucket(hash);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for slot in 0..ENTRIES_PER_BUCKET {
            let key_word = bucket.words[2 * slot].load(Ordering::Relaxed);
            let data = bucket.words[2 * slot + 1].load(Ordering::Relaxed);
            if key_word ^ data == hash {
                let old_depth = data_depth(data) - DEPTH_OFFSET;
                // Keep a deeper entry of the same search unless the new one is exact.
                if bound != Bound::Exact && old_depth > depth + 3 && data_age(data) == age {
                    return;
                }
                let kept_move = if move_bits == 0 {
                    data as u16
                } else {
                    move_bits
                };
                let data = pack(kept_move, score, static_eval, depth, bound, age);
                Self::write(bucket, slot, hash, data);
                return;
            }
            let staleness = ((age + AGE_MASK + 1 - data_age(data)) & AGE_MASK) as i32;
            let value = if unpack(data).is_none() {
                i32::MIN
            } else {
                data_depth(data) - 8 * staleness
            };
            if value < victim_value {
                victim_value = value;
                victim = slot;
            }
        }
        let data = pack(move_bits, score, static_eval, depth, bound, age);
        Self::write(bucket, victim, hash, data);
    }

    /// Writes the packed entry `data` of `hash` into `slot` of `bucket`.
    fn write(bucket: &Bucket, slot: usize, hash: u64, data: u64) {
        bucket.words[2 * slot].store(hash ^ data, Ordering::Relaxed);
        bucket.words[2 * slot + 1].store(data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & AGE_MASK;
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for slot in 0..ENTRIES_PER_BUCKET {
                let data = bucket.words[2 * slot + 1].load(Ordering::Relaxed);
                if unpack(data).is_some() && data_age(data) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe_round_trips_negative_values() {
        let tt = TranspositionTable::new(1);
        tt.store(
            0xdead_beef_1234_5678,
            0x1234,
            -31_000,
            -250,
            -1,
            Bound::Upper,
        );
        let e = tt.probe(0xdead_beef_1234_5678).expect("stored entry");
        assert_eq!(e.move_bits, 0x1234);
        assert_eq!(e.score, -31_000);
        assert_eq!(e.static_eval, -250);
        assert_eq!(e.depth, -1);
        assert_eq!(e.bound, Bound::Upper);
        assert!(tt.probe(0xdead_beef_1234_5679).is_none());
    }

    #[test]
    fn clear_empties_and_hashfull_counts_current_entries() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for i in 0..200_000u64 {
            let hash = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            tt.store(hash, 1, 0, 0, 5, Bound::Exact);
        }
        assert!(tt.hashfull() > 500, "hashfull {}", tt.hashfull());
        tt.new_search();
        assert_eq!(
            tt.hashfull(),
            0,
            "entries from an older search do not count"
        );
        tt.clear();
        assert!(tt.probe(0x9e37_79b9_7f4a_7c15).is_none());
    }

    #[test]
    fn same_position_keeps_move_when_new_store_has_none() {
        let tt = TranspositionTable::new(1);
        tt.store(42, 77, 10, 5, 3, Bound::Lower);
        tt.store(42, 0, 20, 5, 4, Bound::Upper);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.move_bits, e.score, e.depth), (77, 20, 4));
    }

    #[test]
    fn torn_entry_fails_verification() {
        let tt = TranspositionTable::new(1);
        tt.store(1234, 5, 6, 7, 8, Bound::Exact);
        let bucket = tt.bucket(1234);
        // Simulate a half-finished write from another thread: new data, old key word.
        for slot in 0..ENTRIES_PER_BUCKET {
            let data = bucket.words[2 * slot + 1].load(Ordering::Relaxed);
            if unpack(data).is_some() {
                bucket.words[2 * slot + 1].store(data ^ 0x10000, Ordering::Relaxed);
            }
        }
        assert!(tt.probe(1234).is_none());
    }
}
