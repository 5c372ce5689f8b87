//! Training data on disk: a file is a sequence of chunks, each a 40-byte header (magic, version,
//! game, index of its first game, game count, payload length, checksum) followed by a `bincode`
//! payload of game records. Chunks are appended whole and synced, so a killed writer leaves at
//! most one torn chunk at the end; `scan` tells that torn tail apart from damaged chunks, and
//! resynchronises past damage so that no later intact chunk is lost.
//! See `docs/data-format.md`.

use bincode::{Decode, Encode};
use sente::game::{Game, GameKind, GameMove};
use std::io::Write;
use thiserror::Error;

pub const MAGIC: [u8; 8] = *b"SENTEDAT";
pub const FORMAT_VERSION: u32 = 1;
pub const CHUNK_HEADER_LEN: usize = 40;
/// Score stored for plies that were not searched (random opening moves).
pub const SCORE_NONE: i16 = i16::MIN;
/// Scores are clamped into ±this; mate scores map to the ends.
pub const SCORE_LIMIT: i16 = 32_000;

/// Game ids in chunk headers: `GameKind::id`, the same ids net files store.
pub use sente::nnue::arch::{GAME_CHESS, GAME_SHOGI};

/// The result of a game, from the first player's point of view.
pub const RESULT_FIRST_WINS: u8 = 0;
pub const RESULT_DRAW: u8 = 1;
pub const RESULT_SECOND_WINS: u8 = 2;

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
pub struct GameRecord {
    /// FEN / SFEN of the first recorded position.
    pub start: String,
    /// Moves from `start`, as `GameMove::to_bits`.
    pub moves: Vec<u16>,
    /// For each move, the mover's search score in centipawns (clamped to ±`SCORE_LIMIT`), or
    /// `SCORE_NONE` for an unsearched move.
    pub scores: Vec<i16>,
    /// `RESULT_*`.
    pub result: u8,
    /// Why the game ended (a small code; see `docs/data-format.md`).
    pub end: u8,
}

impl GameRecord {
    /// Replays the record through the rules, calling `visit(position_before_move, move, score)`
    /// for each ply. Fails on an unparsable start or an illegal move.
    pub fn replay<G: Game>(
        &self,
        mut visit: impl FnMut(&G, G::Move, i16),
    ) -> Result<G, RecordError> {
        let mut pos = G::from_text(&self.start)
            .map_err(|e| RecordError::BadStart(format!("{}: {e}", self.start)))?;
        if self.moves.len() != self.scores.len() {
            return Err(RecordError::LengthMismatch);
        }
        for (ply, (&bits, &score)) in self.moves.iter().zip(&self.scores).enumerate() {
            let m = G::Move::from_bits(bits);
            if !m.is_some() || !pos.is_legal_move(m) {
                return Err(RecordError::IllegalMove { ply });
            }
            visit(&pos, m, score);
            pos.make_move(m);
        }
        if self.result > RESULT_SECOND_WINS {
            return Err(RecordError::BadResult(self.result));
        }
        Ok(pos)
    }
}

/// A record that does not replay.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RecordError {
    #[error("bad start position {0}")]
    BadStart(String),
    #[error("illegal move at ply {ply}")]
    IllegalMove { ply: usize },
    #[error("moves and scores differ in length")]
    LengthMismatch,
    #[error("bad result code {0}")]
    BadResult(u8),
}

/// A damaged data file.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ChunkError {
    #[error("chunk at byte {offset}: bad magic")]
    BadMagic { offset: usize },
    #[error("chunk at byte {offset}: unsupported version {version}")]
    Version { offset: usize, version: u32 },
    #[error("chunk at byte {offset}: truncated")]
    Truncated { offset: usize },
    #[error("chunk at byte {offset}: checksum mismatch")]
    Checksum { offset: usize },
    #[error("chunk at byte {offset}: undecodable payload ({detail})")]
    Decode { offset: usize, detail: String },
    #[error("chunk at byte {offset}: damaged header ({detail})")]
    Header { offset: usize, detail: String },
    #[error("chunk at byte {offset}: game id {found}, expected {expected}")]
    WrongGame {
        offset: usize,
        expected: u32,
        found: u32,
    },
}

fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard().with_fixed_int_encoding()
}

/// 64-bit FNV-1a.
pub fn checksum(bytes: &[u8]) -> u64 {
    sente::nnue::format::fnv1a64(bytes)
}

/// Encodes one chunk of games (header + payload).
pub fn encode_chunk(game_id: u32, first_game: u64, games: &[GameRecord]) -> Vec<u8> {
    let payload = bincode::encode_to_vec(games, bincode_config()).expect("in-memory encoding");
    let mut out = Vec::with_capacity(CHUNK_HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&game_id.to_le_bytes());
    out.extend_from_slice(&first_game.to_le_bytes());
    out.extend_from_slice(&(games.len() as u32).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&checksum(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// A chunk's header fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkInfo {
    /// Byte offset of the chunk in the file.
    pub offset: usize,
    pub game_id: u32,
    pub first_game: u64,
    pub games: u32,
    pub payload_len: usize,
}

impl ChunkInfo {
    pub fn end(&self) -> usize {
        self.offset + CHUNK_HEADER_LEN + self.payload_len
    }
}

fn read_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn read_u64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Parses and checks the chunk starting at `offset`.
pub fn parse_chunk(bytes: &[u8], offset: usize) -> Result<(ChunkInfo, &[u8]), ChunkError> {
    let rest = &bytes[offset..];
    if rest.len() < CHUNK_HEADER_LEN {
        return Err(ChunkError::Truncated { offset });
    }
    if rest[0..8] != MAGIC {
        return Err(ChunkError::BadMagic { offset });
    }
    let version = read_u32(rest, 8);
    if version != FORMAT_VERSION {
        return Err(ChunkError::Version { offset, version });
    }
    let info = ChunkInfo {
        offset,
        game_id: read_u32(rest, 12),
        first_game: read_u64(rest, 16),
        games: read_u32(rest, 24),
        payload_len: read_u32(rest, 28) as usize,
    };
    let sum = read_u64(rest, 32);
    let payload = rest
        .get(CHUNK_HEADER_LEN..CHUNK_HEADER_LEN + info.payload_len)
        .ok_or(ChunkError::Truncated { offset })?;
    if checksum(payload) != sum {
        return Err(ChunkError::Checksum { offset });
    }
    Ok((info, payload))
}

/// Decodes a chunk payload.
pub fn decode_games(info: &ChunkInfo, payload: &[u8]) -> Result<Vec<GameRecord>, ChunkError> {
    let (games, _): (Vec<GameRecord>, usize) =
        bincode::decode_from_slice(payload, bincode_config()).map_err(|e| ChunkError::Decode {
            offset: info.offset,
            detail: e.to_string(),
        })?;
    if games.len() != info.games as usize {
        return Err(ChunkError::Decode {
            offset: info.offset,
            detail: format!("{} games, header says {}", games.len(), info.games),
        });
    }
    Ok(games)
}

/// A stretch of a file that holds no valid chunk: a damaged chunk (or several adjacent ones).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// Byte offset of the stretch.
    pub offset: usize,
    /// Its length in bytes.
    pub len: usize,
    /// Number of the chunk it replaces in file order (valid chunks and damaged stretches each
    /// count as one), from 1.
    pub chunk: usize,
    /// Why the bytes at `offset` are not a valid chunk.
    pub error: ChunkError,
}

impl Damage {
    pub fn end(&self) -> usize {
        self.offset + self.len
    }
}

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "chunk {} (bytes {}..{}) is damaged: {}",
            self.chunk,
            self.offset,
            self.end(),
            self.error
        )
    }
}

/// What `scan` found in a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    /// The valid chunks, in file order.
    pub chunks: Vec<ChunkInfo>,
    /// Damaged stretches in the middle or at the end, in file order (each followed by a valid
    /// chunk, or by the end of the file when it is not a mere torn tail).
    pub damaged: Vec<Damage>,
    /// A torn tail: an incomplete chunk at the very end (a valid header, or a prefix of one,
    /// whose payload runs past the end of the file), as a writer killed mid-append leaves.
    /// Its offset and the error.
    pub torn_tail: Option<(usize, ChunkError)>,
}

impl Scan {
    /// The offset up to which the file holds valid chunks or damage (the torn tail excluded).
    pub fn end_before_torn_tail(&self, file_len: usize) -> usize {
        self.torn_tail
            .as_ref()
            .map_or(file_len, |(offset, _)| *offset)
    }
}

/// Whether the bytes from `offset` to the end are an incomplete chunk: a prefix of a header, or
/// a well-formed header whose payload runs past the end of the file.
fn is_torn_tail(bytes: &[u8], offset: usize) -> bool {
    let rest = &bytes[offset..];
    if rest.len() < CHUNK_HEADER_LEN {
        let n = rest.len().min(MAGIC.len());
        return rest[..n] == MAGIC[..n] && (rest.len() < 12 || read_u32(rest, 8) == FORMAT_VERSION);
    }
    rest[0..8] == MAGIC
        && read_u32(rest, 8) == FORMAT_VERSION
        && CHUNK_HEADER_LEN + read_u32(rest, 28) as usize > rest.len()
}

/// A chunk that parses, passes its checksum and names a known game.
fn valid_chunk(bytes: &[u8], offset: usize) -> Result<ChunkInfo, ChunkError> {
    let (info, _) = parse_chunk(bytes, offset)?;
    if GameKind::from_id(info.game_id).is_none() {
        return Err(ChunkError::Decode {
            offset,
            detail: format!("unknown game id {}", info.game_id),
        });
    }
    Ok(info)
}

/// The next offset after `from` at which a valid chunk starts (found by its magic and checked by
/// its checksum), if any.
fn next_valid_chunk(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while at + MAGIC.len() <= bytes.len() {
        let found = bytes[at..].windows(MAGIC.len()).position(|w| w == MAGIC)?;
        at += found;
        if valid_chunk(bytes, at).is_ok() {
            return Some(at);
        }
        at += 1;
    }
    None
}

/// Reads the chunk structure of a file: every valid chunk, every damaged stretch between or
/// after them, and a torn tail. A damaged chunk does not hide the chunks after it: the scan
/// resynchronises on the next chunk whose magic and checksum are valid, even when the damaged
/// chunk's length field is wrong. The checksum covers payloads only: a damaged game count shows
/// when the payload is decoded (`decode_games`), and `datagen run` checks that the game indices
/// of its own file's chunks follow each other before resuming.
pub fn scan(bytes: &[u8]) -> Scan {
    enum Part {
        Chunk(ChunkInfo),
        Damaged(usize, usize, ChunkError),
    }
    let mut parts = Vec::new();
    let mut torn_tail = None;
    let mut offset = 0;
    while offset < bytes.len() {
        match valid_chunk(bytes, offset) {
            Ok(info) => {
                offset = info.end();
                parts.push(Part::Chunk(info));
            }
            Err(error) => {
                let next = next_valid_chunk(bytes, offset + 1);
                if next.is_none() && is_torn_tail(bytes, offset) {
                    torn_tail = Some((offset, error));
                    break;
                }
                let end = next.unwrap_or(bytes.len());
                parts.push(Part::Damaged(offset, end - offset, error));
                offset = end;
            }
        }
    }
    let mut scan = Scan {
        torn_tail,
        ..Scan::default()
    };
    for (number, part) in parts.into_iter().enumerate() {
        match part {
            Part::Chunk(info) => scan.chunks.push(info),
            Part::Damaged(offset, len, error) => match scan.damaged.last_mut() {
                // Adjacent damaged stretches merge (one resynchronisation point after them).
                Some(last) if last.end() == offset => last.len += len,
                _ => scan.damaged.push(Damage {
                    offset,
                    len,
                    chunk: number + 1,
                    error,
                }),
            },
        }
    }
    scan
}

/// Appends a chunk to `file` and syncs it to disk.
pub fn append_chunk(file: &mut std::fs::File, chunk: &[u8]) -> std::io::Result<()> {
    file.write_all(chunk)?;
    file.sync_data()
}

/// The name of a game id (`chess`, `shogi`), for messages.
pub fn game_name(id: u32) -> String {
    match GameKind::from_id(id) {
        Some(kind) => kind.name().to_string(),
        None => format!("unknown game {id}"),
    }
}

/// The game id of a `Game` type, for chunk headers.
pub fn game_id<G: Game>() -> u32 {
    G::KIND.expect("data files hold registered games").id()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(i: u16) -> GameRecord {
        GameRecord {
            start: format!("start {i}"),
            moves: vec![i, i + 1, 700],
            scores: vec![10, SCORE_NONE, -5000],
            result: RESULT_DRAW,
            end: 3,
        }
    }

    fn file_of(chunks: usize) -> (Vec<u8>, Vec<GameRecord>) {
        let games: Vec<GameRecord> = (0..3 * chunks as u16).map(record).collect();
        let mut file = Vec::new();
        for (i, part) in games.chunks(3).enumerate() {
            file.extend_from_slice(&encode_chunk(GAME_CHESS, 3 * i as u64, part));
        }
        (file, games)
    }

    #[test]
    fn chunks_round_trip_and_a_torn_tail_is_detected() {
        let games: Vec<GameRecord> = (0..5).map(record).collect();
        let mut file = encode_chunk(GAME_CHESS, 0, &games[..3]);
        let second = encode_chunk(GAME_CHESS, 3, &games[3..]);
        file.extend_from_slice(&second);
        let scan_all = scan(&file);
        assert_eq!(scan_all.damaged, vec![]);
        assert_eq!(scan_all.torn_tail, None);
        let chunks = scan_all.chunks;
        assert_eq!(chunks.len(), 2);
        assert_eq!(chunks[1].first_game, 3);
        let (info, payload) = parse_chunk(&file, chunks[1].offset).unwrap();
        assert_eq!(decode_games(&info, payload).unwrap(), games[3..].to_vec());

        let torn = &file[..file.len() - 3];
        let found = scan(torn);
        assert_eq!(found.chunks.len(), 1);
        assert!(found.damaged.is_empty());
        assert_eq!(
            found.torn_tail,
            Some((
                chunks[0].end(),
                ChunkError::Truncated {
                    offset: chunks[0].end()
                }
            ))
        );

        let mut damaged = file.clone();
        damaged[CHUNK_HEADER_LEN + 2] ^= 1;
        let found = scan(&damaged);
        assert_eq!(found.chunks, chunks[1..].to_vec());
        assert_eq!(found.damaged.len(), 1);
        assert_eq!(found.damaged[0].error, ChunkError::Checksum { offset: 0 });
    }

    /// One flipped byte in chunk 4 of 10 (payload, length field or magic): the other nine chunks
    /// stay readable and the damage is one stretch exactly covering chunk 4.
    #[test]
    fn a_damaged_chunk_in_the_middle_hides_no_later_chunk() {
        let (file, _) = file_of(10);
        let good = scan(&file);
        assert_eq!(good.chunks.len(), 10);
        let fourth = good.chunks[3];
        for at in [
            fourth.offset + CHUNK_HEADER_LEN + 5, // payload
            fourth.offset + 28,                   // payload length (low byte)
            fourth.offset + 31,                   // payload length (high byte)
            fourth.offset + 2,                    // magic
        ] {
            let mut bad = file.clone();
            bad[at] ^= 0x40;
            let found = scan(&bad);
            let expected: Vec<ChunkInfo> = good
                .chunks
                .iter()
                .copied()
                .filter(|c| c.offset != fourth.offset)
                .collect();
            assert_eq!(found.chunks, expected, "byte {at}");
            assert_eq!(found.damaged.len(), 1, "byte {at}");
            assert_eq!(found.damaged[0].chunk, 4);
            assert_eq!(found.damaged[0].offset, fourth.offset);
            assert_eq!(found.damaged[0].end(), fourth.end());
            assert_eq!(found.torn_tail, None);
        }
        // Damage in the last chunk is damage, not a torn tail (its length is intact).
        let mut bad = file.clone();
        let last = good.chunks[9];
        bad[last.offset + CHUNK_HEADER_LEN + 1] ^= 1;
        let found = scan(&bad);
        assert_eq!(found.chunks.len(), 9);
        assert_eq!(found.damaged.len(), 1);
        assert_eq!(found.damaged[0].end(), file.len());
        assert_eq!(found.torn_tail, None);
    }

    #[test]
    fn fixed_int_encoding_costs_four_bytes_per_ply() {
        let long = GameRecord {
            start: String::new(),
            moves: vec![1000; 100],
            scores: vec![-300; 100],
            result: RESULT_FIRST_WINS,
            end: 0,
        };
        let short = GameRecord {
            moves: vec![],
            scores: vec![],
            ..long.clone()
        };
        let size = |r: &GameRecord| bincode::encode_to_vec(r, bincode_config()).unwrap().len();
        assert_eq!(size(&long) - size(&short), 400);
    }
}
