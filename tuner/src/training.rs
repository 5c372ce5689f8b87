//! A training run: superbatches of batches from the data stream, AdamW steps, validation,
//! checkpoints every few superbatches, plots, and the final quantized net.

use crate::adamw::AdamW;
use crate::batch::Batch;
use crate::checkpoint::{Checkpoint, CurvePoint};
use crate::data::{validation_set, BatchStream, Filter, RecordAccess, StreamPosition, TargetBlend};
use crate::init_net::initial_net;
use crate::model::{FloatNet, Scratch, WEIGHT_CLIP};
use crate::plot::plot_curves;
use crate::quantize::quantize;
use crate::record_set::{RecordRef, RecordSet, RecordView};
use crate::schedule::LrSchedule;
use crate::trainer::Trainer;
use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use sente::nnue::arch::{SUPPORTED_KING_BUCKETS, SUPPORTED_L1};
use sente::nnue::{Architecture, NnueGame};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Everything a training run is configured with.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub data: Vec<PathBuf>,
    pub val: Vec<PathBuf>,
    /// Every `val_every`-th game of `data` is held out for validation (0: none).
    pub val_every: usize,
    pub superbatches: u32,
    pub batches_per_superbatch: u32,
    pub batch_size: usize,
    pub schedule: LrSchedule,
    pub lambda: f32,
    pub weight_decay: f32,
    pub threads: usize,
    pub seed: u64,
    pub out: PathBuf,
    pub save_every: u32,
    pub filter: Filter,
    pub name: String,
    /// Train with the game's factor features (`NnueGame::factor_of`).
    pub factors: bool,
    /// Hidden width of the net (`tuner train --l1`): the game's default (`NnueGame::ARCH.l1`)
    /// or another of `arch::SUPPORTED_L1`. The checkpoint records the architecture; a resume
    /// must ask for the same width.
    pub l1: usize,
    /// King buckets of the net (`tuner train --king-buckets`): the game's default
    /// (`NnueGame::ARCH.king_buckets`, 1) or another of `arch::SUPPORTED_KING_BUCKETS`. Like the
    /// width, the checkpoint records it.
    pub king_buckets: usize,
    /// Start from this net file's weights (`tuner train --init`, fine-tuning) instead of random
    /// ones; a resumed run continues from its checkpoint.
    pub init: Option<PathBuf>,
}

impl TrainConfig {
    /// The architecture this run trains: game `G`'s at width `l1` with `king_buckets` buckets,
    /// or an error naming the supported ones.
    pub fn arch<G: NnueGame>(&self) -> Result<Architecture> {
        let arch = G::ARCH
            .with_l1(self.l1)
            .with_king_buckets(self.king_buckets);
        if !Architecture::is_supported_l1(self.l1) {
            bail!(
                "--l1 {}: not a supported hidden width (supported: {})",
                self.l1,
                Architecture::supported_l1_text()
            );
        }
        if !Architecture::is_supported_king_buckets(self.king_buckets) {
            bail!(
                "--king-buckets {}: not a supported bucket count (supported: {:?})",
                self.king_buckets,
                SUPPORTED_KING_BUCKETS
            );
        }
        Ok(arch)
    }

    /// The settings a resumed run must share with the one that wrote the checkpoint; a run
    /// started from a net (`init_checksum`, the file's FNV-1a) names it, so that a resume cannot
    /// mix starting points (runs without one keep their earlier fingerprint).
    fn fingerprint(&self, init_checksum: Option<u64>) -> String {
        let init = init_checksum.map_or(String::new(), |sum| format!(" init={sum:016x}"));
        format!(
            "data={:?} val_every={} factors={} batches={} batch={} schedule={:?} lambda={} wd={} seed={} filter={:?}",
            self.data,
            self.val_every,
            self.factors,
            self.batches_per_superbatch,
            self.batch_size,
            self.schedule,
            self.lambda,
            self.weight_decay,
            self.seed,
            self.filter
        ) + &init
    }
}

/// Mean loss of `net` over `batch`, in parallel (fixed chunks, summed in order).
pub fn mean_loss(net: &FloatNet, batch: &Batch) -> f32 {
    if batch.is_empty() {
        return f32::NAN;
    }
    let chunk = 4096;
    let starts: Vec<usize> = (0..batch.len()).step_by(chunk).collect();
    let sums: Vec<f64> = starts
        .par_iter()
        .map(|&start| {
            let mut scratch = Scratch::new(&net.arch);
            (start..(start + chunk).min(batch.len()))
                .map(|i| {
                    let (s, n, bucket, target) = batch.position(i);
                    net.loss(s, n, bucket, target, &mut scratch) as f64
                })
                .sum()
        })
        .collect();
    (sums.iter().sum::<f64>() / batch.len() as f64) as f32
}

/// Splits off every `every`-th record (indices every-1, 2·every-1, …) as validation records.
pub fn split_validation(refs: Vec<RecordRef>, every: usize) -> (Vec<RecordRef>, Vec<RecordRef>) {
    if every == 0 {
        return (refs, Vec::new());
    }
    let (val, train): (Vec<_>, Vec<_>) = refs
        .into_iter()
        .enumerate()
        .partition(|(i, _)| (i + 1) % every == 0);
    let strip = |v: Vec<(usize, RecordRef)>| v.into_iter().map(|(_, r)| r).collect();
    (strip(train), strip(val))
}

/// Paths inside the output directory.
pub fn checkpoint_path(out: &Path) -> PathBuf {
    out.join("checkpoint.bin")
}

pub fn net_path(out: &Path, name: &str) -> PathBuf {
    out.join(format!("{name}.nnue"))
}

/// Runs (or resumes, from `resume` or `OUT/checkpoint.bin` when present) a training run.
pub fn train<G: NnueGame>(config: &TrainConfig, resume: Option<&Path>) -> Result<Checkpoint> {
    let arch = config.arch::<G>()?;
    std::fs::create_dir_all(&config.out)
        .with_context(|| format!("creating {}", config.out.display()))?;
    let mut records = RecordSet::default();
    let data = records.add_files::<G>(&config.data)?;
    let (train_refs, held_out) = split_validation(data, config.val_every);
    let mut val_refs = records.add_files::<G>(&config.val)?;
    val_refs.extend(held_out);
    let games = RecordView {
        set: &records,
        refs: train_refs,
    };
    let val_games = RecordView {
        set: &records,
        refs: val_refs,
    };
    if games.count() == 0 {
        bail!("no games in {:?}", config.data);
    }
    let blend = TargetBlend {
        lambda: config.lambda,
        eval_scale: arch.eval_scale as f32,
    };
    sente::eprintln_best_effort!(
        "tuner: {} training games, {} validation games; {} net, l1 {}, {} king bucket(s)",
        games.count(),
        val_games.count(),
        G::NAME,
        arch.l1,
        arch.king_buckets
    );
    let val = validation_set::<G>(
        &val_games,
        &config.filter,
        &blend,
        arch.king_buckets,
        200_000,
    );

    let init = match &config.init {
        Some(path) => {
            let start = initial_net::<G>(path, &arch, config.factors)?;
            sente::eprintln_best_effort!(
                "tuner: starting from {} ({} weights beyond the clip ±{WEIGHT_CLIP} clamped)",
                path.display(),
                start.clamped
            );
            Some(start)
        }
        None => None,
    };
    let fingerprint = config.fingerprint(init.as_ref().map(|start| start.checksum));
    let own_checkpoint = checkpoint_path(&config.out);
    let resume_from = resume
        .map(Path::to_path_buf)
        .or_else(|| own_checkpoint.exists().then(|| own_checkpoint.clone()));
    let (net, optimizer, mut state) = match &resume_from {
        Some(path) => {
            let cp = Checkpoint::load(path)?;
            if cp.game == G::NAME && cp.arch != arch.to_string() {
                if let Some(trained) = checkpoint_arch::<G>(&cp) {
                    if trained.king_buckets == arch.king_buckets {
                        bail!(
                            "{} holds a run of a {} net {} wide (--l1 {}), not {} (--l1 {}): \
                             resume with --l1 {}, or train the new width into another --out \
                             directory",
                            path.display(),
                            G::NAME,
                            trained.l1,
                            trained.l1,
                            arch.l1,
                            arch.l1,
                            trained.l1
                        );
                    }
                    bail!(
                        "{} holds a run of a {} net with {} king bucket(s) (--king-buckets {}), \
                         not {}: resume with --king-buckets {} --l1 {}, or train the new net \
                         into another --out directory",
                        path.display(),
                        G::NAME,
                        trained.king_buckets,
                        trained.king_buckets,
                        arch.king_buckets,
                        trained.king_buckets,
                        trained.l1
                    );
                }
            }
            if cp.game != G::NAME || cp.arch != arch.to_string() {
                bail!(
                    "{} holds a {} {} run, not {} {}",
                    path.display(),
                    cp.game,
                    cp.arch,
                    G::NAME,
                    arch
                );
            }
            if cp.settings != fingerprint {
                bail!(
                    "{} was written with other settings:\n  {}\nnow:\n  {}",
                    path.display(),
                    cp.settings,
                    fingerprint
                );
            }
            let mut net = FloatNet::for_game::<G>(arch, config.factors, config.seed);
            net.params.clone_from(&cp.params);
            let mut opt = AdamW::new(net.layout.total, config.weight_decay);
            opt.m.clone_from(&cp.adam_m);
            opt.v.clone_from(&cp.adam_v);
            opt.step = cp.adam_step;
            sente::eprintln_best_effort!(
                "tuner: resuming from {} at superbatch {}",
                path.display(),
                cp.superbatch
            );
            (net, opt, cp)
        }
        None => {
            let net = match init {
                Some(start) => start.net,
                None => FloatNet::for_game::<G>(arch, config.factors, config.seed),
            };
            let opt = AdamW::new(net.layout.total, config.weight_decay);
            let cp = Checkpoint {
                magic: Checkpoint::new_magic(),
                game: G::NAME.to_string(),
                arch: arch.to_string(),
                settings: fingerprint.clone(),
                params: Vec::new(),
                adam_m: Vec::new(),
                adam_v: Vec::new(),
                adam_step: 0,
                superbatch: 0,
                stream: StreamPosition::default(),
                curve: Vec::new(),
            };
            (net, opt, cp)
        }
    };
    let mut trainer = Trainer::new(net, optimizer, config.threads);
    let mut stream = BatchStream::<G, _>::new(
        &games,
        config.filter,
        blend,
        arch.king_buckets,
        config.seed,
        state.stream,
    );
    let mut batch = Batch::new();

    let total_batches = config.superbatches as u64 * config.batches_per_superbatch as u64;
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(total_batches);
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} batches {msg} ETA {eta}")
                .expect("valid template"),
        );
        bar.set_position(state.superbatch as u64 * config.batches_per_superbatch as u64);
        bar
    });
    let started = Instant::now();
    let mut positions = 0u64;
    let mut train_seconds = 0.0f64;
    while state.superbatch < config.superbatches {
        let lr = config.schedule.rate(state.superbatch, config.superbatches);
        stream.discard_pool();
        let mut loss_sum = 0.0f64;
        for _ in 0..config.batches_per_superbatch {
            if !stream.next_batch(&mut batch, config.batch_size) {
                bail!("the data holds no usable position (check the filter)");
            }
            let t = Instant::now();
            loss_sum += trainer.step(&batch, lr) as f64;
            train_seconds += t.elapsed().as_secs_f64();
            positions += batch.len() as u64;
            if let Some(bar) = &bar {
                bar.inc(1);
                bar.set_message(format!(
                    "{:.0} pos/s",
                    positions as f64 / started.elapsed().as_secs_f64()
                ));
            }
        }
        state.superbatch += 1;
        let train_loss = (loss_sum / config.batches_per_superbatch as f64) as f32;
        let val_loss = mean_loss(&trainer.net, &val);
        state.curve.push(CurvePoint {
            superbatch: state.superbatch,
            step: trainer.optimizer.step,
            train_loss,
            val_loss,
            lr,
        });
        let val_text = if val.is_empty() {
            "n/a".to_string()
        } else {
            format!("{val_loss:.6}")
        };
        let line = format!(
            "superbatch {}/{}: train loss {train_loss:.6}, val loss {val_text}, lr {lr:.2e}, {:.0} positions/s (training step {:.0}/s)",
            state.superbatch,
            config.superbatches,
            positions as f64 / started.elapsed().as_secs_f64(),
            positions as f64 / train_seconds.max(1e-9)
        );
        match &bar {
            Some(bar) => bar.println(line),
            None => sente::eprintln_best_effort!("tuner: {line}"),
        }
        state.stream = stream.position();
        if state.superbatch % config.save_every.max(1) == 0
            || state.superbatch == config.superbatches
        {
            state.params.clone_from(&trainer.net.params);
            state.adam_m.clone_from(&trainer.optimizer.m);
            state.adam_v.clone_from(&trainer.optimizer.v);
            state.adam_step = trainer.optimizer.step;
            state.save(&own_checkpoint)?;
            // Plots are a convenience: failing to draw them does not stop the run.
            if let Err(e) = plot_curves(&config.out, &state.curve, &config.name) {
                let warning = format!(
                    "tuner: warning: could not draw the plots in {}: {e:#}; training goes on",
                    config.out.display()
                );
                match &bar {
                    Some(bar) => bar.println(warning),
                    None => sente::eprintln_best_effort!("{warning}"),
                }
            }
        }
    }
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let (bytes, report) = quantize(&trainer.net, &config.name);
    let path = net_path(&config.out, &config.name);
    std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
    sente::eprintln_best_effort!(
        "tuner: wrote {} (l1 {}, {} king bucket(s); {} of {} weights clipped in quantization)",
        path.display(),
        arch.l1,
        arch.king_buckets,
        report.clipped,
        report.total
    );
    if let Some(warning) = report.warning() {
        sente::eprintln_best_effort!("tuner: {warning}");
    }
    Ok(state)
}

/// The architecture a checkpoint of game `G` was trained with: `G::ARCH` or the width and
/// king-bucket variant whose description it records; `None` for another game or architecture.
pub fn checkpoint_arch<G: NnueGame>(cp: &Checkpoint) -> Option<Architecture> {
    if cp.game != G::NAME {
        return None;
    }
    std::iter::once(G::ARCH.l1)
        .chain(SUPPORTED_L1.iter().copied())
        .flat_map(|l1| {
            SUPPORTED_KING_BUCKETS
                .iter()
                .map(move |&buckets| G::ARCH.with_l1(l1).with_king_buckets(buckets))
        })
        .find(|arch| cp.arch == arch.to_string())
}

/// Rebuilds the float network saved in a checkpoint, at the width it was trained with.
pub fn net_from_checkpoint<G: NnueGame>(cp: &Checkpoint) -> Result<FloatNet> {
    let Some(arch) = checkpoint_arch::<G>(cp) else {
        bail!(
            "checkpoint holds a {} {} net, not a {} net of a supported width ({})",
            cp.game,
            cp.arch,
            G::NAME,
            Architecture::supported_l1_text()
        );
    };
    // A checkpoint trained with factors has the factor rows too.
    let plain = FloatNet::for_game::<G>(arch, false, 0);
    let factored = FloatNet::for_game::<G>(arch, true, 0);
    let factored_total = factored.layout.total;
    let mut net = if cp.params.len() == factored_total {
        factored
    } else {
        plain
    };
    if cp.params.len() != net.layout.total {
        bail!(
            "checkpoint has {} weights, the architecture {} (or {} with factors)",
            cp.params.len(),
            net.layout.total,
            factored_total
        );
    }
    net.params.clone_from(&cp.params);
    Ok(net)
}
