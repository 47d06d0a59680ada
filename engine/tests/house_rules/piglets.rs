//! Piglets and what is said in play: `piglets_first_only`, `half_chicken`,
//! `piglets_when`, `piglets_announce`.

use doko_engine::{Action, ActionError, Call, Game, Record, Seat};

use crate::{H, bid_all, fixed_game, play_out, play_until, rules};

/// `piglets_first_only`: with piglets, the foxes outrank every trump until
/// the first of them has been played; once its trick is over the other is
/// a plain fox again (below the jacks), in the game and in every view.
/// Off: both stay piglets to the end.
#[test]
fn only_the_first_fox_is_a_piglet() {
    use doko_engine::Card;
    let mut checked = [0u32; 2];
    for seed in 0..3000u64 {
        for (i, first_only) in ["off", "on"].into_iter().enumerate() {
            let r = rules(&[("piglets", "on"), ("piglets_first_only", first_only)]);
            let mut g = Game::deal(r, Seat::new(3), seed);
            if !Seat::ALL.iter().any(|s| g.hand(*s).count(Card::DA) == 2)
                || Seat::ALL.iter().any(|s| g.hand(*s).count(Card::CQ) == 2)
            {
                continue;
            }
            bid_all(&mut g, [H; 4]);
            let jack = g.order().power("CJ".parse().unwrap());
            assert!(g.order().power(Card::DA) > jack, "piglets at the start");
            // play until a trick with a fox is over, while one is still held
            while !g.fox_played() && g.to_act().is_some() {
                let p = g.to_act().unwrap();
                if let Some(c) = g.legal_calls(p).first().filter(|_| g.legal_cards(p).is_empty()) {
                    g.announce(p, *c).unwrap();
                    continue;
                }
                let c = g.legal_cards(p).iter().next().unwrap();
                g.play(p, c).unwrap();
            }
            if !Seat::ALL.iter().any(|s| g.hand(*s).contains(Card::DA)) {
                continue;
            }
            let demoted = g.order().power(Card::DA) < jack;
            assert_eq!(demoted, first_only == "on", "seed {seed}");
            let holder = Seat::ALL.into_iter().find(|s| g.hand(*s).contains(Card::DA)).unwrap();
            assert_eq!(g.view(holder).order.power(Card::DA) < jack, demoted, "the holder's view");
            assert_eq!(g.public_view().order.power(Card::DA) < jack, demoted, "the public view");
            checked[i] += 1;
        }
    }
    assert!(checked[0] >= 3 && checked[1] >= 3, "{checked:?}");
}

/// `half_chicken`: only its holder (both tens of diamonds) may say it,
/// once, and only where the rules have it; it changes nothing in the
/// result, is public, and the record carries it and replays.
#[test]
fn half_chicken_is_said_by_its_holder_and_changes_nothing() {
    use doko_engine::{Declaration, Said};
    let hc = Declaration::HalfChicken;
    let mut off = fixed_game(&[]);
    assert_eq!(off.act(Seat::new(3), Action::Say(hc)), Err(ActionError::SayNotInRules { what: hc }));
    let mut on = fixed_game(&[("half_chicken", "on")]);
    assert!(on.legal_actions(Seat::new(3)).contains(&Action::Say(hc)));
    for s in 0..3 {
        assert_eq!(on.act(Seat::new(s), Action::Say(hc)), Err(ActionError::CannotSay { seat: Seat::new(s), what: hc }));
        assert!(!on.legal_actions(Seat::new(s)).contains(&Action::Say(hc)));
    }
    // said out of turn (seat 0 leads), once
    on.act(Seat::new(3), Action::Say(hc)).unwrap();
    assert_eq!(on.act(Seat::new(3), Action::Say(hc)), Err(ActionError::AlreadySaid { what: hc }));
    assert_eq!(on.said(), &[Said { seat: Seat::new(3), what: hc, after_plays: 0, after_anns: 0 }]);
    assert_eq!(on.public_view().said.len(), 1, "the table sees it");
    play_out(&mut on);
    play_out(&mut off);
    assert_eq!(on.score(), off.score(), "it changes nothing");
    let rec = Record::from_game(&on);
    let text = rec.to_json();
    assert!(text.contains(r#"{"seat":3,"say":"half-chicken"}"#), "{text}");
    let back = Record::from_json(&text).unwrap().to_game().unwrap();
    assert_eq!(back, on);
    // a record that says it for a seat without both tens is refused
    let bad = text.replace(r#"{"seat":3,"say":"half-chicken"}"#, r#"{"seat":1,"say":"half-chicken"}"#);
    assert!(Record::from_json(&bad).unwrap().to_game().is_err());
}

/// `piglets_when`: from the deal, the foxes outrank everything at once;
/// `play`, only once their holder says piglets (any time while holding
/// both; the table knows it from then), and superpiglets only after
/// piglets, by the holder of both nines of diamonds.
#[test]
fn piglets_count_from_the_deal_or_once_said() {
    use doko_engine::{Card, Declaration};
    let cq = Card::CQ;
    let nine: Card = "D9".parse().unwrap();
    let deal = fixed_game(&[("piglets", "on"), ("superpiglets", "on")]);
    assert!(deal.order().power(Card::DA) > deal.order().power(cq), "piglets from the deal");
    assert!(deal.order().power(nine) > deal.order().power(Card::DA), "superpiglets from the deal");
    assert_eq!(
        deal.check_say(Seat::new(3), Declaration::Piglets),
        Err(ActionError::SayNotInRules { what: Declaration::Piglets }),
        "nothing to say when they count from the deal"
    );
    let mut play = fixed_game(&[("piglets", "on"), ("superpiglets", "on"), ("piglets_when", "play")]);
    assert!(play.order().power(Card::DA) < play.order().power(cq), "a plain fox until said");
    assert_eq!(
        play.act(Seat::new(0), Action::Say(Declaration::Superpiglets)),
        Err(ActionError::CannotSay { seat: Seat::new(0), what: Declaration::Superpiglets }),
        "superpiglets need piglets first"
    );
    assert_eq!(
        play.act(Seat::new(1), Action::Say(Declaration::Piglets)),
        Err(ActionError::CannotSay { seat: Seat::new(1), what: Declaration::Piglets })
    );
    play.act(Seat::new(3), Action::Say(Declaration::Piglets)).unwrap();
    assert!(play.order().power(Card::DA) > play.order().power(cq));
    assert!(play.public_view().order.power(Card::DA) > play.order().power(cq), "the table knows at once");
    play.act(Seat::new(0), Action::Say(Declaration::Superpiglets)).unwrap();
    assert!(play.order().power(nine) > play.order().power(Card::DA));
    // once the holder has played a fox unsaid, piglets can no longer be said
    let mut late = fixed_game(&[("piglets", "on"), ("piglets_when", "play")]);
    while late.hand(Seat::new(3)).count(Card::DA) == 2 {
        let p = late.to_act().unwrap();
        let legal = late.legal_cards(p);
        let c = if p == Seat::new(3) && legal.contains(Card::DA) { Card::DA } else { legal.iter().next().unwrap() };
        late.play(p, c).unwrap();
    }
    assert_eq!(
        late.act(Seat::new(3), Action::Say(Declaration::Piglets)),
        Err(ActionError::CannotSay { seat: Seat::new(3), what: Declaration::Piglets })
    );
    // the result: the same cards, said or not, can win another trick
    let said = {
        let mut g = fixed_game(&[("piglets", "on"), ("piglets_when", "play")]);
        g.act(Seat::new(3), Action::Say(Declaration::Piglets)).unwrap();
        play_out(&mut g);
        g
    };
    let unsaid = {
        let mut g = fixed_game(&[("piglets", "on"), ("piglets_when", "play")]);
        play_out(&mut g);
        g
    };
    let fox_wins = |g: &Game| g.tricks().iter().filter(|t| t.winning_card() == Card::DA).count();
    assert!(fox_wins(&said) > fox_wins(&unsaid), "said piglets take tricks plain foxes do not");
}

/// `piglets_announce`: the piglets' holder must announce before playing
/// on once the piglets count (from the deal, or when said), unless its
/// party has announced; off, nothing is owed.
#[test]
fn piglets_force_an_announcement() {
    use doko_engine::{Card, Declaration};
    let holder = Seat::new(3); // Kontra: no queen of clubs
    let off = fixed_game(&[("piglets", "on")]);
    assert_eq!(off.mandatory_announcement(), None);
    let mut on = fixed_game(&[("piglets", "on"), ("piglets_announce", "on")]);
    assert_eq!(on.mandatory_announcement(), Some(holder), "owed from the deal");
    play_until(&mut on, Seat::new(2), 11);
    assert_eq!(on.to_act(), Some(holder));
    assert!(on.legal_cards(holder).is_empty());
    let c = on.hand(holder).iter().next().unwrap();
    assert_eq!(on.play(holder, c), Err(ActionError::MustAnnouncePiglets { seat: holder }));
    assert_eq!(on.legal_calls(holder)[0], Call::Kontra);
    on.announce(holder, Call::Kontra).unwrap();
    assert_eq!(on.mandatory_announcement(), None);
    assert!(!on.legal_cards(holder).is_empty());
    // said during play: owed from then; a partner's announcement settles it
    let mut play = fixed_game(&[("piglets", "on"), ("piglets_when", "play"), ("piglets_announce", "on")]);
    assert_eq!(play.mandatory_announcement(), None);
    play.act(holder, Action::Say(Declaration::Piglets)).unwrap();
    assert_eq!(play.mandatory_announcement(), Some(holder));
    play.announce(Seat::new(1), Call::Kontra).unwrap();
    assert_eq!(play.mandatory_announcement(), None, "its party has announced");
    assert!(play.order().power(Card::DA) > play.order().power(Card::CQ));
    // a party that announced before the piglets owes nothing
    let mut before = fixed_game(&[("piglets", "on"), ("piglets_when", "play"), ("piglets_announce", "on")]);
    before.announce(Seat::new(1), Call::Kontra).unwrap();
    before.act(holder, Action::Say(Declaration::Piglets)).unwrap();
    assert_eq!(before.mandatory_announcement(), None);
    // the record keeps the order of saying and announcing, and replays
    for g in [&play, &before] {
        let rec = Record::from_game(g);
        assert_eq!(&Record::from_json(&rec.to_json()).unwrap().to_game().unwrap(), g);
    }
}
