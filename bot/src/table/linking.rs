//! The table's side of linking: issuing and accepting a link code, the
//! channels that share the table, and each one's table message.

use super::links::{LINK_CODE_MS, LINK_SETTLE_MS, Link, LinkCode};
use super::{CommandError, Table};
use crate::command::new_code;
use crate::ids::ChannelId;

impl Table {
    /// The home channel whose table this channel shares, if linked.
    pub fn linked_to(&self) -> Option<&ChannelId> {
        self.linked_to.as_ref()
    }

    /// The channels that share this table (beside its home).
    pub fn links(&self) -> impl Iterator<Item = &ChannelId> {
        self.links.iter().map(|l| &l.channel)
    }

    /// Whether `ch` shares this table.
    pub fn is_linked_with(&self, ch: &ChannelId) -> bool {
        self.links.iter().any(|l| &l.channel == ch)
    }

    /// The link code waiting to be used, if still valid at `now_ms`.
    pub fn link_code(&self, now_ms: u64) -> Option<&LinkCode> {
        self.link_code.as_ref().filter(|c| c.until_ms > now_ms)
    }

    /// Issues a new link code (a table that is no link itself, with room
    /// for one more platform).
    pub(super) fn issue_link_code(&mut self, seed: u64, now_ms: u64) -> Result<(), CommandError> {
        if self.linked_to.is_some() {
            return Err(CommandError::LinkedElsewhere);
        }
        self.link_code = Some(LinkCode { code: new_code(seed), until_ms: now_ms + LINK_CODE_MS });
        Ok(())
    }

    /// Takes `ch` into this table with `code` (or again, when it is
    /// already linked: the same link made twice). Refused for a code that
    /// is not this table's valid one, a channel of this table's own
    /// platform or of a platform already linked.
    pub fn accept_link(
        &mut self,
        home: &ChannelId,
        ch: &ChannelId,
        code: &str,
        now_ms: u64,
    ) -> Result<bool, CommandError> {
        if self.is_linked_with(ch) {
            return Ok(false);
        }
        if self.link_code(now_ms).is_none_or(|c| c.code != code) || self.linked_to.is_some() {
            return Err(CommandError::NoLinkCode);
        }
        if ch.platform == home.platform || self.links.iter().any(|l| l.channel.platform == ch.platform) {
            return Err(CommandError::LinkSamePlatform);
        }
        self.link_code = None;
        self.links.push(Link { channel: ch.clone(), display: None, posting: None });
        Ok(true)
    }

    /// Marks this channel's own table as sharing `home`'s (or no more)
    /// since `now_ms`.
    pub fn set_linked_to(&mut self, home: Option<ChannelId>, now_ms: u64) -> bool {
        if self.linked_to == home {
            return false;
        }
        self.linked_to = home;
        self.linked_since = now_ms;
        true
    }

    /// Whether this channel's link was made long enough ago that a home
    /// not listing it means the link is gone (not being made: the channel
    /// points at the home first, then the home takes it).
    pub fn link_settled(&self, now_ms: u64) -> bool {
        now_ms.saturating_sub(self.linked_since) > LINK_SETTLE_MS
    }

    /// Drops `ch` (or, with `None`, every linked channel) from this table;
    /// the channels dropped. The people seated from a dropped channel's
    /// platform leave the table with it (between deals only).
    pub(super) fn drop_links(&mut self, ch: Option<&ChannelId>) -> Result<Vec<ChannelId>, CommandError> {
        if self.deal_running() {
            return Err(CommandError::DealRunning);
        }
        let (gone, kept): (Vec<Link>, Vec<Link>) =
            std::mem::take(&mut self.links).into_iter().partition(|l| ch.is_none_or(|c| &l.channel == c));
        self.links = kept;
        let gone: Vec<ChannelId> = gone.into_iter().map(|l| l.channel).collect();
        let mut left = false;
        for g in &gone {
            loop {
                let found = self
                    .seats
                    .enumerate()
                    .find(|(_, s)| s.user().is_some_and(|u| u.platform == g.platform))
                    .map(|(ts, _)| ts);
                let Some(ts) = found else { break };
                self.seats.remove(ts);
                left = true;
            }
            // (their spectators too: nothing reaches them here any more)
            self.spectators.retain(|s| s.user().platform != g.platform);
        }
        if left && let Some(s) = &mut self.session {
            s.session_mut().end()?;
        }
        Ok(gone)
    }

    fn link_mut(&mut self, via: Option<&ChannelId>) -> Option<&mut Link> {
        let via = via?;
        self.links.iter_mut().find(|l| &l.channel == via)
    }

    /// The platform's id of this deal's table message in the channel the
    /// command came through (`via` a linked channel, else the home).
    pub fn display_for(&self, via: Option<&ChannelId>) -> Option<&String> {
        match via {
            Some(v) => self.links.iter().find(|l| &l.channel == v).and_then(|l| l.display.as_ref()),
            None => self.posting.display().as_ref(),
        }
    }

    /// Remembers the table message's id in one channel (see
    /// [`display_for`](Self::display_for)).
    pub fn set_display_for(&mut self, via: Option<&ChannelId>, id: Option<String>) {
        match (via, self.link_mut(via)) {
            (None, _) => self.posting.set_display(id),
            (Some(_), Some(l)) => {
                l.posting = None;
                l.display = id;
            }
            (Some(_), None) => {}
        }
    }

    /// Whether a process is posting the table message in one channel.
    pub fn posting_claimed_for(&self, via: Option<&ChannelId>, now_ms: u64) -> bool {
        match via {
            None => self.posting.posting_claimed(now_ms),
            Some(v) => self
                .links
                .iter()
                .find(|l| &l.channel == v)
                .is_some_and(|l| super::posting::claim_holds(l.posting, now_ms)),
        }
    }

    /// Claims the posting of the table message in one channel.
    pub fn claim_posting_for(&mut self, via: Option<&ChannelId>, now_ms: u64) {
        match (via, self.link_mut(via)) {
            (None, _) => self.posting.claim_posting(now_ms),
            (Some(_), Some(l)) => l.posting = Some(now_ms),
            (Some(_), None) => {}
        }
    }
}
