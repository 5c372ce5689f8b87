//! The keys of the game's positions before a search's root, as a 4,096-bit filter: the rule
//! check of a search node (repetition) scans the whole game history only when its position may
//! occur there, and otherwise only the plies the search itself has played. Shogi games run to
//! hundreds of plies and have no irreversible moves that would bound the scan.

use crate::game::HistoryEntry;

/// A Bloom filter (one hash function: a key's top 12 bits) of the hashes of the positions before
/// the root. It never misses a key it holds; a key it does not hold passes about as often as the
/// fraction of bits set (a few percent for a game of a few hundred plies).
#[derive(Clone, Debug)]
pub struct RootKeys {
    bits: [u64; 64],
    /// How many history entries precede the root.
    len: usize,
}

impl Default for RootKeys {
    fn default() -> Self {
        Self {
            bits: [0; 64],
            len: 0,
        }
    }
}

impl RootKeys {
    #[inline]
    fn slot(hash: u64) -> (usize, u64) {
        let bit = (hash >> 52) as usize;
        (bit / 64, 1 << (bit % 64))
    }

    /// The filter of `history`, the positions before the root (oldest first).
    pub fn fill(&mut self, history: &[HistoryEntry]) {
        self.bits = [0; 64];
        for entry in history {
            let (word, mask) = Self::slot(entry.hash);
            self.bits[word] |= mask;
        }
        self.len = history.len();
    }

    /// Whether `hash` may be the hash of a position before the root.
    #[inline]
    pub fn may_contain(&self, hash: u64) -> bool {
        let (word, mask) = Self::slot(hash);
        self.bits[word] & mask != 0
    }

    /// The part of `history` (the positions before the root, then the search's own, oldest
    /// first) that a rule check of the position with `hash` needs: all of it when the position
    /// may occur before the root, otherwise only the search's plies. Both give the same outcome
    /// (`Game::rule_outcome` looks back only as far as the earliest occurrence of the position).
    /// Used where `Game::ROOT_KEY_FILTER` says so.
    #[inline]
    pub fn rule_history<'h>(&self, history: &'h [HistoryEntry], hash: u64) -> &'h [HistoryEntry] {
        if self.may_contain(hash) {
            history
        } else {
            &history[self.len.min(history.len())..]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(hash: u64) -> HistoryEntry {
        HistoryEntry {
            hash,
            in_check: false,
        }
    }

    #[test]
    fn held_keys_always_pass_and_others_get_the_search_plies_only() {
        let before: Vec<_> = (1..=300u64)
            .map(|i| entry(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect();
        let mut keys = RootKeys::default();
        keys.fill(&before);
        let mut history = before.clone();
        history.extend([entry(7), entry(8)]);
        for e in &before {
            assert!(keys.may_contain(e.hash));
            assert_eq!(keys.rule_history(&history, e.hash).len(), history.len());
        }
        // A key whose bit is clear: only the two search plies are scanned.
        let absent = (0..4096u64)
            .map(|bit| bit << 52)
            .find(|&hash| !keys.may_contain(hash))
            .expect("300 keys leave most of 4,096 bits clear");
        assert_eq!(keys.rule_history(&history, absent), &history[300..]);
        // Refilling forgets the old keys.
        keys.fill(&[]);
        assert!(!keys.may_contain(before[0].hash));
        assert_eq!(keys.rule_history(&history, before[0].hash), &history[..]);
    }
}
