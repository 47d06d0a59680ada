//! Issue 18, items 3 and 4, through the service as an adapter drives it:
//! a server's defaults in layers (channel over server over built-in, with
//! `rules show` saying where each value comes from), lists with numbers,
//! leaderboards across a server's channels (all time and this month) and
//! one's own figures.

use doko_bot::command::Command;
use doko_bot::table::Source;
use doko_bot::{Actor, ChannelId, CommandError, Kind, Lang, MemoryStore, Message, Platform, ServerId, Service, UserId};
use doko_engine::{Action, Bid};
use doko_players::player::{BasicPlayer, Player};

/// 2026-10-15 and 2026-11-10, 12:00 UTC.
const OCTOBER: u64 = 1_792_065_600_000;
const NOVEMBER: u64 = 1_794_312_000_000;

fn guild() -> ServerId {
    ServerId::new(Platform::DISCORD, "4242")
}

/// A person in a channel of the guild (`server_admin`: may set its
/// defaults; `admin`: the channel's).
fn member(id: &str, name: &str, admin: bool, server_admin: bool) -> Actor {
    Actor::new(UserId::new(Platform::DISCORD, id), name, admin).in_server(guild(), server_admin)
}

fn channel(id: &str) -> ChannelId {
    ChannelId::new(Platform::DISCORD, id)
}

async fn say(svc: &Service<MemoryStore>, ch: &ChannelId, who: &Actor, text: &str) -> Vec<Message> {
    svc.handle(ch, who, text).await.unwrap().messages()
}

async fn ok(svc: &Service<MemoryStore>, ch: &ChannelId, who: &Actor, text: &str) -> Vec<Message> {
    let m = say(svc, ch, who, text).await;
    assert!(m.iter().all(|m| m.kind != Kind::Error), "{text} by {}: {m:?}", who.name);
    m
}

async fn refused(svc: &Service<MemoryStore>, ch: &ChannelId, who: &Actor, text: &str, why: CommandError) {
    let m = say(svc, ch, who, text).await;
    let err: Vec<&Message> = m.iter().filter(|m| m.kind == Kind::Error).collect();
    assert_eq!(err.len(), 1, "{text}: {m:?}");
    let lang = svc.table(ch).await.unwrap().0.lang();
    assert_eq!(err[0].text, doko_bot::render::error(lang, &why), "{text} by {}", who.name);
}

fn text_of(m: &[Message], kind: Kind) -> String {
    m.iter().filter(|m| m.kind == kind).map(|m| m.text.as_str()).collect::<Vec<_>>().join("\n")
}

/// The line of `rules show` for a key.
fn rule_line(m: &[Message], key: &str) -> String {
    let t = text_of(m, Kind::Rules);
    t.lines()
        .find(|l| l.get(2..).is_some_and(|r| r.starts_with(&format!("{key} = "))))
        .unwrap_or_else(|| panic!("{key} in {t}"))
        .to_string()
}

#[tokio::test]
async fn a_servers_defaults_reach_its_channels_and_a_channel_keeps_what_it_sets() {
    let svc = Service::new(MemoryStore::default(), 7);
    let (c1, c2, c3) = (channel("101"), channel("102"), channel("103"));
    let owner = member("1", "Owner", true, true);
    let mod2 = member("2", "Mod", true, false);
    let anna = member("3", "Anna", false, false);
    // two channels know the server (each on its first command)
    ok(&svc, &c1, &anna, "rules").await;
    ok(&svc, &c2, &anna, "join").await;
    // nobody but the server's admins sets its defaults; a channel's admin
    // is not one of them
    refused(&svc, &c2, &mod2, "server set bock on", CommandError::NotServerAdmin).await;
    refused(&svc, &c2, &anna, "server set bock on", CommandError::NotAdmin).await;
    let plain = Actor::new(UserId::new(Platform::DISCORD, "1"), "Owner", true);
    refused(&svc, &channel("dm-less"), &plain, "server set bock on", CommandError::NoServer).await;
    refused(&svc, &c1, &owner, "server set bock maybe", CommandError::Rules(rule_error("bock", "maybe"))).await;

    let m = ok(&svc, &c1, &owner, "server set bock on").await;
    let table = text_of(&m, Kind::Events);
    assert!(table.contains("Owner changed this server's defaults: server set bock on (2 channels, where"), "{m:?}");
    for ch in [&c1, &c2] {
        let t = svc.table(ch).await.unwrap().0;
        assert!(t.rules().bock, "{ch}");
        assert_eq!(t.rule_source("bock"), Source::Server);
    }
    assert!(rule_line(&ok(&svc, &c2, &anna, "rules").await, "bock").contains("bock = on (server)"));
    // the channel's own choice wins, and says so
    ok(&svc, &c2, &mod2, "rules set bock off").await;
    assert!(rule_line(&ok(&svc, &c2, &anna, "rules").await, "bock").contains("bock = off (channel)"));
    assert!(rule_line(&ok(&svc, &c1, &anna, "rules").await, "bock").contains("bock = on (server)"));
    // a language for the server: both channels speak it, one keeps its own
    ok(&svc, &c2, &mod2, "lang en").await;
    ok(&svc, &c1, &owner, "server lang de").await;
    assert_eq!(svc.table(&c1).await.unwrap().0.lang(), Lang::De);
    let t2 = svc.table(&c2).await.unwrap().0;
    assert_eq!((t2.lang(), t2.lang_source()), (Lang::En, Source::Channel));
    let shown = text_of(&ok(&svc, &c1, &anna, "regeln").await, Kind::Rules);
    assert!(shown.contains("Sprache de (Server), bei Zeitüberschreitung standin (Standard)"), "{shown}");
    // a policy and a preset for the server; a channel that joins later
    // gets them with its first command
    ok(&svc, &c1, &owner, "server policy abort").await;
    ok(&svc, &c1, &owner, "server preset casual").await;
    ok(&svc, &c3, &anna, "table").await;
    let t3 = svc.table(&c3).await.unwrap().0;
    assert_eq!(t3.lang(), Lang::De);
    assert_eq!(t3.policy(), doko_bot::command::TimeoutPolicy::Abort);
    assert_eq!(t3.rules().preset.name(), "casual");
    assert_eq!(t3.preset_source(), Source::Server);
    // the channel's preset replaced the server's rules there; its reset
    // hands them back to the server
    let t2 = svc.table(&c2).await.unwrap().0;
    assert_eq!(t2.rules().preset.name(), "casual", "the server's preset below the channel's key");
    assert!(!t2.rules().bock);
    ok(&svc, &c2, &mod2, "rules reset").await;
    let t2 = svc.table(&c2).await.unwrap().0;
    assert_eq!(t2.rule_source("bock"), Source::Server);
    // the server's reset: every channel back to the built-in defaults,
    // except what a channel set itself
    ok(&svc, &c1, &owner, "server reset").await;
    let t1 = svc.table(&c1).await.unwrap().0;
    assert_eq!((t1.lang(), *t1.rules()), (Lang::En, doko_engine::Rules::default()));
    assert_eq!(svc.table(&c2).await.unwrap().0.lang(), Lang::En);
    // a channel that moved to another server takes that one's defaults,
    // and its old server's changes no longer reach it
    let elsewhere = Actor::new(UserId::new(Platform::DISCORD, "1"), "Owner", true)
        .in_server(ServerId::new(Platform::DISCORD, "9999"), true);
    ok(&svc, &c3, &elsewhere, "server lang de").await;
    ok(&svc, &c1, &owner, "server lang en").await;
    assert_eq!(svc.table(&c3).await.unwrap().0.lang(), Lang::De);
    assert_eq!(svc.table(&c3).await.unwrap().0.server().unwrap().id, "discord:9999");
    // the same delivery twice changes the server once
    let once = svc.handle_delivery(&c1, &owner, "server set nines false", "i-1").await.unwrap();
    let twice = svc.handle_delivery(&c1, &owner, "server set nines false", "i-1").await.unwrap();
    assert!(!once.duplicate && twice.duplicate, "{once:?}\n{twice:?}");
}

fn rule_error(key: &str, value: &str) -> doko_engine::RuleError {
    let mut r = doko_engine::Rules::default();
    r.set(key, value).unwrap_err()
}

#[tokio::test]
async fn a_table_stored_before_layers_keeps_its_settings_as_its_own() {
    let store = MemoryStore::default();
    let svc = Service::new(store.clone(), 3);
    let ch = channel("201");
    let anna = Actor::new(UserId::new(Platform::DISCORD, "3"), "Anna", true);
    ok(&svc, &ch, &anna, "rules set bock on").await;
    ok(&svc, &ch, &anna, "lang de").await;
    // as an older doko wrote it: no layers
    let (t, _) = svc.table(&ch).await.unwrap();
    let mut json: serde_json::Value = serde_json::to_value(&t).unwrap();
    for k in ["layered", "own", "base", "server"] {
        json.as_object_mut().unwrap().remove(k);
    }
    let stored = doko_bot::Store::load(&store, &ch).await.unwrap().unwrap();
    doko_bot::Store::commit(&store, &ch, stored.version, &json.to_string(), &[]).await.unwrap();
    // the server's defaults reach what it left at the defaults only
    let owner = member("1", "Owner", true, true);
    ok(&svc, &ch, &owner, "server set nines false").await;
    ok(&svc, &ch, &owner, "server set bock off").await;
    ok(&svc, &ch, &owner, "server lang en").await;
    let t = svc.table(&ch).await.unwrap().0;
    assert!(t.rules().bock && !t.rules().nines, "{:?}", t.rules());
    assert_eq!((t.lang(), t.rule_source("bock"), t.rule_source("nines")), (Lang::De, Source::Channel, Source::Server));
}

/// A channel of the guild with one person and three computers.
struct Channel {
    ch: ChannelId,
    person: Actor,
}

impl Channel {
    async fn open(svc: &Service<MemoryStore>, id: &str, person: Actor) -> Channel {
        let c = Channel { ch: channel(id), person };
        for t in ["join", "addbot", "addbot", "addbot", "start"] {
            ok(svc, &c.ch, &c.person, t).await;
        }
        c
    }

    /// The person plays (healthy, then the basic player) until the sheet
    /// of the list has `rows` rows.
    async fn play_until(&self, svc: &Service<MemoryStore>, rows: usize) {
        for _ in 0..2000 {
            let t = svc.table(&self.ch).await.unwrap().0;
            if t.session().map_or(0, |s| s.sheet().len()) >= rows {
                return;
            }
            let Some((user, _)) = t.person_to_act() else {
                ok(svc, &self.ch, &self.person, "start").await;
                continue;
            };
            assert_eq!(user, self.person.user);
            let view = t.view_for(&user).unwrap();
            let mut tries = vec![match BasicPlayer.decide(&view) {
                Action::Bid(_) => Action::Bid(Bid::Healthy),
                a => a,
            }];
            tries.extend(view.legal.iter().copied());
            let mut done = false;
            for a in tries {
                let m = svc.execute(&self.ch, &self.person, Command::from_action(a)).await.unwrap().messages();
                if m.iter().all(|m| m.kind != Kind::Error) {
                    done = true;
                    break;
                }
            }
            assert!(done, "{} could not act", self.person.name);
        }
        panic!("the list did not reach {rows} rows");
    }
}

/// A person's points over every kept list of a table.
fn points_of(t: &doko_bot::Table, who: &Actor) -> i64 {
    t.stats().get(&doko_bot::table::PlayerKey::person(&who.user)).map_or(0, |s| s.points)
}

/// A channel written as Discord's adapter writes it (`<#id>`).
struct ChannelMentions;

impl doko_bot::dialect::Dialect for ChannelMentions {
    fn channel_link(&self, id: &str) -> String {
        format!("<#{id}>")
    }
}

#[tokio::test]
async fn lists_leaderboards_and_ones_own_figures_span_the_servers_channels() {
    let store = MemoryStore::default();
    let october = Service::new(store.clone(), 11).starting_at(OCTOBER);
    let anna = member("3", "Anna", true, false);
    let ben = member("4", "Ben", false, false);
    let a = Channel::open(&october, "301", anna.clone()).await;
    let b = Channel::open(&october, "302", ben.clone()).await;
    a.play_until(&october, 2).await;
    b.play_until(&october, 1).await;

    // November: a new list in Anna's channel
    let svc = Service::new(store.clone(), 12).starting_at(NOVEMBER).speaking(Platform::DISCORD, &ChannelMentions);
    // (ends the list of October: its sheet is kept as list 1)
    let owner = member("1", "Owner", true, true);
    ok(&svc, &a.ch, &owner, "reset").await;
    ok(&svc, &a.ch, &anna, "start").await;
    a.play_until(&svc, 1).await;

    // the list: its number, how far, when, its sheet, the kept ones
    let m = ok(&svc, &a.ch, &ben, "list").await;
    let list = text_of(&m, Kind::Score);
    assert!(list.starts_with("List 2 (1 of 24 deals, being played, started 2026-11-10):"), "{list}");
    assert!(list.contains("Lists kept here: 1, 2"), "{list}");
    let old = text_of(&ok(&svc, &a.ch, &ben, "liste 1").await, Kind::Score);
    assert!(old.starts_with("List 1 (2 deals, finished, started 2026-10-15):"), "{old}");
    let t = svc.table(&a.ch).await.unwrap().0;
    let sheet1 = t.list(1).unwrap();
    let anna_1 = sheet1.totals()[sheet1.players().position(|k| k.as_str() == anna.user.key()).unwrap()];
    // the last row of the sheet holds the totals
    let last = old.lines().nth(1 + sheet1.sheet().len()).unwrap();
    assert_eq!(last.split_whitespace().rev().nth(3), Some(anna_1.to_string().as_str()), "{old}");
    refused(&svc, &a.ch, &ben, "list 9", CommandError::NoList(9)).await;

    // the leaderboard: both channels, people only, by points
    let ta = svc.table(&a.ch).await.unwrap().0;
    let tb = svc.table(&b.ch).await.unwrap().0;
    let (pa, pb) = (points_of(&ta, &anna), points_of(&tb, &ben));
    let m = ok(&svc, &b.ch, &ben, "leaderboard").await;
    let board = text_of(&m, Kind::Stats);
    assert!(board.starts_with("Leaderboard of this server (2 channels), all time; people only:"), "{board}");
    assert!(!board.contains("Bot "), "computers are not ranked: {board}");
    let rows: Vec<&str> = board.lines().skip(2).collect();
    assert_eq!(rows.len(), 2, "{board}");
    let (first, second) = if pa >= pb { (("Anna", pa), ("Ben", pb)) } else { (("Ben", pb), ("Anna", pa)) };
    let cells = |l: &str| l.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(cells(rows[0])[..4], ["1".to_string(), first.0.into(), first.1.to_string(), deals(first.0)]);
    assert_eq!(cells(rows[1])[..4], ["2".to_string(), second.0.into(), second.1.to_string(), deals(second.0)]);
    // this month: Anna's one November deal only
    let month = text_of(&ok(&svc, &b.ch, &ben, "rangliste monat").await, Kind::Stats);
    assert!(
        month.starts_with("Leaderboard of this server (2 channels), this month (2026-11); people only:"),
        "{month}"
    );
    let rows: Vec<Vec<String>> = month.lines().skip(2).map(cells).collect();
    assert_eq!(rows.len(), 1, "{month}");
    let nov = svc.table(&a.ch).await.unwrap().0.month_stats("2026-11").unwrap().clone();
    let anna_nov = nov.get(&doko_bot::table::PlayerKey::person(&anna.user)).unwrap();
    assert_eq!(rows[0][..4], ["1".to_string(), "Anna".into(), anna_nov.points.to_string(), "1".into()]);

    // one's own figures, privately, with the lists in every channel
    let out = svc.handle(&b.ch, &anna, "me").await.unwrap();
    assert!(out.notices.is_empty() && out.table.is_none(), "privately");
    let me = out.private_for(&anna.user).next().unwrap().text.clone();
    assert!(me.starts_with("Anna in this server:\nAll time: "), "{me}");
    assert!(me.contains(&format!("All time: {pa} points, 3 deals")), "{me}");
    assert!(me.contains(&format!("This month (2026-11): {} points, 1 deal", anna_nov.points)), "{me}");
    assert!(me.contains("list 2 in <#301> (2026-11-10): 1 deal"), "{me}");
    assert!(me.contains(&format!("list 1 in <#301> (2026-10-15): 2 deals, {anna_1} points")), "{me}");
    let me_there = svc.handle(&a.ch, &anna, "me").await.unwrap();
    assert!(me_there.private_for(&anna.user).next().unwrap().text.contains("list 2 in this channel"));
    let nobody = svc.handle(&a.ch, &owner, "me").await.unwrap();
    assert_eq!(nobody.private_for(&owner.user).next().unwrap().text, "You have played no deal in this server yet.");
    refused(&svc, &channel("empty"), &ben, "list", CommandError::NoList(0)).await;
}

/// Deals a person of the leaderboard test played: Anna 3, Ben 1.
fn deals(name: &str) -> String {
    if name == "Anna" { "3" } else { "1" }.to_string()
}

/// The stored settings of the guild, as JSON, and their version.
async fn settings(store: &MemoryStore) -> (serde_json::Value, u64) {
    let s = doko_bot::Store::load(store, &guild().channel()).await.unwrap().unwrap();
    (serde_json::from_str(&s.json).unwrap(), s.version)
}

async fn write_settings(store: &MemoryStore, json: &serde_json::Value) {
    let (_, v) = settings(store).await;
    let done = doko_bot::Store::commit(store, &guild().channel(), v, &json.to_string(), &[]).await.unwrap();
    assert!(matches!(done, doko_bot::Commit::Done(_)));
}

#[tokio::test(start_paused = true)]
async fn a_change_that_missed_a_table_reaches_it_and_nothing_is_lost_or_set_aside() {
    let store = MemoryStore::default();
    let svc = Service::new(store.clone(), 21);
    let (c1, c2) = (channel("401"), channel("402"));
    let owner = member("1", "Owner", true, true);
    let anna = member("3", "Anna", false, false);
    ok(&svc, &c1, &anna, "join").await;
    ok(&svc, &c2, &anna, "join").await;
    ok(&svc, &c1, &owner, "server set bock on").await;
    // the settings changed where the tables did not take it (their
    // transaction failed, the process stopped before it): a later command
    // takes it, once what this process read of them is old
    let (mut json, _) = settings(&store).await;
    json["layer"]["rules"]["nines"] = "false".into();
    json["revision"] = (json["revision"].as_u64().unwrap() + 1).into();
    write_settings(&store, &json).await;
    tokio::time::advance(std::time::Duration::from_secs(6)).await;
    ok(&svc, &c2, &anna, "table").await;
    let t2 = svc.table(&c2).await.unwrap().0;
    assert!(!t2.rules().nines && t2.rules().bock, "{:?}", t2.rules());
    // a change whose delivery was remembered and which was not made (a
    // crash in between): the same delivery again makes it
    let d = svc.handle_delivery(&c1, &owner, "server lang de", "d-1").await.unwrap();
    assert!(!d.duplicate);
    let (mut json, _) = settings(&store).await;
    json["layer"].as_object_mut().unwrap().remove("lang");
    write_settings(&store, &json).await;
    let again = svc.handle_delivery(&c1, &owner, "server lang de", "d-1").await.unwrap();
    assert!(again.duplicate);
    assert_eq!(settings(&store).await.0["layer"]["lang"], "de");
    assert_eq!(svc.table(&c1).await.unwrap().0.lang(), Lang::De);
    // moved to a new store (export and import write every key anew, at
    // version 1): the tables still take the server's next change
    let moved = MemoryStore::default();
    for ch in [&c1, &c2, &guild().channel()] {
        let s = doko_bot::Store::load(&store, ch).await.unwrap().unwrap();
        doko_bot::Store::commit(&moved, ch, 0, &s.json, &[]).await.unwrap();
    }
    let svc2 = Service::new(moved.clone(), 22);
    ok(&svc2, &c1, &owner, "server set dulle second-wins").await;
    for ch in [&c1, &c2] {
        assert_eq!(svc2.table(ch).await.unwrap().0.rules().get("dulle").unwrap(), "second-wins", "{ch}");
    }
    // a server's settings are no table: a restart's look at the running
    // tables sets nothing aside
    let _ = doko_bot::App::running(&svc2, Platform::DISCORD).await;
    assert!(doko_bot::Store::quarantined(&moved).await.unwrap().is_empty());
}

#[tokio::test]
async fn a_channel_that_left_its_server_leaves_its_leaderboard_and_own_figures_are_private() {
    let svc = Service::new(MemoryStore::default(), 31);
    let anna = member("3", "Anna", true, false);
    let ben = member("4", "Ben", false, false);
    let a = Channel::open(&svc, "501", anna.clone()).await;
    let b = Channel::open(&svc, "502", ben.clone()).await;
    a.play_until(&svc, 1).await;
    b.play_until(&svc, 1).await;
    let board = text_of(&ok(&svc, &a.ch, &anna, "leaderboard").await, Kind::Stats);
    assert_eq!(board.lines().count(), 4, "{board}");
    // the platform says Ben's channel belongs to no server now (a room
    // taken out of its space)
    let alone = Actor::new(ben.user.clone(), "Ben", false).in_no_server();
    ok(&svc, &b.ch, &alone, "table").await;
    assert!(svc.table(&b.ch).await.unwrap().0.server().is_none());
    let board = text_of(&ok(&svc, &a.ch, &anna, "leaderboard").await, Kind::Stats);
    assert!(board.starts_with("Leaderboard of this server (1 channel), all time"), "{board}");
    assert_eq!(board.lines().count(), 3, "{board}");
    assert!(!board.contains("Ben"), "{board}");
    // `me` is private also where one holds no cards
    let me = svc.handle(&b.ch, &anna, "me").await.unwrap();
    let p = me.private_for(&anna.user).next().unwrap();
    assert!(p.confidential, "{p:?}");
}
