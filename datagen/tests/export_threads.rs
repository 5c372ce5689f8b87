//! `datagen export` on several threads writes the same bytes as on one, for every format, with
//! and without the seeded shuffle, whatever the block size; and those bytes are what the
//! formats' sequential writers (`export_game` into a `FormatWriter`) make of the same games.

mod common;

use common::{run_args, scratch_dir, strings, DATAGEN};
use sente::game::Game;
use sente_data::format_chess_records::{BinpackWriter, BulletWriter, ViriWriter};
use sente_data::format_kind::ForeignFormat;
use sente_data::format_shogi_records::ShogiRecordWriter;
use sente_data::format_text::TextWriter;
use sente_data::format_writer::{export_game, FormatWriter, RecordSink};
use sente_data::position_filter::PositionFilter;
use sente_data::read::read_games;
use std::path::{Path, PathBuf};

/// `datagen export` of `run` in `format` to `out`, with `extra` flags.
fn export(game: &str, format: &str, run: &Path, out: &Path, extra: &[&str]) -> Vec<u8> {
    let mut args = strings(&[
        "export",
        "--game",
        game,
        "--format",
        format,
        "--out",
        out.to_str().unwrap(),
    ]);
    args.extend(strings(extra));
    args.push(run.to_str().unwrap().to_string());
    DATAGEN.ok(&args);
    std::fs::read(out).unwrap()
}

/// A sequential writer (the `FormatWriter` of the format) of chess positions to `out`.
fn chess_writer(
    format: ForeignFormat,
    out: &Path,
    shuffle: usize,
    seed: u64,
) -> Box<dyn FormatWriter<sente::chess::Position>> {
    let sink = || RecordSink::create(out, shuffle, seed).unwrap();
    match format {
        ForeignFormat::Text => Box::new(TextWriter { sink: sink() }),
        ForeignFormat::Bulletformat => Box::new(BulletWriter { sink: sink() }),
        ForeignFormat::Viriformat => Box::new(ViriWriter::create(out).unwrap()),
        _ => Box::new(BinpackWriter {
            writer: sfbinpack::CompressedTrainingDataEntryWriter::new(
                std::fs::File::create(out).unwrap(),
            )
            .unwrap(),
            written: 0,
        }),
    }
}

/// A sequential writer of shogi positions to `out`.
fn shogi_writer(
    format: ForeignFormat,
    out: &Path,
    shuffle: usize,
    seed: u64,
) -> Box<dyn FormatWriter<sente::shogi::Position>> {
    let sink = RecordSink::create(out, shuffle, seed).unwrap();
    match format {
        ForeignFormat::Text => Box::new(TextWriter { sink }),
        _ => Box::new(ShogiRecordWriter { format, sink }),
    }
}

type MakeWriter<G> = fn(ForeignFormat, &Path, usize, u64) -> Box<dyn FormatWriter<G>>;

/// The bytes the sequential writer of `format` makes of the games of `run` (default filter).
fn reference<G: Game>(
    make: MakeWriter<G>,
    run: &Path,
    out: &Path,
    format: &str,
    shuffle: usize,
    seed: u64,
) -> Vec<u8> {
    let mut writer = make(format.parse().unwrap(), out, shuffle, seed);
    let filter = PositionFilter::default();
    read_games(&run.join("data.bin"), G::KIND, |_, record| {
        export_game::<G>(record, &filter, writer.as_mut()).unwrap();
    })
    .unwrap();
    writer.finish().unwrap();
    drop(writer);
    std::fs::read(out).unwrap()
}

fn check_game<G: Game>(make: MakeWriter<G>, game: &str, formats: &[&str], shuffled: &[&str]) {
    let dir = scratch_dir(&format!("export-threads-{game}"));
    let run: PathBuf = dir.join("run");
    DATAGEN.ok(&run_args(game, 24, &run));
    let out = |name: &str| dir.join(name);
    for format in formats {
        let one = export(game, format, &run, &out("one"), &["--threads", "1"]);
        assert!(!one.is_empty(), "{game} {format}");
        // Many small blocks, on two and three threads.
        for (threads, block) in [("2", "150"), ("3", "40"), ("2", "100000")] {
            let many = export(
                game,
                format,
                &run,
                &out("many"),
                &["--threads", threads, "--block-plies", block],
            );
            assert!(
                one == many,
                "{game} {format}: {threads} threads, blocks of {block} plies"
            );
        }
        let want = reference::<G>(make, &run, &out("reference"), format, 0, 1);
        assert!(
            one == want,
            "{game} {format}: not the sequential writer's bytes"
        );
    }
    for format in shuffled {
        let flags = ["--shuffle", "300", "--seed", "9"];
        let one = export(
            game,
            format,
            &run,
            &out("one"),
            &[&flags[..], &["--threads", "1"]].concat(),
        );
        let many = export(
            game,
            format,
            &run,
            &out("many"),
            &[&flags[..], &["--threads", "2", "--block-plies", "90"]].concat(),
        );
        assert!(one == many, "{game} {format} shuffled: 2 threads");
        let want = reference::<G>(make, &run, &out("reference"), format, 300, 9);
        assert!(
            one == want,
            "{game} {format} shuffled: not the sequential writer's bytes"
        );
        let plain = export(game, format, &run, &out("plain"), &["--threads", "2"]);
        assert!(one != plain, "{game} {format}: the shuffle changed nothing");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chess_export_is_the_same_on_any_number_of_threads() {
    check_game::<sente::chess::Position>(
        chess_writer,
        "chess",
        &["text", "bulletformat", "viriformat", "binpack"],
        &["text", "bulletformat"],
    );
}

#[test]
fn shogi_export_is_the_same_on_any_number_of_threads() {
    check_game::<sente::shogi::Position>(
        shogi_writer,
        "shogi",
        &["text", "psv", "hcpe"],
        &["text", "psv", "hcpe"],
    );
}
