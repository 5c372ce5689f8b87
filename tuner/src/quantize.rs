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
    let bytes = write_net(arch, name, &ft_w, &ft_b, &out_w, &out_b);
    (
        bytes,
        QuantizeReport {
            clipped,
            total: l.total,
        },
    )
}
