//! One chunk of a data file: a 40-byte header (magic, version, game id, index of its first game,
//! game count, payload length, payload checksum) followed by a `bincode` payload of stored
//! games. Encoding, parsing and checking a single chunk, and appending one to a file.

use crate::stored_game::StoredGame;
use sente::game::{Game, GameKind};
use std::io::Write;
use thiserror::Error;

pub const MAGIC: [u8; 8] = *b"SENTEDAT";
pub const FORMAT_VERSION: u32 = 1;
pub const CHUNK_HEADER_LEN: usize = 40;

/// A chunk that is not valid (bad header, checksum or payload, or another game's).
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
    #[error("chunk at byte {offset} holds {} games, expected {}", game_name(*.found), game_name(*.expected))]
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
pub fn encode_chunk(game_id: u32, first_game: u64, games: &[StoredGame]) -> Vec<u8> {
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

pub(crate) fn read_u32(b: &[u8], at: usize) -> u32 {
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
pub fn decode_games(info: &ChunkInfo, payload: &[u8]) -> Result<Vec<StoredGame>, ChunkError> {
    let (games, _): (Vec<StoredGame>, usize) =
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

/// Parses, checks and decodes the chunk at `offset`.
pub fn read_chunk(bytes: &[u8], offset: usize) -> Result<(ChunkInfo, Vec<StoredGame>), ChunkError> {
    let (info, payload) = parse_chunk(bytes, offset)?;
    Ok((info, decode_games(&info, payload)?))
}

/// Appends a chunk to `file` and syncs it to disk.
pub fn append_chunk(file: &mut std::fs::File, chunk: &[u8]) -> std::io::Result<()> {
    file.write_all(chunk)?;
    file.sync_data()
}

/// The name of a game id (`GameKind::name`), for messages.
pub fn game_name(id: u32) -> String {
    match GameKind::from_id(id) {
        Some(kind) => kind.name().to_string(),
        None => format!("unknown game {id}"),
    }
}

/// The game of a `Game` type. Data files hold registered games only.
pub fn game_kind<G: Game>() -> GameKind {
    G::KIND.expect("data files hold registered games")
}

/// The game id of a `Game` type, for chunk headers.
pub fn game_id<G: Game>() -> u32 {
    game_kind::<G>().id()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stored_game::{sample_game as game, RESULT_FIRST_WINS};

    #[test]
    fn a_chunk_round_trips_and_its_checks_fail_on_damage() {
        let games: Vec<StoredGame> = (0..3).map(game).collect();
        let chunk = encode_chunk(GameKind::Shogi.id(), 64, &games);
        let (info, decoded) = read_chunk(&chunk, 0).unwrap();
        assert_eq!(decoded, games);
        assert_eq!(
            (info.game_id, info.first_game, info.games, info.end()),
            (GameKind::Shogi.id(), 64, 3, chunk.len())
        );
        assert_eq!(game_name(info.game_id), GameKind::Shogi.name());
        assert_eq!(game_name(9), "unknown game 9");

        let mut bad = chunk.clone();
        bad[CHUNK_HEADER_LEN + 1] ^= 1;
        assert_eq!(read_chunk(&bad, 0), Err(ChunkError::Checksum { offset: 0 }));
        let mut bad = chunk.clone();
        bad[0] = b'X';
        assert_eq!(read_chunk(&bad, 0), Err(ChunkError::BadMagic { offset: 0 }));
        let mut bad = chunk.clone();
        bad[8] = 2;
        assert_eq!(
            read_chunk(&bad, 0),
            Err(ChunkError::Version {
                offset: 0,
                version: 2
            })
        );
        assert_eq!(
            read_chunk(&chunk[..chunk.len() - 1], 0),
            Err(ChunkError::Truncated { offset: 0 })
        );
        // The game count is outside the checksum: a wrong one shows when decoding.
        let mut bad = chunk.clone();
        bad[24] = 4;
        assert!(matches!(
            read_chunk(&bad, 0),
            Err(ChunkError::Decode { offset: 0, .. })
        ));
    }

    #[test]
    fn fixed_int_encoding_costs_four_bytes_per_ply() {
        let long = StoredGame {
            start: String::new(),
            moves: vec![1000; 100],
            scores: vec![-300; 100],
            result: RESULT_FIRST_WINS,
            end: 0,
        };
        let short = StoredGame {
            moves: vec![],
            scores: vec![],
            ..long.clone()
        };
        let size = |r: &StoredGame| bincode::encode_to_vec(r, bincode_config()).unwrap().len();
        assert_eq!(size(&long) - size(&short), 400);
    }

    #[test]
    fn game_types_name_their_ids() {
        assert_eq!(game_id::<sente::chess::Position>(), GameKind::Chess.id());
        assert_eq!(game_kind::<sente::shogi::Position>(), GameKind::Shogi);
    }
}
