//! Mate solvers: proof-number search for forced mates by checks (USI `go mate`).

pub mod dfpn;
mod proof_table;

pub use dfpn::{MateAnswer, MateSolver};
