//! Keys that change the score: `solo_double`, the extra points beyond the
//! DDV's (`fox-last-trick` as the spec says it among them) and `bock_triggers`.

use doko_engine::{Contract, Party, Reason, Record, Rng, Rules, Seat, random_game};

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
