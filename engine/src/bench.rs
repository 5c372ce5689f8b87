//! `sente bench`: a fixed-depth search over built-in positions of each game, printing the node
//! total (a signature of search behaviour) and nodes per second.
