//! Readers of the foreign formats over a read-only memory map: a scan decodes each record of a
//! file once, in file order, into a Sente record (a position, or a game for binpack chains and
//! viriformat games) handed to a callback, and keeps only the records' byte offsets, so that
//! [`ForeignFile::record`] decodes any record again on demand; no decoded file is ever held in
//! memory. A record that does not decode is an error naming the file and the record's byte
//! offset (text: its line during the scan).

use crate::binpack_chunk::decode_binpack_chunk_from;
use crate::file::map_file;
use crate::format_chess_records::{
    bullet_from_bytes, check_marlin_header, decode_binpack_chain, decode_bullet, decode_viri,
};
use crate::format_kind::ForeignFormat;
use crate::format_shogi_records::decode_shogi_record;
use crate::format_text::decode_text_line;
use crate::stored_game::StoredGame;
use anyhow::{anyhow, bail, Result};
use memmap2::Mmap;
use sente::game::GameKind;
use sfbinpack::TrainingDataEntry;
use std::path::{Path, PathBuf};

/// A scanned foreign file: its map and where each record starts.
pub struct ForeignFile {
    path: PathBuf,
    format: ForeignFormat,
    game: GameKind,
    map: Mmap,
    /// Byte offset of each record (text lines, viriformat games, binpack chains); empty for
    /// the fixed-size formats, whose record `i` starts at `i · size`.
    offsets: Vec<u64>,
    /// Byte offset of each binpack chunk.
    chunks: Vec<u64>,
    records: u64,
}

/// Reads every record of `path` in `format` as game `game`'s records, in file order; returns
/// how many records (positions or games) were read.
pub fn read_foreign(
    path: &Path,
    format: ForeignFormat,
    game: GameKind,
    mut visit: impl FnMut(StoredGame),
) -> Result<u64> {
    Ok(ForeignFile::scan(path, format, game, |_, record| visit(record))?.len())
}

impl ForeignFile {
    /// Maps `path` and decodes each record once, calling `visit(index, record)` in file order.
    pub fn scan(
        path: &Path,
        format: ForeignFormat,
        game: GameKind,
        mut visit: impl FnMut(u64, StoredGame),
    ) -> Result<Self> {
        let file = Self::open(path, format, game)?;
        for index in 0..file.len() {
            visit(index, file.record(index)?);
        }
        Ok(file)
    }

    /// Maps `path` and finds where its records start (checking the framing: whole fixed-size
    /// records, viriformat game headers and ends, binpack chunk headers), without decoding them
    /// except for binpack, whose chains are only known by decoding. Records then decode with
    /// [`ForeignFile::record`], in any order and from any thread.
    pub fn open(path: &Path, format: ForeignFormat, game: GameKind) -> Result<Self> {
        format.check_game(game, path)?;
        let map = map_file(path)?;
        let mut file = ForeignFile {
            path: path.to_path_buf(),
            format,
            game,
            map,
            offsets: Vec::new(),
            chunks: Vec::new(),
            records: 0,
        };
        let len = file.map.len() as u64;
        if let Some(size) = format.record_size() {
            if !len.is_multiple_of(size as u64) {
                bail!(
                    "{}: {len} bytes is not a whole number of {size}-byte {format} records (truncated record at byte {})",
                    path.display(),
                    len / size as u64 * size as u64
                );
            }
            file.records = len / size as u64;
            return Ok(file);
        }
        match format {
            ForeignFormat::Text => {
                let mut offset = 0usize;
                while offset < file.map.len() {
                    let end = line_end(&file.map, offset);
                    if !file.map[offset..end].iter().all(u8::is_ascii_whitespace) {
                        file.offsets.push(offset as u64);
                    }
                    offset = end + 1;
                }
            }
            ForeignFormat::Viriformat => {
                let mut offset = 0usize;
                while offset < file.map.len() {
                    let size = viri_game_size(&file.map[offset..])
                        .map_err(|e| file.at(offset as u64, e))?;
                    file.offsets.push(offset as u64);
                    offset += size;
                }
            }
            ForeignFormat::Binpack => file.scan_binpack(&mut |_, _| {})?,
            _ => unreachable!("fixed-size formats are read above"),
        }
        file.records = file.offsets.len() as u64;
        Ok(file)
    }

    /// How many records the file holds.
    pub fn len(&self) -> u64 {
        self.records
    }

    pub fn is_empty(&self) -> bool {
        self.records == 0
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Record `index` (below [`ForeignFile::len`]), decoded again from the map.
    pub fn record(&self, index: u64) -> Result<StoredGame> {
        if let Some(size) = self.format.record_size() {
            let offset = index * size as u64;
            let bytes = &self.map[offset as usize..offset as usize + size];
            let decoded = match self.format {
                ForeignFormat::Bulletformat => {
                    bullet_from_bytes(bytes).and_then(|b| decode_bullet(&b))
                }
                _ => decode_shogi_record(self.format, bytes),
            };
            return decoded.map_err(|e| self.at(offset, e));
        }
        let offset = self.offsets[index as usize] as usize;
        match self.format {
            ForeignFormat::Text => {
                let line = &self.map[offset..line_end(&self.map, offset)];
                self.decode_line(line).map_err(|e| {
                    let number = 1 + self.map[..offset].iter().filter(|&&b| b == b'\n').count();
                    anyhow!("{}: line {number}: {e:#}", self.path.display())
                })
            }
            ForeignFormat::Viriformat => {
                let size =
                    viri_game_size(&self.map[offset..]).map_err(|e| self.at(offset as u64, e))?;
                self.decode_viri_at(offset, size)
            }
            _ => self.binpack_chain_at(offset as u64),
        }
    }

    fn at(&self, offset: u64, e: anyhow::Error) -> anyhow::Error {
        anyhow!(
            "{}: {} record at byte {offset}: {e:#}",
            self.path.display(),
            self.format
        )
    }

    fn decode_line(&self, line: &[u8]) -> Result<StoredGame> {
        let line = std::str::from_utf8(line).map_err(|_| anyhow!("not UTF-8 text"))?;
        match self.game {
            GameKind::Chess => decode_text_line::<sente::chess::Position>(line),
            GameKind::Shogi => decode_text_line::<sente::shogi::Position>(line),
        }
    }

    fn decode_viri_at(&self, offset: usize, size: usize) -> Result<StoredGame> {
        let game = viriformat::dataformat::Game::deserialise_from(
            &mut &self.map[offset..offset + size],
            Vec::new(),
        )
        .map_err(|e| self.at(offset as u64, e.into()))?;
        decode_viri(&game).map_err(|e| self.at(offset as u64, e))
    }

    /// The payload of the chunk at `self.chunks[chunk]`.
    fn payload(&self, chunk: usize) -> &[u8] {
        let at = self.chunks[chunk] as usize;
        let size = u32::from_le_bytes(self.map[at + 4..at + 8].try_into().expect("4 bytes"));
        &self.map[at + 8..at + 8 + size as usize]
    }

    /// Checks each chunk header and decodes the chains (a chain continues across stems and
    /// chunks while each entry continues the one before).
    fn scan_binpack(&mut self, visit: &mut impl FnMut(u64, StoredGame)) -> Result<()> {
        let len = self.map.len() as u64;
        let mut offset = 0u64;
        while offset < len {
            if len - offset < 8 {
                return Err(self.at(offset, anyhow!("truncated chunk header")));
            }
            let header = &self.map[offset as usize..offset as usize + 8];
            if &header[..4] != b"BINP" {
                return Err(self.at(offset, anyhow!("bad magic (not a binpack chunk)")));
            }
            let size = u32::from_le_bytes(header[4..8].try_into().expect("4 bytes")) as u64;
            if offset + 8 + size > len {
                return Err(self.at(
                    offset,
                    anyhow!(
                        "truncated chunk ({size} bytes declared, {} left)",
                        len - offset - 8
                    ),
                ));
            }
            self.chunks.push(offset);
            offset += 8 + size;
        }
        let mut chain: Vec<TrainingDataEntry> = Vec::new();
        let mut chain_at = 0u64;
        let mut starts = Vec::new();
        for chunk in 0..self.chunks.len() {
            let base = self.chunks[chunk] + 8;
            let mut failed = None;
            decode_binpack_chunk_from(self.payload(chunk), 0, |entry, at| {
                if chain
                    .last()
                    .is_some_and(|last| !last.is_continuation(&entry))
                {
                    match decode_binpack_chain(&chain) {
                        Ok(record) => {
                            visit(starts.len() as u64, record);
                            starts.push(chain_at);
                        }
                        Err(e) => {
                            failed = Some(self.at(chain_at, e));
                            return false;
                        }
                    }
                    chain.clear();
                }
                if chain.is_empty() {
                    chain_at = base + at as u64;
                }
                chain.push(entry);
                true
            })
            .map_err(|e| self.at(base + e.offset as u64, anyhow!("{}", e.reason)))?;
            if let Some(e) = failed {
                return Err(e);
            }
        }
        if !chain.is_empty() {
            let record = decode_binpack_chain(&chain).map_err(|e| self.at(chain_at, e))?;
            visit(starts.len() as u64, record);
            starts.push(chain_at);
        }
        self.offsets = starts;
        Ok(())
    }

    /// The chain whose first stem is at byte `offset`, followed into later stems and chunks.
    fn binpack_chain_at(&self, offset: u64) -> Result<StoredGame> {
        let mut chunk = self.chunks.partition_point(|&c| c < offset) - 1;
        let mut start = (offset - self.chunks[chunk] - 8) as usize;
        let mut chain: Vec<TrainingDataEntry> = Vec::new();
        loop {
            let base = self.chunks[chunk] + 8;
            let reached_end = decode_binpack_chunk_from(self.payload(chunk), start, |entry, _| {
                if chain
                    .last()
                    .is_some_and(|last| !last.is_continuation(&entry))
                {
                    return false;
                }
                chain.push(entry);
                true
            })
            .map_err(|e| self.at(base + e.offset as u64, anyhow!("{}", e.reason)))?;
            chunk += 1;
            if !reached_end || chunk == self.chunks.len() {
                break;
            }
            start = 0;
        }
        decode_binpack_chain(&chain).map_err(|e| self.at(offset, e))
    }
}

/// The end of the line starting at `offset` (its `\n`, or the end of the bytes).
fn line_end(bytes: &[u8], offset: usize) -> usize {
    bytes[offset..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |n| offset + n)
}

/// Bytes of the viriformat game at the start of `bytes`: its marlinformat header and its
/// move/score pairs up to the null move that ends it.
fn viri_game_size(bytes: &[u8]) -> Result<usize> {
    let header: &[u8; 32] = bytes
        .get(..32)
        .and_then(|h| h.try_into().ok())
        .ok_or_else(|| anyhow!("truncated game header"))?;
    check_marlin_header(header)?;
    let mut at = 32;
    loop {
        let pair = bytes
            .get(at..at + 4)
            .ok_or_else(|| anyhow!("truncated game (no terminating null move)"))?;
        at += 4;
        if pair == [0; 4] {
            return Ok(at);
        }
    }
}
