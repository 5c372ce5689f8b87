//! A loaded, validated net: its bytes (an anonymous map holding a copy of a file or of given
//! bytes, a memory-mapped large file, or an embedded static) and typed views of its arrays,
//! used in place without copying.

use super::arch::Architecture;
use super::format::{self, NetFormatError, NetHeader, PayloadLayout, HEADER_LEN};
use super::simd::{self, SimdLevel};
use memmap2::{Mmap, MmapMut};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Net files up to this size are copied into memory at load (the shipped 1.2 MB nets in about
/// 2 ms, validation included; 16 MB in about 50 ms on a loaded machine); larger ones are
/// memory-mapped so that loading stays quick (validation reads them once either way).
const COPY_LIMIT_BYTES: u64 = 16 << 20;

/// Why a net could not be loaded.
#[derive(Debug, Error)]
pub enum NetLoadError {
    #[error("cannot read net file '{path}': {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("net file '{path}': {source}")]
    Format {
        path: PathBuf,
        source: NetFormatError,
    },
    #[error("net: {0}")]
    Invalid(#[from] NetFormatError),
}

enum NetBytes {
    Mapped(Mmap),
    Static(&'static [u8]),
}

impl NetBytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            NetBytes::Mapped(map) => map,
            NetBytes::Static(bytes) => bytes,
        }
    }
}

/// A validated network, ready for inference.
pub struct Network {
    bytes: NetBytes,
    header: NetHeader,
    layout: PayloadLayout,
    source: String,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("name", &self.header.name)
            .field("source", &self.source)
            .field("arch", &self.header.arch)
            .finish()
    }
}

/// Where a relative net path is looked for: the working directory, then the directory of the
/// running binary (GUIs start engines from anywhere).
pub fn resolve_net_path(path: &Path) -> PathBuf {
    if path.is_absolute() || path.exists() {
        return path.to_path_buf();
    }
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
    {
        let candidate = dir.join(path);
        if candidate.exists() {
            return candidate;
        }
    }
    path.to_path_buf()
}

impl Network {
    /// Validates `bytes` as a net of `arch` or of one of its width and king-bucket variants
    /// (`Architecture::check_variant`); every size comes from the net's own header.
    fn new(bytes: NetBytes, arch: &Architecture, source: String) -> Result<Self, NetFormatError> {
        let header = format::validate(bytes.as_slice(), arch)?;
        let layout = PayloadLayout::of(&header.arch);
        Ok(Self {
            bytes,
            header,
            layout,
            source,
        })
    }

    /// Copies (or, above `COPY_LIMIT_BYTES`, memory-maps) and validates a net file (relative
    /// paths resolved by `resolve_net_path`) of
    /// architecture `arch` or one of its width and king-bucket variants; `arch()` is then the
    /// file's.
    pub fn load(path: &Path, arch: &Architecture) -> Result<Self, NetLoadError> {
        let resolved = resolve_net_path(path);
        let io = |source| NetLoadError::Io {
            path: resolved.clone(),
            source,
        };
        // Opening a FIFO blocks until a writer comes, and reading a device may never end: only
        // regular files (after following links) are opened.
        let metadata = std::fs::metadata(&resolved).map_err(io)?;
        if !metadata.is_file() {
            let kind = if metadata.is_dir() {
                "a directory"
            } else {
                "not a regular file (a FIFO, socket or device)"
            };
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("it is {kind}"),
            )));
        }
        let mut file = std::fs::File::open(&resolved).map_err(io)?;
        let map = if metadata.len() <= COPY_LIMIT_BYTES {
            // A copy in anonymous memory: a file truncated or rewritten by another process while
            // the engine uses the net cannot fault (SIGBUS) the search.
            let len = metadata.len() as usize;
            let mut copy = MmapMut::map_anon(len.max(1)).map_err(io)?;
            std::io::Read::read_exact(&mut file, &mut copy[..len]).map_err(|source| {
                io(std::io::Error::new(
                    source.kind(),
                    format!("reading {len} bytes: {source} (did the file change?)"),
                ))
            })?;
            copy.make_read_only().map_err(io)?
        } else {
            // SAFETY: the map is read-only and private to this process; Sente never writes net
            // files it has mapped. Only nets above `COPY_LIMIT_BYTES` are mapped (copying them
            // would slow the load): one truncated by another process while mapped could fault,
            // as for any memory-mapped reader; validation reads the whole payload once at load.
            unsafe { Mmap::map(&file) }.map_err(io)?
        };
        Self::new(NetBytes::Mapped(map), arch, resolved.display().to_string()).map_err(|source| {
            NetLoadError::Format {
                path: resolved.clone(),
                source,
            }
        })
    }

    /// Uses a net embedded in the binary; `bytes` must be 64-byte aligned (see `AlignedBytes`).
    /// As `load`, any width or king-bucket variant of `arch` is accepted.
    pub fn from_static(bytes: &'static [u8], arch: &Architecture) -> Result<Self, NetFormatError> {
        Self::new(NetBytes::Static(bytes), arch, "embedded".to_string())
    }

    /// Copies `bytes` into page-aligned memory and validates them (tests, freshly quantized nets).
    /// As `load`, any width or king-bucket variant of `arch` is accepted.
    pub fn from_bytes(bytes: &[u8], arch: &Architecture) -> Result<Self, NetLoadError> {
        let mut map = MmapMut::map_anon(bytes.len().max(1)).map_err(|source| NetLoadError::Io {
            path: PathBuf::from("<memory>"),
            source,
        })?;
        map[..bytes.len()].copy_from_slice(bytes);
        let map = map.make_read_only().map_err(|source| NetLoadError::Io {
            path: PathBuf::from("<memory>"),
            source,
        })?;
        if bytes.is_empty() {
            return Err(NetFormatError::TooShort(0).into());
        }
        Ok(Self::new(
            NetBytes::Mapped(map),
            arch,
            "memory".to_string(),
        )?)
    }

    pub fn header(&self) -> &NetHeader {
        &self.header
    }

    /// The net's own architecture, from its header (its width may differ from the game's
    /// default).
    pub fn arch(&self) -> &Architecture {
        &self.header.arch
    }

    /// Where the net came from: a path, "embedded" or "memory".
    pub fn source(&self) -> &str {
        &self.source
    }

    fn payload(&self) -> &[u8] {
        &self.bytes.as_slice()[HEADER_LEN..HEADER_LEN + self.layout.total]
    }

    fn i16s(&self, start: usize, len: usize) -> &[i16] {
        bytemuck::cast_slice(&self.payload()[start..start + 2 * len])
    }

    /// The feature-transformer weight row of one feature (already bucket-offset).
    #[inline]
    pub fn ft_row(&self, row: usize) -> &[i16] {
        let l1 = self.header.arch.l1;
        self.i16s(self.layout.ft_weights + 2 * row * l1, l1)
    }

    /// All feature-transformer weight rows, row after row (`l1` values each): callers that take
    /// several rows slice this once instead of validating each row.
    #[inline]
    pub fn ft_weights(&self) -> &[i16] {
        let l1 = self.header.arch.l1;
        self.i16s(self.layout.ft_weights, self.header.arch.feature_rows() * l1)
    }

    #[inline]
    pub fn ft_bias(&self) -> &[i16] {
        self.i16s(self.layout.ft_bias, self.header.arch.l1)
    }

    /// Output weights of one bucket: the side-to-move half then the other half.
    #[inline]
    pub fn out_weights(&self, bucket: usize) -> &[i16] {
        let n = 2 * self.header.arch.l1;
        self.i16s(self.layout.out_weights + 2 * bucket * n, n)
    }

    #[inline]
    pub fn out_bias(&self, bucket: usize) -> i32 {
        let at = self.layout.out_bias + 4 * bucket;
        i32::from_le_bytes(self.payload()[at..at + 4].try_into().expect("4 bytes"))
    }

    /// The network's output in centipawns from the accumulators of the side to move (`us`) and
    /// the other side (`them`), with output bucket `bucket`.
    pub fn output(&self, level: SimdLevel, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        self.output_as(&self.header.arch, level, us, them, bucket)
    }

    /// `output` with the quantization constants taken from `arch`, which must have this net's
    /// quantization (as a game's default architecture has for all its width and king-bucket
    /// variants). Called
    /// with a game's constant architecture, the divisions below compile to multiplications (a
    /// run-time divisor costs an integer division per evaluation); the width is the net's.
    #[inline(always)]
    pub fn output_as(
        &self,
        arch: &Architecture,
        level: SimdLevel,
        us: &[i16],
        them: &[i16],
        bucket: usize,
    ) -> i32 {
        debug_assert!(arch.same_quantization(&self.header.arch), "{arch}");
        let sum = simd::screlu_dot(level, us, them, self.out_weights(bucket), arch.qa as i16);
        // SCReLU sums are in QA² · QB units: divide one QA out before adding the bias (QA · QB).
        let raw = sum / arch.qa + self.out_bias(bucket);
        (raw as i64 * arch.eval_scale as i64 / (arch.qa as i64 * arch.qb as i64)) as i32
    }
}

/// A byte array with the 64-byte alignment net data needs, for `include_bytes!` embedding.
#[repr(C, align(64))]
pub struct AlignedBytes<const N: usize>(pub [u8; N]);
