//! Training throughput (positions/s) of the default chess and shogi architectures on 1 and 2
//! threads, with and without factor features (training's default is with), on synthetic
//! positions with realistic active-feature counts. `cargo bench -p tuner`.

use sente::nnue::{Architecture, NnueGame};
use sente::xorshift::xorshift64;
use std::time::Instant;
use tuner::adamw::AdamW;
use tuner::batch::Batch;
use tuner::model::FloatNet;
use tuner::trainer::Trainer;

fn synthetic(arch: &Architecture, count: usize, active: usize) -> Batch {
    let mut next = xorshift64(0x1234_5678_9abc_def0);
    let mut batch = Batch::new();
    let rows = arch.feature_rows() as u64;
    for _ in 0..count {
        let stm: Vec<u32> = (0..active).map(|_| (next() % rows) as u32).collect();
        let nstm: Vec<u32> = (0..active).map(|_| (next() % rows) as u32).collect();
        batch.push(
            &stm,
            &nstm,
            (next() % arch.output_buckets as u64) as u8,
            (next() % 1000) as f32 / 1000.0,
        );
    }
    batch
}

fn measure<G: NnueGame>(name: &str, active: usize, threads: usize, factors: bool) {
    let arch = G::ARCH;
    let batch_size = 16384;
    let batch = synthetic(&arch, batch_size, active);
    let net = FloatNet::for_game::<G>(arch, factors, 1);
    let params = net.layout.total;
    let mut trainer = Trainer::new(net, AdamW::new(params, 0.01), threads);
    trainer.step(&batch, 0.001);
    let steps = 20;
    let start = Instant::now();
    for _ in 0..steps {
        trainer.step(&batch, 0.001);
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{name:<6} {:<10} {threads} thread(s): {:>9.0} positions/s ({} active features per side, batch {batch_size}, {:.1} ms/step)",
        if factors { "factors" } else { "no factors" },
        (steps * batch_size) as f64 / seconds,
        active,
        1000.0 * seconds / steps as f64
    );
}

fn main() {
    for factors in [true, false] {
        for threads in [1, 2] {
            measure::<sente::chess::Position>("chess", 30, threads, factors);
            measure::<sente::shogi::Position>("shogi", 50, threads, factors);
        }
    }
}
