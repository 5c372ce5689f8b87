//! One optimisation step over a batch, data-parallel: the batch is split into one contiguous
//! chunk per thread, each thread accumulates its gradient in its own buffer, and the buffers are
//! summed in a fixed order — so a run is deterministic for a given seed and thread count.

use crate::adamw::AdamW;
use crate::batch::Batch;
use crate::model::{FloatNet, Scratch};
use rayon::prelude::*;

/// Weight decay used unless the caller sets another.
pub const DEFAULT_WEIGHT_DECAY: f32 = 0.01;

/// The network, its optimiser and per-thread buffers.
pub struct Trainer {
    pub net: FloatNet,
    pub optimizer: AdamW,
    pool: rayon::ThreadPool,
    grads: Vec<Vec<f32>>,
    scratches: Vec<Scratch>,
}

impl Trainer {
    pub fn new(net: FloatNet, optimizer: AdamW, threads: usize) -> Self {
        let threads = threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a rayon pool");
        let grads = (0..threads).map(|_| vec![0.0; net.layout.total]).collect();
        let scratches = (0..threads).map(|_| Scratch::new(&net.arch)).collect();
        Self {
            net,
            optimizer,
            pool,
            grads,
            scratches,
        }
    }

    pub fn threads(&self) -> usize {
        self.grads.len()
    }

    /// Computes the mean gradient of `batch`, applies one AdamW update with rate `lr`, clips the
    /// weights, and returns the batch's mean loss (before the update).
    pub fn step(&mut self, batch: &Batch, lr: f32) -> f32 {
        let n = batch.len();
        if n == 0 {
            return 0.0;
        }
        let threads = self.grads.len();
        let net = &self.net;
        let losses: Vec<f64> = self.pool.install(|| {
            self.grads
                .par_iter_mut()
                .zip(self.scratches.par_iter_mut())
                .enumerate()
                .map(|(t, (grad, scratch))| {
                    grad.iter_mut().for_each(|g| *g = 0.0);
                    let (start, end) = (t * n / threads, (t + 1) * n / threads);
                    let mut loss = 0.0f64;
                    for i in start..end {
                        let (stm, nstm, bucket, target) = batch.position(i);
                        loss += net.backward(stm, nstm, bucket, target, grad, scratch) as f64;
                    }
                    loss
                })
                .collect()
        });
        let (first, rest) = self.grads.split_at_mut(1);
        let total = &mut first[0];
        let scale = 1.0 / n as f32;
        self.pool.install(|| {
            total
                .par_chunks_mut(1 << 14)
                .enumerate()
                .for_each(|(c, chunk)| {
                    let base = c << 14;
                    for other in rest.iter() {
                        for (g, o) in chunk.iter_mut().zip(&other[base..]) {
                            *g += o;
                        }
                    }
                    for g in chunk.iter_mut() {
                        *g *= scale;
                    }
                })
        });
        self.optimizer.update(&mut self.net.params, total, lr);
        self.net.clip_weights();
        (losses.iter().sum::<f64>() / n as f64) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente::nnue::arch::CHESS;
    use sente::nnue::Architecture;
    use sente::xorshift::xorshift64;

    fn synthetic(arch: &Architecture, count: usize, seed: u64) -> Batch {
        // A learnable target: each feature carries a fixed value; the target is the sigmoid of
        // the side-to-move sum minus the other side's.
        let mut next = xorshift64(seed);
        let value = |f: u32| ((f * 37 % 11) as f32 - 5.0) / 10.0;
        let mut batch = Batch::new();
        for _ in 0..count {
            let k = 3 + (next() % 4) as usize;
            let stm: Vec<u32> = (0..k)
                .map(|_| (next() % arch.inputs as u64) as u32)
                .collect();
            let nstm: Vec<u32> = (0..k)
                .map(|_| (next() % arch.inputs as u64) as u32)
                .collect();
            let s: f32 = stm.iter().map(|&f| value(f)).sum::<f32>()
                - nstm.iter().map(|&f| value(f)).sum::<f32>();
            batch.push(&stm, &nstm, 0, 1.0 / (1.0 + (-s).exp()));
        }
        batch
    }

    fn tiny() -> Architecture {
        Architecture {
            inputs: 32,
            king_buckets: 1,
            l1: 32,
            output_buckets: 1,
            ..CHESS
        }
    }

    fn base_loss(batch: &Batch) -> f32 {
        let mean = batch.target.iter().sum::<f32>() / batch.len() as f32;
        batch
            .target
            .iter()
            .map(|t| (t - mean) * (t - mean))
            .sum::<f32>()
            / batch.len() as f32
    }

    #[test]
    fn training_on_a_learnable_set_cuts_the_loss_by_more_than_ninety_percent() {
        let arch = tiny();
        let data = synthetic(&arch, 4096, 99);
        let net = FloatNet::new(arch, 1);
        let mut scratch = Scratch::new(&arch);
        let before = net.batch_loss(&data, &mut scratch);
        let mut trainer = Trainer::new(net, AdamW::new(ParamCount::of(&arch), 0.0), 2);
        for _ in 0..300 {
            trainer.step(&data, 0.01);
        }
        let after = trainer.net.batch_loss(&data, &mut scratch);
        assert!(
            after < 0.1 * before,
            "loss {before} -> {after} (constant predictor: {})",
            base_loss(&data)
        );
    }

    #[test]
    fn a_step_is_deterministic_for_a_thread_count() {
        let arch = tiny();
        let data = synthetic(&arch, 1000, 5);
        let run = |threads| {
            let net = FloatNet::new(arch, 7);
            let mut t = Trainer::new(net, AdamW::new(ParamCount::of(&arch), 0.01), threads);
            for _ in 0..5 {
                t.step(&data, 0.001);
            }
            t.net.params
        };
        assert_eq!(run(2), run(2));
        let one = run(1);
        let two = run(2);
        let max_diff = one
            .iter()
            .zip(&two)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(
            max_diff < 1e-4,
            "thread counts differ only by rounding: {max_diff}"
        );
    }

    struct ParamCount;
    impl ParamCount {
        fn of(arch: &Architecture) -> usize {
            crate::model::ParamLayout::of(arch).total
        }
    }
}
