//! Training checkpoints: float weights, optimiser state, progress through the data and the loss
//! history, written atomically (temporary file, fsync, rename) so a killed run resumes from the
//! last complete one, and checksummed (FNV-1a 64 of the encoded checkpoint, stored after it) so a
//! damaged one is refused instead of resuming into a different net.

use crate::data::StreamPosition;
use anyhow::{bail, Context, Result};
use bincode::{Decode, Encode};
use std::io::Write;
use std::path::Path;

/// Magic of the current format: the bincode encoding followed by its 8-byte checksum.
const MAGIC: &str = "sente-tuner-checkpoint-v2";
/// Magic of the first format, which had no checksum (still read).
const MAGIC_V1: &str = "sente-tuner-checkpoint-v1";
/// Bytes of the checksum after the encoded checkpoint.
const CHECKSUM_LEN: usize = 8;

/// One point of the training curves.
#[derive(Clone, Copy, Debug, PartialEq, Encode, Decode)]
pub struct CurvePoint {
    pub superbatch: u32,
    pub step: u64,
    pub train_loss: f32,
    /// NaN when there is no validation set.
    pub val_loss: f32,
    pub lr: f32,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct Checkpoint {
    pub magic: String,
    /// Game name and architecture description; a resume must match both.
    pub game: String,
    pub arch: String,
    /// Settings that must not change on resume (data, batch size, schedule, λ, seed ...).
    pub settings: String,
    pub params: Vec<f32>,
    pub adam_m: Vec<f32>,
    pub adam_v: Vec<f32>,
    pub adam_step: u64,
    /// Superbatches completed.
    pub superbatch: u32,
    pub stream: StreamPosition,
    pub curve: Vec<CurvePoint>,
}

impl Checkpoint {
    pub fn new_magic() -> String {
        MAGIC.to_string()
    }

    /// Writes atomically: `path` either keeps its old content or gets the complete new one. On
    /// failure the temporary file is removed and the error names the file.
    pub fn save(&self, path: &Path) -> Result<()> {
        let mut bytes = bincode::encode_to_vec(self, bincode::config::standard())?;
        let sum = sente::nnue::format::fnv1a64(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        let tmp = path.with_extension("tmp");
        let written = (|| -> Result<()> {
            let mut file = std::fs::File::create(&tmp)
                .with_context(|| format!("creating {}", tmp.display()))?;
            file.write_all(&bytes)
                .and_then(|()| file.sync_all())
                .with_context(|| format!("writing {}", tmp.display()))?;
            std::fs::rename(&tmp, path)
                .with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }

    /// Reads a checkpoint, refusing a damaged one (checksum mismatch) or anything else.
    pub fn load(path: &Path) -> Result<Self> {
        sente_data::file::check_regular_file(path)?;
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        Self::from_bytes(&bytes).with_context(|| format!("loading {}", path.display()))
    }

    /// Decodes a checkpoint file's bytes (see `load`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let decode = |body: &[u8]| {
            bincode::decode_from_slice::<Checkpoint, _>(body, bincode::config::standard())
                .ok()
                .filter(|(_, used)| *used == body.len())
                .map(|(checkpoint, _)| checkpoint)
        };
        if bytes.len() >= CHECKSUM_LEN {
            let (body, sum) = bytes.split_at(bytes.len() - CHECKSUM_LEN);
            let sum = u64::from_le_bytes(sum.try_into().expect("8 bytes"));
            if sente::nnue::format::fnv1a64(body) == sum {
                return match decode(body) {
                    Some(checkpoint) if checkpoint.magic == MAGIC => Ok(checkpoint),
                    _ => bail!("not a tuner checkpoint of this version"),
                };
            }
        }
        // The first format had no checksum.
        if let Some(checkpoint) = decode(bytes).filter(|c| c.magic == MAGIC_V1) {
            return Ok(checkpoint);
        }
        if bytes
            .windows(MAGIC.len())
            .take(16)
            .any(|w| w == MAGIC.as_bytes())
        {
            bail!("the checkpoint is damaged (checksum mismatch); resume from another copy or start afresh");
        }
        bail!("not a tuner checkpoint")
    }
}
