//! The public ways a command enters the service: a line of text, a parsed
//! command, a click on a hand (each with or without a delivery id), opening
//! a table with computer players, and keeping the table message's id.

use super::Service;
use super::error::ServiceError;
use super::replies::private;
use super::run::Given;
use crate::command::{self, Command};
use crate::ids::{Actor, ChannelId};
use crate::outbox::{Notice, Outbox};
use crate::render::{self, Kind};
use crate::store::Store;
use crate::tr;

impl<S: Store> Service<S> {
    /// Handles a line of text from a user.
    pub async fn handle(&self, ch: &ChannelId, actor: &Actor, text: &str) -> Result<Outbox, ServiceError> {
        self.handle_delivery_opt(ch, actor, text, None).await
    }

    /// Handles a line of text delivered with a platform id (an interaction
    /// or event id): a second delivery with the same id changes nothing.
    pub async fn handle_delivery(
        &self,
        ch: &ChannelId,
        actor: &Actor,
        text: &str,
        delivery: &str,
    ) -> Result<Outbox, ServiceError> {
        self.handle_delivery_opt(ch, actor, text, Some(delivery)).await
    }

    /// Handles a line of text, with a delivery id if it has one.
    pub(super) async fn handle_delivery_opt(
        &self,
        ch: &ChannelId,
        actor: &Actor,
        text: &str,
        delivery: Option<&str>,
    ) -> Result<Outbox, ServiceError> {
        if let Some(out) = self.admit(ch, actor).await? {
            return Ok(out);
        }
        match command::parse(text) {
            Ok(cmd) => self.run(Given { ch, actor, cmd, delivery, clicked: None }).await,
            Err(e) => {
                let (t, _) = self.table(ch).await?;
                let mut out = Outbox::new(ch.clone(), t.lang());
                out.actor = Some(actor.user.clone());
                out.private.push(private(&t, &actor.user, Kind::Error, render::parse_error(t.lang(), &e)));
                Ok(out)
            }
        }
    }

    /// Executes a command for a user.
    pub async fn execute(&self, ch: &ChannelId, actor: &Actor, cmd: Command) -> Result<Outbox, ServiceError> {
        self.execute_delivery(ch, actor, cmd, None).await
    }

    /// Executes a command delivered with an id (see
    /// [`Service::handle_delivery`]); `None` executes it unconditionally.
    pub async fn execute_delivery(
        &self,
        ch: &ChannelId,
        actor: &Actor,
        cmd: Command,
        delivery: Option<&str>,
    ) -> Result<Outbox, ServiceError> {
        self.execute_stamped(ch, actor, cmd, delivery, None).await
    }

    /// Executes a command clicked on a hand made at `stamp` (see
    /// [`Input::Clicked`](crate::outbox::Input::Clicked)); `None`: not from
    /// a hand.
    pub async fn execute_stamped(
        &self,
        ch: &ChannelId,
        actor: &Actor,
        cmd: Command,
        delivery: Option<&str>,
        clicked: Option<&str>,
    ) -> Result<Outbox, ServiceError> {
        if let Some(out) = self.admit(ch, actor).await? {
            return Ok(out);
        }
        self.run(Given { ch, actor, cmd, delivery, clicked }).await
    }

    /// Opens the table of one person with computer players: when no deal
    /// is running, the person sits down, computers fill the other seats and
    /// the deal starts; else the table and the person's hand.
    pub async fn open_with_computers_checked(&self, ch: &ChannelId, me: &Actor) -> Result<Outbox, ServiceError> {
        if let Some(out) = self.admit(ch, me).await? {
            return Ok(out);
        }
        let (table, _) = self.table(ch).await?;
        let running = table.deal_running();
        let notice = |text: &str| Notice::new(Kind::Help, text.to_string(), None);
        let l = table.lang();
        let run = |cmd| self.run(Given { ch, actor: me, cmd, delivery: None, clicked: None });
        if running {
            let mut out = run(Command::Table).await?;
            out.notices.insert(0, notice(&tr!(l, "resuming")));
            let hand = run(Command::Hand).await?;
            out.private.extend(hand.private);
            out.owed.extend(hand.owed);
            return Ok(out);
        }
        // (what the steps before the start owe is told by the start's table
        // message: they are marked delivered with it)
        let mut owed = Vec::new();
        if table.seat_of(&me.user).is_none() {
            owed.extend(run(Command::Join).await?.owed);
        }
        let (t, _) = self.table(ch).await?;
        for _ in t.seats().len()..4 {
            owed.extend(run(Command::AddBot(Default::default())).await?.owed);
        }
        let mut out = run(Command::Start).await?;
        out.notices.insert(0, notice(&tr!(l, "welcome-computers")));
        owed.append(&mut out.owed);
        out.owed = owed;
        Ok(out)
    }
}
