//! Mate solvers: proof-number search for forced mates by checks (USI `go mate`).

pub mod dfpn;

pub use dfpn::{MateAnswer, MateSolver};
