//! Shards of a run or a match: shard `I/N` takes the game (or game-pair) indices `i ≡ I (mod N)`
//! of the whole run, so N shards together hold exactly the games one unsharded run would, and
//! each shard is a pure function of (binary, settings, its indices). Local index `k` of a shard is
//! global index `I + k·N`.

use anyhow::{bail, Result};
use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count` (`0 <= index < count`); `0/1` is the whole run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    pub fn new(index: u64, count: u64) -> Result<Self> {
        if count == 0 {
            bail!("shard count must be at least 1");
        }
        if index >= count {
            bail!(
                "shard index {index} is not below the shard count {count} (shards are 0..{count})"
            );
        }
        Ok(Self { index, count })
    }

    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// The global index of this shard's `local`-th game.
    pub fn global(&self, local: u64) -> u64 {
        self.index + local * self.count
    }

    /// Whether global index `global` belongs to this shard.
    pub fn contains(&self, global: u64) -> bool {
        global % self.count == self.index
    }

    /// How many of the global indices `0..total` belong to this shard.
    pub fn share_of(&self, total: u64) -> u64 {
        if total <= self.index {
            0
        } else {
            (total - self.index).div_ceil(self.count)
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> Result<Self> {
        let Some((index, count)) = text.trim().split_once('/') else {
            bail!("shard '{text}' is not I/N (e.g. 0/4)");
        };
        let parse = |part: &str, what: &str| -> Result<u64> {
            part.trim()
                .parse::<u64>()
                .map_err(|_| anyhow::anyhow!("shard '{text}': {what} '{part}' is not a number"))
        };
        Shard::new(parse(index, "index")?, parse(count, "count")?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_indices() {
        let total = 103;
        let mut seen = vec![0u32; total as usize];
        for i in 0..4 {
            let shard = Shard::new(i, 4).unwrap();
            let share = shard.share_of(total);
            for k in 0..share {
                let g = shard.global(k);
                assert!(g < total && shard.contains(g));
                seen[g as usize] += 1;
            }
            assert!(shard.global(share) >= total);
        }
        assert!(seen.iter().all(|&n| n == 1));
        assert_eq!(Shard::WHOLE.share_of(7), 7);
        assert_eq!(Shard::new(5, 8).unwrap().share_of(3), 0);
    }

    #[test]
    fn parsing_checks_its_input() {
        assert_eq!("2/4".parse::<Shard>().unwrap(), Shard::new(2, 4).unwrap());
        assert_eq!(Shard::new(2, 4).unwrap().to_string(), "2/4");
        for bad in ["4/4", "1/0", "x/2", "3", "-1/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
