//! NNUE evaluation: the architectures (declared once, imported by datagen and the tuner), the net
//! file format, loading (memory-mapped or embedded) and the SIMD kernels.

pub mod arch;
pub mod format;
pub mod network;
pub mod simd;

pub use arch::{Activation, Architecture};
pub use format::NetFormatError;
pub use network::{NetLoadError, Network};
pub use simd::SimdLevel;
