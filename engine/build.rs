//! Embeds each game's promoted default net: for every `nets/<game>-default.nnue` (the network
//! loop's `promote` step writes it, `<game>` being a `GameKind` name) it writes a 64-byte aligned
//! `include_bytes!` of the file and a `(game, bytes)` row of `EMBEDDED_NETS` into
//! `$OUT_DIR/embedded_nets.rs`, which `nnue/embedded.rs` includes. The games come from the file
//! names, so this script lists none. A game without a net builds with the classical evaluator as
//! its default.

use std::fmt::Write;
use std::path::Path;

const SUFFIX: &str = "-default.nnue";

fn main() {
    let nets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../nets");
    // A directory is watched as a whole: a net added, replaced or removed reruns this script.
    println!("cargo::rerun-if-changed={}", nets.display());
    let mut found: Vec<(String, String)> = std::fs::read_dir(&nets)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().is_file())
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let game = name.strip_suffix(SUFFIX)?.to_string();
            let path = entry.path().canonicalize().ok()?;
            Some((game, path.to_str()?.to_string()))
        })
        .collect();
    found.sort();
    let mut code = String::from("// Written by engine/build.rs: the default nets in nets/.\n");
    let mut rows = String::new();
    for (index, (game, path)) in found.iter().enumerate() {
        writeln!(
            code,
            "static NET_{index}: super::network::AlignedBytes<{{ include_bytes!({path:?}).len() }}> \
             = super::network::AlignedBytes(*include_bytes!({path:?}));"
        )
        .unwrap();
        writeln!(rows, "    ({game:?}, &NET_{index}.0),").unwrap();
    }
    writeln!(
        code,
        "/// Each embedded net's game (`GameKind::name`) and bytes.\n\
         static EMBEDDED_NETS: &[(&str, &[u8])] = &[\n{rows}];"
    )
    .unwrap();
    let out =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded_nets.rs");
    std::fs::write(out, code).expect("writing embedded_nets.rs");
}
