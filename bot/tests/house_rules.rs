//! House rules through the service, as players and admins use them: an
//! admin sets the newer keys by command (a wrong combination is refused
//! with the allowed values), `rules` shows them as set, and at the table
//! `announce_on_turn` refuses an announcement out of turn while the player
//! on turn may make it; the deal's record carries the keys.

use doko_bot::{Actor, ChannelId, Kind, MemoryStore, Message, Platform, Service, UserId};
use doko_engine::Party;

fn person(id: &str, name: &str, admin: bool) -> Actor {
    Actor::new(UserId::new(Platform::DISCORD, id), name, admin)
}

async fn say(svc: &Service<MemoryStore>, ch: &ChannelId, who: &Actor, text: &str) -> Vec<Message> {
    svc.handle(ch, who, text).await.unwrap().messages()
}

fn errors(m: &[Message]) -> Vec<&str> {
    m.iter().filter(|m| m.kind == Kind::Error).map(|m| m.text.as_str()).collect()
}

#[tokio::test]
async fn admins_set_the_new_keys_and_the_table_plays_by_them() {
    let svc = Service::new(MemoryStore::default(), 11);
    let ch = ChannelId::new(Platform::DISCORD, "house");
    let people: Vec<Actor> =
        ["Anna", "Ben", "Cleo", "Dora"].iter().enumerate().map(|(i, n)| person(&i.to_string(), n, i == 0)).collect();
    let admin = &people[0];
    for (k, v) in [
        ("announce_on_turn", "on"),
        ("solo_double", "on"),
        ("solo_priority", "last"),
        ("re_deadline", "before-first-card"),
        ("bock", "on"),
        ("bock_triggers", "tie lost-solo heart-trick"),
        ("extra_points", "fox fox-first-trick dulle-caught lizzie-miller"),
    ] {
        let m = say(&svc, &ch, admin, &format!("rules set {k} {v}")).await;
        assert!(errors(&m).is_empty(), "{k} {v}: {m:?}");
    }
    // not both forms of a caught Charlie; a repeated item; a player is no admin
    let m = say(&svc, &ch, admin, "rules set extra_points charlie-caught lizzie-miller").await;
    assert!(errors(&m).iter().any(|e| e.contains("not both charlie-caught and lizzie-miller")), "{m:?}");
    let m = say(&svc, &ch, admin, "rules set bock_triggers tie tie").await;
    assert!(errors(&m).iter().any(|e| e.contains("tie lost-re lost-kontra heart-trick lost-solo")), "{m:?}");
    let m = say(&svc, &ch, &people[1], "rules set solo_double off").await;
    assert_eq!(errors(&m).len(), 1, "{m:?}");
    let shown: String = say(&svc, &ch, &people[1], "rules").await.iter().map(|m| m.text.clone()).collect();
    for line in [
        "* announce_on_turn = on",
        "* solo_double = on",
        "* solo_priority = last",
        "* re_deadline = before-first-card",
        "* bock_triggers = tie heart-trick lost-solo",
        "* extra_points = fox fox-first-trick dulle-caught lizzie-miller",
    ] {
        assert!(shown.contains(line), "{line} in: {shown}");
    }

    for p in &people {
        assert!(errors(&say(&svc, &ch, p, "join").await).is_empty());
    }
    assert!(errors(&say(&svc, &ch, &people[0], "start").await).is_empty());
    // everybody healthy, in turn
    for _ in 0..4 {
        let t = svc.table(&ch).await.unwrap().0;
        let (user, _) = t.person_to_act().expect("someone bids");
        let who = people.iter().find(|p| p.user == user).unwrap();
        let m = say(&svc, &ch, who, "healthy").await;
        assert!(errors(&m).is_empty(), "{m:?}");
    }
    let t = svc.table(&ch).await.unwrap().0;
    let game = t.game().unwrap().expect("a deal");
    let (on_turn, _) = t.person_to_act().expect("someone leads");
    // a player not on turn: the call of their party is refused
    let other = people.iter().find(|p| p.user != on_turn && t.view_for(&p.user).is_some()).unwrap();
    let call = |who: &Actor| match t.view_for(&who.user).unwrap().own_party {
        Some(Party::Re) => "re",
        _ => "kontra",
    };
    let m = say(&svc, &ch, other, call(other)).await;
    assert_eq!(errors(&m).len(), 1, "out of turn: {m:?}");
    assert!(game.announcements().is_empty());
    // the player on turn may announce (holding all cards: in time under
    // before-first-card too)
    let leader = people.iter().find(|p| p.user == on_turn).unwrap();
    let m = say(&svc, &ch, leader, call(leader)).await;
    assert!(errors(&m).is_empty(), "on turn: {m:?}");
    let game = svc.table(&ch).await.unwrap().0.game().unwrap().unwrap();
    assert_eq!(game.announcements().len(), 1);
    // the deal's rules travel in its record
    let rec = doko_engine::Record::from_game(&game);
    let json: serde_json::Value = serde_json::from_str(&rec.to_json()).unwrap();
    assert_eq!(json["rules"]["announce_on_turn"], "on");
    assert_eq!(json["rules"]["bock_triggers"], serde_json::json!(["tie", "heart-trick", "lost-solo"]));
}

/// A service seeded `seed` with four people at a table in `ch` whose admin
/// (the first) set `rules`; a deal started and everybody said healthy.
async fn healthy_deal(seed: u64, ch: &ChannelId, rules: &[(&str, &str)]) -> (Service<MemoryStore>, Vec<Actor>) {
    let svc = Service::new(MemoryStore::default(), seed);
    let people: Vec<Actor> =
        ["Anna", "Ben", "Cleo", "Dora"].iter().enumerate().map(|(i, n)| person(&i.to_string(), n, i == 0)).collect();
    for (k, v) in rules {
        assert!(errors(&say(&svc, ch, &people[0], &format!("rules set {k} {v}")).await).is_empty());
    }
    for p in &people {
        assert!(errors(&say(&svc, ch, p, "join").await).is_empty());
    }
    assert!(errors(&say(&svc, ch, &people[0], "start").await).is_empty());
    for _ in 0..4 {
        let t = svc.table(ch).await.unwrap().0;
        let Some((user, _)) = t.person_to_act() else { break };
        let who = people.iter().find(|p| p.user == user).unwrap();
        assert!(errors(&say(&svc, ch, who, "healthy").await).is_empty());
    }
    (svc, people)
}

/// `say`: with `half_chicken` and piglets said during play, the player
/// holding both tens of diamonds (or both foxes) says so by command, in
/// English or German, out of turn too; the table hears it; anybody else
/// is refused with what it takes; the foxes count as piglets from then.
#[tokio::test]
async fn players_say_half_a_chicken_and_piglets() {
    use doko_engine::Card;
    let d10 = Card::D10;
    let mut found = [false; 2];
    for round in 0..60 {
        let ch = ChannelId::new(Platform::MATRIX, "say");
        let (svc, people) =
            healthy_deal(100 + round, &ch, &[("half_chicken", "on"), ("piglets", "on"), ("piglets_when", "play")])
                .await;
        let t = svc.table(&ch).await.unwrap().0;
        let hand = |p: &Actor| t.view_for(&p.user).unwrap().hand;
        if let Some(holder) = people.iter().find(|p| hand(p).count(d10) == 2) {
            let other = people.iter().find(|p| p.user != holder.user).unwrap();
            let m = say(&svc, &ch, other, "say half-chicken").await;
            assert!(errors(&m).iter().any(|e| e.contains("both tens of diamonds")), "{m:?}");
            let m = say(&svc, &ch, holder, "sage halbes hähnchen").await;
            assert!(errors(&m).is_empty(), "{m:?}");
            assert!(m.iter().any(|m| m.text.contains("half a chicken!")), "the table hears it: {m:?}");
            let m = say(&svc, &ch, holder, "say half-chicken").await;
            assert!(errors(&m).iter().any(|e| e.contains("has been said already")), "{m:?}");
            found[0] = true;
        }
        let t = svc.table(&ch).await.unwrap().0;
        if let Some(holder) = people.iter().find(|p| hand(p).count(Card::DA) == 2) {
            let game = t.game().unwrap().unwrap();
            if !game.order().piglets_possible(game.rules()) {
                continue;
            }
            assert!(game.order().power(Card::DA) < game.order().power(Card::CQ), "a plain fox until said");
            let m = say(&svc, &ch, holder, "schweinchen").await;
            assert!(errors(&m).is_empty(), "{m:?}");
            assert!(m.iter().any(|m| m.text.contains("piglets!")), "{m:?}");
            let game = svc.table(&ch).await.unwrap().0.game().unwrap().unwrap();
            assert!(game.order().power(Card::DA) > game.order().power(Card::CQ), "piglets from now on");
            let rec = doko_engine::Record::from_game(&game).to_json();
            assert!(rec.contains(r#""say":"piglets""#), "{rec}");
            found[1] = true;
        }
        if found == [true, true] {
            return;
        }
    }
    panic!("no deal with both tens or both foxes in one hand in 60 tries: {found:?}");
}

/// `genscher`: the holder of both kings of diamonds, on turn with one
/// playable, types `genscher NAME`; the table hears the new partner, the
/// pair forms one party; anyone else is refused with what it takes.
#[tokio::test]
async fn a_player_plays_a_genscher_by_command() {
    use doko_engine::{Action, Card};
    let dk = Card::DK;
    for round in 0..80 {
        let ch = ChannelId::new(Platform::DISCORD, "genscher");
        let (svc, people) = healthy_deal(500 + round, &ch, &[("genscher", "on")]).await;
        let t = svc.table(&ch).await.unwrap().0;
        let Some(holder) = people.iter().find(|p| t.view_for(&p.user).unwrap().hand.count(dk) == 2) else { continue };
        if t.game().unwrap().unwrap().contract() != doko_engine::Contract::Normal {
            continue;
        }
        // play on until the holder is on turn with a king of diamonds playable
        loop {
            let t = svc.table(&ch).await.unwrap().0;
            let (user, _) = t.person_to_act().unwrap();
            let view = t.view_for(&user).unwrap();
            if user == holder.user && view.legal.iter().any(|a| matches!(a, Action::Genscher(_))) {
                break;
            }
            let who = people.iter().find(|p| p.user == user).unwrap();
            let card = view.legal_cards().iter().find(|c| *c != dk).or_else(|| view.legal_cards().iter().next());
            let text = match card {
                Some(c) => format!("play {c}"),
                None => format!("{}", doko_bot::Command::from_action(view.legal[0])),
            };
            assert!(errors(&say(&svc, &ch, who, &text).await).is_empty(), "{text}");
        }
        let partner = people.iter().find(|p| p.user != holder.user).unwrap();
        let m = say(&svc, &ch, partner, &format!("genscher {}", holder.name)).await;
        assert!(!errors(&m).is_empty(), "only the holder on turn: {m:?}");
        let m = say(&svc, &ch, holder, &format!("genscher {}", partner.name)).await;
        assert!(errors(&m).is_empty(), "{m:?}");
        let heard = format!("takes {} as partner", partner.name);
        assert!(m.iter().any(|m| m.text.contains(&heard)), "{m:?}");
        let t = svc.table(&ch).await.unwrap().0;
        let g = t.game().unwrap().unwrap();
        let party = |p: &Actor| t.view_for(&p.user).unwrap().own_party;
        assert_eq!(party(holder), party(partner), "one party");
        assert!(g.genscher().is_some());
        let rec = doko_engine::Record::from_game(&g).to_json();
        assert!(rec.contains(r#""genscher":"#), "{rec}");
        return;
    }
    panic!("no normal deal with both kings of diamonds in one hand in 80 tries");
}

/// `rules preset sharp|freedoko`: an admin picks a preset by name and
/// `rules` shows its values; an unknown one names the four.
#[tokio::test]
async fn admins_pick_the_sharp_and_freedoko_presets() {
    let svc = Service::new(MemoryStore::default(), 3);
    let ch = ChannelId::new(Platform::MATRIX, "presets");
    let admin = person("a", "Anna", true);
    for (preset, lines) in [
        ("sharp", &["preset sharp", "  nines = false", "  mandatory_announcement = 30"][..]),
        ("freedoko", &["preset freedoko", "  dulle = second-wins", "  bock_stacking = stack", "  re_kontra = doubles"]),
    ] {
        let m = say(&svc, &ch, &admin, &format!("rules preset {preset}")).await;
        assert!(errors(&m).is_empty(), "{m:?}");
        let shown: String = say(&svc, &ch, &admin, "rules").await.iter().map(|m| m.text.clone()).collect();
        for l in lines {
            assert!(shown.contains(l), "{l} in: {shown}");
        }
    }
    let m = say(&svc, &ch, &admin, "rules preset turnier").await;
    assert!(errors(&m).iter().any(|e| e.contains("ddv, casual, sharp, freedoko")), "{m:?}");
}

/// `black_sow`: players declare and decline a poverty by command, the
/// table hears the Schwarze Sau; play goes on until the second queen of
/// spades falls; its taker (and nobody else) chooses the solo with `solo
/// KIND` (German here), the table hears it, the deal is scored as that
/// solo and the sheet and record say so.
/// One deal at a table with poverty and the Schwarze Sau on, dealt from
/// its own seed, for the steps of the test below.
struct SauDeal {
    svc: Service<MemoryStore>,
    ch: ChannelId,
    people: Vec<Actor>,
}

impl SauDeal {
    /// Sets the rules, seats four and starts the deal.
    async fn start(round: u64) -> Self {
        let ch = ChannelId::new(Platform::DISCORD, "sau");
        let svc = Service::new(MemoryStore::default(), 900 + round);
        let people: Vec<Actor> = ["Anna", "Ben", "Cleo", "Dora"]
            .iter()
            .enumerate()
            .map(|(i, n)| person(&i.to_string(), n, i == 0))
            .collect();
        for (k, v) in [("poverty", "on"), ("black_sow", "on"), ("poverty_max_trumps", "5")] {
            assert!(errors(&say(&svc, &ch, &people[0], &format!("rules set {k} {v}")).await).is_empty());
        }
        for p in &people {
            assert!(errors(&say(&svc, &ch, p, "join").await).is_empty());
        }
        assert!(errors(&say(&svc, &ch, &people[0], "start").await).is_empty());
        SauDeal { svc, ch, people }
    }

    /// The person behind a user id.
    fn who(&self, user: &UserId) -> &Actor {
        self.people.iter().find(|p| &p.user == user).unwrap()
    }

    /// The table as it stands.
    async fn table(&self) -> doko_bot::Table {
        self.svc.table(&self.ch).await.unwrap().0
    }

    /// The first who may declares poverty, the others are healthy; whether
    /// the deal became a poverty.
    async fn bid_one_poverty(&self) -> bool {
        use doko_engine::{Action, Bid, Contract, Reservation};
        let poverty = Action::Bid(Bid::Reserve(Reservation::Poverty));
        let mut declared = false;
        for _ in 0..4 {
            let t = self.table().await;
            let (user, _) = t.person_to_act().unwrap();
            let view = t.view_for(&user).unwrap();
            let text = if !declared && view.legal.contains(&poverty) { "armut" } else { "gesund" };
            declared |= text == "armut";
            assert!(errors(&say(&self.svc, &self.ch, self.who(&user), text).await).is_empty(), "{text}");
        }
        let t = self.table().await;
        t.game().unwrap().unwrap().contract() == Contract::Poverty
    }

    /// The pauper puts cards down; all three decline.
    async fn all_decline_the_poverty(&self) {
        use doko_bot::Command;
        use doko_engine::Action;
        let mut heard = String::new();
        for _ in 0..4 {
            let t = self.table().await;
            let (user, _) = t.person_to_act().unwrap();
            let view = t.view_for(&user).unwrap();
            let text = if view.legal.contains(&Action::Answer(false)) {
                "decline".to_string()
            } else {
                Command::from_action(view.legal[0]).to_string()
            };
            let m = say(&self.svc, &self.ch, self.who(&user), &text).await;
            assert!(errors(&m).is_empty(), "{text}: {m:?}");
            heard.extend(m.iter().map(|m| m.text.clone()));
        }
        assert!(heard.contains("Nobody takes the poverty: Schwarze Sau!"), "{heard}");
    }

    /// Plays on, the first legal card each time, until the choice; the one
    /// who chooses.
    async fn play_to_the_sow_choice(&self) -> Actor {
        use doko_bot::Command;
        use doko_engine::{Contract, Phase};
        loop {
            let t = self.table().await;
            let g = t.game().unwrap().unwrap();
            let (user, _) = t.person_to_act().unwrap();
            if g.phase() == Phase::SowChoice {
                break self.who(&user).clone();
            }
            assert_eq!(g.contract(), Contract::BlackSow(None));
            let view = t.view_for(&user).unwrap();
            assert_eq!(view.own_party, None, "nobody has a party yet");
            let m = say(&self.svc, &self.ch, self.who(&user), &Command::from_action(view.legal[0]).to_string()).await;
            assert!(errors(&m).is_empty(), "{m:?}");
            if self.table().await.game().unwrap().unwrap().phase() == Phase::SowChoice {
                let text: String = m.iter().map(|m| m.text.clone()).collect();
                assert!(text.contains("took the second queen of spades and chooses the solo"), "{text}");
            }
        }
    }

    /// Only the taker chooses, only among the allowed solos, and spades it is.
    async fn taker_chooses_spades(&self, taker: &Actor) {
        use doko_engine::{Contract, SoloKind};
        let (svc, ch) = (&self.svc, &self.ch);
        let t = self.table().await;
        let hand: String = doko_bot::render::hand(doko_bot::Lang::En, &t.hand_view_for(&taker.user).unwrap());
        assert!(hand.contains("solo spades") && hand.contains("solo queens"), "{hand}");
        let other = self.people.iter().find(|p| p.user != taker.user).unwrap();
        assert_eq!(errors(&say(svc, ch, other, "solo pik").await).len(), 1, "only the taker chooses");
        let m = say(svc, ch, taker, "healthy").await;
        assert!(errors(&m).iter().any(|e| e.contains("choose one of the allowed solos")), "{m:?}");
        let m = say(svc, ch, taker, "solo pik").await;
        assert!(errors(&m).is_empty(), "{m:?}");
        let heard: String = m.iter().map(|m| m.text.clone()).collect();
        assert!(heard.contains(&format!("{} plays spades solo (Schwarze Sau)", taker.name)), "{heard}");
        let g = self.table().await.game().unwrap().unwrap();
        assert_eq!(g.contract(), Contract::BlackSow(Some(SoloKind::Spades)));
    }

    /// To the end of the deal; the score sheet and the record name the sow.
    async fn play_out_and_check_the_record(&self) {
        use doko_bot::Command;
        let (svc, ch) = (&self.svc, &self.ch);
        let mut heard = String::new();
        loop {
            let t = self.table().await;
            if t.game().unwrap().is_none_or(|g| g.plays() == 0) {
                break;
            }
            let (user, _) = t.person_to_act().unwrap();
            let view = t.view_for(&user).unwrap();
            let m = say(svc, ch, self.who(&user), &Command::from_action(view.legal[0]).to_string()).await;
            assert!(errors(&m).is_empty(), "{m:?}");
            heard.extend(m.iter().map(|m| m.text.clone()));
        }
        assert!(heard.contains("Schwarze Sau, spades solo"), "{heard}");
        let sheet: String = say(svc, ch, &self.people[0], "score").await.iter().map(|m| m.text.clone()).collect();
        assert!(sheet.contains("Schwarze Sau"), "{sheet}");
        let rec: String = say(svc, ch, &self.people[0], "record").await.iter().map(|m| m.text.clone()).collect();
        assert!(rec.contains(r#""bid":"solo-spades""#), "{rec}");
    }
}

#[tokio::test]
async fn a_declined_poverty_becomes_a_schwarze_sau_by_command() {
    for round in 0..200u64 {
        let deal = SauDeal::start(round).await;
        if !deal.bid_one_poverty().await {
            continue;
        }
        deal.all_decline_the_poverty().await;
        let taker = deal.play_to_the_sow_choice().await;
        deal.taker_chooses_spades(&taker).await;
        deal.play_out_and_check_the_record().await;
        return;
    }
    panic!("no poverty in 200 deals");
}
