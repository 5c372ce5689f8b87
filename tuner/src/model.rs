//! The float network the trainer optimises: the same layers as the engine's quantized net (sparse
//! feature transformer → SCReLU on both perspectives → one output per bucket), with a sparse
//! forward/backward pass that touches only the rows of active features.

use crate::batch::Batch;
use sente::nnue::{Activation, Architecture, NnueGame};

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
    /// The layout without factor rows.
    pub fn of(arch: &Architecture) -> Self {
        Self::with_factors(arch, 0)
    }

    /// The layout with `factors` training-only factor rows after the real feature rows.
    pub fn with_factors(arch: &Architecture, factors: usize) -> Self {
        let ft_w = 0;
        let ft_b = ft_w + (arch.feature_rows() + factors) * arch.l1;
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
///
/// With factors (`NnueGame::factor_of`), the feature-transformer matrix has extra rows after
/// the real ones: a real feature `f` contributes row `f` plus factor row
/// `feature_rows + factor_of[f]`, so what features share is learnt from all of their data.
/// `folded_feature_weights` adds the factor rows into the real ones for the engine's net.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub arch: Architecture,
    pub layout: ParamLayout,
    pub params: Vec<f32>,
    /// Factor of each real feature row; empty without factors.
    pub factor_of: Vec<u32>,
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
    /// A network without factors initialised from `seed`: small uniform feature weights, zero
    /// biases.
    pub fn new(arch: Architecture, seed: u64) -> Self {
        Self::with_factors(arch, Vec::new(), 0, seed)
    }

    /// The network of game `G` with architecture `arch` (`G::ARCH` or one of its width
    /// variants, `Architecture::check_variant`), with the game's factors when `factors` is set.
    pub fn for_game<G: NnueGame>(arch: Architecture, factors: bool, seed: u64) -> Self {
        if let Err(detail) = G::ARCH.check_variant(&arch) {
            panic!("not a {} architecture: {detail}", G::NAME);
        }
        if !factors {
            return Self::new(arch, seed);
        }
        let map = (0..arch.feature_rows() as u32).map(G::factor_of).collect();
        Self::with_factors(arch, map, G::FACTORS, seed)
    }

    /// A network with `factors` factor rows (zero at the start), `factor_of` mapping each real
    /// feature row to its factor.
    pub fn with_factors(
        arch: Architecture,
        factor_of: Vec<u32>,
        factors: usize,
        seed: u64,
    ) -> Self {
        assert!(factor_of.is_empty() || factor_of.len() == arch.feature_rows());
        assert!(factor_of.iter().all(|&f| (f as usize) < factors));
        assert_eq!(
            arch.activation,
            Activation::SCReLU,
            "trainer implements SCReLU"
        );
        let layout = ParamLayout::with_factors(&arch, factors);
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
        let real_end = layout.ft_w + arch.feature_rows() * arch.l1;
        for p in &mut params[layout.ft_w..real_end] {
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
            factor_of,
        }
    }

    /// Calls `visit(row start)` for each weight row a feature list touches: the features' own
    /// rows and, with factors, their factor rows.
    #[inline(always)]
    fn for_each_row(&self, features: &[u32], mut visit: impl FnMut(usize)) {
        let l1 = self.arch.l1;
        for &f in features {
            visit(self.layout.ft_w + f as usize * l1);
        }
        if !self.factor_of.is_empty() {
            let base = self.arch.feature_rows();
            for &f in features {
                let factor = base + self.factor_of[f as usize] as usize;
                visit(self.layout.ft_w + factor * l1);
            }
        }
    }

    fn accumulate(&self, features: &[u32], acc: &mut [f32]) {
        let l1 = self.arch.l1;
        acc.copy_from_slice(&self.params[self.layout.ft_b..self.layout.ft_b + l1]);
        self.for_each_row(features, |row| {
            for (a, w) in acc.iter_mut().zip(&self.params[row..row + l1]) {
                *a += w;
            }
        });
    }

    /// The real feature rows' weights with their factor rows added: what the engine's net holds.
    pub fn folded_feature_weights(&self) -> Vec<f32> {
        let l1 = self.arch.l1;
        let rows = self.arch.feature_rows();
        let mut out = self.params[self.layout.ft_w..self.layout.ft_w + rows * l1].to_vec();
        if !self.factor_of.is_empty() {
            for (f, row) in out.chunks_exact_mut(l1).enumerate() {
                let factor = self.layout.ft_w + (rows + self.factor_of[f] as usize) * l1;
                for (w, add) in row.iter_mut().zip(&self.params[factor..factor + l1]) {
                    *w += add;
                }
            }
        }
        out
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
            self.for_each_row(features, |row| {
                for (g, d) in grad[row..row + l1].iter_mut().zip(g_acc) {
                    *g += d;
                }
            });
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
            let (stm, nstm, bucket, target) = batch.position(i);
            total += self.loss(stm, nstm, bucket, target, scratch) as f64;
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

    /// The tiny net with factors: features 0–2 share factor 0, features 3–5 factor 1. Factor
    /// rows start at zero; the `i`-th factor weight is set to `factor_weight(i)` so they matter.
    fn tiny_factored(seed: u64, factor_weight: impl Fn(f32) -> f32) -> FloatNet {
        let mut net = FloatNet::with_factors(tiny(), vec![0, 0, 0, 1, 1, 1], 2, seed);
        let rows = factor_rows(&net);
        for (i, p) in net.params[rows].iter_mut().enumerate() {
            *p = factor_weight(i as f32);
        }
        net
    }

    /// Where a tiny net's factor rows are among its parameters (after the feature rows).
    fn factor_rows(net: &FloatNet) -> std::ops::Range<usize> {
        net.layout.ft_w + tiny().feature_rows() * tiny().l1..net.layout.ft_b
    }

    #[test]
    fn gradients_match_finite_differences() {
        check_gradients(FloatNet::new(tiny(), 3));
    }

    #[test]
    fn gradients_match_finite_differences_with_factors() {
        check_gradients(tiny_factored(5, |i| 0.05 * (i - 3.0)));
    }

    #[test]
    fn folded_weights_evaluate_like_the_factored_net() {
        let mut factored = tiny_factored(9, |i| 0.1 - 0.03 * i);
        for p in &mut factored.params[factored.layout.ft_b..factored.layout.out_w] {
            *p = 0.3;
        }
        let mut plain = FloatNet::new(tiny(), 0);
        let folded = factored.folded_feature_weights();
        let rows = folded.len();
        plain.params[..rows].copy_from_slice(&folded);
        let (plain_ft_b, factored_ft_b) = (plain.layout.ft_b, factored.layout.ft_b);
        plain.params[plain_ft_b..].copy_from_slice(&factored.params[factored_ft_b..]);
        let mut scratch = Scratch::new(&tiny());
        for (stm, nstm) in [([0u32, 2, 5], [1u32, 3, 4]), ([1, 4, 5], [0, 2, 3])] {
            for bucket in 0..2 {
                let a = factored.forward(&stm, &nstm, bucket, &mut scratch);
                let b = plain.forward(&stm, &nstm, bucket, &mut scratch);
                assert!((a - b).abs() < 1e-5, "{a} vs {b}");
            }
        }
        // The factors really change the output (the check above is not vacuous).
        let mut no_factors = factored.clone();
        let rows = factor_rows(&no_factors);
        no_factors.params[rows].fill(0.0);
        let with = factored.forward(&[0, 2, 5], &[1, 3, 4], 0, &mut scratch);
        let without = no_factors.forward(&[0, 2, 5], &[1, 3, 4], 0, &mut scratch);
        assert!((with - without).abs() > 1e-3);
    }

    fn check_gradients(mut net: FloatNet) {
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
