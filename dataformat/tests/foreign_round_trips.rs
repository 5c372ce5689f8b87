//! Round trips through the foreign formats on synthetic games (random legal playouts with
//! random scores): Sente → format → the field's own reader (bulletformat, viriformat,
//! sfbinpack crates) gives the same positions, scores and results, and format → Sente → the
//! same records; damaged files give errors naming the file and the offset.

use sente::game::{Game, GameKind, GameMove, Side};
use sente::movelist::MoveList;
use sente_data::format_chess_records::{
    binpack_to_cp, cp_to_binpack, BinpackWriter, BulletWriter, ViriWriter,
};
use sente_data::format_kind::ForeignFormat;
use sente_data::format_reader::read_foreign;
use sente_data::format_shogi_records::ShogiRecordWriter;
use sente_data::format_text::TextWriter;
use sente_data::format_writer::{export_game, mover_result, FormatWriter, RecordSink};
use sente_data::position_filter::PositionFilter;
use sente_data::stored_game::{StoredGame, SCORE_NONE};
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-foreign-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// `n` random games of up to `plies` plies: two unscored opening plies, then random scores.
fn random_games<G: Game>(n: usize, plies: usize, seed: u64) -> Vec<StoredGame> {
    let mut rng = Rng(seed);
    let mut games = Vec::new();
    for _ in 0..n {
        let start = G::startpos();
        let mut pos = start.clone();
        let (mut moves, mut scores) = (Vec::new(), Vec::new());
        let mut list = G::Moves::default();
        for ply in 0..plies {
            pos.generate_legal(&mut list);
            if list.len() == 0 {
                break;
            }
            let m = list.as_slice()[(rng.next() % list.len() as u64) as usize];
            moves.push(m.to_bits());
            scores.push(if ply < 2 {
                SCORE_NONE
            } else {
                (rng.next() % 4001) as i16 - 2000
            });
            pos.make_move(m);
        }
        games.push(StoredGame {
            start: start.to_text(),
            moves,
            scores,
            result: (rng.next() % 3) as u8,
            end: 11,
        });
    }
    games
}

/// Every (position text, mover's score, mover's result) of `games` that `filter` keeps.
fn expected<G: Game>(games: &[StoredGame], filter: &PositionFilter) -> Vec<(G, i16, i8)> {
    let mut out = Vec::new();
    for g in games {
        let mut ply = 0;
        g.replay::<G>(|pos, m, score| {
            ply += 1;
            if filter.keeps(Some(ply), score, pos.in_check(), Some(pos.is_quiet(m))) {
                out.push((
                    pos.clone(),
                    score,
                    mover_result(g.result, pos.side_to_move()),
                ));
            }
        })
        .unwrap();
    }
    out
}

fn export<G: Game>(
    games: &[StoredGame],
    filter: &PositionFilter,
    writer: &mut dyn FormatWriter<G>,
) -> u64 {
    for g in games {
        export_game::<G>(g, filter, writer).unwrap();
    }
    writer.finish().unwrap()
}

/// Imported records, flattened: (position, mover's score, mover's result) of each scored ply.
fn imported<G: Game>(path: &std::path::Path, format: ForeignFormat) -> Vec<(G, i16, i8)> {
    let mut out = Vec::new();
    read_foreign(path, format, G::KIND.unwrap(), |record| {
        let keep_all = PositionFilter::KEEP_ALL;
        sente_data::imported::visit_kept_positions::<G>(&record, &keep_all, |pos, _, score| {
            out.push((
                pos.clone(),
                score,
                mover_result(record.result, pos.side_to_move()),
            ));
        })
        .unwrap();
    })
    .unwrap();
    out
}

fn board_part(text: &str) -> String {
    text.split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `back` holds as many records as `want`, each with the same `board_part` (placement and side
/// to move), score and result.
fn assert_same_boards<G: Game>(back: &[(G, i16, i8)], want: &[(G, i16, i8)]) {
    assert_eq!(back.len(), want.len());
    for (a, b) in back.iter().zip(want) {
        assert_eq!(
            (board_part(&a.0.to_text()), a.1, a.2),
            (board_part(&b.0.to_text()), b.1, b.2)
        );
    }
}

#[test]
fn chess_formats_round_trip_through_the_crates() {
    use sente::chess::Position;
    let games = random_games::<Position>(1100, 100, 7);
    let filter = PositionFilter::KEEP_ALL;
    let want = expected::<Position>(&games, &filter);
    assert!(want.len() >= 100_000, "{}", want.len());

    // binpack: read back by sfbinpack's own reader.
    let path = scratch("a.binpack");
    let file = std::fs::File::create(&path).unwrap();
    let mut w = BinpackWriter {
        writer: sfbinpack::CompressedTrainingDataEntryWriter::new(file).unwrap(),
        written: 0,
    };
    assert_eq!(export(&games, &filter, &mut w), want.len() as u64);
    drop(w);
    let mut reader =
        sfbinpack::CompressedTrainingDataEntryReader::new(std::fs::File::open(&path).unwrap())
            .unwrap();
    let mut seen = 0;
    let mut i = 0;
    while reader.has_next() {
        let e = reader.next();
        if e.score == 32002 {
            continue;
        }
        let (pos, score, result) = &want[i];
        assert_eq!(
            board_part(&e.pos.fen().unwrap()),
            board_part(&pos.to_text())
        );
        assert_eq!(e.score, cp_to_binpack(*score));
        assert_eq!(binpack_to_cp(e.score), *score);
        assert_eq!(e.result, *result as i16);
        assert_eq!(e.ply as u32, pos.game_ply());
        i += 1;
        seen += 1;
    }
    assert_eq!(seen, want.len());
    assert_same_boards(&imported::<Position>(&path, ForeignFormat::Binpack), &want);

    // bulletformat: each record equals the crate's own parse of the text line.
    let path = scratch("a.bullet");
    let mut w = BulletWriter {
        sink: RecordSink::create(&path, 0, 1).unwrap(),
    };
    assert_eq!(export(&games, &filter, &mut w), want.len() as u64);
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes.len(), 32 * want.len());
    for (chunk, (pos, score, result)) in bytes.chunks(32).zip(&want) {
        let white = pos.side_to_move() == Side::First;
        let line = format!(
            "{} | {} | {}",
            pos.to_text(),
            if white { *score } else { -*score },
            ["0.0", "0.5", "1.0"][(if white { *result } else { -*result } + 1) as usize]
        );
        let board: bulletformat::ChessBoard = line.parse().unwrap();
        assert_eq!(
            chunk,
            <bulletformat::ChessBoard as bulletformat::BulletFormat>::as_bytes_slice(&[board])
        );
        assert_eq!(board.score, *score);
    }
    // Import and export again: the same bytes (the format is canonical).
    let back = imported::<Position>(&path, ForeignFormat::Bulletformat);
    assert_eq!(back.len(), want.len());
    let again = scratch("b.bullet");
    let mut sink = RecordSink::create(&again, 0, 1).unwrap();
    for (pos, score, result) in &back {
        let b = sente_data::format_chess_records::bullet_board(pos, *score, *result).unwrap();
        sink.push(<bulletformat::ChessBoard as bulletformat::BulletFormat>::as_bytes_slice(&[b]))
            .unwrap();
    }
    sink.finish().unwrap();
    assert_eq!(std::fs::read(&again).unwrap(), bytes);

    // viriformat: read back by the crate, positions and White-relative scores.
    let path = scratch("a.viri");
    let mut w = ViriWriter::create(&path).unwrap();
    export(&games, &filter, &mut w);
    let bytes = std::fs::read(&path).unwrap();
    let mut cursor = std::io::BufReader::new(&bytes[..]);
    let mut i = 0;
    while i < want.len() {
        let game = viriformat::dataformat::Game::deserialise_from(&mut cursor, Vec::new()).unwrap();
        game.visit_positions(|board, eval| {
            if eval == 32002 {
                return;
            }
            let (pos, score, _) = &want[i];
            assert_eq!(board_part(&board.to_string()), board_part(&pos.to_text()));
            let white = pos.side_to_move() == Side::First;
            assert_eq!(eval, if white { *score as i32 } else { -*score as i32 });
            i += 1;
        });
    }
    assert_eq!(i, want.len());
    assert_same_boards(
        &imported::<Position>(&path, ForeignFormat::Viriformat),
        &want,
    );

    // text: import gives the same positions.
    let path = scratch("a.txt");
    let mut w = TextWriter {
        sink: RecordSink::create(&path, 0, 1).unwrap(),
    };
    export::<Position>(&games, &filter, &mut w);
    let back = imported::<Position>(&path, ForeignFormat::Text);
    assert_eq!(back.len(), want.len());
    for (a, b) in back.iter().zip(&want) {
        assert_eq!((a.0.to_text(), a.1, a.2), (b.0.to_text(), b.1, b.2));
    }
}

#[test]
fn shogi_formats_round_trip_and_export_again_to_the_same_bytes() {
    use sente::shogi::Position;
    let games = random_games::<Position>(1100, 100, 11);
    let filter = PositionFilter::KEEP_ALL;
    let want = expected::<Position>(&games, &filter);
    assert!(want.len() >= 100_000);
    for format in [ForeignFormat::Psv, ForeignFormat::Hcpe, ForeignFormat::Text] {
        let path = scratch(&format!("a.{format}"));
        let sink = RecordSink::create(&path, 0, 1).unwrap();
        let mut w: Box<dyn FormatWriter<Position>> = match format {
            ForeignFormat::Text => Box::new(TextWriter { sink }),
            _ => Box::new(ShogiRecordWriter { format, sink }),
        };
        assert_eq!(export(&games, &filter, w.as_mut()), want.len() as u64);
        let mut records = Vec::new();
        read_foreign(&path, format, GameKind::Shogi, |r| records.push(r)).unwrap();
        assert_eq!(records.len(), want.len());
        for (r, (pos, score, result)) in records.iter().zip(&want) {
            let got = Position::from_text(&r.start).unwrap();
            // hcpe keeps no ply; compare board, side and hands.
            let strip = |t: String| t.rsplit_once(' ').unwrap().0.to_string();
            assert_eq!(strip(got.to_text()), strip(pos.to_text()), "{format}");
            if format == ForeignFormat::Psv {
                assert_eq!(got.game_ply(), pos.game_ply());
            }
            assert_eq!(r.scores, vec![*score]);
            assert_eq!(mover_result(r.result, got.side_to_move()), *result);
        }
        if format == ForeignFormat::Text {
            continue; // no move to replay; the text round trip is checked above
        }
        // format → Sente → format: the same bytes.
        let again = scratch(&format!("b.{format}"));
        let sink = RecordSink::create(&again, 0, 1).unwrap();
        let mut w: Box<dyn FormatWriter<Position>> = match format {
            ForeignFormat::Text => Box::new(TextWriter { sink }),
            _ => Box::new(ShogiRecordWriter { format, sink }),
        };
        for r in &records {
            let mut g = r.clone();
            g.end = 11;
            export_game::<Position>(&g, &filter, w.as_mut()).unwrap();
        }
        w.finish().unwrap();
        assert_eq!(
            std::fs::read(&again).unwrap(),
            std::fs::read(&path).unwrap(),
            "{format}"
        );
    }
}

#[test]
fn damaged_and_foreign_files_are_errors_naming_file_and_offset() {
    use sente::shogi::Position;
    let games = random_games::<Position>(3, 30, 5);
    let path = scratch("c.psv");
    let mut w = ShogiRecordWriter {
        format: ForeignFormat::Psv,
        sink: RecordSink::create(&path, 0, 1).unwrap(),
    };
    export(&games, &PositionFilter::KEEP_ALL, &mut w);
    let mut bytes = std::fs::read(&path).unwrap();
    // A psv file read as hcpe: not a whole number of records, or records that do not decode.
    let err = |p: &std::path::Path, f, g| read_foreign(p, f, g, |_| {}).unwrap_err().to_string();
    let e = err(&path, ForeignFormat::Hcpe, GameKind::Shogi);
    assert!(
        e.contains(&path.display().to_string()) && e.contains("byte"),
        "{e}"
    );
    // A shogi format given for chess.
    let e = err(&path, ForeignFormat::Psv, GameKind::Chess);
    assert!(e.contains("psv is a shogi format, not chess"), "{e}");
    // A truncated record.
    bytes.truncate(bytes.len() - 3);
    std::fs::write(&path, &bytes).unwrap();
    let e = err(&path, ForeignFormat::Psv, GameKind::Shogi);
    assert!(e.contains("truncated record at byte"), "{e}");
    // A damaged record: the error names its offset.
    bytes.truncate(bytes.len() / 40 * 40);
    bytes[40..72].fill(0xff);
    std::fs::write(&path, &bytes).unwrap();
    let e = err(&path, ForeignFormat::Psv, GameKind::Shogi);
    assert!(e.contains("record at byte 40"), "{e}");
    // A binpack with a wrong magic, and a truncated one.
    let bp = scratch("c.binpack");
    std::fs::write(&bp, b"NOPE\x10\x00\x00\x000123456789abcdef").unwrap();
    let e = err(&bp, ForeignFormat::Binpack, GameKind::Chess);
    assert!(
        e.contains("record at byte 0") && e.contains("bad magic"),
        "{e}"
    );
    std::fs::write(&bp, b"BINP\x10\x00\x00\x00short").unwrap();
    let e = err(&bp, ForeignFormat::Binpack, GameKind::Chess);
    assert!(e.contains("truncated chunk"), "{e}");
}

/// The encoders that build records from the position itself (bulletformat's `ChessBoard`,
/// sfbinpack's position) make what the crates make of the position's text, along random games
/// from the start, a Chess960 start and a position with castling rights, en passant and clocks.
#[test]
fn records_built_from_positions_are_the_crates_parse_of_their_text() {
    use bulletformat::BulletFormat;
    use sente::chess::Position;
    use sente_data::format_chess_records::{bullet_board, sf_position};
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 7 12",
        "4k3/8/8/3pP3/8/8/8/R3K2R w K d6 0 40",
    ];
    let mut rng = Rng(7);
    for start in starts {
        for _ in 0..5 {
            let mut pos = Position::from_text(start).unwrap();
            let mut list = <Position as Game>::Moves::default();
            for _ in 0..120 {
                let text = pos.to_text();
                let score = (rng.next() % 4001) as i16 - 2000;
                let result = (rng.next() % 3) as i8 - 1;
                let line = sente_data::format_text::text_line(&pos, score, result);
                let parsed: bulletformat::ChessBoard = line.trim_end().parse().unwrap();
                let built = bullet_board(&pos, score, result).unwrap();
                assert_eq!(
                    bulletformat::ChessBoard::as_bytes_slice(&[built]),
                    bulletformat::ChessBoard::as_bytes_slice(&[parsed]),
                    "{line}"
                );
                // The move number is the entry's ply's (`set_ply`) either way.
                let mut from_fen = sfbinpack::chess::position::Position::from_fen(&text).unwrap();
                let mut built = sf_position(&pos).unwrap();
                from_fen.set_ply(pos.game_ply() as u16);
                built.set_ply(pos.game_ply() as u16);
                assert_eq!(built, from_fen, "{text}");
                pos.generate_legal(&mut list);
                if list.len() == 0 {
                    break;
                }
                pos.make_move(list.as_slice()[(rng.next() % list.len() as u64) as usize]);
            }
        }
    }
}

/// A game that does not replay gives no encoded output (the export skips it whole), and one
/// that does gives the sequential writer's records.
#[test]
fn a_game_that_does_not_replay_is_encoded_to_nothing() {
    use sente::shogi::Position;
    use sente_data::format_shogi_records::ShogiRecordEncoder;
    use sente_data::format_writer::{encode_game, ExportError};
    let mut games = random_games::<Position>(2, 40, 11);
    let keep_all = PositionFilter::KEEP_ALL;
    let encoder = ShogiRecordEncoder {
        format: ForeignFormat::Psv,
    };
    let (records, kept) = encode_game::<Position, _>(&games[0], &keep_all, &encoder).unwrap();
    assert_eq!(records.len() as u64, kept);
    let path = scratch("one-game.psv");
    let mut w = ShogiRecordWriter {
        format: ForeignFormat::Psv,
        sink: RecordSink::create(&path, 0, 1).unwrap(),
    };
    export(&games[..1], &keep_all, &mut w);
    assert_eq!(
        records.iter().collect::<Vec<_>>().concat(),
        std::fs::read(&path).unwrap()
    );
    // The same game with a move that is not legal at ply 30 (its move before, played again).
    assert!(games[0].moves.len() > 30);
    games[1] = games[0].clone();
    games[1].moves[30] = games[1].moves[29];
    assert!(matches!(
        encode_game::<Position, _>(&games[1], &keep_all, &encoder),
        Err(ExportError::Replay(_))
    ));
}
