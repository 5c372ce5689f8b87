//! The float network the trainer optimises: the same layers as the engine's quantized net (sparse
//! feature transformer → SCReLU on both perspectives → one output per bucket), with a sparse
//! forward/backward pass that touches only the rows of active features.

use crate::batch::Batch;
use sente::nnue::{Activation, Architecture};

/// Weight clip for both layers: keeps quantized values inside i16 and `v·w` products of the
/// SCReLU kernel inside i16 (|w·QB| ≤ 127 with QB = 64).
pub const WEIGHT_CLIP: f32 = 1.98;

/// Where each tensor lives in the flat parameter vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamLayout {
    pub ft_w: usize,
    pub ft_b: usize,
    pub out_w: usize,
    pub out_b: usize,
    pub total: usize,
}

impl ParamLayout {
    pub fn of(arch: &Architecture) -> Self {
        let ft_w = 0;
        let ft_b = ft_w + arch.feature_rows() * arch.l1;
        let out_w = ft_b + arch.l1;
        let out_b = out_w + arch.output_buckets * 2 * arch.l1;
        let total = out_b + arch.output_buckets;
        Self {
            ft_w,
            ft_b,
            out_w,
            out_b,
            total,
        }
    }
}

/// Float weights of one network, all tensors in one flat vector.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub arch: Architecture,
    pub layout: ParamLayout,
    pub params: Vec<f32>,
}

/// Per-thread scratch space for forward/backward, allocated once.
#[derive(Clone, Debug)]
pub struct Scratch {
    acc: [Vec<f32>; 2],
    act: [Vec<f32>; 2],
    grad_acc: [Vec<f32>; 2],
}

impl Scratch {
    pub fn new(arch: &Architecture) -> Self {
        let v = || vec![0.0; arch.l1];
        Self {
            acc: [v(), v()],
            act: [v(), v()],
            grad_acc: [v(), v()],
        }
    }
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl FloatNet {
    /// A network initialised from `seed`: small uniform feature weights, zero biases.
    pub fn new(arch: Architecture, seed: u64) -> Self {
        assert_eq!(
            arch.activation,
            Activation::SCReLU,
            "trainer implements SCReLU"
        );
        let layout = ParamLayout::of(&arch);
        let mut params = vec![0.0f32; layout.total];
        let mut state = seed ^ 0x5EED_0F5E_47E0_0001;
        let mut uniform = || {
            // splitmix64 → [-1, 1)
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (z >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        };
        let ft_scale = 1.0 / (32.0f32).sqrt();
        for p in &mut params[layout.ft_w..layout.ft_b] {
            *p = uniform() * ft_scale;
        }
        let out_scale = 1.0 / ((2 * arch.l1) as f32).sqrt();
        for p in &mut params[layout.out_w..layout.out_b] {
            *p = uniform() * out_scale;
        }
        Self {
            arch,
            layout,
            params,
        }
    }

    fn accumulate(&self, features: &[u32], acc: &mut [f32]) {
        let l1 = self.arch.l1;
        acc.copy_from_slice(&self.params[self.layout.ft_b..self.layout.ft_b + l1]);
        for &f in features {
            let row = self.layout.ft_w + f as usize * l1;
            for (a, w) in acc.iter_mut().zip(&self.params[row..row + l1]) {
                *a += w;
            }
        }
    }

    /// Raw network output (before the sigmoid) for one position; `output × eval_scale` is
    /// centipawns.
    pub fn forward(&self, stm: &[u32], nstm: &[u32], bucket: usize, scratch: &mut Scratch) -> f32 {
        let l1 = self.arch.l1;
        self.accumulate(stm, &mut scratch.acc[0]);
        self.accumulate(nstm, &mut scratch.acc[1]);
        let w = &self.params[self.layout.out_w + bucket * 2 * l1..][..2 * l1];
        let mut out = self.params[self.layout.out_b + bucket];
        for side in 0..2 {
            let (acc, act) = (&scratch.acc[side], &mut scratch.act[side]);
            let ws = &w[side * l1..(side + 1) * l1];
            for j in 0..l1 {
                let v = acc[j].clamp(0.0, 1.0);
                act[j] = v * v;
                out += act[j] * ws[j];
            }
        }
        out
    }

    /// Evaluation in centipawns.
    pub fn evaluate_cp(
        &self,
        stm: &[u32],
        nstm: &[u32],
        bucket: usize,
        scratch: &mut Scratch,
    ) -> f32 {
        self.forward(stm, nstm, bucket, scratch) * self.arch.eval_scale as f32
    }

    /// Loss of one position: (sigmoid(output) − target)².
    pub fn loss(
        &self,
        stm: &[u32],
        nstm: &[u32],
        bucket: usize,
        target: f32,
        scratch: &mut Scratch,
    ) -> f32 {
        let p = sigmoid(self.forward(stm, nstm, bucket, scratch));
        (p - target) * (p - target)
    }

    /// Adds the gradient of one position's loss to `grad` (same layout as `params`) and returns
    /// the loss.
    pub fn backward(
        &self,
        stm: &[u32],
        nstm: &[u32],
        bucket: usize,
        target: f32,
        grad: &mut [f32],
        scratch: &mut Scratch,
    ) -> f32 {
        let l1 = self.arch.l1;
        let out = self.forward(stm, nstm, bucket, scratch);
        let p = sigmoid(out);
        let loss = (p - target) * (p - target);
        let d_out = 2.0 * (p - target) * p * (1.0 - p);

        let w_start = self.layout.out_w + bucket * 2 * l1;
        grad[self.layout.out_b + bucket] += d_out;
        for side in 0..2 {
            let acc = &scratch.acc[side];
            let act = &scratch.act[side];
            let g_acc = &mut scratch.grad_acc[side];
            let w = &self.params[w_start + side * l1..w_start + (side + 1) * l1];
            let gw = &mut grad[w_start + side * l1..w_start + (side + 1) * l1];
            for j in 0..l1 {
                gw[j] += d_out * act[j];
                let a = acc[j];
                g_acc[j] = if a > 0.0 && a < 1.0 {
                    d_out * w[j] * 2.0 * a
                } else {
                    0.0
                };
            }
        }
        let (gb_start, gb_end) = (self.layout.ft_b, self.layout.ft_b + l1);
        for side in 0..2 {
            let g_acc = &scratch.grad_acc[side];
            for (g, d) in grad[gb_start..gb_end].iter_mut().zip(g_acc) {
                *g += d;
            }
            let features = if side == 0 { stm } else { nstm };
            for &f in features {
                let row = self.layout.ft_w + f as usize * l1;
                for (g, d) in grad[row..row + l1].iter_mut().zip(g_acc) {
                    *g += d;
                }
            }
        }
        loss
    }

    /// Mean loss over a batch.
    pub fn batch_loss(&self, batch: &Batch, scratch: &mut Scratch) -> f32 {
        if batch.is_empty() {
            return 0.0;
        }
        let mut total = 0.0f64;
        for i in 0..batch.len() {
            let (stm, nstm) = batch.features(i);
            total += self.loss(
                stm,
                nstm,
                batch.bucket[i] as usize,
                batch.target[i],
                scratch,
            ) as f64;
        }
        (total / batch.len() as f64) as f32
    }

    /// Clamps every weight into ±`WEIGHT_CLIP` (biases stay free).
    pub fn clip_weights(&mut self) {
        let l = self.layout;
        for range in [l.ft_w..l.ft_b, l.out_w..l.out_b] {
            for p in &mut self.params[range] {
                *p = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente::nnue::arch::CHESS;

    fn tiny() -> Architecture {
        Architecture {
            inputs: 6,
            king_buckets: 1,
            l1: 4,
            output_buckets: 2,
            ..CHESS
        }
    }

    #[test]
    fn gradients_match_finite_differences() {
        let mut net = FloatNet::new(tiny(), 3);
        // Lift the accumulators into the SCReLU's live range so every parameter matters.
        for p in &mut net.params[net.layout.ft_b..net.layout.out_w] {
            *p = 0.3;
        }
        let (stm, nstm) = ([0u32, 2, 5], [1u32, 3, 4]);
        let (bucket, target) = (1, 0.8);
        let mut scratch = Scratch::new(&net.arch);
        let mut grad = vec![0.0; net.layout.total];
        net.backward(&stm, &nstm, bucket, target, &mut grad, &mut scratch);
        let eps = 1e-3f32;
        let mut checked = 0;
        for (i, &analytic) in grad.iter().enumerate() {
            let mut plus = net.clone();
            plus.params[i] += eps;
            let mut minus = net.clone();
            minus.params[i] -= eps;
            let numeric = (plus.loss(&stm, &nstm, bucket, target, &mut scratch)
                - minus.loss(&stm, &nstm, bucket, target, &mut scratch))
                / (2.0 * eps);
            let tolerance = 2e-3 * numeric.abs().max(analytic.abs()) + 2e-5;
            assert!(
                (numeric - analytic).abs() <= tolerance,
                "param {i}: analytic {analytic} vs numeric {numeric}"
            );
            if analytic != 0.0 {
                checked += 1;
            }
        }
        assert!(checked > 20, "only {checked} non-zero gradients checked");
    }
}
