//! The net file format: a fixed 128-byte little-endian header followed by 64-byte-aligned arrays
//! that the engine uses in place (memory-mapped or embedded). See `docs/net-format.md`.

use super::arch::{Activation, Architecture};
use thiserror::Error;

/// First eight bytes of every net file.
pub const MAGIC: [u8; 8] = *b"SENTENNU";
/// Current format version.
pub const FORMAT_VERSION: u32 = 1;
/// Header size; the payload starts right after it.
pub const HEADER_LEN: usize = 128;
/// Alignment of every array in the file (and of the file start when embedded or mapped).
pub const ALIGN: usize = 64;
/// Longest net name stored in the header, in bytes.
pub const NAME_LEN: usize = 48;

/// Why a net file was rejected.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NetFormatError {
    #[error("file is {0} bytes, too short for a net header ({HEADER_LEN} bytes)")]
    TooShort(usize),
    #[error("not a Sente net (bad magic)")]
    BadMagic,
    #[error("unsupported net format version {0} (this engine reads version {FORMAT_VERSION})")]
    UnsupportedVersion(u32),
    #[error("net is for {found}, not {expected}")]
    WrongGame {
        expected: &'static str,
        found: String,
    },
    #[error("net architecture does not match this engine's {game} network ({detail})")]
    WrongArchitecture { game: &'static str, detail: String },
    #[error("header is damaged (architecture hash mismatch)")]
    HeaderChecksum,
    #[error("payload is truncated: header says {expected} bytes, file has {found}")]
    Truncated { expected: u64, found: u64 },
    #[error("file has {extra} bytes after the payload the header declares ({expected} bytes): not a net file as written, or damaged")]
    TrailingBytes { expected: u64, extra: u64 },
    #[error("payload is {found} bytes, architecture needs {expected}")]
    PayloadSize { expected: u64, found: u64 },
    #[error("payload checksum mismatch: the net file is corrupt")]
    PayloadChecksum,
    #[error("net data is not {ALIGN}-byte aligned in memory")]
    Misaligned,
}

/// 64-bit FNV-1a, used for the architecture hash and the payload checksum.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Rounds `n` up to the next multiple of `ALIGN`.
pub const fn align_up(n: usize) -> usize {
    n.div_ceil(ALIGN) * ALIGN
}

/// Where each array lives inside the payload, in bytes from the payload start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PayloadLayout {
    pub ft_weights: usize,
    pub ft_bias: usize,
    pub out_weights: usize,
    pub out_bias: usize,
    pub total: usize,
}

impl PayloadLayout {
    /// The layout an architecture implies: feature-transformer weights `i16[rows][l1]`, bias
    /// `i16[l1]`, output weights `i16[output_buckets][2*l1]`, output bias `i32[output_buckets]`.
    pub fn of(arch: &Architecture) -> Self {
        let ft_weights = 0;
        let ft_bias = ft_weights + align_up(arch.feature_rows() * arch.l1 * 2);
        let out_weights = ft_bias + align_up(arch.l1 * 2);
        let out_bias = out_weights + align_up(arch.output_buckets * 2 * arch.l1 * 2);
        let total = out_bias + align_up(arch.output_buckets * 4);
        Self {
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            total,
        }
    }
}

/// The decoded header of a net file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetHeader {
    pub arch: Architecture,
    pub payload_len: u64,
    pub payload_checksum: u64,
    pub name: String,
}

fn put_u32(buf: &mut [u8], at: usize, v: u32) {
    buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn put_u64(buf: &mut [u8], at: usize, v: u64) {
    buf[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

fn get_u32(buf: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(buf[at..at + 4].try_into().expect("4 bytes"))
}

fn get_u64(buf: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(buf[at..at + 8].try_into().expect("8 bytes"))
}

/// Byte range of the header fields that the architecture hash covers.
const ARCH_FIELDS: std::ops::Range<usize> = 12..56;

impl NetHeader {
    /// Serialises the header into its 128 bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut buf = [0u8; HEADER_LEN];
        buf[0..8].copy_from_slice(&MAGIC);
        put_u32(&mut buf, 8, FORMAT_VERSION);
        let a = &self.arch;
        put_u32(&mut buf, 12, a.game_id);
        put_u32(&mut buf, 16, a.feature_set);
        put_u32(&mut buf, 20, a.inputs as u32);
        put_u32(&mut buf, 24, a.king_buckets as u32);
        put_u32(&mut buf, 28, a.l1 as u32);
        put_u32(&mut buf, 32, a.output_buckets as u32);
        put_u32(&mut buf, 36, a.activation as u32);
        put_u32(&mut buf, 40, a.qa as u32);
        put_u32(&mut buf, 44, a.qb as u32);
        put_u32(&mut buf, 48, a.eval_scale as u32);
        put_u32(&mut buf, 52, 0);
        let arch_hash = fnv1a64(&buf[ARCH_FIELDS]);
        put_u64(&mut buf, 56, arch_hash);
        put_u64(&mut buf, 64, self.payload_len);
        put_u64(&mut buf, 72, self.payload_checksum);
        let name = self.name.as_bytes();
        let n = name.len().min(NAME_LEN);
        buf[80..80 + n].copy_from_slice(&name[..n]);
        buf
    }

    /// Parses and checks a header (magic, version, architecture hash); the payload is checked
    /// separately by `validate`.
    pub fn parse(bytes: &[u8]) -> Result<Self, NetFormatError> {
        if bytes.len() < HEADER_LEN {
            return Err(NetFormatError::TooShort(bytes.len()));
        }
        if bytes[0..8] != MAGIC {
            return Err(NetFormatError::BadMagic);
        }
        let version = get_u32(bytes, 8);
        if version != FORMAT_VERSION {
            return Err(NetFormatError::UnsupportedVersion(version));
        }
        if fnv1a64(&bytes[ARCH_FIELDS]) != get_u64(bytes, 56) {
            return Err(NetFormatError::HeaderChecksum);
        }
        let activation_id = get_u32(bytes, 36);
        let activation = Activation::from_id(activation_id).ok_or_else(|| {
            NetFormatError::WrongArchitecture {
                game: "any",
                detail: format!("unknown activation id {activation_id}"),
            }
        })?;
        let arch = Architecture {
            game_id: get_u32(bytes, 12),
            feature_set: get_u32(bytes, 16),
            inputs: get_u32(bytes, 20) as usize,
            king_buckets: get_u32(bytes, 24) as usize,
            l1: get_u32(bytes, 28) as usize,
            output_buckets: get_u32(bytes, 32) as usize,
            activation,
            qa: get_u32(bytes, 40) as i32,
            qb: get_u32(bytes, 44) as i32,
            eval_scale: get_u32(bytes, 48) as i32,
        };
        let name_bytes = &bytes[80..80 + NAME_LEN];
        let end = name_bytes.iter().position(|&b| b == 0).unwrap_or(NAME_LEN);
        Ok(Self {
            arch,
            payload_len: get_u64(bytes, 64),
            payload_checksum: get_u64(bytes, 72),
            name: String::from_utf8_lossy(&name_bytes[..end]).into_owned(),
        })
    }
}

/// Checks a whole net file against the architecture the engine expects and returns its header.
/// The file may have `expected` itself or any width or king-bucket variant of it
/// (`Architecture::check_variant`): the payload is checked against the layout of the header's
/// own architecture.
pub fn validate(bytes: &[u8], expected: &Architecture) -> Result<NetHeader, NetFormatError> {
    let header = validate_contents(bytes, expected)?;
    if !(bytes.as_ptr() as usize).is_multiple_of(ALIGN) {
        return Err(NetFormatError::Misaligned);
    }
    Ok(header)
}

/// Every check of `validate` but the alignment in memory: for a reader that copies the arrays
/// out (`read_net`) rather than using them in place.
fn validate_contents(bytes: &[u8], expected: &Architecture) -> Result<NetHeader, NetFormatError> {
    let header = NetHeader::parse(bytes)?;
    if header.arch.game_id != expected.game_id {
        return Err(NetFormatError::WrongGame {
            expected: expected.game_name(),
            found: header.arch.game_name().to_string(),
        });
    }
    expected
        .check_variant(&header.arch)
        .map_err(|detail| NetFormatError::WrongArchitecture {
            game: expected.game_name(),
            detail,
        })?;
    let available = (bytes.len() - HEADER_LEN) as u64;
    if available < header.payload_len {
        return Err(NetFormatError::Truncated {
            expected: header.payload_len,
            found: available,
        });
    }
    if available > header.payload_len {
        return Err(NetFormatError::TrailingBytes {
            expected: header.payload_len,
            extra: available - header.payload_len,
        });
    }
    let layout = PayloadLayout::of(&header.arch);
    if header.payload_len != layout.total as u64 {
        return Err(NetFormatError::PayloadSize {
            expected: layout.total as u64,
            found: header.payload_len,
        });
    }
    let payload = &bytes[HEADER_LEN..HEADER_LEN + layout.total];
    if fnv1a64(payload) != header.payload_checksum {
        return Err(NetFormatError::PayloadChecksum);
    }
    Ok(header)
}

/// A net file's arrays copied out of it: the inverse of `write_net`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantizedNet {
    pub header: NetHeader,
    pub ft_weights: Vec<i16>,
    pub ft_bias: Vec<i16>,
    pub out_weights: Vec<i16>,
    pub out_bias: Vec<i32>,
}

/// Reads a complete net file (any alignment) of `expected` or one of its width and king-bucket
/// variants, with every check of `validate`: the trainer starts a run from a net this way
/// (`tuner train --init`).
pub fn read_net(bytes: &[u8], expected: &Architecture) -> Result<QuantizedNet, NetFormatError> {
    let header = validate_contents(bytes, expected)?;
    let arch = header.arch;
    let layout = PayloadLayout::of(&arch);
    let payload = &bytes[HEADER_LEN..HEADER_LEN + layout.total];
    let i16s = |at: usize, len: usize| -> Vec<i16> {
        payload[at..at + 2 * len]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect()
    };
    let out_bias = payload[layout.out_bias..layout.out_bias + 4 * arch.output_buckets]
        .chunks_exact(4)
        .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    Ok(QuantizedNet {
        ft_weights: i16s(layout.ft_weights, arch.feature_rows() * arch.l1),
        ft_bias: i16s(layout.ft_bias, arch.l1),
        out_weights: i16s(layout.out_weights, arch.output_buckets * 2 * arch.l1),
        out_bias,
        header,
    })
}

/// Builds a complete net file from quantized arrays (used by the tuner and by tests).
pub fn write_net(
    arch: &Architecture,
    name: &str,
    ft_weights: &[i16],
    ft_bias: &[i16],
    out_weights: &[i16],
    out_bias: &[i32],
) -> Vec<u8> {
    let layout = PayloadLayout::of(arch);
    assert_eq!(ft_weights.len(), arch.feature_rows() * arch.l1);
    assert_eq!(ft_bias.len(), arch.l1);
    assert_eq!(out_weights.len(), arch.output_buckets * 2 * arch.l1);
    assert_eq!(out_bias.len(), arch.output_buckets);
    let mut payload = vec![0u8; layout.total];
    let mut put_i16s = |at: usize, values: &[i16]| {
        for (i, v) in values.iter().enumerate() {
            payload[at + 2 * i..at + 2 * i + 2].copy_from_slice(&v.to_le_bytes());
        }
    };
    put_i16s(layout.ft_weights, ft_weights);
    put_i16s(layout.ft_bias, ft_bias);
    put_i16s(layout.out_weights, out_weights);
    for (i, v) in out_bias.iter().enumerate() {
        let at = layout.out_bias + 4 * i;
        payload[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    let header = NetHeader {
        arch: *arch,
        payload_len: layout.total as u64,
        payload_checksum: fnv1a64(&payload),
        name: name.to_string(),
    };
    let mut file = header.to_bytes().to_vec();
    file.extend_from_slice(&payload);
    file
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::arch::CHESS;

    #[test]
    fn an_unknown_activation_id_is_a_clear_error() {
        let header = NetHeader {
            arch: CHESS,
            payload_len: 0,
            payload_checksum: 0,
            name: "test".into(),
        };
        let mut bytes = header.to_bytes();
        assert_eq!(NetHeader::parse(&bytes), Ok(header));
        // Id 1 (plain CReLU) was never produced; the header hash is redone so only the id is wrong.
        put_u32(&mut bytes, 36, 1);
        let arch_hash = fnv1a64(&bytes[ARCH_FIELDS]);
        put_u64(&mut bytes, 56, arch_hash);
        let error = NetHeader::parse(&bytes).unwrap_err().to_string();
        assert!(error.contains("unknown activation id 1"), "{error}");
    }

    /// Arrays of every sign and size, different in each position, so that a swapped or shifted
    /// array cannot read back equal.
    fn sample_arrays(arch: &Architecture) -> (Vec<i16>, Vec<i16>, Vec<i16>, Vec<i32>) {
        let ramp = |len: usize, step: i32| -> Vec<i16> {
            (0..len)
                .map(|i| ((i as i32 * step) % 65_521 - 32_000) as i16)
                .collect()
        };
        let out_bias = (0..arch.output_buckets as i32)
            .map(|i| i * 1_000_003 - 4_000_000)
            .collect();
        (
            ramp(arch.feature_rows() * arch.l1, 7),
            ramp(arch.l1, 13),
            ramp(arch.output_buckets * 2 * arch.l1, 31),
            out_bias,
        )
    }

    #[test]
    fn read_net_gives_back_what_write_net_wrote_at_any_alignment() {
        let arch = CHESS.with_l1(256);
        let (ft_w, ft_b, out_w, out_b) = sample_arrays(&arch);
        let file = write_net(&arch, "round trip", &ft_w, &ft_b, &out_w, &out_b);
        // One byte in front: the copy is misaligned, which `validate` refuses and `read_net` reads.
        let mut shifted = vec![0u8];
        shifted.extend_from_slice(&file);
        let bytes = &shifted[1..];
        if !(bytes.as_ptr() as usize).is_multiple_of(ALIGN) {
            assert_eq!(validate(bytes, &CHESS), Err(NetFormatError::Misaligned));
        }
        let net = read_net(bytes, &CHESS).expect("a written net reads back");
        assert_eq!(net.header.arch, arch);
        assert_eq!(net.header.name, "round trip");
        assert_eq!(net.ft_weights, ft_w);
        assert_eq!(net.ft_bias, ft_b);
        assert_eq!(net.out_weights, out_w);
        assert_eq!(net.out_bias, out_b);
    }

    #[test]
    fn read_net_refuses_a_damaged_payload_and_another_game() {
        let (ft_w, ft_b, out_w, out_b) = sample_arrays(&CHESS);
        let mut file = write_net(&CHESS, "damaged", &ft_w, &ft_b, &out_w, &out_b);
        let shogi = crate::nnue::arch::SHOGI;
        assert!(matches!(
            read_net(&file, &shogi),
            Err(NetFormatError::WrongGame { .. })
        ));
        let middle = HEADER_LEN + file.len() / 2;
        file[middle] ^= 0x40;
        assert_eq!(
            read_net(&file, &CHESS),
            Err(NetFormatError::PayloadChecksum)
        );
        assert!(matches!(
            read_net(&file[..file.len() - 1], &CHESS),
            Err(NetFormatError::Truncated { .. })
        ));
    }
}
