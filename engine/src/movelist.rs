//! Fixed-capacity move lists: no heap allocation in move generation or search.

/// What the search needs of a game's move list.
pub trait MoveList<M: Copy>: Default + Clone + Send {
    /// Largest number of moves the list can hold.
    const CAPACITY: usize;
    fn clear(&mut self);
    /// Appends a move. The capacity is chosen above every legal position's move count.
    fn push(&mut self, m: M);
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn as_slice(&self) -> &[M];
    fn as_mut_slice(&mut self) -> &mut [M];
}

/// An array-backed list of at most `N` moves.
#[derive(Clone)]
pub struct ArrayMoveList<M: Copy + Default, const N: usize> {
    moves: [M; N],
    len: usize,
}

impl<M: Copy + Default, const N: usize> Default for ArrayMoveList<M, N> {
    #[inline]
    fn default() -> Self {
        Self {
            moves: [M::default(); N],
            len: 0,
        }
    }
}

impl<M: Copy + Default + Send, const N: usize> MoveList<M> for ArrayMoveList<M, N> {
    const CAPACITY: usize = N;

    #[inline]
    fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    fn push(&mut self, m: M) {
        debug_assert!(self.len < N, "move list overflow");
        self.moves[self.len] = m;
        self.len += 1;
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn as_slice(&self) -> &[M] {
        &self.moves[..self.len]
    }

    #[inline]
    fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }
}

impl<M: Copy + Default + std::fmt::Debug, const N: usize> std::fmt::Debug for ArrayMoveList<M, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(&self.moves[..self.len]).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_clear_and_slice() {
        let mut list = ArrayMoveList::<u16, 4>::default();
        assert!(list.is_empty());
        list.push(3);
        list.push(7);
        assert_eq!(list.as_slice(), &[3, 7]);
        list.as_mut_slice().swap(0, 1);
        assert_eq!(list.as_slice(), &[7, 3]);
        list.clear();
        assert_eq!(list.len(), 0);
    }
}
