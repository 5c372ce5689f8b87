//! Damaged `.binpack` payloads: the checked chunk decoder reads exactly what
//! `sfbinpack::parse_chunk` reads from intact chunks, and seeded corruptions of the payload
//! bytes (behind a valid header) give an error naming the file and a byte offset, never a panic,
//! while `sfbinpack` itself panics on some of them.

use sente::chess::Position;
use sente::game::Game;
use sente::game::{GameKind, GameMove};
use sente::movelist::MoveList;
use sente_data::binpack_chunk::decode_binpack_chunk;
use sente_data::format_chess_records::BinpackWriter;
use sente_data::format_kind::ForeignFormat;
use sente_data::format_reader::read_foreign;
use sente_data::format_writer::export_game;
use sente_data::position_filter::PositionFilter;
use sente_data::stored_game::StoredGame;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

/// A splitmix64 stream: the seeds of the games and of the corruptions.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A binpack file of `games` random playouts (every ply scored) and its bytes.
fn binpack_file(name: &str, games: usize) -> (PathBuf, Vec<u8>) {
    let dir = std::env::temp_dir().join(format!("sente-binpack-damage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let mut writer = BinpackWriter {
        writer: sfbinpack::CompressedTrainingDataEntryWriter::new(
            std::fs::File::create(&path).unwrap(),
        )
        .unwrap(),
        written: 0,
    };
    let mut seed = 11u64;
    for _ in 0..games {
        let mut pos = Position::startpos();
        let mut record = StoredGame {
            start: pos.to_text(),
            moves: Vec::new(),
            scores: Vec::new(),
            result: (splitmix(&mut seed) % 3) as u8,
            end: 11,
        };
        let mut list = <Position as Game>::Moves::default();
        for _ in 0..(40 + splitmix(&mut seed) % 120) {
            pos.generate_legal(&mut list);
            if list.len() == 0 {
                break;
            }
            let m = list.as_slice()[(splitmix(&mut seed) % list.len() as u64) as usize];
            record.moves.push(m.to_bits());
            record
                .scores
                .push((splitmix(&mut seed) % 3001) as i16 - 1500);
            pos.make_move(m);
        }
        export_game::<Position>(&record, &PositionFilter::KEEP_ALL, &mut writer).unwrap();
    }
    sente_data::format_writer::FormatWriter::<Position>::finish(&mut writer).unwrap();
    drop(writer);
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

/// The payloads of a binpack file's chunks.
fn payloads(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        out.push(&bytes[at + 8..at + 8 + size]);
        at += 8 + size;
    }
    out
}

#[test]
fn the_checked_decoder_reads_what_sfbinpack_reads() {
    let (_, bytes) = binpack_file("intact.binpack", 300);
    let mut entries = 0;
    for payload in payloads(&bytes) {
        let mut ours = Vec::new();
        decode_binpack_chunk(payload, |entry, _| ours.push(entry)).unwrap();
        let theirs = sfbinpack::parse_chunk(payload);
        assert_eq!(ours.len(), theirs.len());
        for (a, b) in ours.iter().zip(&theirs) {
            assert_eq!(a.pos.fen().unwrap(), b.pos.fen().unwrap());
            assert_eq!(
                (a.mv, a.score, a.ply, a.result),
                (b.mv, b.score, b.ply, b.result)
            );
        }
        entries += ours.len();
    }
    assert!(entries > 20_000, "{entries}");
}

#[test]
fn corrupted_payload_bytes_are_errors_not_panics() {
    let (path, bytes) = binpack_file("damaged.binpack", 20);
    assert_eq!(
        payloads(&bytes).len(),
        1,
        "one chunk: every corruption is behind its header"
    );
    let payload_len = bytes.len() - 8;
    // Silence the panic messages of `sfbinpack` below; this file's tests panic nowhere else.
    std::panic::set_hook(Box::new(|_| {}));
    let mut seed = 3u64;
    let (mut errors, mut crate_panics) = (0, 0);
    let variants = 1500;
    for variant in 0..variants {
        let mut damaged = bytes.clone();
        for _ in 0..1 + variant % 8 {
            let at = 8 + (splitmix(&mut seed) % payload_len as u64) as usize;
            damaged[at] ^= 1 + (splitmix(&mut seed) % 255) as u8;
        }
        if variant % 5 == 0 {
            // A payload cut short inside a chain, with the header's size matching.
            let keep = 8 + (splitmix(&mut seed) % payload_len as u64) as usize;
            damaged.truncate(keep);
            damaged[4..8].copy_from_slice(&((keep - 8) as u32).to_le_bytes());
        }
        let file = path.with_file_name(format!("damaged-{variant}.binpack"));
        std::fs::write(&file, &damaged).unwrap();
        let read = catch_unwind(AssertUnwindSafe(|| {
            read_foreign(&file, ForeignFormat::Binpack, GameKind::Chess, |_| {})
        }));
        let Ok(result) = read else {
            panic!("variant {variant}: reading the damaged file panicked");
        };
        if let Err(e) = result {
            let text = format!("{e:#}");
            assert!(
                text.contains(&file.display().to_string()) && text.contains("at byte"),
                "variant {variant}: {text}"
            );
            errors += 1;
        }
        crate_panics += catch_unwind(|| sfbinpack::parse_chunk(&damaged[8..])).is_err() as u32;
        std::fs::remove_file(&file).unwrap();
    }
    let _ = std::panic::take_hook();
    assert!(
        errors > variants / 2,
        "{errors} of {variants} variants were errors"
    );
    assert!(
        crate_panics > 0,
        "sfbinpack panicked on none of the variants"
    );
}
