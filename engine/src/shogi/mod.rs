//! Shogi rules: bitboards with hands, legal move generation with drops, SFEN, notation, rules.
