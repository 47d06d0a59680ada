//! Bounded work among strangers, through the service as an adapter drives
//! it: a long line gets a short refusal that does not repeat it; rate
//! limits per person and per channel (one polite answer per burst, then
//! silence); computer players never play past the end of a deal on their
//! own; records are capped per table.

use doko_bot::{Actor, ChannelId, Kind, Lang, MemoryStore, Platform, Service, UserId};

fn person(id: &str, name: &str, admin: bool) -> Actor {
    Actor::new(UserId::new(Platform::DISCORD, id), name, admin)
}

fn ch(id: &str) -> ChannelId {
    ChannelId::new(Platform::DISCORD, id)
}

#[tokio::test]
async fn a_long_line_gets_a_short_refusal_that_does_not_repeat_it() {
    let svc = Service::new(MemoryStore::default(), 1);
    let c = ch("long");
    let anna = person("a", "Anna", false);
    for (lang, admin) in [(Lang::En, false), (Lang::De, true)] {
        if admin {
            svc.handle(&c, &person("m", "Mod", true), "lang de").await.unwrap();
        }
        for line in ["x".repeat(10_000_000), format!("play {}", "♣".repeat(3_000)), "y".repeat(2_001)] {
            let out = svc.handle(&c, &anna, &line).await.unwrap();
            let m = out.messages();
            assert_eq!(m.len(), 1, "{m:?}");
            assert_eq!(m[0].kind, Kind::Error);
            assert_eq!(m[0].text, doko_bot::ParseError::TooLong.message(lang));
            assert!(m[0].text.len() < 200, "{}", m[0].text);
            println!("{lang:?}: a line of {} bytes: a refusal of {} bytes", line.len(), m[0].text.len());
        }
    }
    // the longest line allowed is read (and refused for what it says,
    // repeating at most a short piece)
    let line = format!("help {}", "z".repeat(doko_bot::command::MAX_COMMAND_CHARS - 5));
    let out = svc.handle(&c, &anna, &line).await.unwrap();
    assert_eq!(out.messages()[0].kind, Kind::Help);
    let line = format!("zz{}", "z".repeat(doko_bot::command::MAX_COMMAND_CHARS - 2));
    let m = svc.handle(&c, &anna, &line).await.unwrap().messages();
    assert!(m[0].text.len() < 200, "{}", m[0].text);
    // other echoes are cut short too: a bad argument, a rule value, a name
    let mod_ = person("m", "Mod", true);
    for line in [
        format!("play {}", "q".repeat(1_900)),
        format!("rules set dulle {}", "q".repeat(1_900)),
        format!("rules preset {}", "q".repeat(1_900)),
        format!("kick {}", "q".repeat(1_900)),
        format!("join {}", "q".repeat(1_900)),
    ] {
        let m = svc.handle(&c, &mod_, &line).await.unwrap().messages();
        for m in &m {
            assert!(m.text.len() < 400, "{line:.20}: {}", m.text);
        }
    }
    // a long display name is cut
    let long = person("l", &"N".repeat(10_000), false);
    assert_eq!(long.name.chars().count(), doko_bot::ids::MAX_NAME_CHARS);
}

/// A store that counts what is written to it (table JSON and records).
#[derive(Clone, Default)]
struct Counting {
    inner: MemoryStore,
    bytes: std::sync::Arc<std::sync::atomic::AtomicU64>,
    commits: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Counting {
    fn bytes(&self) -> u64 {
        self.bytes.load(std::sync::atomic::Ordering::SeqCst)
    }
    fn commits(&self) -> u64 {
        self.commits.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl Store for Counting {
    async fn load(&self, ch: &ChannelId) -> Result<Option<doko_bot::Stored>, doko_bot::StoreError> {
        self.inner.load(ch).await
    }
    async fn commit_kept(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
        keep: doko_bot::Keep,
    ) -> Result<doko_bot::Commit, doko_bot::StoreError> {
        let r = self.inner.commit_kept(ch, expected, json, records, keep).await?;
        if let doko_bot::Commit::Done(_) = r {
            let n = json.len() + records.iter().map(String::len).sum::<usize>();
            self.bytes.fetch_add(n as u64, std::sync::atomic::Ordering::SeqCst);
            self.commits.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        Ok(r)
    }
    async fn record(&self, ch: &ChannelId, n: u32) -> Result<Option<String>, doko_bot::StoreError> {
        self.inner.record(ch, n).await
    }
    async fn channels(&self) -> Result<Vec<ChannelId>, doko_bot::StoreError> {
        self.inner.channels().await
    }

    async fn quarantine(&self, q: &doko_bot::Quarantined) -> Result<bool, doko_bot::StoreError> {
        self.inner.quarantine(q).await
    }

    async fn quarantined(&self) -> Result<Vec<doko_bot::Quarantined>, doko_bot::StoreError> {
        self.inner.quarantined().await
    }

    async fn format_version(&self) -> Result<Option<u32>, doko_bot::StoreError> {
        self.inner.format_version().await
    }

    async fn set_format_version(&self, v: u32) -> Result<(), doko_bot::StoreError> {
        self.inner.set_format_version(v).await
    }
}

use doko_bot::Store;

const ABUSE: [&str; 6] = ["join", "addbot", "addbot", "addbot", "start", "away"];

/// 1,000 commands from one person in a fresh channel: what they change and
/// what they write, and the answers they get (polite, silent).
async fn flood(limits: doko_bot::Limits) -> (Service<Counting>, usize, usize, usize) {
    let store = Counting::default();
    let svc = Service::new(store, 7).with_limits(limits);
    let c = ch("flood");
    let z = person("z", "Zed", false);
    let (mut through, mut polite, mut silent) = (0, 0, 0);
    for i in 0..1_000 {
        let out = svc.handle(&c, &z, ABUSE[i % ABUSE.len()]).await.unwrap();
        let m = out.messages();
        assert_eq!(out.actor.as_ref(), Some(&z.user), "the person is always answered (maybe with nothing)");
        if m.is_empty() {
            silent += 1;
        } else if m.len() == 1 && m[0].text == doko_bot::tr!(Lang::En, "rate-limited") {
            polite += 1;
        } else {
            through += 1;
        }
    }
    (svc, through, polite, silent)
}

#[tokio::test(start_paused = true)]
async fn a_thousand_commands_from_one_person_are_held_by_the_rate_limit() {
    let (svc, through, polite, silent) = flood(doko_bot::Limits::public()).await;
    let user = doko_bot::Limits::public().user.unwrap();
    let t = svc.table(&ch("flood")).await.unwrap().0;
    let (bytes, commits) = (svc.store().bytes(), svc.store().commits());
    println!(
        "rate limited: 1,000 commands: {through} went through, {polite} polite answer, {silent} silent; \
         {commits} commits, {bytes} bytes written, {} records",
        t.records()
    );
    assert_eq!(through, user.burst as usize);
    assert_eq!(polite, 1, "one polite answer per burst");
    assert_eq!(silent, 1_000 - through - 1);
    assert!(t.records() <= 1, "at most the one deal the computers finished");
    assert!(bytes < 200_000, "{bytes} bytes written");

    // without rate limits the deals still end: one deal per `start`
    let (svc, through, _, _) = flood(doko_bot::Limits::default()).await;
    let t = svc.table(&ch("flood")).await.unwrap().0;
    println!(
        "no rate limit: 1,000 commands ({through} answered): {} commits, {} bytes written, {} records \
         (one deal per start, never more)",
        svc.store().commits(),
        svc.store().bytes(),
        t.records()
    );
    assert!(t.records() as usize <= 1_000 / ABUSE.len() + 1, "{}", t.records());
}

#[tokio::test(start_paused = true)]
async fn the_bucket_refills_with_time_and_a_new_burst_is_told_again() {
    let rate = doko_bot::Rate { burst: 3, every_ms: 1_000 };
    let limits = doko_bot::Limits { user: Some(rate), channel: None, ..Default::default() };
    let svc = Service::new(MemoryStore::default(), 7).with_limits(limits);
    let c = ch("refill");
    let anna = person("a", "Anna", false);
    let answers = |n| {
        let (svc, c, anna) = (&svc, &c, &anna);
        async move {
            let mut v = Vec::new();
            for _ in 0..n {
                v.push(svc.handle(c, anna, "table").await.unwrap().messages().len());
            }
            v
        }
    };
    assert_eq!(answers(5).await, [1, 1, 1, 1, 0], "three tables, the polite answer, silence");
    tokio::time::advance(std::time::Duration::from_millis(999)).await;
    assert_eq!(answers(1).await, [0]);
    tokio::time::advance(std::time::Duration::from_millis(1)).await;
    assert_eq!(answers(2).await, [1, 1], "one more table, then polite again");
    tokio::time::advance(std::time::Duration::from_secs(60)).await;
    assert_eq!(answers(5).await, [1, 1, 1, 1, 0], "full again (no more than the burst)");
    // German at a German table
    svc.handle(&c, &person("m", "Mod", true), "lang de").await.unwrap();
    tokio::time::advance(std::time::Duration::from_secs(60)).await;
    assert_eq!(answers(3).await, [1, 1, 1]);
    let out = svc.handle(&c, &anna, "table").await.unwrap();
    assert_eq!(out.messages()[0].text, doko_bot::tr!(Lang::De, "rate-limited"));
}

#[tokio::test(start_paused = true)]
async fn a_stranger_flooding_a_running_table_changes_nothing_and_writes_nothing() {
    let store = Counting::default();
    let svc = Service::new(store, 9).with_limits(doko_bot::Limits::public());
    let c = ch("busy");
    let people = [person("a", "Anna", false), person("b", "Ben", false), person("c", "Cleo", false)];
    for p in &people {
        svc.handle(&c, p, "join").await.unwrap();
    }
    svc.handle(&c, &people[0], "addbot").await.unwrap();
    svc.handle(&c, &people[0], "start").await.unwrap();
    let (before, version) = svc.table(&c).await.unwrap();
    let bytes = svc.store().bytes();
    let z = person("z", "Zed", false);
    let mut answered = 0;
    for i in 0..1_000 {
        let cmd = ["start", "addbot", "away"][i % 3];
        answered += usize::from(!svc.handle(&c, &z, cmd).await.unwrap().messages().is_empty());
    }
    let (after, v) = svc.table(&c).await.unwrap();
    println!("a stranger at a running table: 1,000 commands, {answered} answered, {} bytes written", {
        svc.store().bytes() - bytes
    });
    assert_eq!((after, v), (before, version));
    assert_eq!(svc.store().bytes(), bytes);
    assert_eq!(answered, 11, "ten refusals, one polite answer, then silence");
    // the players are not held up by the stranger's limit
    assert!(!svc.handle(&c, &people[1], "table").await.unwrap().messages().is_empty());
}

#[tokio::test]
async fn computers_and_absent_people_wait_for_a_start_after_each_deal() {
    let svc = Service::new(MemoryStore::default(), 11);
    let c = ch("alone");
    let anna = person("a", "Anna", false);
    for cmd in ["join", "addbot", "addbot", "addbot", "start"] {
        svc.handle(&c, &anna, cmd).await.unwrap();
    }
    let out = svc.handle(&c, &anna, "away").await.unwrap();
    let (t, _) = svc.table(&c).await.unwrap();
    assert_eq!(t.records(), 1, "one deal, not the whole list");
    assert!(!t.deal_running(), "the next deal waits");
    assert!(t.session_open());
    let events = out.table.as_ref().and_then(|m| m.events.clone()).unwrap_or_default();
    assert!(events.contains(&doko_bot::tr!(Lang::En, "event-waiting")), "{events}");
    // each start by the absent person: one deal more, no more
    for n in 2..=4 {
        svc.handle(&c, &anna, "start").await.unwrap();
        let (t, _) = svc.table(&c).await.unwrap();
        assert_eq!(t.records(), n);
        assert!(!t.deal_running());
    }
    // back at the table: the next deal is dealt and waits for her moves
    svc.handle(&c, &anna, "back").await.unwrap();
    svc.handle(&c, &anna, "start").await.unwrap();
    let (t, _) = svc.table(&c).await.unwrap();
    assert!(t.deal_running());
    assert_eq!(t.records(), 4);
}

#[tokio::test]
async fn records_are_capped_per_table_and_statistics_kept() {
    let limits = doko_bot::Limits { records_kept: 3, ..Default::default() };
    let svc = Service::new(MemoryStore::default(), 13).with_limits(limits);
    let c = ch("capped");
    let anna = person("a", "Anna", false);
    for cmd in ["join", "addbot", "addbot", "addbot", "start", "away"] {
        svc.handle(&c, &anna, cmd).await.unwrap();
    }
    for _ in 0..4 {
        svc.handle(&c, &anna, "start").await.unwrap();
    }
    let (t, _) = svc.table(&c).await.unwrap();
    assert_eq!(t.records(), 5);
    let key = t.seats().iter().find(|s| s.user().is_some()).unwrap().key();
    assert_eq!(t.stats().get(&key).unwrap().deals, 5, "statistics count every deal");
    assert_eq!(t.session().unwrap().sheet().len(), 5, "the score sheet keeps every deal");
    let no = doko_bot::tr!(Lang::En, "no-such-record");
    for (n, kept) in [(1, false), (2, false), (3, true), (4, true), (5, true)] {
        let m = svc.handle(&c, &anna, &format!("record {n}")).await.unwrap().messages();
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].text != no, kept, "record {n}: {:.60}", m[0].text);
        if kept {
            assert!(m[0].text.contains("doko-record/1"), "{:.80}", m[0].text);
        }
    }
}

#[tokio::test]
async fn every_refusal_of_a_six_thousand_character_option_is_short() {
    use doko_bot::command::{COMMANDS, OptionKind, OptionValue, from_options};
    let svc = Service::new(MemoryStore::default(), 5);
    let c = ch("long-options");
    let mod_ = person("m", "Mod", true);
    for p in ["a", "b", "c"] {
        svc.handle(&c, &person(p, p, false), "join").await.unwrap();
    }
    svc.handle(&c, &mod_, "join").await.unwrap();
    svc.handle(&c, &mod_, "start").await.unwrap();
    let long = "x".repeat(6_000);
    let mut tried = 0;
    for spec in COMMANDS.iter().filter(|s| s.args.iter().any(|a| a.ty.option_kind() == OptionKind::Text)) {
        let options: Vec<(&str, OptionValue)> = spec
            .args
            .iter()
            .map(|a| {
                let v = match a.ty.option_kind() {
                    OptionKind::Text => OptionValue::Text(long.clone()),
                    OptionKind::Integer => OptionValue::Integer(1),
                    OptionKind::Bool => OptionValue::Bool(true),
                };
                (a.name, v)
            })
            .collect();
        tried += 1;
        let cmd = match from_options(spec, &options) {
            Err(e) => {
                let text = e.message(Lang::En);
                assert!(text.chars().count() < 200, "{}: {} characters: {text}", spec.name, text.chars().count());
                continue;
            }
            Ok(cmd) => cmd,
        };
        let out = svc.execute(&c, &mod_, cmd).await.unwrap();
        for m in out.messages() {
            // refusals, and the help's answer to a topic that is no command
            let n = m.text.chars().count();
            assert!(!matches!(m.kind, Kind::Error | Kind::Help) || n < 200, "{}: {n}: {}", spec.name, m.text);
            assert!(!m.text.contains(&long[..100]), "{}: the option is echoed: {:.80}", spec.name, m.text);
        }
    }
    assert!(tried >= 10, "{tried} commands with text options");
}
