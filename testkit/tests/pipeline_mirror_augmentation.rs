//! Shogi's left-right mirror augmentation: with `Filter::mirror`, every training position is
//! followed by its mirror image (same target and output bucket, features mapped by
//! `NnueGame::mirrored_feature`), and games without an exact mirror (chess) are unchanged.

mod support;

use datagen::players::DatagenGame;
use sente::nnue::NnueGame;
use sente_data::stored_game::StoredGame;
use tuner::batch::Batch;
use tuner::data::{extract_game, load_games, validation_set, Filter, TargetBlend};

/// Six games of `G` at 200 nodes per move.
fn data<G: DatagenGame>() -> Vec<StoredGame> {
    let dir = support::scratch("mirror", G::NAME);
    let games = load_games::<G>(&[support::game_data::<G>(&dir, 6, 200, 3)]).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    games
}

fn extract<G: NnueGame>(games: &[StoredGame], mirror: bool, king_buckets: usize) -> Batch {
    let filter = Filter {
        mirror,
        ..Filter::default()
    };
    let blend = TargetBlend {
        lambda: 0.0,
        eval_scale: 400.0,
    };
    let mut out = Batch::new();
    for record in games {
        extract_game::<G>(record, &filter, &blend, king_buckets, &mut out);
    }
    out
}

#[test]
fn shogi_positions_are_followed_by_their_mirror_images() {
    for king_buckets in [1, 4] {
        shogi_mirror_images(king_buckets);
    }
}

fn shogi_mirror_images(king_buckets: usize) {
    type P = sente::shogi::Position;
    let games = data::<P>();
    let plain = extract::<P>(&games, false, king_buckets);
    let mirrored = extract::<P>(&games, true, king_buckets);
    assert!(plain.len() > 100, "{} positions", plain.len());
    assert_eq!(mirrored.len(), 2 * plain.len());
    let mut differing = 0;
    for i in 0..plain.len() {
        let (stm, nstm) = plain.features(i);
        let (a_stm, a_nstm) = mirrored.features(2 * i);
        assert_eq!((stm, nstm), (a_stm, a_nstm));
        let (m_stm, m_nstm) = mirrored.features(2 * i + 1);
        let map = |fs: &[u32]| -> Vec<u32> {
            fs.iter()
                .map(|&f| P::mirrored_feature(f, king_buckets).unwrap())
                .collect()
        };
        assert_eq!(map(stm), m_stm);
        assert_eq!(map(nstm), m_nstm);
        differing += usize::from(stm != m_stm);
        for copy in [2 * i, 2 * i + 1] {
            assert_eq!(mirrored.target[copy], plain.target[i]);
            assert_eq!(mirrored.bucket[copy], plain.bucket[i]);
        }
    }
    assert!(
        differing > plain.len() / 2,
        "mirror images differ from the positions"
    );
    // Validation sets are never mirrored.
    let filter = Filter {
        mirror: true,
        ..Filter::default()
    };
    let blend = TargetBlend {
        lambda: 0.0,
        eval_scale: 400.0,
    };
    assert_eq!(
        validation_set::<P>(&games, &filter, &blend, king_buckets, usize::MAX).len(),
        plain.len()
    );
}

#[test]
fn chess_has_no_mirror_augmentation() {
    type P = sente::chess::Position;
    let games = data::<P>();
    let plain = extract::<P>(&games, false, 1);
    assert!(!plain.is_empty());
    assert_eq!(extract::<P>(&games, true, 1).len(), plain.len());
}
