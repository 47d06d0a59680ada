//! Which gateway shards one process serves, and which tables' turn clocks
//! it resumes.

/// A range of gateway shards out of a total: `first-last/total` or
/// `n/total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shards {
    /// The first shard of this process.
    pub first: u32,
    /// The last shard of this process (inclusive).
    pub last: u32,
    /// The shards of the whole bot.
    pub total: u32,
}

impl Shards {
    /// Reads `0-3/8` or `2/8`.
    pub fn parse(text: &str) -> Option<Shards> {
        let (range, total) = text.trim().split_once('/')?;
        let total: u32 = total.trim().parse().ok()?;
        let (first, last) = match range.split_once('-') {
            Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
            None => {
                let n = range.trim().parse().ok()?;
                (n, n)
            }
        };
        (first <= last && last < total).then_some(Shards { first, last, total })
    }

    /// Whether this process resumes the turn clock of a table when it
    /// serves the interactions endpoint (no gateway): tables are spread
    /// over the shards by their channel's snowflake, as Discord spreads
    /// guilds (`(id >> 22) % total`). On the gateway a process resumes the
    /// tables of the guilds Discord hands its shards instead.
    pub fn owns(&self, channel: u64) -> bool {
        let shard = ((channel >> 22) % u64::from(self.total)) as u32;
        (self.first..=self.last).contains(&shard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_ranges() {
        assert_eq!(Shards::parse("0-3/8"), Some(Shards { first: 0, last: 3, total: 8 }));
        assert_eq!(Shards::parse("5/8"), Some(Shards { first: 5, last: 5, total: 8 }));
        for bad in ["8/8", "3-1/8", "0-3", "a/8", "0-8/8", ""] {
            assert_eq!(Shards::parse(bad), None, "{bad}");
        }
        // two processes, half each: every table's clock runs in exactly one
        let (a, b) = (Shards::parse("0-3/8").unwrap(), Shards::parse("4-7/8").unwrap());
        for i in 0..1000u64 {
            let channel = 1_300_000_000_000_000_000 + i * 7_919 * (1 << 22);
            assert!(a.owns(channel) != b.owns(channel), "{channel}");
        }
    }
}
