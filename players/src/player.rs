//! Computer players. A player sees only its seat's view (the engine's
//! [`SeatView`]: its own hand and what the table knows) and answers with
//! one of the actions the view lists as legal.

use doko_engine::{
    Action, Bid, Call, Card, Cards, Class, CurrentTrick, Level, Order, Phase, Rank, Reservation, Rng, Seat, SeatView,
    SoloKind, Suit, Trick, normal_game_trumps,
};

/// A computer player: a decision from a view.
pub trait Player {
    /// Chooses one of `view.legal`.
    fn decide(&mut self, view: &SeatView) -> Action;

    /// Whether the player wants to see every step ([`Player::observe`]),
    /// not only its own decisions (a program behind the seat protocol).
    fn observes(&self) -> bool {
        false
    }

    /// The seat's view after a step of the deal (when [`Player::observes`]).
    fn observe(&mut self, _view: &SeatView) {}

    /// The deal is over: the seat's last view and the score, if scored.
    fn end(&mut self, _view: &SeatView, _score: Option<&doko_engine::Score>) {}

    /// Decisions since the last call the player could not make itself (a
    /// program that failed or answered nonsense): counted as illegal.
    fn faults(&mut self) -> usize {
        0
    }
}

/// Uniformly random legal actions (healthy bids, rare announcements).
pub struct RandomPlayer(pub Rng);

impl Player for RandomPlayer {
    fn decide(&mut self, view: &SeatView) -> Action {
        let legal = &view.legal;
        if view.public.phase == Phase::Bidding {
            return Action::Bid(Bid::Healthy);
        }
        let cards: Vec<Action> = legal.iter().copied().filter(|a| !matches!(a, Action::Announce(_))).collect();
        if !cards.is_empty() && self.0.below(16) != 0 {
            return cards[self.0.below(cards.len())];
        }
        legal[self.0.below(legal.len())]
    }
}

/// Rule-based play from the common conventions.
#[derive(Default)]
pub struct BasicPlayer;

fn count(cards: Cards, pred: impl Fn(Card) -> bool) -> usize {
    cards.iter().filter(|c| pred(*c)).count()
}

impl BasicPlayer {
    fn bid(&self, v: &SeatView) -> Action {
        let hand = v.hand;
        let legal_bids: Vec<Bid> =
            v.legal.iter().filter_map(|a| if let Action::Bid(b) = a { Some(*b) } else { None }).collect();
        let allowed = |b: Bid| legal_bids.contains(&b);
        let wedding = Bid::Reserve(Reservation::Wedding(None));
        if allowed(wedding) {
            return Action::Bid(wedding);
        }
        let aces = count(hand, |c| c.rank() == Rank::Ace);
        // picture solos: five of the rank and three aces
        for (kind, rank) in [(SoloKind::Jacks, Rank::Jack), (SoloKind::Queens, Rank::Queen)] {
            let b = Bid::Reserve(Reservation::Solo { kind, duty: false });
            if allowed(b) && count(hand, |c| c.rank() == rank) >= 5 && aces >= 3 {
                return Action::Bid(b);
            }
        }
        // suit solos: ten trumps with three of the top five
        for kind in [SoloKind::Clubs, SoloKind::Spades, SoloKind::Hearts, SoloKind::Diamonds] {
            let b = Bid::Reserve(Reservation::Solo { kind, duty: false });
            let order = Order::new(kind.trumps());
            let trumps = count(hand, |c| order.is_trump(c));
            let top = count(hand, |c| c == Card::H10 || c == Card::CQ || c == Card::new(Suit::Spades, Rank::Queen));
            if allowed(b) && trumps >= 10 && top >= 3 {
                return Action::Bid(b);
            }
        }
        let poverty = Bid::Reserve(Reservation::Poverty);
        if allowed(poverty) && hand.with_mask(normal_game_trumps()).len() <= 2 {
            return Action::Bid(poverty);
        }
        Action::Bid(Bid::Healthy)
    }

    /// Schwarze Sau: the allowed solo in which the hand left holds the
    /// most trumps (of equal counts, the higher ones).
    fn sow_solo(&self, v: &SeatView) -> Action {
        let strength = |b: &Bid| match b {
            Bid::Reserve(Reservation::Solo { kind, .. }) => {
                let order = Order::new(kind.trumps());
                let trumps: Vec<Card> = v.hand.iter().filter(|c| order.is_trump(*c)).collect();
                (trumps.len(), trumps.iter().map(|c| u32::from(order.power(*c))).sum::<u32>())
            }
            _ => (0, 0),
        };
        let best =
            v.legal.iter().filter_map(|a| if let Action::Bid(b) = a { Some(*b) } else { None }).max_by_key(strength);
        best.map_or(v.legal[0], Action::Bid)
    }

    fn exchange(&self, v: &SeatView) -> Action {
        let trumps = normal_game_trumps();
        let best = v.legal.iter().copied().min_by_key(|a| match a {
            // the pauper gives as few points as it can
            Action::Give(c) => (0, c.points()),
            // the acceptor returns fail cards, low ones first
            Action::Return(c) => (c.with_mask(trumps).len(), c.points()),
            _ => (usize::MAX, 0),
        });
        if v.public.phase == Phase::PovertyOffer {
            let strong = v.hand.with_mask(trumps).len() >= 8;
            return Action::Answer(strong);
        }
        best.unwrap_or(v.legal[0])
    }

    fn announce(&self, v: &SeatView) -> Option<Action> {
        let party = v.own_party?;
        if v.public.announcements.iter().any(|a| a.party == party) {
            return None;
        }
        let call = Call::of(Level::Win, party);
        if !v.legal.contains(&Action::Announce(call)) {
            return None;
        }
        let order = &v.order;
        let trumps = count(v.hand, |c| order.is_trump(c));
        let high = count(v.hand, |c| order.is_trump(c) && order.power(c) >= 185);
        let aces = count(v.hand, |c| c.rank() == Rank::Ace && !order.is_trump(c));
        let n = v.hand.len();
        // a clearly strong hand: most of it trumps with high ones, or a solo
        let strong =
            (trumps * 3 >= n * 2 && high >= 3) || (v.public.declarer == Some(v.seat) && trumps + aces >= n - 2);
        strong.then_some(Action::Announce(call))
    }

    fn card(&self, v: &SeatView) -> Action {
        Action::Play(basic_view_card(v))
    }
}

/// Whether the seat of `v` knows `w` to be its partner (its own party is
/// known and `w`'s is revealed the same).
pub(crate) fn known_partner(v: &SeatView, w: Seat) -> bool {
    v.own_party.is_some() && v.public.parties[w.index()] == v.own_party
}

/// The basic player's card from a seat's view (it has a legal card).
pub(crate) fn basic_view_card(v: &SeatView) -> Card {
    basic_card(&Situation {
        hand: v.hand,
        legal: v.legal_cards(),
        order: &v.order,
        trick: &v.public.trick,
        tricks: &v.public.tricks,
        partner: &|w| known_partner(v, w),
    })
}

/// What the basic player's card play looks at: from a seat's view, or
/// from a whole game in a search's playouts.
pub(crate) struct Situation<'a> {
    /// The hand.
    pub hand: Cards,
    /// The cards it may play (not empty).
    pub legal: Cards,
    /// The card order.
    pub order: &'a Order,
    /// The trick being played.
    pub trick: &'a CurrentTrick,
    /// The tricks done.
    pub tricks: &'a [Trick],
    /// Whether a seat is known to be a partner.
    pub partner: &'a dyn Fn(Seat) -> bool,
}

/// The trick's suit led, the seat winning it so far and its card's key
/// (`None` before the first card).
#[inline]
pub(crate) fn winning(order: &Order, trick: &CurrentTrick) -> Option<(Class, Seat, u16)> {
    let played = trick.played();
    let led = order.class(*played.first()?);
    let (mut best_i, mut best_key) = (0, order.trick_key(played[0], led));
    for (i, c) in played.iter().enumerate().skip(1) {
        let k = order.trick_key(*c, led);
        if k > best_key {
            best_i = i;
            best_key = k;
        }
    }
    Some((led, trick.leader.plus(best_i), best_key))
}

/// The basic player's card: lead a black ace of a suit not yet played,
/// give points to a partner who wins, win a trick worth it cheaply, else
/// throw the cheapest card.
pub(crate) fn basic_card(s: &Situation) -> Card {
    // (no allocation: the search's playouts call this for every card)
    let order = s.order;
    let trick = s.trick;
    let played = trick.played();
    let cards = s.legal;
    let cheapest = |cs: &mut dyn Iterator<Item = Card>| -> Option<Card> {
        cs.min_by_key(|c| (c.points(), order.is_trump(*c), order.power(*c)))
    };
    let all_cheapest = || cheapest(&mut cards.iter()).expect("at least one legal card");
    if played.is_empty() {
        // lead: a black ace of a suit not yet played, from a short suit
        let seen = s.tricks.iter().fold(0u32, |m, t| m | 1 << order.class(t.cards[0]) as u32);
        let ace = cards
            .iter()
            .filter(|c| c.rank() == Rank::Ace && !order.is_trump(*c) && seen & (1 << order.class(*c) as u32) == 0)
            .min_by_key(|c| (c.suit() == Suit::Hearts, s.hand.with_mask(order.mask(order.class(*c))).len()));
        if let Some(a) = ace {
            return a;
        }
        // otherwise the cheapest fail card, else the cheapest trump
        return cheapest(&mut cards.iter().filter(|c| !order.is_trump(*c))).unwrap_or_else(all_cheapest);
    }
    let (led, winner, best_key) = winning(order, trick).expect("a card was played");
    let partner_wins = (s.partner)(winner);
    let last = played.len() == 3;
    if partner_wins && (last || best_key >= 256 + 180) {
        // give points to the partner (not a trump that could be needed)
        let fat = cards.iter().filter(|c| !order.is_trump(*c) || c.rank() == Rank::Ace).max_by_key(|c| c.points());
        return fat.unwrap_or_else(all_cheapest);
    }
    let winning = || cards.iter().filter(|c| order.trick_key(*c, led) > best_key);
    let lowest = |cs: &mut dyn Iterator<Item = Card>| cs.min_by_key(|c| (order.trick_key(*c, led), c.points()));
    if let Some(low) = lowest(&mut winning()) {
        let pick = if last {
            low
        } else {
            // trump high enough not to be beaten by a fox or a ten; keep
            // the hearts tens for later where something else does
            lowest(&mut winning().filter(|c| order.trick_key(*c, led) >= 256 + 170 || !order.is_trump(*c)))
                .unwrap_or(low)
        };
        let trick_points: u32 = played.iter().map(|c| c.points() as u32).sum();
        if last || trick_points >= 10 || !order.is_trump(pick) {
            return pick;
        }
    }
    all_cheapest()
}

impl Player for BasicPlayer {
    fn decide(&mut self, v: &SeatView) -> Action {
        match v.public.phase {
            Phase::Bidding => self.bid(v),
            Phase::SowChoice => self.sow_solo(v),
            Phase::PovertyGive | Phase::PovertyOffer | Phase::PovertyReturn => self.exchange(v),
            _ => {
                if v.public.to_act == Some(v.seat) {
                    // what the house rules let one say is said at once
                    if let Some(a) = v.legal.iter().find(|a| matches!(a, Action::Say(_))) {
                        return *a;
                    }
                    if let Some(a) = self.announce(v) {
                        return a;
                    }
                    if !v.legal_cards().is_empty() {
                        return self.card(v);
                    }
                }
                // owed announcement or nothing else to do
                v.legal[0]
            }
        }
    }
}
