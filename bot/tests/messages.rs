//! Snapshots of every kind of message in both languages, from seeded deals
//! (so they are stable): events of every kind, the table in each phase,
//! hands, the score sheet, statistics, rules, every refusal (commands, the
//! engine's rules, parse errors), help, and the summary of scored deals.
//! A wording change shows up here as a diff to review.

use doko_bot::command::{ArgType, Command, HelpStyle, ParseError, RulesCmd, help_styled};
use doko_bot::table::{Ctx, PovertyMove, Summary};
use doko_bot::{Actor, CommandError, Event, Lang, Platform, Table, UserId, parse, render};
use doko_engine::{
    Action, ActionError, Attempt, Bid, Call, Card, Class, Contract, Declaration, Item, Party, Phase, Player, Reason,
    RedealReason, Reservation, RuleError, Seat, SessionError, SoloKind, SwitchedOff,
};
use doko_players::BotLevel;

const NAMES: [&str; 4] = ["Anna", "Ben", "Clara", "Dieter"];

fn actor(i: usize) -> Actor {
    Actor::new(UserId::new(Platform::TERMINAL, format!("p{i}")), NAMES[i], true)
}

/// An empty table speaking `lang`.
fn new_table(lang: Lang) -> Table {
    let mut t = Table::default();
    if lang != t.lang() {
        apply(&mut t, 0, Command::Lang(lang), 0).unwrap();
    }
    t
}

/// Applies a command with deals from `seed`.
fn apply(t: &mut Table, who: usize, cmd: Command, seed: u64) -> Result<Vec<Event>, CommandError> {
    let mut next = move || seed;
    let mut ctx = Ctx { seed: &mut next, new_records: Vec::new(), discard: false, now_ms: 0, via: None };
    t.apply(&actor(who), &cmd, &mut ctx)
}

/// A game action by the person on a game seat.
fn act(t: &mut Table, seat: Seat, a: Action) -> Vec<Event> {
    let who = t.table_seat(seat).expect("seated");
    apply(t, who.index(), Command::from_action(a), 0).expect("a legal action")
}

/// Four people at a table, dealt from `seed`.
fn dealt(lang: Lang, seed: u64) -> (Table, Vec<Event>) {
    dealt_with(lang, seed, "ddv")
}

/// As [`dealt`], under a preset.
fn dealt_with(lang: Lang, seed: u64, preset: &str) -> (Table, Vec<Event>) {
    let mut t = new_table(lang);
    apply(&mut t, 0, Command::Rules(RulesCmd::Preset(preset.into())), seed).unwrap();
    let mut ev = Vec::new();
    for i in 0..4 {
        ev.extend(apply(&mut t, i, Command::Join, seed).unwrap());
    }
    ev.extend(apply(&mut t, 0, Command::Start, seed).unwrap());
    (t, ev)
}

fn game_seat_to_act(t: &Table) -> Seat {
    t.game().unwrap().unwrap().to_act().expect("someone acts")
}

/// A deal where someone may declare poverty, and that seat.
fn poverty_deal(lang: Lang) -> (Table, Seat) {
    for seed in 0..2000 {
        let (mut t, _) = dealt_with(lang, seed, "casual");
        // everybody healthy until a seat may declare poverty
        loop {
            let g = t.game().unwrap().unwrap();
            if g.phase() != Phase::Bidding {
                break;
            }
            let s = g.to_act().unwrap();
            if g.legal_bids(s).contains(&Bid::Reserve(Reservation::Poverty)) {
                act(&mut t, s, Action::Bid(Bid::Reserve(Reservation::Poverty)));
                if t.game().unwrap().unwrap().phase() == Phase::Bidding {
                    // the others still answer
                    while t.game().unwrap().unwrap().phase() == Phase::Bidding {
                        let s2 = game_seat_to_act(&t);
                        act(&mut t, s2, Action::Bid(Bid::Healthy));
                    }
                }
                if t.game().unwrap().unwrap().phase() == Phase::PovertyGive {
                    return (t, s);
                }
                break;
            }
            act(&mut t, s, Action::Bid(Bid::Healthy));
        }
    }
    panic!("no poverty in 2000 deals");
}

fn first_legal(t: &Table, s: Seat) -> Action {
    t.game().unwrap().unwrap().view(s).legal[0]
}

fn hand_of(t: &Table, s: Seat) -> String {
    render::hand(t.lang(), &t.game().unwrap().unwrap().hand_view(s))
}

fn section(out: &mut String, title: &str, text: &str) {
    out.push_str(&format!("--- {title}\n{}\n", text.trim_end()));
}

/// The table and hands through a deal: seats filling, bidding, a solo,
/// the poverty exchange, play, tricks.
fn tables_and_hands(lang: Lang) -> (String, String) {
    let mut tables = String::new();
    let mut hands = String::new();
    let mut t = new_table(lang);
    section(&mut tables, "no seats", &render::table(&t));
    apply(&mut t, 0, Command::Join, 1).unwrap();
    apply(&mut t, 1, Command::Join, 1).unwrap();
    section(&mut tables, "two seats", &render::table(&t));
    apply(&mut t, 2, Command::Join, 1).unwrap();
    apply(&mut t, 3, Command::Join, 1).unwrap();
    section(&mut tables, "four seats", &render::table(&t));

    // a normal deal: bidding, then play
    let (mut t, _) = dealt(lang, 7);
    section(&mut tables, "bidding", &render::table(&t));
    let s = game_seat_to_act(&t);
    section(&mut hands, "bidding", &hand_of(&t, s));
    act(&mut t, s, Action::Bid(Bid::Healthy));
    let s = game_seat_to_act(&t);
    act(&mut t, s, Action::Bid(Bid::Reserve(Reservation::Solo { kind: SoloKind::Queens, duty: false })));
    section(&mut tables, "a reservation said", &render::table(&t));
    while t.game().unwrap().unwrap().phase() == Phase::Bidding {
        let s = game_seat_to_act(&t);
        act(&mut t, s, Action::Bid(Bid::Healthy));
    }
    section(&mut tables, "a queens solo, to play", &render::table(&t));
    let s = game_seat_to_act(&t);
    section(&mut hands, "to play (a solo)", &hand_of(&t, s));
    for _ in 0..6 {
        let s = game_seat_to_act(&t);
        let a = t.game().unwrap().unwrap().view(s).legal.iter().copied().find(|a| matches!(a, Action::Play(_)));
        act(&mut t, s, a.unwrap());
    }
    section(&mut tables, "after a trick and two cards", &render::table(&t));
    let other = game_seat_to_act(&t).next();
    section(&mut hands, "not on turn", &hand_of(&t, other));

    // the poverty exchange
    let (mut t, pauper) = poverty_deal(lang);
    section(&mut tables, "poverty: to put down", &render::table(&t));
    section(&mut hands, "poverty: to put down", &hand_of(&t, pauper));
    let a = first_legal(&t, pauper);
    act(&mut t, pauper, a);
    section(&mut tables, "poverty: offered", &render::table(&t));
    loop {
        let g = t.game().unwrap().unwrap();
        if g.phase() != Phase::PovertyOffer {
            break;
        }
        let s = g.to_act().unwrap();
        section(&mut hands, "poverty: offered", &hand_of(&t, s));
        act(&mut t, s, Action::Answer(true));
    }
    if t.game().unwrap().unwrap().phase() == Phase::PovertyReturn {
        section(&mut tables, "poverty: to return", &render::table(&t));
        let s = game_seat_to_act(&t);
        section(&mut hands, "poverty: to return", &hand_of(&t, s));
        let a = first_legal(&t, s);
        act(&mut t, s, a);
        section(&mut tables, "poverty: to play", &render::table(&t));
        section(&mut hands, "poverty: the pauper's hand", &hand_of(&t, pauper));
    }
    (tables, hands)
}

/// A session of four deals played by computers (casual rules, Bock on).
fn computer_session(lang: Lang) -> (Table, Vec<Event>) {
    let mut t = new_table(lang);
    apply(&mut t, 0, Command::Rules(RulesCmd::Preset("casual".into())), 0).unwrap();
    apply(&mut t, 0, Command::Rules(RulesCmd::Set { key: "games_per_session".into(), value: "4".into() }), 0).unwrap();
    apply(&mut t, 0, Command::Rules(RulesCmd::Set { key: "bock".into(), value: "on".into() }), 0).unwrap();
    for level in [BotLevel::Basic; 4] {
        apply(&mut t, 0, Command::AddBot(level), 0).unwrap();
    }
    let mut seeds = doko_engine::Rng::new(42);
    let mut next = move || seeds.next_u64();
    let mut ctx = Ctx { seed: &mut next, new_records: Vec::new(), discard: false, now_ms: 0, via: None };
    let mut ev = Vec::new();
    let mut rng = doko_engine::Rng::new(7);
    // computers play one deal at a time: each waits for a start
    while ev.is_empty() || t.session_open() {
        ev.extend(t.apply(&actor(0), &Command::Start, &mut ctx).unwrap());
        ev.extend(
            t.run_computers(&mut ctx, &mut |level, view| {
                doko_players::decide(level, view, &mut rng, Default::default())
            })
            .unwrap(),
        );
    }
    (t, ev)
}

fn every_event(t: &Table) -> Vec<Event> {
    let n = |s: &str| s.to_string();
    let summary = |winner, declarer: Option<&str>, bock| Summary {
        number: 3,
        record: 12,
        contract: if declarer.is_some() { Contract::Solo(SoloKind::Queens) } else { Contract::Normal },
        declarer: declarer.map(n),
        re: declarer.map_or(vec![n("Anna"), n("Clara")], |d| vec![n(d)]),
        kontra: vec![n("Ben"), n("Dieter")],
        card_points: [121, 119],
        winner,
        value: 1,
        items: vec![
            Item { reason: Reason::Won, party: Party::Re, points: 1 },
            Item { reason: Reason::Fox, party: Party::Kontra, points: 1 },
        ],
        scores: vec![(n("Anna"), 3), (n("Ben"), -1), (n("Clara"), -1), (n("Dieter"), -1)],
        bock,
        hands: if bock == 0 {
            vec![(n("Anna"), vec![Card::CQ, Card::H10]), (n("Ben"), vec![Card::DA, Card::HK])]
        } else {
            Vec::new()
        },
        tricks: if bock == 0 {
            vec![doko_bot::table::RevealedTrick {
                leader: n("Anna"),
                cards: vec![Card::CQ, Card::DA, Card::HK, Card::H10],
                winner: n("Anna"),
                points: 36,
            }]
        } else {
            Vec::new()
        },
    };
    let mut ev = vec![
        Event::Joined(n("Anna")),
        Event::Left(n("Ben")),
        Event::Watching(n("Eva")),
        Event::Unwatched(n("Eva")),
        Event::KiebitzStarted { player: n("Anna"), spectator: n("Eva") },
        Event::KiebitzEnded { player: n("Anna"), spectator: n("Eva") },
        Event::CardStyle(doko_bot::command::CardStyle::Images),
        Event::CardStyle(doko_bot::command::CardStyle::Text),
        Event::ServerChanged { name: n("Mod"), change: "server set bock on".into(), channels: 3 },
        Event::ComputerJoined(n("Bot 1")),
        Event::Away(n("Clara")),
        Event::Back(n("Clara")),
        Event::Dealt { number: 1, dealer: n("Dieter"), bock: 0, forced: None },
        Event::Dealt { number: 25, dealer: n("Anna"), bock: 1, forced: Some(n("Ben")) },
        Event::Dealt { number: 26, dealer: n("Ben"), bock: 2, forced: None },
        Event::Bid { name: n("Anna"), reserved: false },
        Event::Bid { name: n("Ben"), reserved: true },
        Event::Played { name: n("Clara"), card: Card::CQ },
        Event::TrickWon { name: n("Dieter"), points: 0 },
        Event::TrickWon { name: n("Dieter"), points: 1 },
        Event::TrickWon { name: n("Dieter"), points: 25 },
    ];
    ev.extend(Call::ALL.map(|call| Event::Announced { name: n("Anna"), call }));
    ev.extend(Declaration::ALL.map(|what| Event::Said { name: n("Dieter"), what }));
    ev.push(Event::Genscher { name: n("Anna"), partner: n("Dieter") });
    ev.extend([
        Event::SowStarted,
        Event::SowTaken(n("Clara")),
        Event::SowSolo { name: n("Clara"), kind: doko_engine::SoloKind::Spades },
    ]);
    ev.extend(
        [PovertyMove::Gave, PovertyMove::Accepted, PovertyMove::Declined, PovertyMove::Returned]
            .map(|step| Event::Poverty { name: n("Ben"), step }),
    );
    ev.extend([
        Event::Scored(Box::new(summary(Some(Party::Re), None, 0))),
        Event::Scored(Box::new(summary(None, Some("Anna"), 1))),
        Event::Scored(Box::new(summary(None, Some("Anna"), 2))),
        Event::Redeal(RedealReason::ThrowIn),
        Event::Redeal(RedealReason::PovertyDeclined),
        Event::RulesChanged,
        Event::LangChanged,
        Event::Reminder { name: n("Anna"), left_s: 30, timeout_s: 60 },
        Event::Reminder { name: n("Anna"), left_s: 1, timeout_s: 2 },
        Event::TimedOut { name: n("Anna"), timeout_s: 60 },
        Event::Aborted { name: n("Anna"), timeout_s: 60, record: 3 },
        Event::AbortedBy { name: n("Ben"), record: 4 },
        Event::Kicked { name: n("Clara"), by: n("Ben"), now: true },
        Event::Kicked { name: n("Clara"), by: n("Ben"), now: false },
        Event::BotRemoved { name: n("Bot 1"), now: true },
        Event::BotRemoved { name: n("Bot 1"), now: false },
        Event::Freed(n("Clara")),
        Event::ClockPaused(n("Ben")),
        Event::ClockResumed(n("Ben")),
        Event::Waiting,
    ]);
    if t.session().is_some() {
        ev.push(Event::SessionOver);
        ev.push(Event::SessionReset(n("Ben")));
    }
    ev
}

fn command_errors(lang: Lang) -> String {
    let all = [
        CommandError::NotSeated,
        CommandError::AlreadySeated,
        CommandError::TableFull,
        CommandError::NotEnoughPlayers(1),
        CommandError::NotEnoughPlayers(3),
        CommandError::DealRunning,
        CommandError::NoDeal,
        CommandError::SittingOut,
        CommandError::NotAdmin,
        CommandError::NotAtTable,
        CommandError::InChannel,
        CommandError::SessionOpen,
        CommandError::NoSession,
        CommandError::NoSuchPlayer("@someone".into()),
        CommandError::NoSuchPlayer("x".repeat(100)),
        CommandError::NoComputer,
        CommandError::ComputerPlays,
        CommandError::NotAway,
        CommandError::Rule(ActionError::DealOver),
        CommandError::Rules(RuleError::UnknownKey { key: "dullen".into() }),
        CommandError::Rules(RuleError::BadValue {
            key: "dulle",
            value: "x".into(),
            allowed: "first-wins, second-wins",
        }),
        CommandError::Rules(RuleError::UnknownPreset("turnier".into())),
        CommandError::Session(SessionError::MustBidSolo { player: Player::new(1) }),
        CommandError::Session(SessionError::OnlyForcedBids { player: Player::new(0), forced: Player::new(1) }),
        CommandError::Session(SessionError::Over),
        CommandError::Session(SessionError::Inconsistent("two deals at once")),
        CommandError::NoRecord(7),
        CommandError::AlreadyWatching,
        CommandError::NotWatching,
        CommandError::TooManySpectators,
        CommandError::NoSuchSpectator("finn".into()),
        CommandError::AmbiguousSpectator("eva".into()),
        CommandError::KiebitzTaken("Eva".into()),
        CommandError::NoKiebitz,
        CommandError::NoList(0),
        CommandError::NoList(3),
        CommandError::NoServer,
        CommandError::NotServerAdmin,
        CommandError::Damaged("bad record".into()),
    ];
    all.iter().map(|e| render::error(lang, e)).collect::<Vec<_>>().join("\n")
}

fn rule_errors(t: &Table) -> String {
    let s = Seat::new(0);
    let all = [
        ActionError::DealOver,
        ActionError::WrongPhase { seat: s, what: Attempt::Play, now: Phase::Bidding },
        ActionError::NotYourTurn { seat: s, turn: Seat::new(2) },
        ActionError::NotInHand { seat: s, card: Card::CQ },
        ActionError::MustFollow { seat: s, class: Class::Trump, holds: "DJ".parse().unwrap() },
        ActionError::MustFollow { seat: s, class: Class::Hearts, holds: "HA".parse().unwrap() },
        ActionError::MustAnnounce { seat: s, points: 35 },
        ActionError::MustAnnouncePiglets { seat: s },
        ActionError::CannotGenscher { seat: s },
        ActionError::BeforeSowSolo { seat: s },
        ActionError::MustChooseSolo { seat: s },
        ActionError::WeddingNeedsQueens { seat: s },
        ActionError::RuleOff { seat: s, what: SwitchedOff::Poverty },
        ActionError::RuleOff { seat: s, what: SwitchedOff::ThrowIn },
        ActionError::RuleOff { seat: s, what: SwitchedOff::CompulsorySolo },
        ActionError::TooManyTrumps { seat: s, trumps: 4, max: 3 },
        ActionError::TooManyTrumps { seat: s, trumps: 1, max: 0 },
        ActionError::CannotThrowIn { seat: s, nines: 1, kings: 4, trumps: 5, points: 61 },
        ActionError::SoloNotAllowed { seat: s, kind: SoloKind::Kings },
        ActionError::ExchangeCount { seat: s, expected: 3, got: 1 },
        ActionError::MustGiveTrumps { seat: s, keeps: "DQ".parse().unwrap() },
        ActionError::BeforeClarification { seat: s },
        ActionError::SayNotInRules { what: Declaration::HalfChicken },
        ActionError::SayNotInRules { what: Declaration::Piglets },
        ActionError::SayNotInRules { what: Declaration::Superpiglets },
        ActionError::CannotSay { seat: s, what: Declaration::HalfChicken },
        ActionError::CannotSay { seat: s, what: Declaration::Piglets },
        ActionError::CannotSay { seat: s, what: Declaration::Superpiglets },
        ActionError::AlreadySaid { what: Declaration::Piglets },
        ActionError::WrongParty { seat: s, party: Party::Kontra, call: Call::Re },
        ActionError::AlreadyAnnounced { seat: s, party: Party::Re, call: Call::No90 },
        ActionError::TooLate { seat: s, call: Call::No60, cards: 1, needed: 2 },
        ActionError::TooLate { seat: s, call: Call::No60, cards: 7, needed: 9 },
        ActionError::AfterLateReply { seat: s, party: Party::Re, call: Call::No90 },
    ];
    all.iter().map(|e| render::rule_error(t, e)).collect::<Vec<_>>().join("\n")
}

/// A list, a leaderboard (the computers' figures as people's), one's own
/// figures.
fn lists(lang: Lang, t: &Table) -> String {
    let rows: Vec<render::Ranked> = t
        .stats()
        .iter()
        .enumerate()
        .map(|(i, (k, s))| render::Ranked { place: i + 1, key: format!("discord:{}", k.as_str()), stats: s.clone() })
        .collect();
    let me = &rows[0].stats;
    let mine = [
        render::MyList {
            channel: None,
            number: 3,
            started_ms: 1_794_312_000_000,
            deals: 24,
            points: 17,
            place: (1, 4),
        },
        render::MyList { channel: Some("<#42>".into()), number: 1, started_ms: 0, deals: 1, points: -3, place: (4, 4) },
    ];
    [
        render::list(t, None),
        render::list(t, Some(1)),
        render::leaderboard(lang, true, None, 3, &rows),
        render::leaderboard(lang, false, Some("2026-11"), 1, &[]),
        render::me(lang, true, "2026-11", Some((me, 1, 4)), Some((me, 2, 3)), &mine),
        render::me(lang, false, "2026-11", None, None, &[]),
    ]
    .join("\n---\n")
}

fn parse_errors(lang: Lang) -> String {
    let types = [
        ArgType::Card,
        ArgType::Cards,
        ArgType::Call,
        ArgType::Bid,
        ArgType::Level,
        ArgType::Lang,
        ArgType::OnOff,
        ArgType::Policy,
        ArgType::Style,
        ArgType::Period,
        ArgType::Number,
        ArgType::RuleKey,
        ArgType::RuleValue,
        ArgType::Preset,
        ArgType::Step,
        ArgType::Topic,
        ArgType::Subcommand,
    ];
    let mut out = vec![ParseError::Empty.message(lang), ParseError::Unknown("dance".into()).message(lang)];
    for ty in types {
        out.push(ParseError::Missing { command: "play", what: ty }.message(lang));
        out.push(ParseError::Bad { command: "play", arg: "xyz".into(), expected: ty }.message(lang));
    }
    out.push(ParseError::TooMany { command: "join", extra: "now".into() }.message(lang));
    for text in ["play", "spiele banane", "solo", "poverty give", "rules vielleicht", "record x", "dm vielleicht"] {
        out.push(format!("{text:?}: {}", parse(text).unwrap_err().message(lang)));
    }
    out.join("\n")
}

#[test]
fn every_message_kind_in_both_languages() {
    for lang in Lang::ALL {
        let code = lang.code();
        let (tables, hands) = tables_and_hands(lang);
        insta::assert_snapshot!(format!("tables_{code}"), tables);
        insta::assert_snapshot!(format!("hands_{code}"), hands);

        let (session, session_events) = computer_session(lang);
        let summaries: Vec<String> = session_events
            .iter()
            .filter_map(|e| match e {
                Event::Scored(s) => Some(render::summary(lang, s)),
                _ => None,
            })
            .collect();
        assert!(summaries.len() >= 4, "four deals scored");
        insta::assert_snapshot!(format!("summaries_{code}"), summaries.join("\n\n"));
        insta::assert_snapshot!(format!("score_{code}"), render::score(&session));
        insta::assert_snapshot!(format!("stats_{code}"), render::stats(&session));
        insta::assert_snapshot!(format!("rules_{code}"), render::rules(&session));
        insta::assert_snapshot!(format!("lists_{code}"), lists(lang, &session));
        // every key with a line on it, in parts a platform takes whole
        let parts = render::rules_parts(&session);
        assert!(parts.len() >= 2, "{} characters in one part", parts[0].chars().count());
        assert!(parts.iter().all(|p| p.chars().count() <= render::RULES_PART_CHARS && p.ends_with('\n')));
        assert_eq!(parts.concat().lines().filter(|l| l.contains(" = ")).count(), doko_engine::KEYS.len());
        insta::assert_snapshot!(format!("events_{code}"), render::events(&session, &every_event(&session)).unwrap());

        let (t, _) = dealt(lang, 7);
        insta::assert_snapshot!(format!("command_errors_{code}"), command_errors(lang));
        insta::assert_snapshot!(format!("rule_errors_{code}"), rule_errors(&t));
        insta::assert_snapshot!(format!("parse_errors_{code}"), parse_errors(lang));

        let mut help = String::new();
        // (each platform's style as its adapter's dialect gives it)
        let styles = [
            ("Terminal", HelpStyle::Text("")),
            ("Matrix", HelpStyle::Text("!doko")),
            ("Discord", HelpStyle::Slash { public: "doko", lists: "doko-lists", admin: "doko-rules" }),
        ];
        for (platform, style) in styles {
            section(&mut help, platform, &help_styled(lang, None, style));
        }
        for topic in ["spiele", "rules", "armut", "gesund"] {
            section(&mut help, topic, &help_styled(lang, Some(topic), HelpStyle::Text("")));
        }
        insta::assert_snapshot!(format!("help_{code}"), help);

        let mut other = String::new();
        for (title, text) in [
            ("no session", render::score(&new_table(lang))),
            ("unreachable", render::unreachable(lang)),
            ("unavailable", render::unavailable()),
            ("your turn", render::your_turn(lang)),
            ("hand button", render::hand_label(lang)),
            ("already done", render::already_done(lang)),
            ("stale", render::stale(lang)),
            ("reservations", render::contract_name(lang, None)),
        ] {
            section(&mut other, title, &text);
        }
        insta::assert_snapshot!(format!("other_{code}"), other);
    }
}

/// The counts a player reads are in the right number.
#[test]
fn plurals() {
    use doko_bot::tr;
    for (n, en, de) in [(0, "0 cards", "0 Karten"), (1, "1 card", "1 Karte"), (2, "2 cards", "2 Karten")] {
        assert_eq!(tr!(Lang::En, "table-cards", n = n), en);
        assert_eq!(tr!(Lang::De, "table-cards", n = n), de);
    }
    let (t, _) = dealt(Lang::En, 7);
    let e = ActionError::TooLate { seat: Seat::new(0), call: Call::No60, cards: 1, needed: 2 };
    assert!(render::rule_error(&t, &e).contains("you hold 1 card,"), "{}", render::rule_error(&t, &e));
}

/// Nothing a German channel is told is in English.
#[test]
fn a_german_channel_gets_every_refusal_in_german() {
    let de = command_errors(Lang::De);
    let en = command_errors(Lang::En);
    for (d, e) in de.lines().zip(en.lines()) {
        assert_ne!(d, e, "untranslated: {d}");
    }
    let (t, _) = dealt(Lang::De, 7);
    let (te, _) = dealt(Lang::En, 7);
    for (d, e) in rule_errors(&t).lines().zip(rule_errors(&te).lines()) {
        assert_ne!(d, e, "untranslated: {d}");
    }
}
