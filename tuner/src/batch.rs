//! A training batch in flat arrays: the active features of both perspectives per position, the
//! output bucket and the target, reused between batches without reallocation.

/// Positions ready for the trainer. Position `i` has side-to-move features
/// `stm[offsets[i]..offsets[i+1]]` and other-side features `nstm[offsets[i]..offsets[i+1]]`
/// (both perspectives always have the same number of active features).
#[derive(Clone, Debug, Default)]
pub struct Batch {
    pub stm: Vec<u32>,
    pub nstm: Vec<u32>,
    pub offsets: Vec<u32>,
    pub bucket: Vec<u8>,
    /// Target in [0, 1]: λ·result + (1−λ)·sigmoid(score / scale), from the side to move's view.
    pub target: Vec<f32>,
}

impl Batch {
    pub fn new() -> Self {
        Self {
            offsets: vec![0],
            ..Self::default()
        }
    }

    pub fn clear(&mut self) {
        self.stm.clear();
        self.nstm.clear();
        self.offsets.clear();
        self.offsets.push(0);
        self.bucket.clear();
        self.target.clear();
    }

    pub fn len(&self) -> usize {
        self.bucket.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bucket.is_empty()
    }

    /// Appends one position.
    pub fn push(&mut self, stm: &[u32], nstm: &[u32], bucket: u8, target: f32) {
        assert_eq!(
            stm.len(),
            nstm.len(),
            "perspectives must have equal feature counts"
        );
        self.stm.extend_from_slice(stm);
        self.nstm.extend_from_slice(nstm);
        self.offsets.push(self.stm.len() as u32);
        self.bucket.push(bucket);
        self.target.push(target);
    }

    /// Features of position `i`: (side to move, other side).
    pub fn features(&self, i: usize) -> (&[u32], &[u32]) {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        (&self.stm[a..b], &self.nstm[a..b])
    }

    /// Everything the loss of position `i` needs: its features (side to move, other side), its
    /// output bucket and its target.
    pub fn position(&self, i: usize) -> (&[u32], &[u32], usize, f32) {
        let (stm, nstm) = self.features(i);
        (stm, nstm, self.bucket[i] as usize, self.target[i])
    }
}

/// The training target: `λ·result + (1−λ)·sigmoid(score/scale)`; `result` is 1 win, 0.5 draw, 0
/// loss for the side to move, `score` in centipawns.
pub fn blend_target(result: f32, score_cp: f32, eval_scale: f32, lambda: f32) -> f32 {
    let from_score = 1.0 / (1.0 + (-score_cp / eval_scale).exp());
    lambda * result + (1.0 - lambda) * from_score
}
