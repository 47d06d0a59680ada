//! Keys that choose partners: `genscher` and `wedding_choose`.

use doko_engine::{Action, ActionError, Bid, Call, Game, Party, Record, Reservation, Seat, SoloKind};

use crate::{H, bid_all, cards, fixed_game, hands, play_out, play_until, rules, solo};

/// `genscher`: the holder of both kings of diamonds, playing the first of
/// them, names a partner; the pair keeps the holder's party name, the
/// announcements stay with the party names, everything is scored by the
/// parties at the end. Only with the rule, in a normal game, with a king
/// playable now, and another seat as partner.
#[test]
fn genscher_forms_the_parties_anew() {
    use doko_engine::{Card, Genscher};
    let dk: Card = "DK".parse().unwrap();
    let (s0, s1, s2, s3) = (Seat::new(0), Seat::new(1), Seat::new(2), Seat::new(3));
    // off: refused; the same deal with it on: seat 0 (Re with seat 2) may
    let mut off = fixed_game(&[]);
    assert_eq!(off.act(s0, Action::Genscher(s3)), Err(ActionError::CannotGenscher { seat: s0 }));
    let mut g = fixed_game(&[("genscher", "on")]);
    let offered: Vec<Action> = g.legal_actions(s0).into_iter().filter(|a| matches!(a, Action::Genscher(_))).collect();
    assert_eq!(offered, [s1, s2, s3].map(Action::Genscher));
    assert_eq!(g.act(s0, Action::Genscher(s0)), Err(ActionError::CannotGenscher { seat: s0 }));
    assert_eq!(g.act(s1, Action::Genscher(s0)), Err(ActionError::NotYourTurn { seat: s1, turn: s0 }));
    // the Re partner announces first; the call stays with the name Re
    g.announce(s2, Call::Re).unwrap();
    g.act(s0, Action::Genscher(s3)).unwrap();
    assert_eq!(g.members(Party::Re), [s0, s3]);
    assert_eq!(g.members(Party::Kontra), [s1, s2]);
    assert_eq!(g.current_trick().played(), &[dk], "the king is played with it");
    assert_eq!(g.genscher(), Some(Genscher { seat: s0, partner: s3, at_play: 0 }));
    assert_eq!(g.levels()[Party::Re.index()], Some(doko_engine::Level::Win));
    // the table sees the pair; which party it is shows once one of them
    // tells (a queen of clubs, an announcement after the Genscher)
    assert_eq!(g.public_view().parties, [None; 4]);
    g.announce(s3, Call::No90).unwrap();
    assert_eq!(g.public_view().parties, [Some(Party::Re), Some(Party::Kontra), Some(Party::Kontra), Some(Party::Re)]);
    // once only
    play_until(&mut g, s3, 11);
    while g.to_act() != Some(s0) {
        let p = g.to_act().unwrap();
        g.play(p, g.legal_cards(p).iter().next().unwrap()).unwrap();
    }
    assert!(!g.legal_actions(s0).iter().any(|a| matches!(a, Action::Genscher(_))));
    // the record carries it and replays to the same game and result
    let rec = Record::from_game(&g);
    let text = rec.to_json();
    assert!(text.contains(r#"{"seat":0,"genscher":3}"#), "{text}");
    assert_eq!(Record::from_json(&text).unwrap().to_game().unwrap(), g);
    play_out(&mut g);
    play_out(&mut off);
    let (with, without) = (g.score().unwrap(), off.score().unwrap());
    assert_eq!(with.scores.iter().sum::<i32>(), 0);
    assert_ne!(with.scores, without.scores, "the parties changed, so did the result");
    assert_eq!(with.card_points.iter().sum::<u32>(), 240);

    // a Kontra holder: the pair keeps the name Kontra, the other two are Re
    let mut h = hands();
    let two = cards("DK DK");
    let back = cards("C10 S10");
    h[0] = h[0].without_mask(two).checked_add(back).unwrap();
    h[1] = h[1].without_mask(back).checked_add(two).unwrap();
    let mut k = Game::new(rules(&[("genscher", "on")]), Seat::new(3), h).unwrap();
    bid_all(&mut k, [H; 4]);
    assert_eq!(k.party(s1), Party::Kontra);
    // clubs led: seat 1 must follow and cannot play a king of diamonds
    k.play(s0, "CA".parse().unwrap()).unwrap();
    assert_eq!(k.act(s1, Action::Genscher(s0)), Err(ActionError::CannotGenscher { seat: s1 }));
    k.play(s1, "CA".parse().unwrap()).unwrap();
    play_until(&mut k, s3, 11);
    while !k.legal_cards(s1).contains(dk) {
        let p = k.to_act().unwrap();
        let c = k.legal_cards(p).iter().find(|c| *c != dk).unwrap_or_else(|| k.legal_cards(p).iter().next().unwrap());
        k.play(p, c).unwrap();
    }
    k.act(s1, Action::Genscher(s0)).unwrap();
    assert_eq!(k.members(Party::Kontra), [s0, s1]);
    assert_eq!(k.members(Party::Re), [s2, s3]);

    // not in a solo
    let mut solo_game = Game::new(rules(&[("genscher", "on")]), Seat::new(3), hands()).unwrap();
    bid_all(&mut solo_game, [solo(SoloKind::Diamonds, false), H, H, H]);
    assert_eq!(solo_game.act(s0, Action::Genscher(s2)), Err(ActionError::CannotGenscher { seat: s0 }));
}

/// `wedding_choose`: the wedding player names the clarification trick
/// with the bid; a clubs trick won by another player finds the partner
/// under the plain rule and under first-fail, not under first-trump.
/// Off: a chosen wedding is refused.
#[test]
fn the_wedding_player_names_the_clarification_trick() {
    use doko_engine::WeddingRule;
    // seat 2 holds both queens of clubs
    let mut h = hands();
    let (q, ten) = (cards("CQ"), cards("C10"));
    h[0] = h[0].without_mask(q).checked_add(ten).unwrap();
    h[2] = h[2].without_mask(ten).checked_add(q).unwrap();
    let wedding = |k: Option<WeddingRule>| Bid::Reserve(Reservation::Wedding(k));
    let deal = |sets: &[(&str, &str)], bid: Bid| -> Result<Game, ActionError> {
        let mut g = Game::new(rules(sets), Seat::new(3), h).unwrap();
        for (i, b) in [H, H, bid, H].into_iter().enumerate() {
            g.act(Seat::new(i), Action::Bid(b))?;
        }
        Ok(g)
    };
    assert_eq!(
        deal(&[], wedding(Some(WeddingRule::FirstTrump))).map(|_| ()),
        Err(ActionError::RuleOff { seat: Seat::new(2), what: doko_engine::SwitchedOff::WeddingTrick })
    );
    let on = [("wedding_choose", "on")];
    let g = Game::new(rules(&on), Seat::new(3), h).unwrap();
    let mut g2 = g.clone();
    for s in [0, 1] {
        g2.act(Seat::new(s), Action::Bid(H)).unwrap();
    }
    let offered = g2.legal_bids(Seat::new(2));
    for k in WeddingRule::ALL {
        assert!(offered.contains(&wedding(Some(k))), "{k:?} offered");
    }
    let clarified_after_clubs = |bid: Bid| {
        let mut g = deal(&on, bid).unwrap();
        g.play(Seat::new(0), "CA".parse().unwrap()).unwrap();
        for s in 1..4 {
            let c = g.legal_cards(Seat::new(s)).iter().next().unwrap();
            g.play(Seat::new(s), c).unwrap();
        }
        assert_ne!(g.tricks()[0].winner, Seat::new(2));
        (g.is_clarified(), g)
    };
    assert!(clarified_after_clubs(wedding(None)).0, "the table's rule: the first foreign trick");
    assert!(clarified_after_clubs(wedding(Some(WeddingRule::FirstFail))).0);
    let (clarified, g) = clarified_after_clubs(wedding(Some(WeddingRule::FirstTrump)));
    assert!(!clarified, "a clubs trick does not find the partner of a first-trump wedding");
    let text = Record::from_game(&g).to_json();
    assert!(text.contains(r#""bid":"wedding-first-trump""#), "{text}");
    assert_eq!(Record::from_json(&text).unwrap().to_game().unwrap(), g);
}
