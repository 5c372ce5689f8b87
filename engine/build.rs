//! Embeds each game's promoted default net (`nets/<game>-default.nnue`) when it exists: sets the
//! cfg `sente_embed_<game>` that `nnue/embedded.rs` reads. Without a net the engine builds with the
//! classical evaluator as its default.

use std::path::Path;

fn main() {
    let nets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../nets");
    println!("cargo::rerun-if-changed={}", nets.display());
    for game in ["chess", "shogi"] {
        let cfg = format!("sente_embed_{game}");
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        let net = nets.join(format!("{game}-default.nnue"));
        println!("cargo::rerun-if-changed={}", net.display());
        if net.is_file() {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
}
