//! Information views: what the table sees ([`PublicView`]) and what one
//! seat sees ([`SeatView`]). Both are plain values copied out of a
//! [`Game`]; neither holds a reference to it, so nothing beyond them is
//! reachable. A `PublicView` holds no card of any hand; a `SeatView`
//! holds exactly one hand, its own.

use crate::announce::{Announcement, Declaration, Said};
use crate::card::Card;
use crate::cards::Cards;
use crate::contract::{Bid, Contract, Order, Reservation};
use crate::game::{Action, CurrentTrick, Game, Genscher, Trick};
use crate::phase::Phase;
use crate::rules::{PigletsWhen, Rules};
use crate::seat::{Party, Seat};

/// A bid as the table sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SeenBid {
    /// Said healthy.
    Healthy,
    /// Said "Vorbehalt"; which one is known only if it decided the game.
    Reserved,
    /// The reservation that decided the contract.
    Decided(Reservation),
}

/// The poverty exchange as the table sees it (counts, not cards).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SeenPoverty {
    /// The pauper.
    pub pauper: Seat,
    /// Cards put down (0 until given).
    pub given: usize,
    /// Seats that declined.
    pub declined: u8,
    /// Who accepted.
    pub acceptor: Option<Seat>,
    /// Cards returned (0 until returned).
    pub returned: usize,
}

/// Everything the whole table may see: no card of any hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicView {
    /// The rules of the deal.
    pub rules: Rules,
    /// The dealer.
    pub dealer: Seat,
    /// The phase.
    pub phase: Phase,
    /// Who is to act (bid, poverty step, card).
    pub to_act: Option<Seat>,
    /// The bids as seen, indexed by seat.
    pub bids: [Option<SeenBid>; 4],
    /// The contract as publicly known: `None` while bidding; a silent solo
    /// shows as `Normal` until its soloist has played both queens of clubs.
    pub contract: Option<Contract>,
    /// The declarer as publicly known.
    pub declarer: Option<Seat>,
    /// Poverty, when declared.
    pub poverty: Option<SeenPoverty>,
    /// Completed tricks.
    pub tricks: Vec<Trick>,
    /// The trick being played.
    pub trick: CurrentTrick,
    /// Announcements so far.
    pub announcements: Vec<Announcement>,
    /// Declarations said so far (half a chicken, piglets).
    pub said: Vec<Said>,
    /// The Genscher played, if any (the parties are open from then).
    pub genscher: Option<Genscher>,
    /// Each seat's party as far as the table knows it.
    pub parties: [Option<Party>; 4],
    /// Cards in each hand.
    pub hand_sizes: [usize; 4],
    /// A seat that owes a mandatory announcement.
    pub mandatory: Option<Seat>,
    /// Whether a wedding is clarified (true for other contracts).
    pub clarified: bool,
    /// The card order as publicly known (piglets once revealed).
    pub order: Order,
}

/// What one seat may see: the public view, its own hand and party, and
/// what it may do now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// The seat.
    pub seat: Seat,
    /// Its hand.
    pub hand: Cards,
    /// Its own bid.
    pub own_bid: Option<Bid>,
    /// Its own party, when the seat knows it.
    pub own_party: Option<Party>,
    /// Poverty cards this seat has seen (as pauper or acceptor): given,
    /// returned.
    pub poverty_cards: Option<(Cards, Cards)>,
    /// The card order as this seat knows it (its own piglets included).
    pub order: Order,
    /// The table's view.
    pub public: PublicView,
    /// Every action this seat may take now.
    pub legal: Vec<Action>,
}

/// What one seat's hand shows: its cards, what it knows of its party and
/// the order, and what it may do now, without the table's view (a hand
/// message needs no more; [`Game::hand_view`] does not build the rest).
/// The same as the [`SeatView`]'s parts of the same name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandView {
    /// The seat.
    pub seat: Seat,
    /// Its hand.
    pub hand: Cards,
    /// Its own bid.
    pub own_bid: Option<Bid>,
    /// Its own party, when the seat knows it.
    pub own_party: Option<Party>,
    /// Poverty cards this seat has seen (as pauper or acceptor): given,
    /// returned.
    pub poverty_cards: Option<(Cards, Cards)>,
    /// The card order as this seat knows it (its own piglets included).
    pub order: Order,
    /// Every action this seat may take now.
    pub legal: Vec<Action>,
}

impl HandView {
    /// The cards this seat may play now.
    pub fn legal_cards(&self) -> Cards {
        cards_of(&self.legal)
    }
    /// The hand sorted by the contract's card order.
    pub fn sorted_hand(&self) -> Vec<Card> {
        self.order.sorted(self.hand)
    }
}

/// The cards among actions.
fn cards_of(legal: &[Action]) -> Cards {
    legal.iter().filter_map(|a| if let Action::Play(c) = a { Some(*c) } else { None }).collect()
}

impl PublicView {
    /// The plays and announcements so far as actions, in order.
    pub fn history(&self) -> Vec<(Seat, Action)> {
        crate::record::history(
            &crate::record::plays_of(&self.tricks, &self.trick),
            &self.announcements,
            &self.said,
            self.genscher,
        )
    }
}

impl SeatView {
    /// The cards this seat may play now.
    pub fn legal_cards(&self) -> Cards {
        cards_of(&self.legal)
    }
    /// The hand sorted by the contract's card order.
    pub fn sorted_hand(&self) -> Vec<Card> {
        self.order.sorted(self.hand)
    }
    /// Its hand's part (a copy).
    pub fn hand_view(&self) -> HandView {
        HandView {
            seat: self.seat,
            hand: self.hand,
            own_bid: self.own_bid,
            own_party: self.own_party,
            poverty_cards: self.poverty_cards,
            order: self.order,
            legal: self.legal.clone(),
        }
    }
}

/// The cards played so far with who played them, in order (without a
/// list: asked several times for each view, and a view is made for each
/// hand shown).
fn played(g: &Game) -> impl Iterator<Item = (Seat, Card)> + '_ {
    crate::record::plays_in(g.tricks(), g.current_trick())
}

fn piglet_cards(rules: &Rules) -> (Card, Card) {
    (Card::DA, Order::superpiglet(rules))
}

/// The order with piglets only as far as `knows` (which cards' special
/// rank is known) allows.
fn order_known(g: &Game, knows_piglets: bool, knows_super: bool) -> Order {
    let mut known_hands = [Cards::EMPTY; 4];
    let (pig, sup) = piglet_cards(g.rules());
    if knows_piglets {
        known_hands[0].insert(pig);
        known_hands[0].insert(pig);
        if knows_super {
            known_hands[1].insert(sup);
            known_hands[1].insert(sup);
        }
    }
    // what is known counts as if from the deal (said piglets included)
    let rules = Rules { piglets_when: PigletsWhen::Deal, ..*g.rules() };
    let mut o = Order::for_deal(g.contract(), &rules, &known_hands);
    if g.rules().piglets_first_only && g.fox_played() {
        o.demote_piglets(g.contract());
    }
    o
}

impl Game {
    /// The view of the whole table.
    pub fn public_view(&self) -> PublicView {
        let bidding = self.phase() == Phase::Bidding;
        let silent = self.contract() == Contract::SilentSolo;
        // parties from public facts only
        let cq_by = self.queens_of_clubs_played();
        let silent_revealed = silent && cq_by.contains(&2);
        let contract = if bidding {
            None
        } else if silent && !silent_revealed {
            Some(Contract::Normal)
        } else {
            Some(self.contract())
        };
        let declarer = if bidding || (silent && !silent_revealed) { None } else { self.declarer() };
        let poverty = self.poverty().map(|p| SeenPoverty {
            pauper: p.pauper,
            given: p.given.len(),
            declined: p.declined,
            acceptor: p.acceptor,
            returned: p.returned.len(),
        });
        PublicView {
            rules: *self.rules(),
            dealer: self.dealer(),
            phase: self.phase(),
            to_act: self.to_act(),
            bids: self.seen_bids(),
            contract,
            declarer,
            poverty,
            tricks: self.tricks().to_vec(),
            trick: *self.current_trick(),
            announcements: self.announcements().to_vec(),
            said: self.said().to_vec(),
            genscher: self.genscher(),
            parties: self.public_parties(contract, &cq_by),
            hand_sizes: Seat::ALL.map(|s| self.hand(s).len()),
            mandatory: self.mandatory_announcement(),
            clarified: self.is_clarified(),
            order: self.public_order(),
        }
    }

    /// The bids as the table sees them: a reservation is named only where
    /// it decided the contract (and never a silent solo's).
    fn seen_bids(&self) -> [Option<SeenBid>; 4] {
        let mut bids = [None; 4];
        let decided = if self.phase() == Phase::Bidding {
            None
        } else if matches!(self.contract(), Contract::BlackSow(_)) {
            // the reservation that decided was the pauper's, whoever
            // took the second queen of spades
            self.poverty().map(|p| p.pauper)
        } else {
            self.declarer()
        };
        let silent = self.contract() == Contract::SilentSolo;
        for s in Seat::ALL {
            bids[s.index()] = self.bids()[s.index()].map(|b| match b {
                Bid::Healthy => SeenBid::Healthy,
                Bid::Reserve(r) if decided == Some(s) && !silent => SeenBid::Decided(r),
                Bid::Reserve(_) => SeenBid::Reserved,
            });
        }
        bids
    }

    /// How many queens of clubs each seat has played.
    fn queens_of_clubs_played(&self) -> [u8; 4] {
        let mut cq_by: [u8; 4] = [0; 4];
        for (s, c) in played(self) {
            if c == Card::CQ {
                cq_by[s.index()] += 1;
            }
        }
        cq_by
    }

    /// Each seat's party as far as the table knows it: from the contract
    /// as publicly known, the queens of clubs played (`cq_by`), the
    /// announcements and a Genscher.
    fn public_parties(&self, contract: Option<Contract>, cq_by: &[u8; 4]) -> [Option<Party>; 4] {
        let mut parties = [None; 4];
        let in_play = matches!(self.phase(), Phase::Playing | Phase::SowChoice | Phase::Finished);
        match contract {
            Some(Contract::Solo(_)) | Some(Contract::SilentSolo) if in_play => {
                for s in Seat::ALL {
                    parties[s.index()] = Some(self.party(s));
                }
            }
            // Schwarze Sau: everyone alone until the soloist is found
            Some(Contract::BlackSow(_)) if in_play => {
                if self.is_clarified() {
                    for s in Seat::ALL {
                        parties[s.index()] = Some(self.party(s));
                    }
                }
            }
            Some(Contract::Wedding) | Some(Contract::Poverty) if in_play => {
                if self.is_clarified() {
                    for s in Seat::ALL {
                        parties[s.index()] = Some(self.party(s));
                    }
                } else if let Some(d) = self.declarer() {
                    parties[d.index()] = Some(Party::Re);
                }
            }
            _ => {
                for s in Seat::ALL {
                    if cq_by[s.index()] > 0 {
                        parties[s.index()] = Some(Party::Re);
                    }
                }
            }
        }
        for a in self.announcements() {
            parties[a.seat.index()] = Some(a.party);
        }
        if let Some(gs) = self.genscher()
            && matches!(contract, Some(Contract::Normal))
        {
            parties = self.parties_after_genscher(gs, cq_by);
        }
        parties
    }

    /// After a Genscher the pair is open; its party name is known from the
    /// holder's queen of clubs or announcements, or from an announcement
    /// made after it.
    fn parties_after_genscher(&self, gs: Genscher, cq_by: &[u8; 4]) -> [Option<Party>; 4] {
        let pair = |s: Seat| s == gs.seat || s == gs.partner;
        let after = |a: &Announcement| a.after_plays > gs.at_play;
        let known = if cq_by[gs.seat.index()] > 0 {
            Some(Party::Re)
        } else {
            self.announcements().iter().find_map(|a| {
                if a.seat == gs.seat || (a.seat == gs.partner && after(a)) {
                    Some(a.party)
                } else if !pair(a.seat) && after(a) {
                    Some(a.party.other())
                } else {
                    None
                }
            })
        };
        Seat::ALL.map(|s| known.map(|p| if pair(s) { p } else { p.other() }))
    }

    /// The card order as the table knows it: piglets once said or played.
    fn public_order(&self) -> Order {
        if !matches!(self.phase(), Phase::Playing | Phase::SowChoice | Phase::Finished) {
            return Order::new(Contract::Normal.trumps());
        }
        let (pig, sup) = piglet_cards(self.rules());
        let says = |d: Declaration| self.said().iter().any(|s| s.what == d);
        let seen_pig =
            self.order().power(pig) > 200 && (says(Declaration::Piglets) || played(self).any(|(_, c)| c == pig));
        let seen_sup = seen_pig
            && self.order().power(sup) > 210
            && (says(Declaration::Superpiglets) || played(self).any(|(_, c)| c == sup));
        order_known(self, seen_pig, seen_sup)
    }

    /// The view of one seat.
    pub fn view(&self, seat: Seat) -> SeatView {
        let public = self.public_view();
        let h = self.hand_view_with(seat, public.order);
        SeatView {
            seat,
            hand: h.hand,
            own_bid: h.own_bid,
            own_party: h.own_party,
            poverty_cards: h.poverty_cards,
            order: h.order,
            legal: h.legal,
            public,
        }
    }

    /// What one seat's hand shows ([`HandView`]): the seat's view without
    /// the table's, which is not built.
    pub fn hand_view(&self, seat: Seat) -> HandView {
        self.hand_view_with(seat, self.public_order())
    }

    /// [`hand_view`](Self::hand_view) with the order as the table knows it.
    fn hand_view_with(&self, seat: Seat, public_order: Order) -> HandView {
        let hand = self.hand(seat);
        let in_play = matches!(self.phase(), Phase::Playing | Phase::SowChoice | Phase::Finished);
        let own_party = if self.phase() == Phase::Bidding || !self.is_clarified() && self.declarer() != Some(seat) {
            // before the contract is known (or in an unclarified wedding)
            // a seat knows only what its queens of clubs tell in a normal game
            None
        } else if matches!(self.phase(), Phase::PovertyGive | Phase::PovertyOffer | Phase::PovertyReturn) {
            None
        } else {
            Some(self.party(seat))
        };
        let poverty_cards = self
            .poverty()
            .and_then(|p| (p.pauper == seat || p.acceptor == Some(seat)).then_some((p.given, p.returned)));
        let (pig, sup) = piglet_cards(self.rules());
        let own_pig = hand.count(pig) == 2
            || played(self).filter(|(s, c)| *s == seat && *c == pig).count() + hand.count(pig) == 2;
        let knows_pig = in_play && self.order().power(pig) > 200 && (own_pig || public_order.power(pig) > 200);
        let own_sup = played(self).filter(|(s, c)| *s == seat && *c == sup).count() + hand.count(sup) == 2;
        let knows_sup = knows_pig && self.order().power(sup) > 210 && (own_sup || public_order.power(sup) > 210);
        let order = if in_play { order_known(self, knows_pig, knows_sup) } else { public_order };
        HandView {
            seat,
            hand,
            own_bid: self.bids()[seat.index()],
            own_party,
            poverty_cards,
            order,
            legal: self.legal_actions(seat),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Game;
    use crate::rng::Rng;
    use crate::rules::{Preset, Rules};
    use crate::seat::Seat;

    /// A hand's view is the seat view's hand part, for every seat at every
    /// step of random deals under every preset (piglets said and played,
    /// poverties, weddings, solos): the order a seat knows, its party and
    /// its actions, without the table's view built.
    #[test]
    fn a_hand_view_is_the_seat_views_hand() {
        let (mut compared, mut own_order) = (0, 0);
        for preset in Preset::ALL {
            for nines in [true, false] {
                let rules = Rules { nines, ..Rules::preset(preset) };
                let mut rng = Rng::new(preset as u64 * 2 + u64::from(nines));
                for deal in 0..60 {
                    let mut g = Game::deal(rules, Seat::new(deal % 4), rng.next_u64());
                    loop {
                        for s in Seat::ALL {
                            let full = g.view(s);
                            assert_eq!(g.hand_view(s), full.hand_view(), "{preset:?} deal {deal}");
                            own_order += usize::from(full.order != full.public.order);
                            compared += 1;
                        }
                        let Some(s) = g.mandatory_announcement().or(g.to_act()) else { break };
                        let legal = g.legal_actions(s);
                        // mostly a card or the first choice, so that deals
                        // end; now and then any choice (reservations, calls)
                        let a = if rng.below(4) == 0 { legal[rng.below(legal.len())] } else { legal[0] };
                        g.act(s, a).expect("listed as legal");
                    }
                }
            }
        }
        assert!(compared > 50_000, "{compared} views compared");
        assert!(own_order > 100, "{own_order} views where a seat knows more of the order than the table");
    }
}
