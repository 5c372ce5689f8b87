//! A heap buffer of `i16` whose start is 64-byte aligned (one cache line, one AVX-512 register),
//! without `unsafe`: the vector is over-allocated and the slice starts at the first aligned
//! element. Cloning re-aligns in the new allocation.

/// Alignment of the buffer's start, in bytes.
const ALIGN_BYTES: usize = 64;
/// Extra elements allocated so an aligned start always exists.
const SLACK: usize = ALIGN_BYTES / std::mem::size_of::<i16>();

/// A fixed-length, 64-byte-aligned `i16` buffer.
#[derive(Debug)]
pub struct AlignedBuffer {
    storage: Vec<i16>,
    start: usize,
    len: usize,
}

impl AlignedBuffer {
    /// `len` zeros.
    pub fn zeroed(len: usize) -> Self {
        let storage = vec![0i16; len + SLACK];
        let start = Self::aligned_start(&storage);
        Self {
            storage,
            start,
            len,
        }
    }

    fn aligned_start(storage: &[i16]) -> usize {
        // `align_offset` counts elements; an i16 allocation is 2-byte aligned, so the offset to
        // the next 64-byte boundary is below SLACK.
        storage.as_ptr().align_offset(ALIGN_BYTES).min(SLACK)
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[i16] {
        &self.storage[self.start..self.start + self.len]
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [i16] {
        &mut self.storage[self.start..self.start + self.len]
    }
}

impl Clone for AlignedBuffer {
    fn clone(&self) -> Self {
        let mut copy = Self::zeroed(self.len);
        copy.as_mut_slice().copy_from_slice(self.as_slice());
        copy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_aligned_and_clones_realign() {
        for len in [0, 32, 512, 150_000] {
            let mut buf = AlignedBuffer::zeroed(len);
            assert_eq!(buf.as_slice().len(), len);
            assert_eq!(buf.as_slice().as_ptr() as usize % ALIGN_BYTES, 0);
            if len > 0 {
                buf.as_mut_slice()[len - 1] = 7;
            }
            let copy = buf.clone();
            assert_eq!(copy.as_slice().as_ptr() as usize % ALIGN_BYTES, 0);
            assert_eq!(copy.as_slice(), buf.as_slice());
        }
    }
}
