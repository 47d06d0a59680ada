//! House-rule keys beyond the DDV rules, each driven through the game as a
//! player would: where the key changes the result and where it must not.
//! (`solo_double`, `solo_priority`, `announce_on_turn`, the extra points
//! `fox-first-trick`, `dulle-caught`, `heart-trick`, `lizzie-miller`, and
//! the rest of the keys here and in `house_rules/`; also `fox-last-trick`
//! as the spec says it.)

// A test's root file looks for its modules beside it, not in house_rules/:
// each part is named by its path.
#[path = "house_rules/black_sow.rs"]
mod black_sow;
#[path = "house_rules/partners.rs"]
mod partners;
#[path = "house_rules/piglets.rs"]
mod piglets;
#[path = "house_rules/scoring.rs"]
mod scoring;

use doko_engine::{
    Action, ActionError, Bid, Call, Cards, Contract, Game, Party, Record, Reservation, Rules, Seat, SoloKind,
};

fn cards(s: &str) -> Cards {
    let mut out = Cards::EMPTY;
    for c in s.split_whitespace() {
        assert!(out.insert(c.parse().unwrap()), "{c} three times");
    }
    out
}

/// A fixed deal, dealer 3 (seat 0 is forehand); nobody holds both queens
/// of clubs.
fn hands() -> [Cards; 4] {
    [
        cards("CQ CA SA HA C9 S9 H9 D9 D9 DK DK HJ"),
        cards("CA C10 S10 SK HK H9 H10 SQ HQ DQ CJ SJ"),
        cards("C10 CK SA S10 HK H10 SQ HQ DQ CJ SJ CQ"),
        cards("CK C9 SK S9 HA HJ DJ DJ DA DA D10 D10"),
    ]
}

fn rules(sets: &[(&str, &str)]) -> Rules {
    let mut r = Rules::default();
    for (k, v) in sets {
        r.set(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    r
}

fn bid_all(g: &mut Game, bids: [Bid; 4]) {
    for (i, b) in bids.into_iter().enumerate() {
        let s = g.forehand().plus(i);
        g.act(s, Action::Bid(b)).unwrap_or_else(|e| panic!("bid {i}: {e}"));
    }
}

fn solo(kind: SoloKind, duty: bool) -> Bid {
    Bid::Reserve(Reservation::Solo { kind, duty })
}

const H: Bid = Bid::Healthy;

/// Who declares after the bids, under `solo_priority` first and last.
fn declarer(bids: [Bid; 4], priority: &str) -> (Option<Seat>, Contract) {
    let mut g = Game::new(rules(&[("solo_priority", priority)]), Seat::new(3), hands()).unwrap();
    bid_all(&mut g, bids);
    (g.declarer(), g.contract())
}

#[test]
fn solo_priority_first_or_last_among_solos_of_the_same_rank() {
    use SoloKind::*;
    // two free solos: the first bidder (seat 1) or the last (seat 3)
    let two = [H, solo(Queens, false), H, solo(Jacks, false)];
    assert_eq!(declarer(two, "first"), (Some(Seat::new(1)), Contract::Solo(Queens)));
    assert_eq!(declarer(two, "last"), (Some(Seat::new(3)), Contract::Solo(Jacks)));
    // three: the first and the last of them
    let three = [solo(Hearts, false), solo(Queens, false), H, solo(Jacks, false)];
    assert_eq!(declarer(three, "first").0, Some(Seat::new(0)));
    assert_eq!(declarer(three, "last").0, Some(Seat::new(3)));
    // a compulsory solo outranks a free one whatever the key says
    let duty = [H, solo(Queens, true), H, solo(Jacks, false)];
    assert_eq!(declarer(duty, "first"), (Some(Seat::new(1)), Contract::Solo(Queens)));
    assert_eq!(declarer(duty, "last"), (Some(Seat::new(1)), Contract::Solo(Queens)));
    // one solo, or a solo against a wedding-like lower reservation: no change
    let one = [H, H, solo(Aces, false), H];
    assert_eq!(declarer(one, "first"), declarer(one, "last"));
    // the key travels in the record and replays the same
    let mut g = Game::new(rules(&[("solo_priority", "last")]), Seat::new(3), hands()).unwrap();
    bid_all(&mut g, two);
    let rec = Record::from_json(&Record::from_game(&g).to_json()).unwrap();
    assert_eq!(rec.rules.get("solo_priority").unwrap(), "last");
}

#[test]
fn announce_on_turn_refuses_an_announcement_out_of_turn() {
    for on in [false, true] {
        let r = rules(&[("announce_on_turn", if on { "on" } else { "off" })]);
        let mut g = Game::new(r, Seat::new(3), hands()).unwrap();
        bid_all(&mut g, [H, H, H, H]);
        let turn = g.to_act().unwrap();
        assert_eq!(turn, Seat::new(0));
        // seat 2 (Re: a queen of clubs) is not on turn
        let other = Seat::new(2);
        assert_eq!(g.party(other), Party::Re);
        let out_of_turn = g.clone().announce(other, Call::Re);
        if on {
            assert_eq!(out_of_turn, Err(ActionError::NotYourTurn { seat: other, turn }));
            assert!(g.legal_calls(other).is_empty(), "no call listed out of turn");
        } else {
            assert_eq!(out_of_turn, Ok(()));
            assert!(!g.legal_calls(other).is_empty());
        }
        // the seat on turn may announce either way
        let mut g2 = g.clone();
        g2.announce(turn, Call::Re).unwrap();
        // after seat 0 plays, seat 1 is on turn: it may, seat 0 may not
        // (with the key)
        let card = g.legal_cards(turn).iter().next().unwrap();
        g.play(turn, card).unwrap();
        assert_eq!(g.clone().announce(Seat::new(1), Call::Kontra), Ok(()));
        assert_eq!(g.clone().announce(turn, Call::Re).is_err(), on);
    }
}

/// A normal game under `rules` (nobody holds both queens of clubs).
fn normal_game(rules: Rules) -> Game {
    for seed in 0.. {
        let mut g = Game::deal(rules, Seat::new(3), seed);
        if Seat::ALL.iter().all(|s| g.hand(*s).count(doko_engine::Card::CQ) < 2) {
            bid_all(&mut g, [H; 4]);
            return g;
        }
    }
    unreachable!()
}

/// Plays the first legal card until `s` holds `n` cards.
fn play_until(g: &mut Game, s: Seat, n: usize) {
    while g.hand(s).len() > n {
        let p = g.to_act().unwrap();
        let c = g.legal_cards(p).iter().next().unwrap();
        g.play(p, c).unwrap();
    }
}

#[test]
fn re_deadline_before_the_first_card_or_the_second() {
    for nines in [true, false] {
        let full = if nines { 12 } else { 10 };
        for (value, last) in [("before-second-card", full - 1), ("before-first-card", full)] {
            let mut r = rules(&[("re_deadline", value)]);
            r.nines = nines;
            let g0 = normal_game(r);
            let re = g0.members(Party::Re)[0];
            let kontra = g0.members(Party::Kontra)[0];
            // in time with `last` cards, too late with one fewer
            let mut g = g0.clone();
            play_until(&mut g, re, last);
            assert!(g.check_announce(re, Call::Re).is_ok(), "{value}: Re with {last} cards");
            let mut late = g0.clone();
            play_until(&mut late, re, last - 1);
            assert_eq!(
                late.check_announce(re, Call::Re),
                Err(ActionError::TooLate { seat: re, call: Call::Re, cards: last - 1, needed: last }),
                "{value}"
            );
            // the Absagen keep their deadlines: no 90 with full - 2 cards
            // after a Re in time
            let mut g = g0.clone();
            g.announce(re, Call::Re).unwrap();
            play_until(&mut g, re, full - 2);
            assert!(g.check_announce(re, Call::No90).is_ok(), "{value}: no 90");
            // the reply: one card after the other party's deadline
            let mut g = g0.clone();
            g.announce(re, Call::Re).unwrap();
            play_until(&mut g, kontra, last - 1);
            assert!(g.check_announce(kontra, Call::Kontra).is_ok(), "{value}: the reply with {} cards", last - 1);
            play_until(&mut g, kontra, last - 2);
            assert!(g.check_announce(kontra, Call::Kontra).is_err(), "{value}: the reply too late");
        }
    }
}

/// `throw_in_low_trumps` and `throw_in_low_points`: a hand may be thrown
/// in exactly when it holds at most that many trumps (of a normal game) /
/// fewer card points than that, counted here from the hand; off, never
/// (unless another throw-in key allows it). A throw-in ends the bidding
/// and the record says so.
#[test]
fn throw_in_with_few_trumps_or_few_points() {
    use doko_engine::{Phase, RedealReason, normal_game_trumps};
    let throw = Bid::Reserve(Reservation::ThrowIn);
    let mut allowed = [0u32; 2];
    let mut thrown = 0;
    for seed in 0..400u64 {
        for (key, limit) in [("throw_in_low_trumps", 3usize), ("throw_in_low_points", 40)] {
            let r = rules(&[(key, &limit.to_string())]);
            let off = Rules::default();
            let mut g = Game::deal(r, Seat::new(3), seed);
            let mut g_off = Game::deal(off, Seat::new(3), seed);
            for i in 0..4 {
                let s = g.forehand().plus(i);
                let hand = g.hand(s);
                let may = if key == "throw_in_low_trumps" {
                    hand.with_mask(normal_game_trumps()).len() <= limit
                } else {
                    (hand.points() as usize) < limit
                };
                assert_eq!(g.legal_bids(s).contains(&throw), may, "{key} {limit}: seed {seed} seat {s:?}");
                assert!(!g_off.legal_bids(s).contains(&throw), "off: no throw-in");
                allowed[usize::from(key == "throw_in_low_points")] += u32::from(may);
                if may && seed % 2 == 0 {
                    g.act(s, Action::Bid(throw)).unwrap();
                    assert_eq!(g.phase(), Phase::Redeal(RedealReason::ThrowIn));
                    let out = doko_engine::record::replay_str(&Record::from_game(&g).to_json()).unwrap();
                    assert_eq!(out.to_json()["redeal"], "throw-in");
                    thrown += 1;
                    break;
                }
                g.act(s, Action::Bid(H)).unwrap();
                g_off.act(s, Action::Bid(H)).unwrap();
            }
        }
    }
    assert!(allowed[0] >= 3 && allowed[1] >= 3 && thrown >= 2, "{allowed:?} {thrown}");
    // values outside the ranges are refused
    let mut r = Rules::default();
    assert!(r.set("throw_in_low_trumps", "4").is_err());
    assert!(r.set("throw_in_low_points", "9").is_err());
    assert!(r.set("throw_in_low_points", "61").is_err());
}

/// `poverty_fox_counts` off: the foxes do not count towards
/// `poverty_max_trumps`; `poverty_return_trumps` off: the player who took
/// the poverty gives back other cards than trumps where the hand has them
/// (a trump given back is refused; the legal returns hold none), on: any
/// cards. Counted from the hands themselves.
#[test]
fn poverty_foxes_and_returned_trumps() {
    use doko_engine::{Card, Phase, normal_game_trumps};
    let poverty = Bid::Reserve(Reservation::Poverty);
    let (mut fox_only, mut refused, mut returned) = (0, 0, 0);
    for seed in 0..3000u64 {
        for fox_counts in ["on", "off"] {
            let r = rules(&[("poverty", "on"), ("poverty_fox_counts", fox_counts), ("poverty_return_trumps", "off")]);
            let mut g = Game::deal(r, Seat::new(3), seed);
            let s = g.forehand();
            let hand = g.hand(s);
            let t = hand.with_mask(normal_game_trumps()).len();
            let counted = if fox_counts == "on" { t } else { t - hand.count(Card::DA) };
            let may = counted <= 3;
            assert_eq!(g.legal_bids(s).contains(&poverty), may, "fox counts {fox_counts}: {t} trumps");
            fox_only += u32::from(fox_counts == "off" && may && t > 3);
            if !may || fox_counts == "on" {
                continue;
            }
            // the poverty is played: the pauper gives, the next one takes it
            g.act(s, Action::Bid(poverty)).unwrap();
            for i in 1..4 {
                g.act(s.plus(i), Action::Bid(H)).unwrap();
            }
            if g.phase() != Phase::PovertyGive {
                continue;
            }
            let give = g.legal_actions(s)[0];
            g.act(s, give).unwrap();
            let taker = g.to_act().unwrap();
            g.act(taker, Action::Answer(true)).unwrap();
            assert_eq!(g.phase(), Phase::PovertyReturn);
            let hand = g.hand(taker);
            let others = hand.without_mask(normal_game_trumps()).len();
            let k = g.poverty_count();
            let legal = g.legal_actions(taker);
            for a in &legal {
                let Action::Return(c) = a else { panic!("{a:?}") };
                assert!(c.with_mask(normal_game_trumps()).len() <= k.saturating_sub(others), "{c:?}");
            }
            // a return with a trump while enough other cards are held
            if others >= k {
                let trump = hand.with_mask(normal_game_trumps()).iter().next().unwrap();
                let mut bad = Cards::EMPTY;
                bad.insert(trump);
                for c in hand.without_mask(normal_game_trumps()).iter().take(k - 1) {
                    bad.insert(c);
                }
                if bad.len() == k {
                    let e = g.clone().act(taker, Action::Return(bad)).unwrap_err();
                    assert_eq!(e, ActionError::MustReturnOtherCards { seat: taker, trump });
                    refused += 1;
                    // allowed with the key on
                    let mut on = rules(&[("poverty", "on"), ("poverty_fox_counts", "off")]);
                    on.poverty_return_trumps = true;
                    let mut rec = Record::from_game(&g);
                    rec.rules = on;
                    let mut g_on = rec.to_game().unwrap();
                    g_on.act(taker, Action::Return(bad)).unwrap();
                }
            }
            g.act(taker, legal[0]).unwrap();
            assert_eq!(g.phase(), Phase::Playing);
            returned += 1;
        }
    }
    assert!(fox_only >= 1 && refused >= 1 && returned >= 1, "{fox_only} {refused} {returned}");
}

/// `dullen` off: the hearts tens are plain hearts cards between ace and
/// king (a hearts trump there in a hearts solo); the dulle rule no longer
/// applies; poverty and throwing in do not count them as trumps. With the
/// key on (DDV) they stay the highest trumps.
#[test]
fn dullen_off_makes_the_hearts_tens_plain_hearts() {
    use doko_engine::{Card, Class, Order};
    let c = |s: &str| -> Card { s.parse().unwrap() };
    let hands = hands();
    let on = Rules::default();
    let off = rules(&[("dullen", "off"), ("dulle", "second-wins")]);
    // a normal game
    let o_on = Order::for_deal(Contract::Normal, &on, &hands);
    let o_off = Order::for_deal(Contract::Normal, &off, &hands);
    assert!(o_on.is_trump(Card::H10) && o_on.has_dulle());
    assert!(!o_off.is_trump(Card::H10) && !o_off.has_dulle());
    assert_eq!(o_off.class(Card::H10), Class::Hearts);
    assert!(o_off.mask(Class::Hearts).contains(Card::H10) && !o_off.mask(Class::Trump).contains(Card::H10));
    // in a hearts trick: ace > ten > king; any trump beats the ten
    assert_eq!(o_off.trick_winner(&[c("HK"), c("H10"), c("H9"), c("HK")], true), 1);
    assert_eq!(o_off.trick_winner(&[c("H10"), c("HA"), c("H9"), c("HK")], true), 1);
    assert_eq!(o_off.trick_winner(&[c("H10"), c("D9"), c("H10"), c("HK")], true), 1);
    // two tens: the first wins (no second-wins dulle rule for plain cards)
    assert_eq!(o_off.trick_winner(&[c("H10"), c("H10"), c("H9"), c("HK")], true), 0);
    // with the key on, the ten is the Dulle: highest trump, second wins
    assert_eq!(o_on.trick_winner(&[c("CQ"), c("H10"), c("H10"), c("D9")], true), 2);
    // a hearts solo: the ten is a hearts trump between ace and king
    let hs = Order::for_deal(Contract::Solo(SoloKind::Hearts), &off, &hands);
    assert!(hs.is_trump(Card::H10));
    assert!(hs.power(c("HA")) > hs.power(Card::H10) && hs.power(Card::H10) > hs.power(c("HK")));
    assert!(hs.power(c("DJ")) > hs.power(c("HA")), "jacks stay above the hearts");
    // a queens solo: no change (the ten is plain anyway)
    let qs_on = Order::for_deal(Contract::Solo(SoloKind::Queens), &on, &hands);
    let qs_off = Order::for_deal(Contract::Solo(SoloKind::Queens), &off, &hands);
    assert_eq!(qs_on.class(Card::H10), qs_off.class(Card::H10));
    assert_eq!(qs_on.power(Card::H10), qs_off.power(Card::H10));
    // poverty counts no hearts ten as a trump: a hand with 3 other trumps
    // and a ten may declare poverty with the key off only
    let poverty = Bid::Reserve(Reservation::Poverty);
    let mut found = 0;
    for seed in 0..2000u64 {
        for (r, tens_count) in
            [(rules(&[("poverty", "on")]), true), (rules(&[("poverty", "on"), ("dullen", "off")]), false)]
        {
            let g = Game::deal(r, Seat::new(3), seed);
            let s = g.forehand();
            let hand = g.hand(s);
            let mut t = hand.with_mask(doko_engine::normal_game_trumps()).len();
            if !tens_count {
                t -= hand.count(Card::H10);
            }
            let may = t <= 3;
            assert_eq!(
                g.legal_bids(s).contains(&poverty),
                may,
                "seed {seed}: {t} trumps, tens count {tens_count}, {hand:?}"
            );
            found += u32::from(may && !tens_count && hand.count(Card::H10) > 0 && t + hand.count(Card::H10) > 3);
        }
    }
    assert!(found >= 1, "no hand that only the key makes poor");
}

/// `mandatory_further`: with the forced announcement on, a first-trick
/// winner whose party has announced already must announce one level
/// further before playing on; off (the default), only a party without an
/// announcement is forced. Without 30 points in the first trick nobody is.
#[test]
fn a_forced_announcement_goes_one_level_further() {
    use doko_engine::Level;
    let (mut forced, mut not_forced) = (0, 0);
    for seed in 0..300u64 {
        for further in ["on", "off"] {
            let r = rules(&[("mandatory_announcement", "30"), ("mandatory_further", further)]);
            let mut g = normal_game_seeded(r, seed);
            // both parties announce before the first card
            let re = g.members(Party::Re)[0];
            let kontra = g.members(Party::Kontra)[0];
            g.announce(re, Call::Re).unwrap();
            g.announce(kontra, Call::Kontra).unwrap();
            for _ in 0..4 {
                let p = g.to_act().unwrap();
                let c = g.legal_cards(p).iter().next().unwrap();
                g.play(p, c).unwrap();
            }
            let t = g.tricks()[0];
            let winner = t.winner;
            if t.points() < 30 {
                assert_eq!(g.mandatory_announcement(), None);
                continue;
            }
            if further == "off" {
                assert_eq!(g.mandatory_announcement(), None);
                not_forced += 1;
                continue;
            }
            assert_eq!(g.mandatory_announcement(), Some(winner), "seed {seed}");
            assert!(g.legal_cards(winner).is_empty(), "no card before the announcement");
            assert_eq!(g.legal_calls(winner)[0].level(), Level::No90);
            g.announce(winner, g.legal_calls(winner)[0]).unwrap();
            assert_eq!(g.mandatory_announcement(), None);
            assert!(!g.legal_cards(winner).is_empty());
            forced += 1;
        }
    }
    assert!(forced >= 3 && not_forced >= 3, "{forced} {not_forced}");
}

/// A normal game from a seed (nobody holds both queens of clubs).
fn normal_game_seeded(rules: Rules, from: u64) -> Game {
    for seed in from * 1000.. {
        let mut g = Game::deal(rules, Seat::new(3), seed);
        if Seat::ALL.iter().all(|s| g.hand(*s).count(doko_engine::Card::CQ) < 2) {
            bid_all(&mut g, [H; 4]);
            return g;
        }
    }
    unreachable!()
}

/// The fixed deal, everybody healthy: seat 3 holds both foxes and both
/// tens of diamonds, seat 0 both nines of diamonds (a normal game, seats
/// 0 and 2 are Re).
fn fixed_game(sets: &[(&str, &str)]) -> Game {
    let mut g = Game::new(rules(sets), Seat::new(3), hands()).unwrap();
    bid_all(&mut g, [H; 4]);
    g
}

/// Plays the deal to its end with the first legal card, announcing what
/// is owed first.
fn play_out(g: &mut Game) {
    while let Some(p) = g.to_act() {
        if g.legal_cards(p).is_empty() {
            let c = g.legal_calls(p)[0];
            g.announce(p, c).unwrap();
        } else {
            g.play(p, g.legal_cards(p).iter().next().unwrap()).unwrap();
        }
    }
}
