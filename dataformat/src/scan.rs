//! The chunk structure of a whole data file: every valid chunk, every damaged stretch between or
//! after them, and a torn tail. Chunks are appended whole and synced, so a killed writer leaves at
//! most one torn chunk at the end; `scan` tells that torn tail apart from damaged chunks, and
//! resynchronises past damage so that no later intact chunk is lost.

use crate::chunk::{
    parse_chunk, read_u32, ChunkError, ChunkInfo, CHUNK_HEADER_LEN, FORMAT_VERSION, MAGIC,
};
use sente::game::GameKind;

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
/// when the payload is decoded (`chunk::decode_games`), and `datagen run` checks that the game
/// indices of its own file's chunks follow each other before resuming.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::{encode_chunk, read_chunk};
    use crate::stored_game::{sample_game as game, StoredGame};

    /// A file of `chunks` chunks of three games each, and its games.
    fn file_of(chunks: usize) -> (Vec<u8>, Vec<StoredGame>) {
        let games: Vec<StoredGame> = (0..3 * chunks as u16).map(game).collect();
        let mut file = Vec::new();
        for (i, part) in games.chunks(3).enumerate() {
            file.extend_from_slice(&encode_chunk(GameKind::Chess.id(), 3 * i as u64, part));
        }
        (file, games)
    }

    #[test]
    fn chunks_are_found_and_a_torn_tail_is_told_apart_from_damage() {
        let (file, games) = file_of(2);
        let scan_all = scan(&file);
        assert_eq!(scan_all.damaged, vec![]);
        assert_eq!(scan_all.torn_tail, None);
        let chunks = scan_all.chunks;
        assert_eq!(chunks.len(), 2);
        assert_eq!(chunks[1].first_game, 3);
        assert_eq!(read_chunk(&file, chunks[1].offset).unwrap().1, games[3..]);

        let torn = &file[..file.len() - 3];
        let found = scan(torn);
        assert_eq!(found.chunks.len(), 1);
        assert!(found.damaged.is_empty());
        let torn_error = ChunkError::Truncated {
            offset: chunks[0].end(),
        };
        assert_eq!(found.torn_tail, Some((chunks[0].end(), torn_error)));
        assert_eq!(found.end_before_torn_tail(torn.len()), chunks[0].end());

        let mut damaged = file.clone();
        damaged[CHUNK_HEADER_LEN + 2] ^= 1;
        let found = scan(&damaged);
        assert_eq!(found.chunks, chunks[1..].to_vec());
        assert_eq!(found.damaged.len(), 1);
        assert_eq!(found.damaged[0].error, ChunkError::Checksum { offset: 0 });
        assert_eq!(
            found.damaged[0].to_string(),
            format!(
                "chunk 1 (bytes 0..{}) is damaged: chunk at byte 0: checksum mismatch",
                chunks[0].end()
            )
        );
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
    fn a_chunk_of_an_unknown_game_is_damage() {
        let (mut file, _) = file_of(2);
        file.extend_from_slice(&encode_chunk(7, 6, &[game(0)]));
        let found = scan(&file);
        assert_eq!(found.chunks.len(), 2);
        assert_eq!(found.damaged.len(), 1);
        assert!(found.damaged[0].to_string().contains("unknown game id 7"));
    }
}
