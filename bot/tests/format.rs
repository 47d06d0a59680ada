//! Store format 2 (issue 19): the live deal and the finished deals' records
//! are kept in the compact record form. A store of format 1 (the deal and
//! the records as `doko-record/1` JSON) is read as it is by a new process,
//! its next change is written in this build's format, and the `record`
//! command hands out `doko-record/1` JSON either way.
//!
//! Store format 3 (issue 19): a table remembers its deliveries by a hash of
//! each id; format 2's list of ids is read and its deliveries stay handled.

use doko_bot::{
    Actor, ChannelId, Commit, Keep, Kind, MemoryStore, Platform, STORE_FORMAT, Service, Store, UserId, check_format,
};
use doko_engine::Record;
use doko_engine::record::replay_str;
use serde_json::Value;

/// The stored table's live deal.
fn live_deal(v: &mut Value) -> Option<&mut Value> {
    v.get_mut("session")?.get_mut("deal")?.get_mut("record")
}

/// A user key as format 1 wrote a user id.
fn user_object(key: &str) -> Value {
    let (platform, id) = key.split_once(':').unwrap();
    serde_json::json!({"platform": platform, "id": id})
}

/// A statistics row as format 1 wrote it.
fn stats_object(row: &Value) -> Value {
    let r = row.as_array().expect("a row");
    serde_json::json!({"name": r[0], "deals": r[1], "won": r[2], "solos": r[3], "solos_won": r[4], "points": r[5], "sessions": r[6]})
}

/// Rewrites a format 2 table the way format 1 wrote it: people on seats
/// tagged with user objects, statistics as named fields, every default
/// written out.
fn as_format_one(v: &mut Value) {
    v["format"] = 1.into();
    for seat in v["seats"].as_array_mut().unwrap() {
        if let Value::String(k) = &seat["occupant"] {
            seat["occupant"] = serde_json::json!({"kind": "human", "user": user_object(k)});
        }
        seat["stand_in"] = Value::Null;
        seat["dm"] = false.into();
    }
    let mut all = vec![v["stats"].clone()];
    all.extend(v["monthly"].as_object().unwrap().values().cloned());
    for stats in all.iter_mut() {
        for row in stats.as_object_mut().unwrap().values_mut() {
            *row = stats_object(row);
        }
    }
    v["stats"] = all[0].clone();
    for (m, month) in v["monthly"].as_object_mut().unwrap().values_mut().zip(&all[1..]) {
        *m = month.clone();
    }
    for (k, d) in [("delivered", serde_json::json!([])), ("display", Value::Null), ("policy", "stand-in".into())] {
        v[k] = d;
    }
    let s = &mut v["session"];
    s["over"] = false.into();
    s["bock_left"] = 0.into();
    s["deal"]["bock"] = false.into();
    s["deal"]["forced"] = Value::Null;
    for row in s["sheet"].as_array_mut().unwrap() {
        row["bock"] = false.into();
    }
}

async fn say(svc: &Service<MemoryStore>, ch: &ChannelId, who: &Actor, text: &str) -> Vec<doko_bot::Message> {
    let out = svc.handle(ch, who, text).await.unwrap().messages();
    assert!(!out.iter().any(|m| m.kind == Kind::Error), "{text}: {out:?}");
    out
}

/// Anna plays her legal cards (three computers the others) until `done`.
async fn play_until(svc: &Service<MemoryStore>, ch: &ChannelId, anna: &Actor, done: impl Fn(&doko_bot::Table) -> bool) {
    for _ in 0..400 {
        let t = svc.table(ch).await.unwrap().0;
        if done(&t) {
            return;
        }
        let view = t.view_for(&anna.user).expect("Anna sits");
        say(svc, ch, anna, &doko_bot::Command::from_action(view.legal[0]).to_string()).await;
    }
    panic!("the deal did not get there");
}

fn record_answer(out: &[doko_bot::Message]) -> String {
    out.iter().find(|m| m.kind == Kind::Record).expect("a record answer").text.clone()
}

#[tokio::test]
async fn format_one_is_read_as_it_is_and_written_in_this_builds_format() {
    let store = MemoryStore::default();
    assert_eq!(check_format(&store).await.unwrap(), STORE_FORMAT);
    assert_eq!(STORE_FORMAT, 4);
    let svc = Service::new(store.clone(), 3);
    let ch = ChannelId::new(Platform::DISCORD, "format");
    let anna = Actor::new(UserId::new(Platform::DISCORD, "anna"), "Anna", true);
    for text in ["join", "addbot", "addbot", "addbot", "start"] {
        say(&svc, &ch, &anna, text).await;
    }
    // one deal over, the next one six cards in
    play_until(&svc, &ch, &anna, |t| {
        t.records() == 1 && t.game().ok().flatten().is_some_and(|g| g.plays() >= 6 && !g.is_over())
    })
    .await;

    // format 2 on: the live deal and record 1 are compact texts
    let stored = store.load(&ch).await.unwrap().unwrap();
    let mut v: Value = serde_json::from_str(&stored.json).unwrap();
    assert_eq!(v["format"], STORE_FORMAT);
    let live = live_deal(&mut v).expect("the live deal").clone();
    let Value::String(compact) = &live else { panic!("the live deal is not compact: {live} in {v}") };
    assert!(compact.len() < 120, "{} characters for the live deal", compact.len());
    let game = Record::from_compact(compact).unwrap().to_game().unwrap();
    assert_eq!(Some(&game), svc.table(&ch).await.unwrap().0.game().unwrap().as_ref(), "the same deal");
    let kept = store.record(&ch, 1).await.unwrap().unwrap();
    assert!(!kept.starts_with('{') && kept.len() < 200, "record 1 as kept: {kept}");
    let json_1 = record_answer(&say(&svc, &ch, &anna, "record 1").await);
    assert!(replay_str(&json_1).is_ok(), "`record` hands out doko-record/1: {json_1}");
    assert_eq!(Record::from_json(&json_1).unwrap(), Record::from_compact(&kept).unwrap());

    // the same state as format 1 wrote it: JSON for the deal and a record
    *live_deal(&mut v).unwrap() = Record::from_compact(compact).unwrap().to_value();
    let before = svc.table(&ch).await.unwrap().0;
    as_format_one(&mut v);
    v["records"] = 2.into();
    let old = serde_json::to_string(&v).unwrap();
    let keep = Keep { durable: true, records: 0 };
    let c = store.commit_kept(&ch, stored.version, &old, std::slice::from_ref(&json_1), keep).await.unwrap();
    assert!(matches!(c, Commit::Done(_)), "{c:?}");
    store.set_format_version(1).await.unwrap();

    // a new process: the store is migrated, the table read as it is
    assert_eq!(check_format(&store).await.unwrap(), STORE_FORMAT);
    assert_eq!(store.format_version().await.unwrap(), Some(STORE_FORMAT));
    let fresh = Service::new(store.clone(), 4);
    let (t, _) = fresh.table(&ch).await.unwrap();
    assert_eq!(t.game().unwrap().as_ref(), Some(&game), "format 1's deal read as it is");
    assert_eq!(t.seats(), before.seats(), "format 1's seats read as they are");
    assert_eq!(t.stats(), before.stats(), "format 1's statistics read as they are");
    assert_eq!(t.session(), before.session(), "format 1's list read as it is");
    let key = doko_bot::table::PlayerKey::person(&anna.user);
    assert!(t.stats().get(&key).is_some_and(|s| s.deals == 1 && s.name == "Anna"));
    assert_eq!(record_answer(&say(&fresh, &ch, &anna, "record 2").await), json_1, "format 1's record");
    // its next change is written in this build's format
    play_until(&fresh, &ch, &anna, |t| t.game().ok().flatten().is_some_and(|g| g.plays() > game.plays())).await;
    let mut v: Value = serde_json::from_str(&store.load(&ch).await.unwrap().unwrap().json).unwrap();
    assert_eq!(v["format"], STORE_FORMAT);
    assert!(live_deal(&mut v).unwrap().is_string(), "written compact again");
    // and the deal plays on to its end, filed compact
    play_until(&fresh, &ch, &anna, |t| t.records() == 3).await;
    let third = store.record(&ch, 3).await.unwrap().unwrap();
    assert!(Record::from_compact(&third).unwrap().replay().is_ok());
}

/// The seats, the session's roster and its score sheet are kept with their
/// JSON between changes (a move does not write them again): after every
/// command the stored seats, roster and sheet are what they are, written
/// afresh, also after a seat changed mid-deal (`dm`, `away`, `back`), in
/// the next deal and after rows were added to the sheet.
#[tokio::test]
async fn the_stored_seats_are_the_seats_after_every_command() {
    let store = MemoryStore::default();
    let svc = Service::new(store.clone(), 3);
    let ch = ChannelId::new(Platform::DISCORD, "seats");
    let anna = Actor::new(UserId::new(Platform::DISCORD, "anna"), "Anna", true);
    let stored_seats = |json: &str| serde_json::from_str::<Value>(json).unwrap()["seats"].clone();
    let stored_roster = |json: &str| {
        let v = serde_json::from_str::<Value>(json).unwrap();
        (v["session"]["players"].clone(), v["session"]["names"].clone(), v["session"]["sheet"].clone())
    };
    let mut checked = 0;
    let mut rows = 0;
    let mut changed = 0;
    let mut last = Value::Null;
    let mut check = async |svc: &Service<MemoryStore>| {
        let json = store.load(&ch).await.unwrap().unwrap().json;
        let stored = stored_seats(&json);
        let t = svc.table(&ch).await.unwrap().0;
        // the session's roster too (kept with its JSON for the session),
        // and its score sheet (kept with its JSON until a row is added)
        if let Some(s) = t.session() {
            let sheet = s.session().sheet();
            let fresh = (
                serde_json::to_value(s.players()).unwrap(),
                serde_json::to_value(s.names()).unwrap(),
                if sheet.is_empty() { Value::Null } else { serde_json::to_value(sheet).unwrap() },
            );
            assert_eq!(stored_roster(&json), fresh);
            rows = rows.max(sheet.len());
        }
        let fresh: Vec<doko_bot::table::SeatInfo> = t.seats().iter().cloned().collect();
        assert_eq!(stored, serde_json::to_value(&fresh).unwrap());
        // and a process that reads it has the same seats
        let other = Service::new(store.clone(), 3);
        assert_eq!(other.table(&ch).await.unwrap().0.seats(), t.seats());
        checked += 1;
        if stored != last {
            changed += 1;
            last = stored;
        }
    };
    for text in ["join", "addbot", "addbot", "addbot", "start"] {
        say(&svc, &ch, &anna, text).await;
        check(&svc).await;
    }
    for round in 0..80 {
        let t = svc.table(&ch).await.unwrap().0;
        let text = match round {
            3 => "dm on".to_string(),
            9 => "away".to_string(),
            14 => "back".to_string(),
            _ => match t.view_for(&anna.user).filter(|v| !v.legal.is_empty()) {
                Some(v) => doko_bot::Command::from_action(v.legal[0]).to_string(),
                // a deal away ended: the next is dealt on `start`
                None if !t.plays_in_deal(&anna.user) => "start".to_string(),
                None => "table".to_string(),
            },
        };
        say(&svc, &ch, &anna, &text).await;
        check(&svc).await;
    }
    assert!(checked >= 65);
    assert!(rows >= 2, "{rows} rows on the sheet: rows added to a kept sheet must be seen");
    // joining, three computers, dm on, away, back (at least)
    assert!(changed >= 6, "{changed} changes seen");
}

/// Format 2 kept a table's delivery ids themselves (`delivered`); format 3
/// keeps a 48-bit hash of each, eight characters, as one string
/// (`deliveries`). A format 2 table is read with its deliveries handled: a
/// delivery it remembers, arriving again at a new process, changes
/// nothing; a new one is applied, and the table is written in format 3,
/// its deliveries (old and new) still handled.
#[tokio::test]
async fn format_twos_delivery_ids_stay_handled() {
    let store = MemoryStore::default();
    let svc = Service::new(store.clone(), 3);
    let ch = ChannelId::new(Platform::DISCORD, "deliveries");
    let anna = Actor::new(UserId::new(Platform::DISCORD, "anna"), "Anna", true);
    for (i, text) in ["join", "addbot", "addbot", "addbot", "start"].into_iter().enumerate() {
        let out = svc.handle_delivery(&ch, &anna, text, &format!("11900000000000000{i:02}")).await.unwrap();
        assert!(!out.messages().iter().any(|m| m.kind == Kind::Error), "{text}");
    }
    let stored = store.load(&ch).await.unwrap().unwrap();
    let mut v: Value = serde_json::from_str(&stored.json).unwrap();
    let kept = v["deliveries"].as_str().expect("the deliveries as one string").to_string();
    assert_eq!(kept.len(), 5 * 8, "eight characters a delivery: {kept}");
    assert!(v.get("delivered").is_none());

    // the same table as format 2 wrote it: the ids themselves
    v.as_object_mut().unwrap().remove("deliveries");
    v["delivered"] = (0..5).map(|i| format!("11900000000000000{i:02}")).collect::<Vec<_>>().into();
    v["format"] = 2.into();
    let old = serde_json::to_string(&v).unwrap();
    let keep = Keep { durable: true, records: 0 };
    let c = store.commit_kept(&ch, stored.version, &old, &[], keep).await.unwrap();
    assert!(matches!(c, Commit::Done(_)), "{c:?}");
    store.set_format_version(2).await.unwrap();

    assert_eq!(check_format(&store).await.unwrap(), STORE_FORMAT, "format 2 migrated to this build's");
    let fresh = Service::new(store.clone(), 4);
    let before = fresh.table(&ch).await.unwrap().0;
    assert_eq!(before.deliveries().len(), 5);
    assert!(before.knows_delivery("1190000000000000004"));
    // `start` again, delivered again: a duplicate, nothing changes
    let version = store.load(&ch).await.unwrap().unwrap().version;
    fresh.handle_delivery(&ch, &anna, "start", "1190000000000000004").await.unwrap();
    assert_eq!(store.load(&ch).await.unwrap().unwrap().version, version, "a duplicate is not applied");
    assert_eq!(fresh.table(&ch).await.unwrap().0, before);
    // a new delivery is applied and the table written in this build's format (the deliveries as in format 3)
    let t = fresh.table(&ch).await.unwrap().0;
    let card = doko_bot::Command::from_action(t.view_for(&anna.user).expect("Anna sits").legal[0]).to_string();
    let out = fresh.handle_delivery(&ch, &anna, &card, "1190000000000000005").await.unwrap();
    assert!(!out.messages().iter().any(|m| m.kind == Kind::Error), "{card}");
    let v: Value = serde_json::from_str(&store.load(&ch).await.unwrap().unwrap().json).unwrap();
    assert_eq!(v["format"], STORE_FORMAT);
    assert!(v.get("delivered").is_none(), "the ids are not written again");
    assert_eq!(v["deliveries"].as_str().unwrap().len(), 6 * 8, "the five read and the new one");
    assert!(v["deliveries"].as_str().unwrap().starts_with(&kept), "format 2's ids hashed as format 3 hashes them");
    let after = Service::new(store.clone(), 5).table(&ch).await.unwrap().0;
    assert!((0..6).all(|i| after.knows_delivery(&format!("11900000000000000{i:02}"))));
    assert!(!after.knows_delivery("1190000000000000006"));
}
