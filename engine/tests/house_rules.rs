//! House-rule keys beyond the DDV rules, each driven through the game as a
//! player would: where the key changes the result and where it must not.
//! (`solo_double`, `solo_priority`, `announce_on_turn`, the extra points
//! `fox-first-trick`, `dulle-caught`, `heart-trick`, `lizzie-miller`, and
//! the rest of this file's keys; also `fox-last-trick` as the spec says it.)

use doko_engine::{
    Action, ActionError, Bid, Call, Cards, Contract, Game, Party, Reason, Record, Reservation, Rng, Rules, Seat,
    SoloKind, random_game,
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

/// `solo_double`: over random deals replayed with and without the key, a
/// declared solo scores twice, with a `solo_double` item in its breakdown;
/// every other contract (silent solo included) scores the same.
#[test]
fn solo_double_doubles_declared_solos_only() {
    let mut rng = Rng::new(77);
    let (mut solos, mut others) = (0, 0);
    for _ in 0..3000 {
        let g = random_game(&Rules::default(), &mut rng);
        let Some(plain) = g.score() else { continue };
        let mut rec = Record::from_game(&g);
        rec.rules.set("solo_double", "on").unwrap();
        let doubled = rec.replay().unwrap().score().unwrap();
        let items = doubled.breakdown.items();
        if matches!(g.contract(), Contract::Solo(_)) && plain.game_value != 0 {
            solos += 1;
            assert_eq!(doubled.game_value, 2 * plain.game_value);
            for s in 0..4 {
                assert_eq!(doubled.scores[s], 2 * plain.scores[s]);
            }
            assert!(items.iter().any(|it| it.reason == Reason::SoloDouble), "{items:?}");
        } else {
            others += 1;
            assert_eq!(doubled, plain, "{:?}", g.contract());
        }
        assert_eq!(doubled.scores.iter().sum::<i32>(), 0);
    }
    assert!(solos >= 3 && others >= 3, "{solos} solos, {others} other deals");
}

/// The extra points beyond the DDV's, each alone and some together, over
/// random deals (with and without nines) replayed under each list: the
/// points of each reason (signed for Re) against a count made here from
/// the tricks themselves. Deals where the situation does not arise score
/// nothing for it.
#[test]
fn house_extra_points_count_what_the_tricks_show() {
    use doko_engine::Card;
    let mut rng = Rng::new(4711);
    let mut seen = std::collections::BTreeMap::<&str, u32>::new();
    for n in 0..6000 {
        let mut r = Rules::default();
        r.set("extra_points", "none").unwrap();
        r.nines = n % 2 == 0;
        let g = random_game(&r, &mut rng);
        if g.score().is_none() || g.is_solo() {
            continue;
        }
        let tricks = g.tricks();
        let last = tricks.len() - 1;
        let sign = |s: Seat| if g.party(s) == Party::Re { 1 } else { -1 };
        let (mut fox_any, mut fox_first, mut dulle, mut heart, mut lizzie, mut caught) = (0, 0, 0, 0, 0, 0);
        for (ti, t) in tricks.iter().enumerate() {
            let wp = g.party(t.winner);
            let winning = t.cards[(t.winner.index() + 4 - t.leader.index()) % 4];
            for (i, c) in t.cards.iter().enumerate() {
                if g.party(t.player(i)) == wp {
                    continue;
                }
                if *c == Card::DA {
                    fox_any += sign(t.winner);
                    if ti == 0 {
                        fox_first += sign(t.winner);
                    }
                }
                if *c == Card::H10 {
                    dulle += sign(t.winner);
                }
                if ti == last && *c == Card::CJ {
                    caught += sign(t.winner);
                    if winning == Card::DQ {
                        lizzie += sign(t.winner);
                    }
                }
            }
            let mut cs = t.cards;
            cs.sort();
            let mut hearts = [Card::HA, Card::HA, Card::HK, Card::HK];
            hearts.sort();
            if !r.nines && cs == hearts {
                heart += sign(t.winner);
            }
        }
        let rec = Record::from_game(&g);
        let extra = |list: &str, reasons: &[Reason]| extra_points_under(&rec, list, reasons);
        use Reason::*;
        assert_eq!(extra("fox-first-trick", &[FoxFirstTrick]), 2 * fox_first);
        assert_eq!(extra("fox fox-first-trick", &[Fox, FoxFirstTrick]), fox_any + fox_first);
        assert_eq!(extra("dulle-caught", &[DulleCaught]), dulle);
        assert_eq!(extra("heart-trick", &[HeartTrick]), heart);
        assert_eq!(extra("lizzie-miller", &[LizzieMiller]), lizzie);
        assert_eq!(extra("charlie-caught", &[CharlieCaught, LizzieMiller]), caught);
        for (what, v) in
            [("fox-first-trick", fox_first), ("dulle-caught", dulle), ("heart-trick", heart), ("lizzie-miller", lizzie)]
        {
            *seen.entry(what).or_default() += u32::from(v != 0);
        }
    }
    for (what, n) in &seen {
        assert!(*n >= 1, "{what} never arose in the deals: {seen:?}");
    }
    // the two forms of a caught Charlie exclude each other
    let mut r = Rules::default();
    let e = r.set("extra_points", "charlie-caught lizzie-miller").unwrap_err().to_string();
    assert!(e.contains("not both charlie-caught and lizzie-miller"), "{e}");
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

/// `bock_triggers`: over random deals (solos among them), each trigger
/// alone starts Bock exactly when the deal shows its situation, counted
/// here from the deal; the default list is the DDV-style three; `none`
/// never starts Bock.
#[test]
fn bock_triggers_start_bock_exactly_on_what_they_list() {
    use doko_engine::{Suit, triggers_bock};
    let mut rng = Rng::new(99);
    let mut seen = std::collections::BTreeMap::<&str, u32>::new();
    for n in 0..6000 {
        let mut r = Rules::default();
        r.set("bock", "on").unwrap();
        r.nines = n % 3 != 0;
        let g = random_game(&r, &mut rng);
        let Some(score) = g.score() else { continue };
        let announced = |p: Party| g.announcements().iter().any(|a| a.party == p);
        let lost = |p: Party| announced(p) && score.winner.is_some_and(|w| w != p);
        let tie = score.card_points[0] == 120;
        let hearts =
            g.tricks().iter().any(|t| t.cards.iter().all(|c| c.suit() == Suit::Hearts && !g.order().is_trump(*c)));
        let solo_lost = matches!(g.contract(), Contract::Solo(_)) && score.winner == Some(Party::Kontra);
        let with = |list: &str| {
            let mut rec = Record::from_game(&g);
            rec.rules.set("bock_triggers", list).unwrap();
            let g2 = rec.replay().unwrap();
            triggers_bock(&g2, &g2.score().unwrap())
        };
        for (list, want) in [
            ("tie", tie),
            ("lost-re", lost(Party::Re)),
            ("lost-kontra", lost(Party::Kontra)),
            ("heart-trick", hearts),
            ("lost-solo", solo_lost),
            ("none", false),
        ] {
            assert_eq!(with(list), want, "{list}");
            *seen.entry(list).or_default() += u32::from(want);
        }
        assert_eq!(triggers_bock(&g, &score), tie || lost(Party::Re) || lost(Party::Kontra), "the default list");
    }
    for list in ["tie", "lost-re", "lost-kontra", "heart-trick", "lost-solo"] {
        assert!(seen[list] >= 1, "{list} never arose: {seen:?}");
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

/// The points of `reasons` (signed for Re) when the deal of `rec` is
/// replayed with `extra_points` set to `list`.
fn extra_points_under(rec: &Record, list: &str, reasons: &[Reason]) -> i32 {
    let mut rec = rec.clone();
    rec.rules.set("extra_points", list).unwrap();
    let s = rec.replay().unwrap().score().unwrap();
    s.breakdown
        .items()
        .iter()
        .filter(|it| reasons.contains(&it.reason))
        .map(|it| if it.party == Party::Re { it.points } else { -it.points })
        .sum()
}

/// `fox-last-trick` (spec): a fox caught in the last trick counts 2 in
/// all, whether or not `fox` is listed; `fox` alone counts it 1; neither:
/// 0. The same deals replayed under each list, counted here from the
/// tricks themselves. Deals without a fox in the last trick come out the
/// same with and without the key.
#[test]
fn a_fox_caught_in_the_last_trick_counts_two_whether_or_not_fox_is_listed() {
    use doko_engine::Card;
    let mut with_last = 0;
    let mut without_last = 0;
    let mut rng = Rng::new(2026);
    for _ in 0..4000 {
        let mut r = Rules::default();
        r.set("extra_points", "none").unwrap();
        let g = random_game(&r, &mut rng);
        let Some(_) = g.score() else { continue };
        if g.is_solo() {
            continue;
        }
        let n = g.tricks().len();
        let (mut anywhere, mut last) = (0i32, 0i32);
        for (ti, t) in g.tricks().iter().enumerate() {
            for (i, c) in t.cards.iter().enumerate() {
                if *c == Card::DA && g.party(t.player(i)) != g.party(t.winner) {
                    // (signed for Re)
                    let sign = if g.party(t.winner) == Party::Re { 1 } else { -1 };
                    anywhere += sign;
                    if ti + 1 == n {
                        last += sign;
                    }
                }
            }
        }
        if last != 0 {
            with_last += 1;
        } else {
            without_last += 1;
        }
        let rec = Record::from_game(&g);
        let extra = |list: &str| extra_points_under(&rec, list, &[Reason::Fox, Reason::FoxLastTrick]);
        assert_eq!(extra("none"), 0);
        assert_eq!(extra("fox"), anywhere);
        assert_eq!(extra("fox fox-last-trick"), anywhere + last, "fox listed: one more in the last trick");
        assert_eq!(extra("fox-last-trick"), 2 * last, "fox not listed: 2 for each fox in the last trick");
    }
    assert!(
        with_last >= 3 && without_last >= 3,
        "{with_last} deals with a fox in the last trick, {without_last} without"
    );
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
        Err(ActionError::RuleOff { seat: Seat::new(2), what: "choosing the wedding trick" })
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

/// A deal for the Schwarze Sau, dealer 3: seat 0 (forehand) holds three
/// trumps and may declare poverty; seats 1 and 2 hold a queen of spades
/// each.
fn sow_hands() -> [Cards; 4] {
    [
        cards("D9 D9 DK CA CA C10 C10 CK CK SA SA HA"),
        cards("CQ CQ SQ HQ HQ DQ CJ SJ HJ H10 C9 C9"),
        cards("SQ DQ CJ SJ HJ DJ DJ DA DA D10 S10 S10"),
        cards("H10 D10 DK S9 S9 SK SK HA HK HK H9 H9"),
    ]
}

/// The sow deal up to its start: seat 0 declares poverty and puts its
/// three trumps down, the other three decline.
fn sow_declined(sets: &[(&str, &str)]) -> Game {
    let mut g = Game::new(rules(sets), Seat::new(3), sow_hands()).unwrap();
    bid_all(&mut g, [Bid::Reserve(Reservation::Poverty), H, H, H]);
    g.act(Seat::new(0), Action::Give(cards("D9 D9 DK"))).unwrap();
    for s in 1..4 {
        g.act(Seat::new(s), Action::Answer(false)).unwrap();
    }
    g
}

fn play_cards(g: &mut Game, plays: &[(usize, &str)]) {
    for (s, c) in plays {
        g.act(Seat::new(*s), Action::Play(c.parse().unwrap())).unwrap_or_else(|e| panic!("{s} {c}: {e}"));
    }
}

/// `black_sow`: a poverty nobody takes is played; everyone for themselves
/// until the second queen of spades falls; its trick's taker (here not
/// the one who played it) chooses a solo, played from the next trick on
/// and scored with every trick so far. Without the key the same deal is
/// dealt again; an accepted poverty plays the same with or without it.
#[test]
fn black_sow_plays_a_declined_poverty() {
    use doko_engine::{Phase, RedealReason};
    let (s0, s1, s2, s3) = (Seat::new(0), Seat::new(1), Seat::new(2), Seat::new(3));
    // without the key: dealt again
    let off = sow_declined(&[("poverty", "on")]);
    assert_eq!(off.phase(), Phase::Redeal(RedealReason::PovertyDeclined));

    let sets = [("poverty", "on"), ("black_sow", "on")];
    let mut g = sow_declined(&sets);
    assert_eq!(g.phase(), Phase::Playing);
    assert_eq!(g.contract(), Contract::BlackSow(None));
    assert_eq!(g.declarer(), None);
    assert_eq!(g.hand(s0), sow_hands()[0], "the pauper takes the cards back");
    assert_eq!(g.to_act(), Some(s0));
    // nobody announces before the solo is chosen; the view shows no party
    assert_eq!(g.act(s1, Action::Announce(Call::Re)), Err(ActionError::BeforeSowSolo { seat: s1 }));
    assert_eq!(g.act(s1, Action::Announce(Call::Kontra)), Err(ActionError::BeforeSowSolo { seat: s1 }));
    // trick 1: the first queen of spades; seat 2 takes it, nothing else happens
    play_cards(&mut g, &[(0, "CA"), (1, "C9"), (2, "SQ"), (3, "H9")]);
    assert_eq!((g.phase(), g.contract(), g.to_act()), (Phase::Playing, Contract::BlackSow(None), Some(s2)));
    assert!(g.public_view().parties.iter().all(Option::is_none), "{:?}", g.public_view().parties);
    // trick 2: seat 1 plays the second queen of spades, seat 3's dulle takes it
    play_cards(&mut g, &[(2, "DJ"), (3, "H10"), (0, "D9"), (1, "SQ")]);
    assert_eq!(g.tricks()[1].winner, s3);
    assert_eq!((g.phase(), g.to_act(), g.declarer()), (Phase::SowChoice, Some(s3), Some(s3)));
    // the taker must choose one of the allowed solos, nothing else
    let solos: Vec<Bid> = Rules::default().solos.iter().map(|k| solo(k, false)).collect();
    assert_eq!(g.legal_bids(s3), solos);
    assert_eq!(g.legal_actions(s3), solos.iter().map(|b| Action::Bid(*b)).collect::<Vec<_>>());
    assert!(g.legal_actions(s0).is_empty());
    assert_eq!(g.act(s3, Action::Bid(H)), Err(ActionError::MustChooseSolo { seat: s3 }));
    assert_eq!(
        g.act(s3, Action::Bid(Bid::Reserve(Reservation::Wedding(None)))),
        Err(ActionError::MustChooseSolo { seat: s3 })
    );
    assert_eq!(g.act(s3, Action::Bid(solo(SoloKind::Spades, true))), Err(ActionError::MustChooseSolo { seat: s3 }));
    assert_eq!(
        g.act(s3, Action::Bid(solo(SoloKind::Kings, false))),
        Err(ActionError::SoloNotAllowed { seat: s3, kind: "kings" })
    );
    assert_eq!(
        g.act(s0, Action::Bid(solo(SoloKind::Spades, false))),
        Err(ActionError::NotYourTurn { seat: s0, turn: s3 })
    );
    assert!(matches!(g.act(s3, Action::Play("SK".parse().unwrap())), Err(ActionError::WrongPhase { .. })));
    g.act(s3, Action::Bid(solo(SoloKind::Spades, false))).unwrap();
    assert_eq!(
        (g.phase(), g.contract(), g.to_act()),
        (Phase::Playing, Contract::BlackSow(Some(SoloKind::Spades)), Some(s3))
    );
    assert_eq!(g.members(Party::Re), vec![s3]);
    // the spades solo's order from now on: the spades king is a trump
    assert!(g.order().is_trump("SK".parse().unwrap()) && !g.order().is_trump("DK".parse().unwrap()));
    assert!(g.public_view().parties.iter().all(Option::is_some));
    play_out(&mut g);
    let score = g.score().unwrap();
    assert!(g.is_solo());
    let taken = |p: Party| -> u32 { g.tricks().iter().filter(|t| g.party(t.winner) == p).map(|t| t.points()).sum() };
    // trick 1 (seat 2's) counts for the three, trick 2 for the soloist
    assert_eq!(score.card_points, [taken(Party::Re), taken(Party::Kontra)]);
    assert!(score.card_points[1] >= g.tricks()[0].points());
    assert_eq!(score.scores.iter().sum::<i32>(), 0);
    assert_eq!(score.scores[3], -3 * score.scores[0]);
    assert_eq!(score.scores[0], score.scores[1]);
    assert!(
        score.breakdown.items().iter().all(|i| !matches!(i.reason, Reason::Fox | Reason::Charlie | Reason::Doppelkopf))
    );
    // the record carries the choice after the trick and replays the same
    let text = Record::from_game(&g).to_json();
    assert!(
        text.contains(
            r#"{"seat":1,"play":"SQ"},
    {"seat":3,"bid":"solo-spades"},"#
        ),
        "{text}"
    );
    let again = Record::from_json(&text).unwrap().replay().unwrap();
    assert_eq!(again, g);
    // solo_double doubles the Schwarze Sau's solo
    let mut doubled = Record::from_json(&text).unwrap();
    doubled.rules.solo_double = true;
    let d = doubled.replay().unwrap().score().unwrap();
    assert_eq!(d.scores, score.scores.map(|x| 2 * x));

    // an accepted poverty plays the same with or without the key
    let take = |sets: &[(&str, &str)]| {
        let mut g = Game::new(rules(sets), Seat::new(3), sow_hands()).unwrap();
        bid_all(&mut g, [Bid::Reserve(Reservation::Poverty), H, H, H]);
        g.act(s0, Action::Give(cards("D9 D9 DK"))).unwrap();
        g.act(s1, Action::Answer(true)).unwrap();
        g.act(s1, Action::Return(cards("C9 C9 HQ"))).unwrap();
        play_out(&mut g);
        (g.contract(), g.score().unwrap())
    };
    assert_eq!(take(&[("poverty", "on")]), take(&sets));
    assert_eq!(take(&sets).0, Contract::Poverty);
}

/// Schwarze Sau without allowed solos (or in the last trick): the taker of
/// the second queen of spades plays on alone in the normal order, scored
/// as a solo; nobody is asked to choose.
#[test]
fn black_sow_without_solos_plays_on_alone() {
    use doko_engine::Phase;
    let mut g = sow_declined(&[("poverty", "on"), ("black_sow", "on"), ("solos", "none")]);
    play_cards(&mut g, &[(0, "CA"), (1, "C9"), (2, "SQ"), (3, "H9"), (2, "DJ"), (3, "H10"), (0, "D9"), (1, "SQ")]);
    assert_eq!((g.phase(), g.contract(), g.declarer()), (Phase::Playing, Contract::BlackSow(None), Some(Seat::new(3))));
    assert!(g.is_clarified());
    // announcements are open to the soloist now (the deadlines moved by the tricks played)
    assert!(g.legal_calls(Seat::new(3)).contains(&Call::Re));
    play_out(&mut g);
    let score = g.score().unwrap();
    assert_eq!(g.members(Party::Re), vec![Seat::new(3)]);
    assert_eq!(score.scores[3], -3 * score.scores[0]);
    let text = Record::from_game(&g).to_json();
    assert!(!text.contains("solo-"), "{text}");
    assert_eq!(Record::from_json(&text).unwrap().replay().unwrap(), g);
}

/// Random deals with the key: every poverty nobody takes becomes a
/// Schwarze Sau whose soloist is the taker of the second queen of spades;
/// random legal play to the end; each is scored as a solo and replays
/// from its record.
#[test]
fn black_sow_in_random_deals() {
    use doko_engine::Card;
    let r = rules(&[("poverty", "on"), ("black_sow", "on"), ("poverty_max_trumps", "5")]);
    let mut rng = Rng::new(7);
    let (mut sows, mut chosen) = (0, 0);
    for seed in 0..2_000u64 {
        let mut g = Game::deal(r, Seat::new((seed % 4) as usize), seed);
        let poverty = Bid::Reserve(Reservation::Poverty);
        while let Some(s) = g.to_act().filter(|_| g.phase() == doko_engine::Phase::Bidding) {
            let b = if g.legal_bids(s).contains(&poverty) { poverty } else { H };
            g.act(s, Action::Bid(b)).unwrap();
        }
        if g.contract() != Contract::Poverty {
            continue;
        }
        while let Some(s) = g.to_act() {
            let a = match g.legal_actions(s).as_slice() {
                [.., Action::Answer(false)] => Action::Answer(false),
                acts => acts[rng.below(acts.len())],
            };
            g.act(s, a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        }
        let Contract::BlackSow(kind) = g.contract() else { panic!("{:?}", g.contract()) };
        sows += 1;
        chosen += usize::from(kind.is_some());
        let mut fallen = 0;
        let second = g.tricks().iter().position(|t| {
            fallen += t.cards.iter().filter(|c| **c == Card::SQ).count();
            fallen == 2
        });
        let taker = g.tricks()[second.expect("both queens of spades fall")].winner;
        assert_eq!(g.declarer(), Some(taker));
        assert_eq!(g.members(Party::Re), vec![taker]);
        assert!(g.is_solo());
        let score = g.score().unwrap();
        assert_eq!(score.scores.iter().sum::<i32>(), 0);
        assert_eq!(score.card_points[0] + score.card_points[1], 240);
        let text = Record::from_game(&g).to_json();
        assert_eq!(Record::from_json(&text).unwrap().replay().unwrap(), g, "{text}");
    }
    assert!(sows >= 20 && chosen >= 10, "{sows} sows, {chosen} with a chosen solo");
}
