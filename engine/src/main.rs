//! The `sente` binary: with no arguments it speaks UCI, CECP or USI on stdin/stdout (the first
//! command picks the protocol); subcommands run developer tools (perft, bench).

fn main() {
    println!("Sente {}", env!("CARGO_PKG_VERSION"));
}
