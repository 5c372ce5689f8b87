//! Float network → the engine's quantized net file, with a report of clipped weights and a check
//! of the quantized net against the float one.

use crate::model::FloatNet;
use sente::nnue::format::write_net;

/// What quantization did.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantizeReport {
    /// Values that did not fit their integer type and were clamped.
    pub clipped: usize,
    pub total: usize,
    /// Output buckets whose activated sum could wrap `i32` in the engine's kernels at the worst
    /// (every activation saturated at QA, every weight's sign lined up): `QA² · Σ|w| > i32::MAX`.
    /// Wide nets with large output weights only; trained nets stay far from the worst case, but
    /// a non-zero count deserves a look (`tuner eval` of the net against its checkpoint).
    pub overflow_risk_buckets: usize,
}

impl QuantizeReport {
    /// A warning line when `overflow_risk_buckets` is not zero.
    pub fn warning(&self) -> Option<String> {
        (self.overflow_risk_buckets > 0).then(|| {
            format!(
                "warning: {} output bucket(s) could overflow the engine's i32 output sum in the \
                 worst case (all activations saturated); compare `tuner eval` of the net and \
                 of its checkpoint",
                self.overflow_risk_buckets
            )
        })
    }
}

/// Output buckets whose worst-case activated sum, `QA² · Σ|w|` over both halves, exceeds `i32`.
fn overflow_risk_buckets(out_w: &[i16], l1: usize, qa: i32) -> usize {
    out_w
        .chunks_exact(2 * l1)
        .filter(|weights| {
            let worst: i64 =
                weights.iter().map(|&w| (w as i64).abs()).sum::<i64>() * (qa as i64 * qa as i64);
            worst > i32::MAX as i64
        })
        .count()
}

fn quantize_i16(values: &[f32], scale: f32, limit: i16, clipped: &mut usize) -> Vec<i16> {
    values
        .iter()
        .map(|&v| {
            let q = (v * scale).round();
            if q > limit as f32 || q < -(limit as f32) {
                *clipped += 1;
            }
            q.clamp(-(limit as f32), limit as f32) as i16
        })
        .collect()
}

/// Quantizes `net` into net-file bytes named `name`: feature weights (factors folded in) and
/// biases × QA (i16),
/// output weights × QB (i16, at most ±127 so the SCReLU kernel's i16 products cannot overflow),
/// output bias × QA·QB (i32).
pub fn quantize(net: &FloatNet, name: &str) -> (Vec<u8>, QuantizeReport) {
    let arch = &net.arch;
    let l = net.layout;
    let p = &net.params;
    let (qa, qb) = (arch.qa as f32, arch.qb as f32);
    let mut clipped = 0;
    let ft_w = quantize_i16(&net.folded_feature_weights(), qa, i16::MAX, &mut clipped);
    let ft_b = quantize_i16(&p[l.ft_b..l.out_w], qa, i16::MAX, &mut clipped);
    let out_limit = (i16::MAX as i32 / arch.qa) as i16;
    let out_w = quantize_i16(&p[l.out_w..l.out_b], qb, out_limit, &mut clipped);
    let out_b: Vec<i32> = p[l.out_b..l.total]
        .iter()
        .map(|&b| (b * qa * qb).round() as i32)
        .collect();
    let overflow_risk_buckets = overflow_risk_buckets(&out_w, arch.l1, arch.qa);
    // The header records the trained architecture, width included.
    let bytes = write_net(arch, name, &ft_w, &ft_b, &out_w, &out_b);
    (
        bytes,
        QuantizeReport {
            clipped,
            total: l.total,
            overflow_risk_buckets,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worst_case_output_sum_is_checked_per_bucket() {
        let l1 = 256;
        // 512 weights of 64: 255² · 32768 < 2³¹ − 1; of 127: beyond.
        let mut weights = vec![64i16; 2 * l1];
        weights.extend(vec![-127i16; 2 * l1]);
        assert_eq!(overflow_risk_buckets(&weights, l1, 255), 1);
        assert_eq!(overflow_risk_buckets(&weights[..2 * l1], l1, 255), 0);
    }
}
