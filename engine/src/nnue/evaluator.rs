//! `NnueEval<G>`: the incremental NNUE evaluator of either game.
//!
//! It keeps a stack of accumulator pairs (one per perspective) that follows the search: `push`
//! only records the child's `Delta` and king keys (lazy), and `evaluate` materialises the current
//! node's accumulators from the nearest ancestor that has them, applying the recorded deltas. A
//! perspective whose king key changed on the way is rebuilt from the refresh cache instead. All
//! memory is allocated once in `new`; `reset`, `push`, `pop` and `evaluate` never allocate.

use super::aligned_buffer::AlignedBuffer;
use super::format::NetFormatError;
use super::network::Network;
use super::nnue_game::{FeatureChanges, NnueGame, MAX_ACTIVE, MAX_CHANGED};
use super::refresh_cache::{apply_changes, RefreshCache};
use super::simd::{self, SimdLevel};
use crate::eval::Evaluator;
use crate::game::Side;
use std::sync::Arc;

/// Plies the accumulator stack holds above the root (the search's ply limit plus a margin).
/// Deeper pushes are still handled, by evaluating from the refresh cache.
pub const STACK_PLIES: usize = 256 + 32;

/// Evaluations are clamped to ±`EVAL_LIMIT` centipawns (well inside the search's mate scores).
pub const EVAL_LIMIT: i32 = 15_000;

/// What `push` recorded about one node.
#[derive(Clone, Copy, Debug, Default)]
struct Node<D: Copy + Default> {
    delta: D,
    king_keys: [u8; 2],
    computed: [bool; 2],
    hash: u64,
}

/// The incremental NNUE evaluator. Cloning copies the stack (once per search thread); the net is
/// shared.
#[derive(Clone, Debug)]
pub struct NnueEval<G: NnueGame> {
    net: Arc<Network>,
    level: SimdLevel,
    l1: usize,
    /// The net's king buckets (its header's): what the king keys are computed for.
    king_buckets: usize,
    /// `[STACK_PLIES + 1][2][l1]`: node, perspective, values.
    accumulators: AlignedBuffer,
    nodes: Vec<Node<G::Delta>>,
    /// Index of the current node.
    depth: usize,
    /// Pushes beyond the stack's capacity not yet popped.
    overflow: usize,
    cache: RefreshCache<G>,
    /// Accumulators of a node beyond the stack (`[2][l1]`).
    spill: AlignedBuffer,
    /// Stack accumulators rebuilt from the refresh cache so far (`refreshes`).
    refreshes: u64,
}

impl<G: NnueGame> NnueEval<G> {
    /// An evaluator for `net`, which must have this game's architecture or one of its width and
    /// king-bucket variants (`Architecture::check_variant`). Every buffer is sized here, from the
    /// net's own width, once.
    pub fn new(net: Arc<Network>) -> Result<Self, NetFormatError> {
        if net.arch().game_id != G::ARCH.game_id {
            return Err(NetFormatError::WrongGame {
                expected: G::ARCH.game_name(),
                found: net.arch().game_name().to_string(),
            });
        }
        G::ARCH
            .check_variant(net.arch())
            .map_err(|detail| NetFormatError::WrongArchitecture {
                game: G::ARCH.game_name(),
                detail,
            })?;
        let l1 = net.arch().l1;
        Ok(Self {
            level: SimdLevel::detected(),
            l1,
            king_buckets: net.arch().king_buckets,
            accumulators: AlignedBuffer::zeroed((STACK_PLIES + 1) * 2 * l1),
            nodes: vec![Node::default(); STACK_PLIES + 1],
            depth: 0,
            overflow: 0,
            cache: RefreshCache::new(&net),
            spill: AlignedBuffer::zeroed(2 * l1),
            refreshes: 0,
            net,
        })
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// How many stack accumulators were rebuilt from the refresh cache (the root's and those
    /// below a king that changed its key) rather than updated from their parent's.
    pub fn refreshes(&self) -> u64 {
        self.refreshes
    }

    pub fn simd_level(&self) -> SimdLevel {
        self.level
    }

    /// Overrides the kernel level (tests compare levels); levels the CPU lacks fall back.
    pub fn set_simd_level(&mut self, level: SimdLevel) {
        self.level = level.min(SimdLevel::detected());
    }

    /// Start of the accumulator of (`node`, `perspective`).
    #[inline(always)]
    fn offset(&self, node: usize, perspective: usize) -> usize {
        (node * 2 + perspective) * self.l1
    }

    /// Makes the current node's accumulator of `perspective` valid.
    fn materialise(&mut self, pos: &G, perspective: Side) {
        let p = perspective.index();
        let cur = self.depth;
        if self.nodes[cur].computed[p] {
            return;
        }
        // Walk back to the nearest computed ancestor, unless a king-key change (or the root)
        // comes first: then the current node is rebuilt from the refresh cache.
        let mut i = cur;
        loop {
            if i == 0 || self.nodes[i].king_keys[p] != self.nodes[i - 1].king_keys[p] {
                let start = self.offset(cur, p);
                let dst = &mut self.accumulators.as_mut_slice()[start..start + self.l1];
                let key = self
                    .cache
                    .refresh(&self.net, self.level, pos, perspective, dst);
                self.nodes[cur].king_keys[p] = key as u8;
                self.nodes[cur].computed[p] = true;
                self.refreshes += 1;
                return;
            }
            i -= 1;
            if self.nodes[i].computed[p] {
                break;
            }
        }
        let mut changes = FeatureChanges::<MAX_CHANGED>::default();
        for j in i + 1..=cur {
            let node = &self.nodes[j];
            G::changed_features(
                &node.delta,
                perspective,
                node.king_keys[p] as usize,
                &mut changes,
            );
            let (parent_at, child_at) = (self.offset(j - 1, p), self.offset(j, p));
            let (before, after) = self.accumulators.as_mut_slice().split_at_mut(child_at);
            let src = &before[parent_at..parent_at + self.l1];
            let dst = &mut after[..self.l1];
            apply_changes(
                &self.net,
                self.level,
                dst,
                src,
                changes.added.as_slice(),
                changes.removed.as_slice(),
            );
            self.nodes[j].computed[p] = true;
        }
    }

    /// Whether `pos` is not the current stack node: beyond the stack, or a caller that evaluates
    /// a position it did not push (then the refresh cache still gives the right answer).
    #[inline]
    fn off_stack(&self, pos: &G) -> bool {
        self.overflow > 0 || self.nodes[self.depth].hash != pos.hash()
    }

    /// Materialises both accumulators of the current node (off the stack: into the spill
    /// buffer) and returns them, First's perspective first.
    fn current(&mut self, pos: &G) -> (&[i16], &[i16]) {
        if self.off_stack(pos) {
            let (first, second) = self.spill.as_mut_slice().split_at_mut(self.l1);
            self.cache
                .refresh(&self.net, self.level, pos, Side::First, first);
            self.cache
                .refresh(&self.net, self.level, pos, Side::Second, second);
            return self.spill.as_slice().split_at(self.l1);
        }
        self.materialise(pos, Side::First);
        self.materialise(pos, Side::Second);
        let at = self.offset(self.depth, 0);
        self.accumulators.as_slice()[at..at + 2 * self.l1].split_at(self.l1)
    }

    /// The current node's accumulators (First's perspective, Second's), materialised for `pos`,
    /// normally the position last pushed (or the root). For tests and diagnostics.
    pub fn accumulators(&mut self, pos: &G) -> (Vec<i16>, Vec<i16>) {
        let (first, second) = self.current(pos);
        (first.to_vec(), second.to_vec())
    }
}

impl<G: NnueGame> Evaluator<G> for NnueEval<G> {
    fn reset(&mut self, root: &G) {
        self.depth = 0;
        self.overflow = 0;
        self.nodes[0] = Node {
            delta: G::Delta::default(),
            king_keys: [
                root.king_key(Side::First, self.king_buckets) as u8,
                root.king_key(Side::Second, self.king_buckets) as u8,
            ],
            computed: [false; 2],
            hash: root.hash(),
        };
        // The root's accumulators now, from the refresh cache: every node of the search then
        // walks back to a computed ancestor at worst here, instead of each going to the cache
        // when the root (whose static evaluation often comes from the table) was never evaluated.
        for side in [Side::First, Side::Second] {
            self.materialise(root, side);
        }
    }

    fn push(&mut self, child: &G) {
        if self.overflow > 0 || self.depth == STACK_PLIES {
            self.overflow += 1;
            return;
        }
        self.depth += 1;
        self.nodes[self.depth] = Node {
            delta: *child.delta(),
            king_keys: [
                child.king_key(Side::First, self.king_buckets) as u8,
                child.king_key(Side::Second, self.king_buckets) as u8,
            ],
            computed: [false; 2],
            hash: child.hash(),
        };
    }

    fn pop(&mut self) {
        if self.overflow > 0 {
            self.overflow -= 1;
        } else {
            self.depth = self.depth.saturating_sub(1);
        }
    }

    fn evaluate(&mut self, pos: &G) -> i32 {
        let spilled = self.off_stack(pos);
        self.current(pos);
        let pair = if spilled {
            self.spill.as_slice()
        } else {
            let at = self.offset(self.depth, 0);
            &self.accumulators.as_slice()[at..at + 2 * self.l1]
        };
        let (first, second) = pair.split_at(self.l1);
        let (us, them) = match pos.side_to_move() {
            Side::First => (first, second),
            Side::Second => (second, first),
        };
        let bucket = pos.output_bucket().min(G::ARCH.output_buckets - 1);
        // The net is a variant of the game's architecture (checked in `new`): its
        // quantization constants are the game's, known here.
        self.net
            .output_as(&G::ARCH, self.level, us, them, bucket)
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

/// Evaluates `pos` from scratch: both accumulators summed from the active features, no cache, no
/// deltas. The reference the incremental evaluator is tested against. Allocates its two
/// accumulators; `evaluate_from_scratch_in` reuses a buffer.
pub fn evaluate_from_scratch<G: NnueGame>(net: &Network, level: SimdLevel, pos: &G) -> i32 {
    evaluate_from_scratch_in(net, level, pos, &mut Vec::new())
}

/// `evaluate_from_scratch` with the accumulators in `buffer` (resized to `2 × l1` once): the
/// "full refresh" of the benchmarks and of the tuner's checks. `net` must have `G`'s
/// architecture or a width or king-bucket variant of it (as every net loaded with `G::ARCH`
/// has); another is a programming error.
pub fn evaluate_from_scratch_in<G: NnueGame>(
    net: &Network,
    level: SimdLevel,
    pos: &G,
    buffer: &mut Vec<i16>,
) -> i32 {
    assert_game_net::<G>(net);
    let l1 = net.arch().l1;
    buffer.resize(2 * l1, 0);
    let mut features = [0u32; MAX_ACTIVE];
    for (perspective, dst) in [Side::First, Side::Second]
        .into_iter()
        .zip(buffer.chunks_exact_mut(l1))
    {
        let n = pos.active_features(perspective, net.arch().king_buckets, &mut features);
        apply_changes(net, level, dst, net.ft_bias(), &features[..n], &[]);
    }
    let (first, second) = buffer.split_at(l1);
    let (us, them) = match pos.side_to_move() {
        Side::First => (first, second),
        Side::Second => (second, first),
    };
    let bucket = pos.output_bucket().min(net.arch().output_buckets - 1);
    net.output(level, us, them, bucket)
        .clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The accumulator of `perspective` in `pos` summed in plain scalar code straight from the
/// weight rows (an independent reference for tests). `net` must have `G`'s architecture or a
/// width or king-bucket variant of it.
pub fn accumulator_reference<G: NnueGame>(net: &Network, pos: &G, perspective: Side) -> Vec<i16> {
    assert_game_net::<G>(net);
    let mut acc = net.ft_bias().to_vec();
    let mut features = [0u32; MAX_ACTIVE];
    let n = pos.active_features(perspective, net.arch().king_buckets, &mut features);
    for &f in &features[..n] {
        simd::update_in_place_scalar(&mut acc, &[net.ft_row(f as usize)], &[]);
    }
    acc
}

/// Panics unless `net` is a net of `G` (its architecture or a variant of it).
fn assert_game_net<G: NnueGame>(net: &Network) {
    if let Err(detail) = G::ARCH.check_variant(net.arch()) {
        panic!("a {} net is needed: {detail}", G::NAME);
    }
}
