//! Bounds on the work strangers can cause: rate limits per person and per
//! channel (token buckets kept in the service's process), and how many
//! deal records a table keeps.
//!
//! A person over a limit gets one polite answer, then silence (an empty
//! answer, which a platform that must answer every interaction still
//! answers) until a command of theirs goes through again.

use std::collections::HashMap;
use std::sync::Mutex;

/// A token bucket: at most `burst` commands at once, then one more every
/// `every_ms` milliseconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Commands allowed at once.
    pub burst: u32,
    /// Milliseconds until one more is allowed.
    pub every_ms: u64,
}

/// A rate that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a rate is BURST/MILLISECONDS (e.g. 10/1000), or 0 for none")]
pub struct BadRate;

impl Rate {
    /// Reads `BURST/MILLISECONDS` (`10/1000`: ten at once, then one a
    /// second); `0` or `off`: no limit (`None`).
    pub fn parse(s: &str) -> Result<Option<Rate>, BadRate> {
        let s = s.trim();
        if s == "0" || s.eq_ignore_ascii_case("off") {
            return Ok(None);
        }
        let (b, e) = s.split_once('/').ok_or(BadRate)?;
        let burst: u32 = b.trim().parse().map_err(|_| BadRate)?;
        let every_ms: u64 = e.trim().parse().map_err(|_| BadRate)?;
        if burst == 0 || every_ms == 0 {
            return Err(BadRate);
        }
        Ok(Some(Rate { burst, every_ms }))
    }
}

/// The service's bounds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Commands per person (across all channels); `None`: no limit.
    pub user: Option<Rate>,
    /// Commands per channel (all people together); `None`: no limit.
    pub channel: Option<Rate>,
    /// Deal records kept per table (the oldest are trimmed; statistics
    /// and score sheets stay with the table); 0: all.
    pub records_kept: u32,
}

/// Deal records a table keeps by default: about 40 sessions of 24 deals.
pub const RECORDS_KEPT: u32 = 1_000;

impl Default for Limits {
    /// No rate limits (tests, benchmarks, a terminal); records capped at
    /// [`RECORDS_KEPT`].
    fn default() -> Limits {
        Limits { user: None, channel: None, records_kept: RECORDS_KEPT }
    }
}

impl Limits {
    /// The limits for a bot among strangers: a person 10 commands at once
    /// then one a second (a deal asks about 13 of a person, spread over
    /// minutes); a channel 30 at once then 3 a second.
    pub fn public() -> Limits {
        Limits {
            user: Some(Rate { burst: 10, every_ms: 1_000 }),
            channel: Some(Rate { burst: 30, every_ms: 333 }),
            records_kept: RECORDS_KEPT,
        }
    }
}

/// Whether a command may go on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Admit {
    /// Within the limits.
    Yes,
    /// Over a limit, the first time in this burst: answer politely.
    Tell,
    /// Over a limit again: answer nothing.
    Silent,
}

#[derive(Clone, Debug)]
struct Bucket {
    /// Tokens in thousandths.
    milli: u64,
    at_ms: u64,
}

impl Bucket {
    fn full(rate: Rate, now: u64) -> Bucket {
        Bucket { milli: u64::from(rate.burst) * 1000, at_ms: now }
    }

    fn refill(&mut self, rate: Rate, now: u64) {
        let elapsed = now.saturating_sub(self.at_ms);
        let add = elapsed.saturating_mul(1000) / rate.every_ms;
        self.milli = (self.milli.saturating_add(add)).min(u64::from(rate.burst) * 1000);
        self.at_ms = now;
    }

    fn has(&self) -> bool {
        self.milli >= 1000
    }

    fn is_full(&self, rate: Rate) -> bool {
        self.milli >= u64::from(rate.burst) * 1000
    }
}

#[derive(Default)]
struct State {
    users: HashMap<String, (Option<Bucket>, bool)>,
    channels: HashMap<String, Bucket>,
}

/// How many people and channels are tracked before idle ones (with full
/// buckets) are forgotten.
const TRACKED: usize = 10_000;

/// The token buckets of one process.
#[derive(Default)]
pub struct RateLimiter {
    state: Mutex<State>,
}

impl RateLimiter {
    /// Takes a token from the person's and the channel's bucket at `now_ms`
    /// if both have one; else says whether to answer (once per burst).
    pub fn admit(&self, limits: &Limits, user: &str, channel: &str, now_ms: u64) -> Admit {
        if limits.user.is_none() && limits.channel.is_none() {
            return Admit::Yes;
        }
        let mut st = self.state.lock().expect("rate limiter lock");
        let State { users, channels } = &mut *st;
        // (idle ones are forgotten: a bucket that refills to full by now;
        // a flood of new ones is forgotten whole)
        let busy = |b: &Bucket, r: Rate| {
            let mut now = b.clone();
            now.refill(r, now_ms);
            !now.is_full(r)
        };
        if users.len() > TRACKED {
            users.retain(|_, (b, _)| b.as_ref().zip(limits.user).is_some_and(|(b, r)| busy(b, r)));
            if users.len() > TRACKED {
                users.clear();
            }
        }
        if channels.len() > TRACKED {
            channels.retain(|_, b| limits.channel.is_some_and(|r| busy(b, r)));
            if channels.len() > TRACKED {
                channels.clear();
            }
        }
        let chan_ok = match limits.channel {
            Some(r) => {
                let b = channels.entry(channel.to_string()).or_insert_with(|| Bucket::full(r, now_ms));
                b.refill(r, now_ms);
                b.has()
            }
            None => true,
        };
        let (bucket, told) = users.entry(user.to_string()).or_insert((None, false));
        let user_ok = match limits.user {
            Some(r) => {
                let b = bucket.get_or_insert_with(|| Bucket::full(r, now_ms));
                b.refill(r, now_ms);
                b.has()
            }
            None => true,
        };
        if user_ok && chan_ok {
            if let Some(b) = bucket {
                b.milli -= 1000;
            }
            *told = false;
            if limits.channel.is_some()
                && let Some(b) = channels.get_mut(channel)
            {
                b.milli -= 1000;
            }
            return Admit::Yes;
        }
        if *told {
            Admit::Silent
        } else {
            *told = true;
            Admit::Tell
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_per_interval() {
        let l = Limits { user: Some(Rate { burst: 3, every_ms: 1000 }), channel: None, records_kept: 0 };
        let r = RateLimiter::default();
        let seq: Vec<Admit> = (0..6).map(|_| r.admit(&l, "u", "c", 0)).collect();
        assert_eq!(seq, [Admit::Yes, Admit::Yes, Admit::Yes, Admit::Tell, Admit::Silent, Admit::Silent]);
        assert_eq!(r.admit(&l, "u", "c", 999), Admit::Silent);
        assert_eq!(r.admit(&l, "u", "c", 1000), Admit::Yes);
        assert_eq!(r.admit(&l, "u", "c", 1000), Admit::Tell, "a new burst is told again");
        assert_eq!(r.admit(&l, "other", "c", 1000), Admit::Yes, "per person");
        assert_eq!(r.admit(&l, "u", "c", 10_000_000), Admit::Yes);
    }

    #[test]
    fn the_channel_limit_holds_for_everyone_together() {
        let l = Limits { user: None, channel: Some(Rate { burst: 2, every_ms: 500 }), records_kept: 0 };
        let r = RateLimiter::default();
        assert_eq!(r.admit(&l, "a", "c", 0), Admit::Yes);
        assert_eq!(r.admit(&l, "b", "c", 0), Admit::Yes);
        assert_eq!(r.admit(&l, "a", "c", 0), Admit::Tell);
        assert_eq!(r.admit(&l, "b", "c", 0), Admit::Tell, "each person is told once");
        assert_eq!(r.admit(&l, "b", "c", 0), Admit::Silent);
        assert_eq!(r.admit(&l, "b", "other", 0), Admit::Yes, "per channel");
        assert_eq!(r.admit(&l, "a", "c", 500), Admit::Yes);
    }

    #[test]
    fn idle_people_are_forgotten_and_a_flood_too() {
        let l = Limits { user: Some(Rate { burst: 2, every_ms: 1000 }), channel: None, records_kept: 0 };
        let r = RateLimiter::default();
        for i in 0..=TRACKED {
            assert_eq!(r.admit(&l, &format!("u{i}"), "c", 0), Admit::Yes);
        }
        // a second later every bucket is full again: all are forgotten
        assert_eq!(r.admit(&l, "new", "c", 1000), Admit::Yes);
        assert!(r.state.lock().unwrap().users.len() <= 2);
        // a flood of new people at once is forgotten whole
        for i in 0..=TRACKED + 1 {
            r.admit(&l, &format!("f{i}"), "c", 1000);
        }
        assert!(r.state.lock().unwrap().users.len() <= TRACKED + 1);
    }

    #[test]
    fn rates_read_from_text() {
        assert_eq!(Rate::parse("10/1000"), Ok(Some(Rate { burst: 10, every_ms: 1000 })));
        assert_eq!(Rate::parse("0"), Ok(None));
        assert_eq!(Rate::parse("off"), Ok(None));
        assert!(Rate::parse("10").is_err());
        assert!(Rate::parse("0/5").is_err());
    }
}
