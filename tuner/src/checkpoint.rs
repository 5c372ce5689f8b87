//! Training checkpoints: float weights, optimiser state, progress through the data and the loss
//! history, written atomically (temporary file, fsync, rename) so a killed run resumes from the
//! last complete one.

use crate::data::StreamPosition;
use anyhow::{bail, Context, Result};
use bincode::{Decode, Encode};
use std::io::Write;
use std::path::Path;

const MAGIC: &str = "sente-tuner-checkpoint-v1";

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

    /// Writes atomically: `path` either keeps its old content or gets the complete new one.
    pub fn save(&self, path: &Path) -> Result<()> {
        let bytes = bincode::encode_to_vec(self, bincode::config::standard())?;
        let tmp = path.with_extension("tmp");
        {
            let mut file = std::fs::File::create(&tmp)
                .with_context(|| format!("creating {}", tmp.display()))?;
            file.write_all(&bytes)?;
            file.sync_all()?;
        }
        std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
        Ok(())
    }

    pub fn load(path: &Path) -> Result<Self> {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let (checkpoint, _): (Checkpoint, usize) =
            bincode::decode_from_slice(&bytes, bincode::config::standard())
                .with_context(|| format!("{} is not a tuner checkpoint", path.display()))?;
        if checkpoint.magic != MAGIC {
            bail!(
                "{} is not a tuner checkpoint of this version",
                path.display()
            );
        }
        Ok(checkpoint)
    }
}
