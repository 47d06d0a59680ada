//! (c) Arbitrary actions on a game, and every read of a game.

use doko_engine::{Action, Bid, Call, Card, Cards, Game, Reservation, Rng, Seat, SoloKind};

pub fn arbitrary_action(g: &Game, rng: &mut Rng) -> (Seat, Action) {
    let seat = Seat::ALL[rng.below(4)];
    let cards = |rng: &mut Rng| -> Cards {
        match rng.below(4) {
            0 => Cards::from_bits(rng.next_u64()),
            1 => Cards::from_bits(rng.next_u64() & rng.next_u64() & rng.next_u64()),
            _ => {
                // a few cards of the seat's hand, sometimes with a stranger
                let mut pool: Vec<Card> = g.hand(seat).iter().collect();
                let mut out = Cards::EMPTY;
                let k = g.poverty_count() + rng.below(3) - 1;
                for _ in 0..k.min(pool.len()) {
                    out.insert(pool.swap_remove(rng.below(pool.len())));
                }
                if rng.below(4) == 0 {
                    out.insert(Card::from_index(rng.below(24)));
                }
                out
            }
        }
    };
    let a = match rng.below(6) {
        0 => Action::Bid(match rng.below(5) {
            0 => Bid::Healthy,
            1 => Bid::Reserve(Reservation::Wedding(None)),
            2 => Bid::Reserve(Reservation::Poverty),
            3 => Bid::Reserve(Reservation::ThrowIn),
            _ => Bid::Reserve(Reservation::Solo { kind: SoloKind::ALL[rng.below(8)], duty: rng.below(2) == 0 }),
        }),
        1 => Action::Give(cards(rng)),
        2 => Action::Answer(rng.below(2) == 0),
        3 => Action::Return(cards(rng)),
        4 => Action::Play(Card::from_index(rng.below(24))),
        _ => Action::Announce(Call::ALL[rng.below(6)]),
    };
    (seat, a)
}

pub fn touch_everything(g: &Game) {
    let _ = g.score();
    let _ = g.public_view();
    for s in Seat::ALL {
        let _ = g.view(s);
        let _ = g.legal_actions(s);
        let _ = g.legal_cards(s);
    }
}
