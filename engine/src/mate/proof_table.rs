//! The df-pn solver's proof-number table: 4-way buckets of (key, proof, disproof, work) entries
//! in zero-filled anonymous memory, replacing the entry with the least work. Its size comes from
//! a user setting (`USI_Hash`), so it is allocated fallibly: a size the system refuses gives a
//! smaller table and a message, never an abort. Pages are only touched as entries are stored.

use memmap2::{MmapMut, MmapOptions};

/// Entries per bucket.
pub(super) const BUCKET: usize = 4;

/// One stored node. All-zero bytes are the empty entry (`pn | dn == 0`).
#[derive(Clone, Copy, Default)]
#[repr(C)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) pn: u32,
    pub(super) dn: u32,
    /// Which side the node belongs to (OR = attacker to move), part of the key's meaning.
    pub(super) or_node: bool,
    /// Nodes searched below this entry when it was stored (replacement priority).
    pub(super) work: u32,
}

/// Proof-number table: 4-way buckets, replacing the entry with the least work.
pub(super) struct ProofTable {
    map: MmapMut,
    len: usize,
    mask: usize,
}

impl ProofTable {
    /// A table of about `megabytes` (rounded down to a power of two of buckets), or `None`
    /// when the memory cannot be mapped.
    pub(super) fn try_new(megabytes: usize) -> Option<Self> {
        let bytes = megabytes.max(1).checked_mul(1 << 20)?;
        let wanted = bytes / std::mem::size_of::<Entry>();
        let buckets = ((wanted / BUCKET).next_power_of_two() / 2).max(1);
        let len = buckets * BUCKET;
        let map = MmapOptions::new()
            .len(len * std::mem::size_of::<Entry>())
            .map_anon()
            .ok()?;
        Some(Self {
            map,
            len,
            mask: buckets - 1,
        })
    }

    /// A table of about `megabytes`, or the largest smaller one that can be had (halving down
    /// to 1 MB), with a message naming both sizes when it is smaller.
    pub(super) fn with_fallback(megabytes: usize) -> (Self, Option<String>) {
        let wanted = megabytes.max(1);
        let mut size = wanted;
        loop {
            if let Some(table) = Self::try_new(size) {
                let note = (size != wanted)
                    .then(|| format!("cannot allocate a {wanted} MB mate table; using {size} MB"));
                return (table, note);
            }
            if size == 1 {
                // Not even 1 MB of address space: a one-bucket table.
                let table = Self::one_bucket();
                return (
                    table,
                    Some(format!(
                        "cannot allocate a {wanted} MB mate table; using one bucket"
                    )),
                );
            }
            size /= 2;
        }
    }

    /// One bucket, the smallest table there is (one page of anonymous memory).
    fn one_bucket() -> Self {
        let map = MmapOptions::new()
            .len(BUCKET * std::mem::size_of::<Entry>())
            .map_anon()
            .expect("cannot map one page for the mate table");
        Self {
            map,
            len: BUCKET,
            mask: 0,
        }
    }

    /// Size in megabytes (rounded down).
    #[cfg(test)]
    pub(super) fn size_mb(&self) -> usize {
        (self.len * std::mem::size_of::<Entry>()) >> 20
    }

    fn entries(&self) -> &[Entry] {
        // SAFETY: the mapping holds `len` entries' bytes, is page aligned (so aligned for
        // `Entry`), zero-filled by the system, and all-zero bytes are a valid `Entry` (integers
        // and `false`); it lives as long as `self`, and `&self` hands out only shared
        // references.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<Entry>(), self.len) }
    }

    fn entries_mut(&mut self) -> &mut [Entry] {
        // SAFETY: as in `entries`; `&mut self` makes this the only reference, and every value
        // written is a whole `Entry`.
        unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr().cast::<Entry>(), self.len) }
    }

    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.mask) * BUCKET
    }

    /// The entries of the bucket `key` falls in.
    pub(super) fn bucket_entries(&self, key: u64) -> &[Entry] {
        let start = self.bucket(key);
        &self.entries()[start..start + BUCKET]
    }

    pub(super) fn get(&self, key: u64, or_node: bool) -> Option<(u32, u32)> {
        self.bucket_entries(key)
            .iter()
            .find(|e| e.key == key && e.or_node == or_node && (e.pn | e.dn) != 0)
            .map(|e| (e.pn, e.dn))
    }

    pub(super) fn put(&mut self, key: u64, or_node: bool, pn: u32, dn: u32, work: u32) {
        let start = self.bucket(key);
        let bucket = &mut self.entries_mut()[start..start + BUCKET];
        let slot = match bucket
            .iter()
            .position(|e| e.key == key && e.or_node == or_node)
        {
            Some(i) => i,
            None => {
                let mut victim = 0;
                for (i, e) in bucket.iter().enumerate() {
                    if e.work < bucket[victim].work {
                        victim = i;
                    }
                }
                victim
            }
        };
        bucket[slot] = Entry {
            key,
            pn,
            dn,
            or_node,
            work,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 59, item 1: a size beyond any machine's memory gives a smaller table and a
    /// message instead of aborting the process.
    #[test]
    fn an_impossible_size_falls_back_to_a_smaller_table() {
        assert!(ProofTable::try_new(usize::MAX >> 20).is_none());
        let (table, note) = ProofTable::with_fallback(usize::MAX >> 21);
        let note = note.expect("a smaller table is reported");
        assert!(note.contains("cannot allocate"), "{note}");
        assert!(table.size_mb() < usize::MAX >> 21);
        let (small, note) = ProofTable::with_fallback(1);
        assert!(note.is_none());
        assert_eq!(
            small.size_mb(),
            0,
            "1 MB rounds down to half a MB of buckets"
        );
    }

    #[test]
    fn stored_entries_are_found_and_empty_ones_are_not() {
        let mut table = ProofTable::try_new(1).unwrap();
        assert_eq!(table.get(12345, true), None);
        table.put(12345, true, 3, 4, 10);
        assert_eq!(table.get(12345, true), Some((3, 4)));
        assert_eq!(table.get(12345, false), None);
    }
}
