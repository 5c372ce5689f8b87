//! Chess rules: bitboards, legal move generation, FEN, notation, results by rule.
