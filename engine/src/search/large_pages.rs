//! Large arrays in anonymous memory advised for transparent huge pages (2 MB pages on Linux),
//! for the transposition table and the big history tables: their random accesses then miss the
//! TLB far less often. Where the
//! mapping cannot be made, the array lives on the ordinary heap; the contents are the same.

use memmap2::{MmapMut, MmapOptions};
use std::marker::PhantomData;

/// The huge-page size the mapping is aligned to.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// A fixed-length array of `T`, each element starting as `T::default()`.
pub struct LargePageArray<T> {
    storage: Storage<T>,
    /// The first element, inside `storage` (cached: every access derefs, and the search's
    /// history lookups are hot enough for a branch on the storage kind to show).
    first: *mut T,
    len: usize,
}

// SAFETY: `first` only points into `storage`, which the array owns; sharing or sending the
// array shares or sends its elements, exactly as for a `Vec<T>`.
unsafe impl<T: Send> Send for LargePageArray<T> {}
// SAFETY: as above; `&self` hands out only shared references to the elements.
unsafe impl<T: Sync> Sync for LargePageArray<T> {}

enum Storage<T> {
    /// The mapping and the byte offset of the first element (the first 2 MB boundary).
    Mapped(MmapMut, usize, PhantomData<T>),
    Heap(Vec<T>),
}

impl<T: Default> LargePageArray<T> {
    /// `len` default elements, in huge-page-advised memory when the system allows it. Panics
    /// when the memory cannot be had (see `try_new`).
    pub fn new(len: usize) -> Self {
        match Self::try_new(len) {
            Some(array) => array,
            None => panic!(
                "cannot allocate {len} elements of {} bytes",
                std::mem::size_of::<T>()
            ),
        }
    }

    /// As `new`, but `None` instead of aborting when neither a mapping nor the heap can hold
    /// the array (a hash size beyond the machine's memory or the process's limit).
    pub fn try_new(len: usize) -> Option<Self> {
        let mut storage = match Self::mapped(len) {
            Some(storage) => storage,
            None => {
                let mut heap = Vec::new();
                heap.try_reserve_exact(len).ok()?;
                heap.resize_with(len, T::default);
                Storage::Heap(heap)
            }
        };
        // Neither a mapping nor a vector's buffer moves when the array does.
        let first = match &mut storage {
            Storage::Mapped(map, offset, _) => map.as_mut_ptr().wrapping_add(*offset).cast::<T>(),
            Storage::Heap(heap) => heap.as_mut_ptr(),
        };
        Some(Self {
            storage,
            first,
            len,
        })
    }

    fn mapped(len: usize) -> Option<Storage<T>> {
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        if bytes < HUGE_PAGE || std::mem::align_of::<T>() > 4096 {
            return None;
        }
        let mut map = MmapOptions::new().len(bytes + HUGE_PAGE).map_anon().ok()?;
        let offset = map.as_ptr().align_offset(HUGE_PAGE);
        #[cfg(target_os = "linux")]
        {
            // Only a hint: without transparent huge pages the memory works the same.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        let first = map.as_mut_ptr().wrapping_add(offset).cast::<T>();
        for i in 0..len {
            // SAFETY: the mapping holds `bytes + HUGE_PAGE` bytes and `offset < HUGE_PAGE`, so
            // elements `0..len` from `first` lie inside it; `first` is 2 MB aligned, hence
            // aligned for `T` (checked above); the mapping is ours alone until returned.
            unsafe { first.add(i).write(T::default()) };
        }
        Some(Storage::Mapped(map, offset, PhantomData))
    }
}

impl<T> std::ops::Deref for LargePageArray<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `first` points to the `len` initialised, aligned elements that `new` put in
        // `storage` (mapping or vector), which lives as long as `self`; only shared references
        // are handed out.
        unsafe { std::slice::from_raw_parts(self.first, self.len) }
    }
}

impl<T> std::ops::DerefMut for LargePageArray<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`; `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.first, self.len) }
    }
}

impl<T> Drop for LargePageArray<T> {
    fn drop(&mut self) {
        if let Storage::Mapped(map, offset, _) = &mut self.storage {
            let first = map.as_mut_ptr().wrapping_add(*offset).cast::<T>();
            // SAFETY: the `len` elements were initialised by `new` and are dropped once here,
            // before the mapping itself is unmapped.
            unsafe { std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(first, self.len)) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn mapped_and_heap_arrays_hold_the_same_values() {
        // 4 MB of atomics takes the mapped path, 1 KB the heap path.
        for len in [512 * 1024, 128] {
            let array = LargePageArray::<AtomicU64>::new(len);
            assert_eq!(array.len(), len);
            assert!(array.iter().all(|w| w.load(Ordering::Relaxed) == 0));
            for (i, w) in array.iter().enumerate() {
                w.store(i as u64 * 3, Ordering::Relaxed);
            }
            assert!(array
                .iter()
                .enumerate()
                .all(|(i, w)| w.load(Ordering::Relaxed) == i as u64 * 3));
        }
        let mapped = LargePageArray::<AtomicU64>::new(512 * 1024);
        assert!(matches!(mapped.storage, Storage::Mapped(..)));
        assert_eq!(mapped.as_ptr() as usize % HUGE_PAGE, 0);
        // More than any address space holds: refused, not aborted.
        assert!(LargePageArray::<AtomicU64>::try_new(usize::MAX / 16).is_none());
        let mut counts = LargePageArray::<i16>::new(2 * HUGE_PAGE);
        counts[7] = -3;
        counts.fill(5);
        assert!(counts.iter().all(|&c| c == 5));
    }
}
