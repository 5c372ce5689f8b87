//! Value parsers of the tuner's options: counts that must be at least 1, and the hidden widths and
//! king-bucket counts the engine supports.

use sente::nnue::Architecture;

/// Thread counts, batch sizes and the like: at least 1.
pub fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// Superbatch counts: at least 1.
pub fn at_least_one_u32(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// `--l1`: a hidden width the engine supports (`arch::SUPPORTED_L1`).
pub fn supported_l1(text: &str) -> Result<usize, String> {
    let l1 = text.parse::<usize>().map_err(|e| e.to_string())?;
    if !Architecture::is_supported_l1(l1) {
        return Err(format!(
            "not a supported hidden width (supported: {})",
            Architecture::supported_l1_text()
        ));
    }
    Ok(l1)
}

/// `--king-buckets`: a king-bucket count the engine supports (`arch::SUPPORTED_KING_BUCKETS`).
pub fn supported_king_buckets(text: &str) -> Result<usize, String> {
    let buckets = text.parse::<usize>().map_err(|e| e.to_string())?;
    if !Architecture::is_supported_king_buckets(buckets) {
        return Err(format!(
            "not a supported king-bucket count (supported: {:?})",
            sente::nnue::arch::SUPPORTED_KING_BUCKETS
        ));
    }
    Ok(buckets)
}
