//! Moderation through the service, as an adapter drives it: a stranger can
//! neither fill nor start a table they are not at, and never wipes a
//! session's sheet; an admin kicks (a computer plays the seat to the end of
//! the deal, then it is freed), aborts (the deal is void, recorded as
//! aborted, the list goes on), resets (the session ends, its sheet kept in
//! the table's history) and removes computers.

use doko_bot::command::Command;
use doko_bot::{
    Actor, App, ChannelId, CommandError, Input, Kind, Lang, MemoryStore, Message, Platform, Service, Store, UserId,
};
use doko_engine::{Action, Bid};
use doko_players::player::{BasicPlayer, Player};

fn person(id: &str, name: &str, admin: bool) -> Actor {
    Actor::new(UserId::new(Platform::DISCORD, id), name, admin)
}

struct T {
    svc: Service<MemoryStore>,
    ch: ChannelId,
    people: Vec<Actor>,
    admin: Actor,
    stranger: Actor,
}

impl T {
    async fn new(seed: u64) -> T {
        let t = T {
            svc: Service::new(MemoryStore::default(), seed),
            ch: ChannelId::new(Platform::DISCORD, "moderation"),
            people: vec![person("a", "Anna", false), person("b", "Ben", false), person("c", "Cleo", false)],
            admin: person("m", "Mod", true),
            stranger: person("z", "Zed", false),
        };
        for p in &t.people {
            t.ok(p, "join").await;
        }
        t
    }

    async fn say(&self, who: &Actor, text: &str) -> Vec<Message> {
        self.svc.handle(&self.ch, who, text).await.unwrap().messages()
    }

    async fn ok(&self, who: &Actor, text: &str) -> Vec<Message> {
        let m = self.say(who, text).await;
        assert!(m.iter().all(|m| m.kind != Kind::Error), "{text} by {}: {m:?}", who.name);
        m
    }

    async fn refused(&self, who: &Actor, text: &str, why: CommandError) {
        let (_, before) = self.svc.table(&self.ch).await.unwrap();
        let m = self.say(who, text).await;
        assert_eq!(m.len(), 1, "{text}: {m:?}");
        assert_eq!(m[0].text, doko_bot::render::error(Lang::En, &why), "{text} by {}", who.name);
        assert_eq!(self.svc.table(&self.ch).await.unwrap().1, before, "{text} changed nothing");
    }

    async fn table(&self) -> doko_bot::Table {
        self.svc.table(&self.ch).await.unwrap().0
    }

    async fn sheet(&self) -> usize {
        self.table().await.session().map_or(0, |s| s.sheet().len())
    }

    /// The people play (healthy, then the basic player's choices) until
    /// the sheet has `rows` rows or nobody is to act.
    async fn play_until(&self, rows: usize) {
        for _ in 0..500 {
            if self.sheet().await >= rows {
                return;
            }
            let t = self.table().await;
            let Some((user, _)) = t.person_to_act() else { return };
            let who = self.people.iter().chain([&self.stranger]).find(|a| a.user == user).unwrap();
            let view = t.view_for(&user).unwrap();
            let mut tries = vec![match BasicPlayer.decide(&view) {
                Action::Bid(_) => Action::Bid(Bid::Healthy),
                a => a,
            }];
            tries.extend(view.legal.iter().copied());
            let mut done = false;
            for a in tries {
                let m = self.svc.execute(&self.ch, who, Command::from_action(a)).await.unwrap().messages();
                if m.iter().all(|m| m.kind != Kind::Error) {
                    done = true;
                    break;
                }
            }
            assert!(done, "{} could not act", who.name);
        }
    }
}

#[tokio::test]
async fn a_stranger_neither_fills_nor_starts_a_table_nor_wipes_its_sheet() {
    let t = T::new(3).await;
    t.refused(&t.stranger, "addbot", CommandError::NotAtTable).await;
    t.refused(&t.stranger, "removebot", CommandError::NotAtTable).await;
    t.ok(&t.admin, "addbot").await; // an admin need not be seated
    t.refused(&t.stranger, "start", CommandError::NotAtTable).await;
    t.ok(&t.people[1], "start").await;
    t.play_until(1).await;
    assert_eq!(t.sheet().await, 1);
    // the next deal is aborted; the list goes on
    let m = t.ok(&t.admin, "abort").await;
    assert!(m.iter().any(|m| m.text.contains("Mod aborts the deal; it counts for nobody (record 2)")), "{m:?}");
    let tb = t.table().await;
    assert!(!tb.deal_running() && tb.session_open() && tb.records() == 2);
    let rec = t.svc.store().record(&t.ch, 2).await.unwrap().unwrap();
    let replayed = doko_engine::record::replay_stored(&rec).unwrap();
    assert_eq!(replayed.aborted.as_deref(), Some("admin"));
    assert_eq!(replayed.to_json()["contract"], "aborted");
    // a newcomer waits: no seat, no start, the sheet untouched
    t.refused(&t.stranger, "join", CommandError::SessionOpen).await;
    t.refused(&t.stranger, "start", CommandError::NotAtTable).await;
    t.refused(&t.stranger, "addbot", CommandError::NotAtTable).await;
    t.refused(&t.people[0], "addbot", CommandError::SessionOpen).await;
    assert_eq!(t.sheet().await, 1);
    // a player of the session starts the next deal of the same session
    t.ok(&t.people[2], "start").await;
    let tb = t.table().await;
    assert_eq!(tb.session().unwrap().sheet().len(), 1, "the same session goes on");
    assert!(tb.deal_running());
}

#[tokio::test]
async fn kick_hands_the_seat_to_a_computer_until_the_deal_ends() {
    let t = T::new(4).await;
    t.ok(&t.people[0], "addbot").await;
    t.ok(&t.people[0], "start").await;
    t.refused(&t.people[0], "kick cleo", CommandError::NotAdmin).await;
    t.refused(&t.admin, "kick nobody", CommandError::NoSuchPlayer("nobody".into())).await;
    let m = t.ok(&t.admin, "kick @Cleo").await;
    assert!(m.iter().any(|m| m.text.contains("Mod removes Cleo from the table; a computer plays the seat")), "{m:?}");
    let tb = t.table().await;
    let cleo = tb.seat_of(&t.people[2].user).unwrap();
    assert!(tb.seats()[cleo].leaving() && tb.seats()[cleo].stand_in().is_some());
    // Cleo cannot take the seat back: she is no longer at the table
    t.refused(&t.people[2], "back", CommandError::NotSeated).await;
    t.play_until(1).await;
    let tb = t.table().await;
    assert_eq!(tb.seat_of(&t.people[2].user), None, "the seat is freed at the deal's end");
    assert_eq!(tb.seats().len(), 3);
    let s = tb.session().unwrap();
    assert!(s.is_over() && s.sheet().len() == 1, "the session ends with its sheet");
    // the table is open again: someone new sits down and a new session starts
    t.ok(&t.stranger, "join").await;
    t.ok(&t.stranger, "start").await;
    let tb = t.table().await;
    assert_eq!(tb.history().len(), 1, "the old session is kept");
    assert_eq!(tb.history()[0].sheet().len(), 1);
    assert!(tb.session().unwrap().sheet().is_empty());
}

#[tokio::test]
async fn kick_between_deals_frees_the_seat_at_once_by_id() {
    let t = T::new(5).await;
    let m = t.ok(&t.admin, "kick b").await;
    assert!(m.iter().any(|m| m.text.contains("Mod removes Ben from the table.")), "{m:?}");
    assert_eq!(t.table().await.seat_of(&t.people[1].user), None);
}

#[tokio::test]
async fn reset_ends_the_session_and_keeps_its_sheet() {
    let t = T::new(6).await;
    t.ok(&t.people[0], "addbot").await;
    t.refused(&t.admin, "reset", CommandError::NoSession).await;
    t.ok(&t.people[0], "start").await;
    t.play_until(1).await;
    t.refused(&t.people[0], "reset", CommandError::NotAdmin).await;
    let m = t.ok(&t.admin, "reset").await;
    let text: String = m.iter().map(|m| m.text.clone()).collect();
    assert!(text.contains("Mod aborts the deal") && text.contains("Mod ends the session; its score sheet is kept"));
    let tb = t.table().await;
    assert!(!tb.deal_running() && !tb.session_open());
    assert_eq!(tb.session().unwrap().sheet().len(), 1, "the sheet is still shown");
    let m = t.ok(&t.stranger, "score").await;
    assert!(m[0].text.contains("Anna"), "{m:?}");
    // a new session starts fresh; the old one is in the history
    t.ok(&t.people[1], "start").await;
    let tb = t.table().await;
    assert_eq!(tb.history().len(), 1);
    assert_eq!(tb.history()[0].sheet().len(), 1);
}

#[tokio::test]
async fn removebot_between_deals_and_during_one() {
    let t = T::new(7).await;
    t.refused(&t.people[0], "removebot", CommandError::NoComputer).await;
    t.ok(&t.people[0], "addbot").await;
    t.ok(&t.people[0], "addbot").await;
    let m = t.ok(&t.people[0], "removebot bot 2").await;
    assert!(m.iter().any(|m| m.text.contains("Bot 2 (computer) leaves the table.")), "{m:?}");
    assert_eq!(t.table().await.seats().len(), 4);
    t.ok(&t.people[0], "start").await;
    let m = t.ok(&t.people[1], "removebot").await;
    assert!(m.iter().any(|m| m.text.contains("Bot 1 (computer) leaves the table when this deal ends.")), "{m:?}");
    t.play_until(1).await;
    let tb = t.table().await;
    assert_eq!(tb.seats().len(), 3);
    assert!(tb.session().unwrap().is_over());
}

#[tokio::test]
async fn a_kicked_player_sees_no_card_of_the_seat_whatever_they_click_or_type() {
    let t = T::new(4).await;
    t.ok(&t.people[0], "addbot").await;
    t.ok(&t.people[0], "start").await;
    let cleo = &t.people[2];
    let old = App::hand(&t.svc, &t.ch, &cleo.user).await.expect("Cleo holds cards");
    t.ok(&t.admin, "kick cleo").await;
    assert!(App::hand(&t.svc, &t.ch, &cleo.user).await.is_none(), "no hand for her any more");
    t.refused(cleo, "hand", CommandError::NotSeated).await;
    // every button of her old hand: refused as not seated, with no card
    let not_seated = doko_bot::render::error(Lang::En, &CommandError::NotSeated);
    let buttons = old.cards.iter().map(|c| c.command.clone()).chain(old.choices.iter().map(|c| c.command.clone()));
    for (i, command) in buttons.chain([old.refresh.command.clone()]).enumerate() {
        let click = Input::Clicked { command, stamp: old.stamp.clone() };
        let out = App::handle(&t.svc, &t.ch, cleo, click, Some(&format!("old-hand-{i}"))).await;
        let hers: Vec<_> = out.private_for(&cleo.user).collect();
        assert!(hers.iter().all(|p| p.hand.is_none() && p.picture.is_none() && !p.confidential), "{hers:?}");
        assert!(hers.iter().all(|p| !p.text.contains("Your hand")), "{hers:?}");
        assert!(out.table.is_none() && out.notices.is_empty(), "nothing happened: {out:?}");
        assert!(hers.iter().any(|p| p.text == not_seated), "{hers:?}");
    }
}
