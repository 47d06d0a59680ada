//! The Discord side of the linked table as the test drives it: slash
//! commands and clicks on the ephemeral hands, each answered in time.

use std::collections::HashMap;

use doko_system_tests::fake_discord::{Callback, FakeDiscord, InteractionHandle, Opt, Place};

use super::DWAIT;

/// The Discord side as the test drives it: carol and dave in the guild's
/// first channel, with each one's latest ephemeral hand message, and every
/// interaction sent with the user who sent it.
pub(super) struct Discord<'a> {
    pub(super) fake: &'a FakeDiscord,
    pub(super) channel: u64,
    pub(super) hands: HashMap<u64, u64>,
    pub(super) sent: Vec<(InteractionHandle, u64)>,
}

impl<'a> Discord<'a> {
    /// Sends an interaction by `user` and waits for its answer, in time.
    pub(super) async fn send(&mut self, user: u64, interaction: serde_json::Value) -> (InteractionHandle, Callback) {
        let h = self.fake.send_interaction(interaction).await.unwrap();
        self.sent.push((h.clone(), user));
        let cb = self.fake.wait_callback(&h, DWAIT).await.unwrap();
        assert!(cb.in_time(), "interaction {} answered late or refused: {cb:?}", h.id);
        (h, cb)
    }

    /// `/top sub [options]` by `user` in the channel; the answer's
    /// callback, text and handle.
    pub(super) async fn command(
        &mut self,
        user: u64,
        top: &str,
        sub: &str,
        options: Vec<Opt>,
    ) -> (Callback, String, InteractionHandle) {
        let i = self.fake.slash(user, Place::Channel(self.channel), top, vec![Opt::sub(sub, options)]);
        let (h, cb) = self.send(user, i).await;
        let text = self.answer_text(&h, &cb).await;
        if let Some(m) = self.fake.original_message(&h)
            && m.custom_ids().iter().any(|id| id.contains(":play ") || id.starts_with("doko:hand@"))
        {
            self.hands.insert(user, m.id);
        }
        (cb, text, h)
    }

    /// The text of an answer (the callback's, or the deferred response's
    /// once edited).
    pub(super) async fn answer_text(&self, h: &InteractionHandle, cb: &Callback) -> String {
        if cb.kind == 5 || cb.kind == 6 {
            let m = self
                .fake
                .wait_for("the deferred answer", DWAIT, |f| f.original_message(h).filter(|m| m.edits() >= 1))
                .await
                .unwrap();
            return m.content;
        }
        cb.content.clone().unwrap_or_default()
    }

    /// Everything an interaction was answered with so far (the callback,
    /// the response as edited, the followups).
    pub(super) fn all_answers(&self, h: &InteractionHandle) -> String {
        let mut out: Vec<String> = self.fake.callbacks_for(h).into_iter().filter_map(|c| c.content).collect();
        out.extend(self.fake.original_message(h).map(|m| m.content));
        out.extend(self.fake.followups(h).into_iter().map(|m| m.content));
        out.join("\n")
    }

    /// Waits until the answers to `h` say `text`.
    pub(super) async fn answered(&self, h: &InteractionHandle, text: &str) -> String {
        self.fake
            .wait_for(text, DWAIT, |_| {
                let all = self.all_answers(h);
                all.contains(text).then_some(all)
            })
            .await
            .unwrap_or_else(|e| panic!("{e}: {:?}", self.all_answers(h)))
    }

    /// `/doko <sub>`, answered privately.
    pub(super) async fn doko(&mut self, user: u64, sub: &str, options: Vec<Opt>) -> String {
        let (cb, text, _) = self.command(user, "doko", sub, options).await;
        assert!(cb.ephemeral(), "/doko {sub} answered in public: {cb:?}");
        text
    }

    /// A click on `user`'s hand message; the message's text after the
    /// update.
    pub(super) async fn click(&mut self, user: u64, custom_id: &str) -> String {
        let msg = self.hands[&user];
        let i = self.fake.click(user, Place::Channel(self.channel), msg, custom_id);
        let (h, cb) = self.send(user, i).await;
        assert!(matches!(cb.kind, 6 | 7), "a click on a hand is answered by updating it: {cb:?}");
        self.answer_text(&h, &cb).await;
        self.fake.message(msg).unwrap().content
    }

    /// The enabled buttons of `user`'s hand message.
    pub(super) fn enabled(&self, user: u64) -> Vec<String> {
        let Some(m) = self.hands.get(&user).and_then(|id| self.fake.message(*id)) else { return vec![] };
        m.enabled_ids()
    }

    /// `user`'s hand, shown afresh (the refresh button, else `/doko hand`);
    /// the text.
    pub(super) async fn refresh(&mut self, user: u64) -> String {
        match self.enabled(user).into_iter().find(|b| b.starts_with("doko:hand@")) {
            Some(r) => self.click(user, &r).await,
            None => self.doko(user, "hand", vec![]).await,
        }
    }
}
