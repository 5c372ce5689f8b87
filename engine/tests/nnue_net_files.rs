//! Net files: a written net loads back (from memory and from a memory-mapped file) with its
//! arrays intact, and every kind of damaged or mismatched file is rejected with its own error.
//! Width variants of a game's architecture load with their own sizes, unsupported widths are
//! refused, and every net shipped in `nets/` still loads.

use sente::nnue::arch::{CHESS, SHOGI, SUPPORTED_KING_BUCKETS, SUPPORTED_L1};
use sente::nnue::format::{write_net, NetFormatError, PayloadLayout, HEADER_LEN};
use sente::nnue::random_net::random_net_bytes;
use sente::nnue::{Architecture, NetLoadError, Network, SimdLevel};

fn tiny_arch() -> Architecture {
    Architecture {
        inputs: 8,
        king_buckets: 2,
        l1: 32,
        output_buckets: 2,
        ..CHESS
    }
}

fn sample_net(arch: &Architecture) -> Vec<u8> {
    let ft_w: Vec<i16> = (0..arch.feature_rows() * arch.l1)
        .map(|i| (i % 41) as i16 - 20)
        .collect();
    let ft_b: Vec<i16> = (0..arch.l1).map(|i| i as i16).collect();
    let out_w: Vec<i16> = (0..arch.output_buckets * 2 * arch.l1)
        .map(|i| (i % 7) as i16 - 3)
        .collect();
    let out_b: Vec<i32> = (0..arch.output_buckets as i32).map(|b| 1000 * b).collect();
    write_net(arch, "tiny-test", &ft_w, &ft_b, &out_w, &out_b)
}

fn format_error(bytes: &[u8], arch: &Architecture) -> NetFormatError {
    match Network::from_bytes(bytes, arch) {
        Err(NetLoadError::Invalid(e)) => e,
        other => panic!("expected a format error, got {other:?}"),
    }
}

#[test]
fn a_written_net_loads_back_with_its_arrays() {
    let arch = tiny_arch();
    let net = Network::from_bytes(&sample_net(&arch), &arch).expect("valid net");
    assert_eq!(net.header().name, "tiny-test");
    assert_eq!(net.ft_row(3)[5], ((3 * 32 + 5) % 41) as i16 - 20);
    assert_eq!(net.ft_bias()[31], 31);
    assert_eq!(net.out_weights(1)[0], ((2 * 32) % 7) as i16 - 3);
    assert_eq!(net.out_bias(1), 1000);
}

#[test]
fn a_net_file_is_memory_mapped_and_relative_paths_resolve() {
    let arch = tiny_arch();
    let dir = std::env::temp_dir().join(format!("sente-net-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tiny.nnue");
    std::fs::write(&path, sample_net(&arch)).unwrap();
    let net = Network::load(&path, &arch).expect("loads");
    assert_eq!(net.source(), path.display().to_string());
    let acc = vec![100i16; 32];
    let simd = net.output(SimdLevel::detected(), &acc, &acc, 0);
    let scalar = net.output(SimdLevel::Scalar, &acc, &acc, 0);
    assert_eq!(simd, scalar);
    let missing = Network::load(&dir.join("missing.nnue"), &arch).unwrap_err();
    assert!(matches!(missing, NetLoadError::Io { .. }), "{missing}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_files_are_rejected_each_with_its_reason() {
    let arch = tiny_arch();
    let good = sample_net(&arch);

    assert_eq!(
        format_error(&good[..100], &arch),
        NetFormatError::TooShort(100)
    );

    let mut bad_magic = good.clone();
    bad_magic[0] = b'X';
    assert_eq!(format_error(&bad_magic, &arch), NetFormatError::BadMagic);

    let mut bad_version = good.clone();
    bad_version[8] = 99;
    assert_eq!(
        format_error(&bad_version, &arch),
        NetFormatError::UnsupportedVersion(99)
    );

    let mut bad_header = good.clone();
    bad_header[28] ^= 1; // l1 changed without updating the architecture hash
    assert_eq!(
        format_error(&bad_header, &arch),
        NetFormatError::HeaderChecksum
    );

    let truncated = &good[..good.len() - 10];
    assert!(matches!(
        format_error(truncated, &arch),
        NetFormatError::Truncated { .. }
    ));

    let mut trailing = good.clone();
    trailing.extend_from_slice(b"extra");
    assert_eq!(
        format_error(&trailing, &arch),
        NetFormatError::TrailingBytes {
            expected: (good.len() - HEADER_LEN) as u64,
            extra: 5
        }
    );

    let mut corrupt = good.clone();
    corrupt[HEADER_LEN + 7] ^= 0x40;
    assert_eq!(
        format_error(&corrupt, &arch),
        NetFormatError::PayloadChecksum
    );
}

#[test]
fn nets_for_another_game_or_architecture_are_rejected() {
    let arch = tiny_arch();
    let good = sample_net(&arch);
    let shogi_tiny = Architecture {
        inputs: 8,
        king_buckets: 2,
        l1: 32,
        output_buckets: 2,
        ..SHOGI
    };
    assert!(matches!(
        format_error(&good, &shogi_tiny),
        NetFormatError::WrongGame {
            expected: "shogi",
            ..
        }
    ));
    let wider = Architecture { l1: 64, ..arch };
    let err = format_error(&good, &wider);
    assert!(
        matches!(err, NetFormatError::WrongArchitecture { .. }),
        "{err}"
    );
    assert!(
        err.to_string().contains("l1") || err.to_string().contains("32"),
        "{err}"
    );
}

#[test]
fn width_and_king_bucket_variants_load_with_the_sizes_of_their_header() {
    for arch in [CHESS, SHOGI] {
        for &l1 in SUPPORTED_L1 {
            for &buckets in SUPPORTED_KING_BUCKETS {
                let variant = arch.with_l1(l1).with_king_buckets(buckets);
                let bytes = random_net_bytes(&variant, 3);
                assert_eq!(bytes.len(), HEADER_LEN + PayloadLayout::of(&variant).total);
                // Loaded as the game's (default) architecture: the net keeps its own sizes.
                let net = Network::from_bytes(&bytes, &arch).expect("a supported variant");
                assert_eq!(*net.arch(), variant);
                assert_eq!(net.ft_bias().len(), l1);
                assert_eq!(variant.feature_rows(), arch.inputs * buckets);
                assert_eq!(net.ft_row(variant.feature_rows() - 1).len(), l1);
                assert_eq!(net.out_weights(arch.output_buckets - 1).len(), 2 * l1);
            }
        }
    }
}

#[test]
fn unsupported_widths_and_other_feature_sets_are_refused_with_their_reason() {
    for l1 in [96, 160, 64, 2048] {
        let bytes = random_net_bytes(&CHESS.with_l1(l1), 4);
        let err = format_error(&bytes, &CHESS);
        assert!(
            matches!(err, NetFormatError::WrongArchitecture { game: "chess", .. }),
            "{err}"
        );
        let text = err.to_string();
        assert!(
            text.contains(&format!("hidden width l1={l1} is not supported"))
                && text.contains("supported widths: 128, 256, 384, 512, 768, 1024"),
            "{text}"
        );
    }
    // A shogi net of a supported width is still no chess net.
    let shogi_wide = random_net_bytes(&SHOGI.with_l1(256), 4);
    assert!(matches!(
        format_error(&shogi_wide, &CHESS),
        NetFormatError::WrongGame {
            expected: "chess",
            ..
        }
    ));
    // Another feature set, or other quantization, at a supported width.
    for (field, arch) in [
        (
            "feature set #5, expected #1",
            Architecture {
                feature_set: 5,
                ..CHESS.with_l1(256)
            },
        ),
        (
            "3 king buckets are not supported (supported: 1, 2, 4)",
            Architecture {
                king_buckets: 3,
                ..CHESS.with_l1(256)
            },
        ),
        (
            "scale 300, expected 400",
            Architecture {
                eval_scale: 300,
                ..CHESS.with_l1(256)
            },
        ),
    ] {
        let err = format_error(&random_net_bytes(&arch, 4), &CHESS).to_string();
        assert!(err.contains(field), "{err}");
    }
    // A file whose header was edited to an unsupported width (hash redone) is refused too, by
    // the width and not by a payload size.
    let mut edited = random_net_bytes(&CHESS, 4);
    edited[28..32].copy_from_slice(&160u32.to_le_bytes());
    let hash = sente::nnue::format::fnv1a64(&edited[12..56]);
    edited[56..64].copy_from_slice(&hash.to_le_bytes());
    let err = format_error(&edited, &CHESS).to_string();
    assert!(err.contains("l1=160 is not supported"), "{err}");
}

/// Every net in `nets/` (the embedded defaults and every promoted generation) loads as a net of
/// its game: the game's architecture at the supported width its header names (chess gen 10 on
/// is 256 wide, every earlier net 128).
#[test]
fn every_shipped_net_still_loads() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../nets");
    let mut loaded = Vec::new();
    let mut widths = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "nnue") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let arch = if name.starts_with("chess-") {
            CHESS
        } else if name.starts_with("shogi-") {
            SHOGI
        } else {
            panic!("{name}: a net of no known game");
        };
        let net = Network::load(&path, &arch).unwrap_or_else(|e| panic!("{e}"));
        let l1 = net.arch().l1;
        assert!(SUPPORTED_L1.contains(&l1), "{name}: l1 {l1}");
        let buckets = net.arch().king_buckets;
        assert!(
            SUPPORTED_KING_BUCKETS.contains(&buckets),
            "{name}: {buckets} king buckets"
        );
        assert_eq!(
            *net.arch(),
            arch.with_l1(l1).with_king_buckets(buckets),
            "{name}"
        );
        widths.push(l1);
        loaded.push(name);
    }
    for must in ["chess-7f1c3be1ae34.nnue", "shogi-7036271d8bd7.nnue"] {
        assert!(loaded.iter().any(|n| n == must), "{must}: {loaded:?}");
    }
    assert!(widths.contains(&128) && widths.contains(&256), "{widths:?}");
}
