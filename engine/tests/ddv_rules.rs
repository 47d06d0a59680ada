//! DDV rule cases driven through the game as a player would: announcement
//! deadlines and replies, wedding clarification in trick 1, 2, 3 and never
//! (and the house variants), silent solo, reservation ranking, poverty,
//! throw-in, following suit, the dulle variants, piglets and the mandatory
//! announcement.

use doko_engine::{
    Action, ActionError, Bid, Call, Card, Cards, Contract, Game, Level, Party, Phase, Preset, RedealReason,
    Reservation, Rules, Seat, SoloKind, WeddingRule, normal_game_trumps,
};

fn cards(s: &str) -> Cards {
    let mut out = Cards::EMPTY;
    for c in s.split_whitespace() {
        assert!(out.insert(c.parse().unwrap()), "{c} three times");
    }
    out
}

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

fn seat(n: usize) -> Seat {
    Seat::new(n)
}

/// A fixed deal (dealer 3, so seat 0 is forehand) where seat 0 holds both
/// queens of clubs and the tricks can be steered card by card.
fn wedding_hands() -> [Cards; 4] {
    [
        cards("CQ CQ CA SA HA C9 S9 H9 D9 D9 DK DK"),
        cards("CA C10 S10 SK HK H9 H10 SQ HQ DQ CJ SJ"),
        cards("C10 CK SA S10 HK H10 SQ HQ DQ CJ SJ HJ"),
        cards("CK C9 SK S9 HA HJ DJ DJ DA DA D10 D10"),
    ]
}

fn new_game(rules: Rules, hands: [Cards; 4]) -> Game {
    Game::new(rules, seat(3), hands).expect("one pack")
}

fn bid_all(g: &mut Game, bids: [Bid; 4]) {
    for (i, b) in bids.into_iter().enumerate() {
        let s = g.forehand().plus(i);
        g.act(s, Action::Bid(b)).unwrap_or_else(|e| panic!("bid {i}: {e}"));
    }
}

const H: Bid = Bid::Healthy;
const WEDDING: Bid = Bid::Reserve(Reservation::Wedding(None));

/// Plays one trick: cards in order from the seat on turn.
fn trick(g: &mut Game, cs: [&str; 4]) {
    for c in cs {
        let s = g.to_act().expect("someone is on turn");
        g.play(s, card(c)).unwrap_or_else(|e| panic!("{c}: {e}"));
    }
}

fn play_first_legal(g: &mut Game, n: usize) {
    for _ in 0..n {
        let s = g.to_act().unwrap();
        let c = g.legal_cards(s).iter().next().unwrap();
        g.play(s, c).unwrap();
    }
}

fn finish(g: &mut Game) {
    while let Some(s) = g.to_act() {
        let c = g.legal_cards(s).iter().next().expect("a legal card");
        g.play(s, c).unwrap();
    }
}

// ---------------------------------------------------------------- wedding

struct WeddingCase {
    rule: WeddingRule,
    tricks: &'static [[&'static str; 4]],
    partner: Option<usize>,
    clarified_in: usize,
}

#[test]
fn wedding_clarification_in_trick_1_2_3_and_never() {
    use WeddingRule::*;
    let cases = [
        // first foreign: trick 1 goes to seat 1's ace of clubs
        WeddingCase { rule: FirstForeign, tricks: &[["C9", "CA", "C10", "CK"]], partner: Some(1), clarified_in: 1 },
        // the declarer wins trick 1, seat 2's ace of spades takes trick 2
        WeddingCase {
            rule: FirstForeign,
            tricks: &[["CA", "C10", "CK", "C9"], ["S9", "SK", "SA", "S9"]],
            partner: Some(2),
            clarified_in: 2,
        },
        // the declarer wins two, seat 3's ace of hearts takes trick 3
        WeddingCase {
            rule: FirstForeign,
            tricks: &[["CA", "C10", "CK", "C9"], ["SA", "S10", "S10", "SK"], ["H9", "HK", "HK", "HA"]],
            partner: Some(3),
            clarified_in: 3,
        },
        // the declarer wins the first three: alone, trick 3 clarifies
        WeddingCase {
            rule: FirstForeign,
            tricks: &[["CA", "C10", "CK", "C9"], ["SA", "S10", "S10", "SK"], ["HA", "H9", "HK", "HA"]],
            partner: None,
            clarified_in: 3,
        },
        // first trump: the fail trick 1 (won by seat 1) does not count; seat 1
        // leads the hearts ten in trick 2 and wins it
        WeddingCase {
            rule: FirstTrump,
            tricks: &[["C9", "CA", "C10", "CK"], ["H10", "SQ", "HJ", "D9"]],
            partner: Some(1),
            clarified_in: 2,
        },
        // first fail: trick 1 is led with a trump (seat 1 wins it), trick 2
        // is a fail trick the declarer wins himself, trick 3 a fail trick
        // seat 3 wins
        WeddingCase {
            rule: FirstFail,
            tricks: &[["D9", "H10", "HJ", "DJ"], ["C10", "CK", "C9", "CA"], ["H9", "HK", "HK", "HA"]],
            partner: Some(3),
            clarified_in: 3,
        },
        // first trump, only fail tricks in the first three: alone
        WeddingCase {
            rule: FirstTrump,
            tricks: &[["CA", "C10", "CK", "C9"], ["SA", "S10", "S10", "SK"], ["HA", "H9", "HK", "HA"]],
            partner: None,
            clarified_in: 3,
        },
    ];
    for (i, c) in cases.iter().enumerate() {
        let rules = Rules { wedding: c.rule, ..Rules::default() };
        let mut g = new_game(rules, wedding_hands());
        bid_all(&mut g, [WEDDING, H, H, H]);
        assert_eq!(g.contract(), Contract::Wedding);
        assert_eq!(g.declarer(), Some(seat(0)));
        for (ti, t) in c.tricks.iter().enumerate() {
            assert!(!g.is_clarified(), "case {i}: clarified before trick {}", ti + 1);
            // nothing may be announced before clarification
            for s in Seat::ALL {
                let call = if s == seat(0) { Call::Re } else { Call::Kontra };
                assert_eq!(g.check_announce(s, call), Err(ActionError::BeforeClarification { seat: s }), "case {i}");
            }
            trick(&mut g, *t);
        }
        assert!(g.is_clarified(), "case {i}");
        let re: Vec<usize> = g.members(Party::Re).iter().map(|s| s.index()).collect();
        match c.partner {
            Some(p) => assert_eq!(re, vec![0, p], "case {i}: partner"),
            None => assert_eq!(re, vec![0], "case {i}: alone"),
        }
        // deadlines move down by one card per trick the clarification took
        let shift = c.clarified_in - 1;
        for l in Level::ALL {
            assert_eq!(g.deadline(l), 11 - l as usize - shift, "case {i}: {l:?}");
        }
        // the declarer holds 12 - clarified_in cards now
        let held = g.hand(seat(0)).len();
        assert_eq!(held, 12 - c.clarified_in);
        let ok = held >= 11 - shift;
        assert_eq!(g.check_announce(seat(0), Call::Re).is_ok(), ok, "case {i}: Re right after clarification");
        finish(&mut g);
        let s = g.score().unwrap();
        assert_eq!(s.scores.iter().sum::<i32>(), 0);
        if c.partner.is_none() {
            // scored as a solo: three times for the declarer, no extra points
            assert_eq!(s.scores[0], -3 * s.scores[1], "case {i}");
            assert!(s.breakdown.items().iter().all(|it| !it.reason.is_extra()), "case {i}");
        }
    }
}

#[test]
fn wedding_clarified_in_trick_2_moves_the_deadline_one_card() {
    let mut g = new_game(Rules::default(), wedding_hands());
    bid_all(&mut g, [WEDDING, H, H, H]);
    trick(&mut g, ["CA", "C10", "CK", "C9"]);
    trick(&mut g, ["S9", "SK", "SA", "S9"]); // seat 2 is the partner
    // everybody holds 10 cards: Re/Kontra still allowed (deadline 10)
    assert!(g.check_announce(seat(2), Call::Re).is_ok());
    assert!(g.check_announce(seat(1), Call::Kontra).is_ok());
    // no 90 would need 9+... its deadline is 9 and 10 are held: fine too
    assert!(g.check_announce(seat(2), Call::No90).is_ok());
    // seat 2 leads trick 3 and holds 9 afterwards: Re is too late
    let c = g.legal_cards(seat(2)).iter().next().unwrap();
    g.play(seat(2), c).unwrap();
    assert_eq!(
        g.check_announce(seat(2), Call::Re),
        Err(ActionError::TooLate { seat: seat(2), call: Call::Re, cards: 9, needed: 10 })
    );
}

#[test]
fn a_player_with_both_queens_who_says_healthy_plays_a_silent_solo() {
    let mut g = new_game(Rules::default(), wedding_hands());
    bid_all(&mut g, [H, H, H, H]);
    assert_eq!(g.contract(), Contract::SilentSolo);
    assert_eq!(g.declarer(), Some(seat(0)));
    assert_eq!(g.members(Party::Re), vec![seat(0)]);
    // the table sees a normal game and no declarer
    let pv = g.public_view();
    assert_eq!(pv.contract, Some(Contract::Normal));
    assert_eq!(pv.declarer, None);
    // once the soloist has played both queens, the table knows
    trick(&mut g, ["CQ", "H10", "H10", "DA"]); // seat 1 wins with the first dulle
    assert_eq!(g.public_view().contract, Some(Contract::Normal));
    assert_eq!(g.public_view().parties[0], Some(Party::Re));
    finish(&mut g);
    let pv = g.public_view();
    assert_eq!(pv.contract, Some(Contract::SilentSolo));
    assert_eq!(pv.parties, [Some(Party::Re), Some(Party::Kontra), Some(Party::Kontra), Some(Party::Kontra)]);
    let s = g.score().unwrap();
    assert_eq!(s.scores[0], -3 * s.scores[1]);
    assert!(s.breakdown.items().iter().all(|it| !it.reason.is_extra()), "no extra points in a silent solo");
}

// ---------------------------------------------------------------- announcements

/// A seeded normal game (no seat holds both queens of clubs).
fn normal_game(nines: bool) -> Game {
    let rules = Rules { nines, ..Rules::default() };
    for seed in 0.. {
        let g = Game::deal(rules, seat(3), seed);
        if Seat::ALL.iter().all(|s| g.hand(*s).count(Card::CQ) < 2) {
            let mut g = g;
            bid_all(&mut g, [H; 4]);
            assert_eq!(g.contract(), Contract::Normal);
            return g;
        }
    }
    unreachable!()
}

/// Plays until `s` holds exactly `n` cards and it is someone's turn.
fn play_until(g: &mut Game, s: Seat, n: usize) {
    while g.hand(s).len() > n {
        play_first_legal(g, 1);
    }
}

#[test]
fn re_and_kontra_need_eleven_cards_absagen_ten_nine_eight_seven() {
    let g0 = normal_game(true);
    let re = g0.members(Party::Re)[0];
    for (call, needed) in [(Call::Re, 11), (Call::No90, 10), (Call::No60, 9), (Call::No30, 8), (Call::Schwarz, 7)] {
        // with the lower levels announced in time, each level's own deadline applies
        let mut g = g0.clone();
        let lower: Vec<Call> =
            [Call::Re, Call::No90, Call::No60, Call::No30].into_iter().filter(|c| c.level() < call.level()).collect();
        for c in &lower {
            g.announce(re, *c).unwrap();
        }
        let mut late = g.clone();
        play_until(&mut g, re, needed);
        assert!(g.check_announce(re, call).is_ok(), "{call} with {needed} cards");
        play_until(&mut late, re, needed - 1);
        assert_eq!(
            late.check_announce(re, call),
            Err(ActionError::TooLate { seat: re, call, cards: needed - 1, needed }),
            "{call} with {} cards",
            needed - 1
        );
    }
}

#[test]
fn without_nines_the_deadlines_fall_at_the_same_tricks() {
    let g0 = normal_game(false);
    let re = g0.members(Party::Re)[0];
    let mut g = g0.clone();
    play_until(&mut g, re, 9);
    assert!(g.check_announce(re, Call::Re).is_ok());
    play_until(&mut g, re, 8);
    assert!(g.check_announce(re, Call::Re).is_err());
    assert_eq!(g0.deadline(Level::Schwarz), 5);
}

#[test]
fn skipped_levels_are_implied_only_while_each_is_still_allowed() {
    let g0 = normal_game(true);
    let re = g0.members(Party::Re)[0];
    // with 11 cards: "no 60" implies Re (11), no 90 (10), no 60 (9): allowed
    let mut g = g0.clone();
    play_until(&mut g, re, 11);
    g.announce(re, Call::No60).unwrap();
    assert_eq!(g.levels()[0], Some(Level::No60));
    // with 10 cards and nothing said: no 90 implies a Re that is too late
    let mut g = g0.clone();
    play_until(&mut g, re, 10);
    assert_eq!(
        g.check_announce(re, Call::No90),
        Err(ActionError::TooLate { seat: re, call: Call::Re, cards: 10, needed: 11 })
    );
    // Re said, no 60 with 9 cards: the implied no 90 is late
    let mut g = g0.clone();
    g.announce(re, Call::Re).unwrap();
    play_until(&mut g, re, 9);
    assert_eq!(
        g.check_announce(re, Call::No60),
        Err(ActionError::TooLate { seat: re, call: Call::No90, cards: 9, needed: 10 })
    );
}

#[test]
fn the_reply_is_allowed_one_card_after_the_opponents_latest_deadline() {
    let g0 = normal_game(true);
    let re = g0.members(Party::Re)[0];
    let ko = g0.members(Party::Kontra)[0];
    // Re said Re: Kontra may reply with 10 cards, not with 9
    let mut g = g0.clone();
    g.announce(re, Call::Re).unwrap();
    let mut g9 = g.clone();
    play_until(&mut g, ko, 10);
    assert!(g.check_announce(ko, Call::Kontra).is_ok());
    play_until(&mut g9, ko, 9);
    assert_eq!(
        g9.check_announce(ko, Call::Kontra),
        Err(ActionError::TooLate { seat: ko, call: Call::Kontra, cards: 9, needed: 10 })
    );
    // Re said no 90 (deadline 10): the reply is allowed with 9 cards, not 8
    let mut g = g0.clone();
    g.announce(re, Call::No90).unwrap();
    let mut g8 = g.clone();
    play_until(&mut g, ko, 9);
    assert!(g.check_announce(ko, Call::Kontra).is_ok());
    play_until(&mut g8, ko, 8);
    assert!(g8.check_announce(ko, Call::Kontra).is_err());
    // without any Re there is nothing to reply to: Kontra with 10 is late
    let mut g = g0.clone();
    play_until(&mut g, ko, 10);
    assert!(g.check_announce(ko, Call::Kontra).is_err());
}

#[test]
fn after_a_late_reply_no_further_absage_but_after_a_timely_one_yes() {
    let g0 = normal_game(true);
    let re = g0.members(Party::Re)[0];
    let ko = g0.members(Party::Kontra)[0];
    let ko2 = g0.members(Party::Kontra)[1];
    // late reply with 10 cards: no 90 (itself due at 10) is refused
    let mut g = g0.clone();
    g.announce(re, Call::Re).unwrap();
    play_until(&mut g, ko, 10);
    g.announce(ko, Call::Kontra).unwrap();
    assert_eq!(
        g.check_announce(ko, Call::No90),
        Err(ActionError::AfterLateReply { seat: ko, party: Party::Kontra, call: Call::No90 })
    );
    if g.hand(ko2).len() >= 10 {
        assert!(g.check_announce(ko2, Call::No90).is_err(), "the partner is bound too");
    }
    // a reply that was timely by itself (11 cards) allows no 90 with 10
    let mut g = g0.clone();
    g.announce(re, Call::Re).unwrap();
    play_until(&mut g, ko, 11);
    g.announce(ko, Call::Kontra).unwrap();
    play_until(&mut g, ko, 10);
    assert!(g.check_announce(ko, Call::No90).is_ok());
}

#[test]
fn announcements_are_for_ones_own_party_once() {
    let mut g = normal_game(true);
    let [r1, r2] = [g.members(Party::Re)[0], g.members(Party::Re)[1]];
    let ko = g.members(Party::Kontra)[0];
    assert_eq!(
        g.check_announce(ko, Call::Re),
        Err(ActionError::WrongParty { seat: ko, party: Party::Kontra, call: Call::Re })
    );
    assert!(matches!(g.check_announce(r1, Call::Kontra), Err(ActionError::WrongParty { .. })));
    g.announce(r1, Call::Re).unwrap();
    assert_eq!(
        g.check_announce(r2, Call::Re),
        Err(ActionError::AlreadyAnnounced { seat: r2, party: Party::Re, call: Call::Re })
    );
    // announcing reveals the party to the table
    assert_eq!(g.public_view().parties[r1.index()], Some(Party::Re));
    assert_eq!(g.public_view().parties[ko.index()], None);
    // the announcement is recorded with the cards held
    let a = g.announcements()[0];
    assert_eq!((a.seat, a.party, a.level, a.cards_in_hand), (r1, Party::Re, Level::Win, 12));
}

// ---------------------------------------------------------------- reservations

#[test]
fn reservation_ranking_and_who_leads() {
    let solo = |kind, duty| Bid::Reserve(Reservation::Solo { kind, duty });
    // compulsory beats free beats wedding; the compulsory soloist leads
    let mut g = new_game(Rules::default(), wedding_hands());
    bid_all(&mut g, [WEDDING, solo(SoloKind::Jacks, false), H, solo(SoloKind::Queens, true)]);
    assert_eq!((g.contract(), g.declarer()), (Contract::Solo(SoloKind::Queens), Some(seat(3))));
    assert_eq!(g.to_act(), Some(seat(3)));
    // two free solos: the earlier seat wins; under DDV forehand leads
    let mut g = new_game(Rules::default(), wedding_hands());
    bid_all(&mut g, [H, solo(SoloKind::Jacks, false), H, solo(SoloKind::Aces, false)]);
    assert_eq!((g.contract(), g.declarer()), (Contract::Solo(SoloKind::Jacks), Some(seat(1))));
    assert_eq!(g.to_act(), Some(seat(0)));
    // ... with soloist_leads the free soloist leads
    let rules = Rules { soloist_leads: true, ..Rules::default() };
    let mut g = new_game(rules, wedding_hands());
    bid_all(&mut g, [H, solo(SoloKind::Jacks, false), H, solo(SoloKind::Aces, false)]);
    assert_eq!(g.to_act(), Some(seat(1)));
    // two compulsory solos: the earlier seat
    let mut g = new_game(Rules::default(), wedding_hands());
    bid_all(&mut g, [H, H, solo(SoloKind::Clubs, true), solo(SoloKind::Hearts, true)]);
    assert_eq!(g.declarer(), Some(seat(2)));
    // a wedding needs both queens; kings solo is off under DDV; duty needs compulsory solos
    let mut g = new_game(Rules::default(), wedding_hands());
    g.act(seat(0), Action::Bid(H)).unwrap();
    assert_eq!(g.act(seat(1), Action::Bid(WEDDING)), Err(ActionError::WeddingNeedsQueens { seat: seat(1) }));
    assert!(matches!(
        g.act(seat(1), Action::Bid(solo(SoloKind::Kings, false))),
        Err(ActionError::SoloNotAllowed { .. })
    ));
    assert!(matches!(g.act(seat(2), Action::Bid(H)), Err(ActionError::NotYourTurn { .. })));
    let casual = Rules::preset(Preset::Casual);
    let mut g = new_game(casual, wedding_hands());
    assert!(matches!(g.act(seat(0), Action::Bid(solo(SoloKind::Jacks, true))), Err(ActionError::RuleOff { .. })));
}

#[test]
fn solo_card_orders_in_play() {
    // hearts solo: the hearts ten stays the highest trump, hearts ace is a trump,
    // diamonds are a fail suit
    let solo = Bid::Reserve(Reservation::Solo { kind: SoloKind::Hearts, duty: true });
    let mut g = new_game(Rules::default(), wedding_hands());
    bid_all(&mut g, [solo, H, H, H]);
    assert_eq!(g.to_act(), Some(seat(0)));
    // seat 0 leads the hearts ace (a trump now): seat 1 must follow with trumps
    g.play(seat(0), card("HA")).unwrap();
    assert!(matches!(g.play(seat(1), card("CA")), Err(ActionError::MustFollow { .. })));
    g.play(seat(1), card("H10")).unwrap();
    g.play(seat(2), card("SQ")).unwrap();
    g.play(seat(3), card("HA")).unwrap();
    assert_eq!(g.tricks()[0].winner, seat(1));
    // seat 1 leads a diamond-free... diamonds are fail: D... seat 1 has none;
    // fleischlos: no trumps at all, queen below king
    let aces = Bid::Reserve(Reservation::Solo { kind: SoloKind::Aces, duty: true });
    let mut g = new_game(Rules::default(), wedding_hands());
    bid_all(&mut g, [aces, H, H, H]);
    trick(&mut g, ["CQ", "C10", "CK", "C9"]); // clubs: 10 beats king beats queen
    assert_eq!(g.tricks()[0].winner, seat(1));
}

#[test]
fn following_suit_trumps_are_their_own_suit() {
    let mut g = new_game(Rules::default(), wedding_hands());
    bid_all(&mut g, [WEDDING, H, H, H]);
    g.play(seat(0), card("D9")).unwrap(); // a trump is led
    // seat 1 must play a trump: its hearts king is not a trump
    assert_eq!(
        g.play(seat(1), card("HK")),
        Err(ActionError::MustFollow { seat: seat(1), class: doko_engine::Class::Trump, holds: card("H10") })
    );
    assert_eq!(g.play(seat(1), card("HK")).unwrap_err().to_string(), "seat 1 must follow trumps (holds H10)");
    assert!(matches!(g.play(seat(2), card("C10")), Err(ActionError::NotYourTurn { .. })));
    assert!(matches!(g.play(seat(1), card("DA")), Err(ActionError::NotInHand { .. })));
    g.play(seat(1), card("H10")).unwrap();
}

#[test]
fn dulle_variants() {
    use doko_engine::Dulle::*;
    // trick 1: seat 0 leads D9, seat 1 H10, seat 2 H10, seat 3 DA
    for (rule, winner) in [(FirstWins, 1), (SecondWins, 2), (SecondWinsExceptLast, 2)] {
        let rules = Rules { dulle: rule, ..Rules::default() };
        let mut g = new_game(rules, wedding_hands());
        bid_all(&mut g, [H; 4]);
        trick(&mut g, ["D9", "H10", "H10", "DA"]);
        assert_eq!(g.tricks()[0].winner, seat(winner), "{rule:?}");
    }
}

#[test]
fn dulle_rule_in_every_trick_with_both_tens_including_the_last() {
    use doko_engine::Dulle::*;
    // Oracle over random games: in a trick holding both hearts tens and
    // nothing above them, the first ten wins under first-wins, the second
    // under second-wins, and under second-wins-except-last the second
    // except in the last trick.
    for rule in [FirstWins, SecondWins, SecondWinsExceptLast] {
        let rules = Rules { dulle: rule, ..Rules::default() };
        let mut rng = doko_engine::Rng::new(7);
        let (mut seen_last, mut seen_other) = (0, 0);
        for _ in 0..20_000 {
            let g = doko_engine::random_game(&rules, &mut rng);
            if !g.order().has_dulle() {
                continue;
            }
            for (ti, t) in g.tricks().iter().enumerate() {
                let tens: Vec<usize> = (0..4).filter(|i| t.cards[*i] == Card::H10).collect();
                if tens.len() != 2 {
                    continue;
                }
                let last = ti + 1 == g.tricks().len();
                let second = match rule {
                    FirstWins => false,
                    SecondWins => true,
                    SecondWinsExceptLast => !last,
                };
                let expect = t.player(if second { tens[1] } else { tens[0] });
                assert_eq!(t.winner, expect, "{rule:?}, trick {}", ti + 1);
                if last { seen_last += 1 } else { seen_other += 1 }
            }
            if seen_last >= 3 && seen_other >= 3 {
                break;
            }
        }
        assert!(seen_last >= 3 && seen_other >= 3, "{rule:?}: cases seen {seen_last} last, {seen_other} other");
    }
}

#[test]
fn piglets_and_superpiglets() {
    // seat 3 holds both foxes: with piglets they beat the hearts ten
    let mut rules = Rules::preset(Preset::Casual);
    let mut g = new_game(rules, wedding_hands());
    bid_all(&mut g, [H; 4]);
    // (seat 0 holds both queens of clubs: a silent solo, still diamonds trump)
    trick(&mut g, ["D9", "H10", "H10", "DA"]);
    assert_eq!(g.tricks()[0].winner, seat(3));
    assert!(g.public_view().order.power(Card::DA) > g.public_view().order.power(Card::H10));
    // without piglets the first dulle wins
    rules.piglets = false;
    let mut g = new_game(rules, wedding_hands());
    bid_all(&mut g, [H; 4]);
    trick(&mut g, ["D9", "H10", "H10", "DA"]);
    assert_eq!(g.tricks()[0].winner, seat(1));
    // superpiglets: seat 0's two diamond nines outrank the piglets
    let mut rules = Rules::preset(Preset::Casual);
    rules.superpiglets = true;
    let mut g = new_game(rules, wedding_hands());
    bid_all(&mut g, [H; 4]);
    // before any diamond ace is played nobody but the holder knows of piglets
    assert!(g.public_view().order.power(Card::DA) < g.public_view().order.power(Card::H10));
    assert!(g.view(seat(3)).order.power(Card::DA) > g.view(seat(3)).order.power(Card::H10));
    trick(&mut g, ["DK", "H10", "H10", "DA"]);
    assert_eq!(g.tricks()[0].winner, seat(3));
    trick(&mut g, ["DA", "D9", "SQ", "HQ"].map(|c| c)); // seat 3 leads DA, seat 0 plays D9
    assert_eq!(g.tricks()[1].winner, seat(0));
}

#[test]
fn mandatory_announcement_after_30_points_in_the_first_trick() {
    let rules = Rules { mandatory_announcement: Some(30), ..Rules::default() };
    let mut g = new_game(rules, wedding_hands());
    bid_all(&mut g, [WEDDING, H, H, H]);
    // first-foreign: trick 1 goes to seat 1 (CA) and clarifies; the rule
    // counts the first trick after clarification: trick 2
    trick(&mut g, ["C9", "CA", "C10", "CK"]);
    assert_eq!(g.mandatory_announcement(), None);
    // seat 1 leads trick 2; seat 2's first spade ace takes 36 points
    trick(&mut g, ["S10", "SA", "SK", "SA"]);
    assert_eq!(g.tricks()[1].points(), 36);
    let w = g.tricks()[1].winner;
    assert_eq!(w, seat(2));
    assert_eq!(g.mandatory_announcement(), Some(w));
    let c = g.legal_cards(w);
    assert!(c.is_empty(), "no card before the announcement");
    assert!(matches!(g.play(w, g.hand(w).iter().next().unwrap()), Err(ActionError::MustAnnounce { .. })));
    g.announce(w, Call::Kontra).unwrap();
    assert_eq!(g.mandatory_announcement(), None);
    assert!(!g.legal_cards(w).is_empty());
}

// ---------------------------------------------------------------- poverty and throw-in

fn poverty_game(max: u8) -> (Game, Seat) {
    let mut rules = Rules::preset(Preset::Casual);
    rules.poverty_max_trumps = max;
    for seed in 0.. {
        let g = Game::deal(rules, seat(3), seed);
        if let Some(p) = Seat::ALL.into_iter().find(|s| g.hand(*s).with_mask(normal_game_trumps()).len() <= 3)
            && p != seat(0)
        {
            return (g, p);
        }
    }
    unreachable!()
}

#[test]
fn poverty_exchange_accept_and_return() {
    let (mut g, p) = poverty_game(3);
    for s in g.forehand().clockwise() {
        let b = if s == p { Bid::Reserve(Reservation::Poverty) } else { H };
        g.act(s, Action::Bid(b)).unwrap();
    }
    assert_eq!(g.phase(), Phase::PovertyGive);
    let hand = g.hand(p);
    let trumps = hand.with_mask(normal_game_trumps());
    // keeping a trump is refused
    let fail: Vec<Card> = hand.without_mask(normal_game_trumps()).iter().collect();
    if !trumps.is_empty() {
        let bad: Cards = fail.iter().take(3).copied().collect();
        assert!(matches!(g.act(p, Action::Give(bad)), Err(ActionError::MustGiveTrumps { .. })));
    }
    if trumps.len() != 3 {
        assert!(matches!(g.act(p, Action::Give(trumps)), Err(ActionError::ExchangeCount { .. })));
    }
    let mut give = trumps;
    for c in &fail {
        if give.len() == 3 {
            break;
        }
        give.insert(*c);
    }
    g.act(p, Action::Give(give)).unwrap();
    assert_eq!(g.hand(p).len(), 9);
    // the next seat declines, the one after accepts
    let (a1, a2) = (p.next(), p.plus(2));
    assert!(matches!(g.act(a2, Action::Answer(true)), Err(ActionError::NotYourTurn { .. })));
    g.act(a1, Action::Answer(false)).unwrap();
    g.act(a2, Action::Answer(true)).unwrap();
    assert_eq!(g.hand(a2).len(), 15);
    // the acceptor's view shows the cards; the table sees only counts
    assert_eq!(g.view(a2).poverty_cards, Some((give, Cards::EMPTY)));
    assert_eq!(g.view(a1).poverty_cards, None);
    assert_eq!(g.public_view().poverty.unwrap().given, 3);
    let back: Cards = g.hand(a2).iter().take(3).collect();
    g.act(a2, Action::Return(back)).unwrap();
    assert_eq!(g.phase(), Phase::Playing);
    assert_eq!(g.contract(), Contract::Poverty);
    let mut re = vec![p, a2];
    re.sort();
    assert_eq!(g.members(Party::Re), re);
    assert_eq!(g.hand(p).len(), 12);
    finish(&mut g);
    assert_eq!(g.score().unwrap().scores.iter().sum::<i32>(), 0);
}

#[test]
fn poverty_nobody_accepts_redeal() {
    let (mut g, p) = poverty_game(3);
    for s in g.forehand().clockwise() {
        let b = if s == p { Bid::Reserve(Reservation::Poverty) } else { H };
        g.act(s, Action::Bid(b)).unwrap();
    }
    let give = match g.legal_actions(p)[0] {
        Action::Give(c) => c,
        other => panic!("{other:?}"),
    };
    g.act(p, Action::Give(give)).unwrap();
    for i in 1..4 {
        g.act(p.plus(i), Action::Answer(false)).unwrap();
    }
    assert_eq!(g.phase(), Phase::Redeal(RedealReason::PovertyDeclined));
    assert!(g.score().is_none());
    // and under DDV rules poverty is off
    let (g2, p2) = poverty_game(3);
    let mut g2 = Game::new(Rules::default(), g2.dealer(), *g2.dealt()).unwrap();
    for s in g2.forehand().clockwise() {
        if s == p2 {
            assert!(matches!(
                g2.act(s, Action::Bid(Bid::Reserve(Reservation::Poverty))),
                Err(ActionError::RuleOff { .. })
            ));
        }
        g2.act(s, Action::Bid(H)).unwrap();
    }
}

#[test]
fn throw_in_with_five_nines() {
    let rules = Rules { throw_in_nines: Some(5), ..Rules::default() };
    let nines = Cards::rank(doko_engine::Rank::Nine);
    for seed in 0.. {
        let mut g = Game::deal(rules, seat(3), seed);
        let Some(s) = Seat::ALL.into_iter().find(|s| g.hand(*s).with_mask(nines).len() >= 5) else { continue };
        // seats before it say healthy; it throws in; the deal is void
        for t in g.forehand().clockwise() {
            if t == s {
                break;
            }
            g.act(t, Action::Bid(H)).unwrap();
        }
        g.act(s, Action::Bid(Bid::Reserve(Reservation::ThrowIn))).unwrap();
        assert_eq!(g.phase(), Phase::Redeal(RedealReason::ThrowIn));
        // with the rule off it is refused
        let mut g2 = Game::new(Rules::default(), g.dealer(), *g.dealt()).unwrap();
        for t in g2.forehand().clockwise() {
            if t == s {
                break;
            }
            g2.act(t, Action::Bid(H)).unwrap();
        }
        assert!(matches!(g2.act(s, Action::Bid(Bid::Reserve(Reservation::ThrowIn))), Err(ActionError::RuleOff { .. })));
        return;
    }
}

#[test]
fn extra_points_in_a_real_game_fox_and_charlie() {
    // normal game: seat 3 (Kontra) holds both foxes; Re = seats 0? No: build a
    // normal deal from the wedding hands by swapping one queen of clubs
    let mut h = wedding_hands();
    h[0].remove(Card::CQ);
    h[0].insert(card("SQ"));
    h[1].remove(card("SQ"));
    h[1].insert(Card::CQ);
    let mut g = new_game(Rules::default(), h);
    bid_all(&mut g, [H; 4]);
    assert_eq!(g.members(Party::Re), vec![seat(0), seat(1)]);
    // trick 1: seat 0 leads D9, seat 1 H10 wins, seat 3 (Kontra) drops a fox
    trick(&mut g, ["D9", "H10", "SQ", "DA"]);
    assert_eq!(g.tricks()[0].winner, seat(1));
    finish(&mut g);
    let s = g.score().unwrap();
    let foxes = s.breakdown.items().iter().filter(|i| i.reason.name() == "fox" && i.party == Party::Re).count();
    assert!(foxes >= 1, "the fox caught in trick 1 counts for Re: {:?}", s.breakdown.items());
}
