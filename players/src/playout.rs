//! The expert's playouts: a world played to its end by the basic
//! player's card play with a little noise, where a seat may also look at
//! the world's open hands for what the basic play cannot know: whether
//! its partner's trick stands.

use doko_engine::{Card, Cards, Class, Game, Phase, Rank, Rng, Seat};

use crate::player::{Situation, basic_card, winning};

/// The expert's playouts: one card in this many random (measured against
/// strong over 1,600 paired deals: one in ten +0.70, five +0.81, three
/// +0.81, none +0.39).
pub(crate) const PLAYOUT_NOISE: u32 = 5;

/// Plays a world to its end: the basic player's cards (one in `noise`
/// random; with `smear`, points for a partner's trick that stands, see
/// [`smear_card`]) when `heuristic`, else random cards.
pub(crate) fn playout(g: &mut Game, heuristic: bool, noise: u32, smear: bool, rng: &mut Rng) {
    if !heuristic {
        g.random_playout(rng);
        return;
    }
    while g.phase() == Phase::Playing && g.mandatory_announcement().is_none() {
        let Some(s) = g.to_act() else { break };
        let legal = g.legal_cards(s);
        let card = if legal.len() == 1 || (noise > 0 && rng.below(noise as usize) == 0) {
            legal.nth(rng.below(legal.len())).expect("a hand in play is never empty")
        } else if let Some(c) = smear.then(|| smear_card(g, s, legal)).flatten() {
            c
        } else {
            let party = g.party(s);
            let partner = |w: Seat| g.party(w) == party;
            basic_card(&Situation {
                hand: g.hand(s),
                legal,
                order: g.order(),
                trick: g.current_trick(),
                tricks: g.tricks(),
                partner: &partner,
            })
        };
        g.play_legal(s, card);
    }
    // owed announcements and a Schwarze Sau solo: the engine's random playout
    g.random_playout(rng);
}

/// The highest key any opponent of `s` still to play in the trick after
/// it can reach (0: none can play a card).
fn opponents_best(g: &Game, s: Seat, led: Class) -> u16 {
    let order = g.order();
    let trick = g.current_trick();
    let party = g.party(s);
    let mut best = 0;
    for i in trick.played().len() + 1..4 {
        let o = trick.leader.plus(i);
        if g.party(o) == party {
            continue;
        }
        let hand = g.hand(o);
        let follow = hand.with_mask(order.mask(led));
        let options = if follow.is_empty() { hand } else { follow };
        best = options.iter().map(|c| order.trick_key(c, led)).fold(best, u16::max);
    }
    best
}

/// The card a seat gives its partner whose card takes the trick whatever
/// the opponents still to play hold (their hands as the world deals them):
/// its fattest card but a queen, a jack or a hearts ten. `None` where the
/// basic play decides: the lead, the last card of a trick (the basic play
/// smears there), a trick the partner does not win for sure.
///
/// The basic play cannot know whether a plain ace stands and trumps it
/// (measured against strong over 1,600 paired deals at 12 ms: +0.137;
/// taking an opponent's trick only with a card that stands, likewise:
/// -0.077, left out).
fn smear_card(g: &Game, s: Seat, legal: Cards) -> Option<Card> {
    let played = g.current_trick().played().len();
    if played == 0 || played == 3 {
        return None;
    }
    let (led, winner, best_key) = winning(g.order(), g.current_trick())?;
    if g.party(winner) != g.party(s) || opponents_best(g, s, led) > best_key {
        return None;
    }
    let order = g.order();
    let kept = |c: Card| order.is_trump(c) && (matches!(c.rank(), Rank::Queen | Rank::Jack) || c == Card::H10);
    legal.iter().filter(|c| !kept(*c)).max_by_key(|c| c.points())
}

#[cfg(test)]
mod tests {
    use doko_engine::{Action, Bid, Rules};

    use super::*;

    /// A deal of the hands given as card codes (seat 0 leads), bid
    /// healthy all round, with the cards given played.
    fn game(hands: [&str; 4], plays: &[&str]) -> Game {
        let parse = |h: &str| {
            let mut cs = Cards::EMPTY;
            for code in h.split_whitespace() {
                assert!(cs.insert(code.parse().expect("a card")));
            }
            cs
        };
        let mut g = Game::new(Rules::default(), Seat::new(3), hands.map(parse)).expect("a deal");
        while g.phase() != Phase::Playing {
            let s = g.to_act().expect("a bid");
            g.act(s, Action::Bid(Bid::Healthy)).expect("healthy");
        }
        for p in plays {
            let s = g.to_act().expect("a card");
            g.act(s, Action::Play(p.parse().expect("a card"))).expect("legal");
        }
        g
    }

    fn card(g: &Game) -> Option<Card> {
        let s = g.to_act().expect("to play");
        smear_card(g, s, g.legal_cards(s))
    }

    #[test]
    fn a_standing_trick_of_the_partner_gets_the_fox() {
        // seat 0 (Re) leads a clubs ace, seat 1 follows; seat 2 (Re, no
        // clubs) sees seat 3 must follow clubs under the ace
        let g = game(
            [
                "CA CA CQ SA SA S10 S10 SK SK S9 S9 H9",
                "C9 C9 C10 HA HA HK HK H9 D9 D9 DK DK",
                "CQ DA D10 D10 DJ DJ HJ HJ SJ SJ HQ HQ",
                "C10 CK CK DA SQ SQ DQ DQ CJ CJ H10 H10",
            ],
            &["CA", "C9"],
        );
        assert_eq!(card(&g), Some("DA".parse().unwrap()));
    }

    #[test]
    fn a_trick_the_opponent_after_can_take_gets_no_points() {
        // seat 0 (Re) leads a spades ace, seat 1 (Kontra) follows; seat 3
        // (Re, no spades) could still trump it: seat 2 (Kontra) keeps its
        // points (the basic play decides)
        let g = game(
            [
                "SA SA CQ CA CA C10 SK SK S10 C9 D9 H9",
                "S9 S9 S10 HA HA HK HK H9 DK DK D10 D10",
                "C9 D9 CJ CJ HQ HQ DA DA DJ DJ HJ HJ",
                "CQ CK CK C10 SQ SQ DQ DQ SJ SJ H10 H10",
            ],
            &["SA", "S9"],
        );
        assert_eq!(card(&g), None);
        // and seat 1 (Kontra) played under an opponent's card: not its
        // partner's trick either
        let g = game(
            [
                "SA SA CQ CA CA C10 SK SK S10 C9 D9 H9",
                "S9 S9 S10 HA HA HK HK H9 DK DK D10 D10",
                "C9 D9 CJ CJ HQ HQ DA DA DJ DJ HJ HJ",
                "CQ CK CK C10 SQ SQ DQ DQ SJ SJ H10 H10",
            ],
            &["SA"],
        );
        assert_eq!(card(&g), None);
    }
}
