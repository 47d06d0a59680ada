//! The deal as a state machine: reservations, poverty exchange, play and
//! announcements. Every input is either a legal step or a typed error that
//! leaves the game unchanged.
//!
//! This file holds the game's types, its state and what reads it; each
//! kind of step is an `impl Game` block of its own file below `game/`.

use crate::announce::{Announcement, Call, Declaration, Level, Said};
use crate::card::{Card, Rank, Suit};
use crate::cards::Cards;
use crate::contract::{Bid, Contract, Order};
use crate::error::{ActionError, Attempt};
use crate::phase::Phase;
use crate::rules::{Rules, WeddingRule};
use crate::seat::{Party, Seat};

mod announcements;
mod bidding;
mod play;
mod poverty;
mod random_play;

/// One step a seat takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Answer in the reservation query.
    Bid(Bid),
    /// Poverty: the pauper puts down these cards.
    Give(Cards),
    /// Poverty: take the cards (`true`) or pass (`false`).
    Answer(bool),
    /// Poverty: the acceptor returns these cards.
    Return(Cards),
    /// Play a card.
    Play(Card),
    /// Announce for one's own party.
    Announce(Call),
    /// Say something the house rules have (half a chicken, piglets).
    Say(Declaration),
    /// Genscher (house rule): play the first king of diamonds and name
    /// this seat as the new partner.
    Genscher(Seat),
}

/// A Genscher as played: who, the partner named, and when (cards played
/// before its king of diamonds).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Genscher {
    /// The holder of both kings of diamonds.
    pub seat: Seat,
    /// The partner named.
    pub partner: Seat,
    /// Cards played before the king.
    pub at_play: u8,
}

/// A completed trick. (Aligned to its eight bytes: a trick ended is
/// written with one store, not field by field.)
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(align(8))]
pub struct Trick {
    /// Who led.
    pub leader: Seat,
    /// The cards in play order, starting with the leader's.
    pub cards: [Card; 4],
    /// Who won it.
    pub winner: Seat,
    /// Card points in it.
    pub points: u8,
}

impl Trick {
    /// Card points in the trick.
    #[inline]
    pub fn points(&self) -> u32 {
        self.points as u32
    }

    /// The seat that played the `i`-th card.
    pub fn player(&self, i: usize) -> Seat {
        self.leader.plus(i)
    }

    /// The card that won the trick.
    pub fn winning_card(&self) -> Card {
        self.cards[(self.winner.index() + 4 - self.leader.index()) & 3]
    }
}

/// The trick being played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CurrentTrick {
    /// Who led.
    pub leader: Seat,
    /// The cards played so far, in order.
    pub cards: [Card; 4],
    /// How many cards have been played.
    pub len: u8,
}

impl CurrentTrick {
    /// The cards played so far.
    pub fn played(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

/// The poverty exchange as far as it went.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Poverty {
    /// The pauper.
    pub pauper: Seat,
    /// Cards put down (empty until given).
    pub given: Cards,
    /// Seats that declined, in order.
    pub declined: u8,
    /// Who accepted.
    pub acceptor: Option<Seat>,
    /// Cards returned (empty until returned).
    pub returned: Cards,
}

const MAX_ANN: usize = 10;

/// One deal of Doppelkopf. Fields are private: a `Game` is only built by
/// [`Game::new`] and changed by [`Game::act`], so it is always legal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    rules: Rules,
    dealer: Seat,
    dealt: [Cards; 4],
    hands: [Cards; 4],
    phase: Phase,
    to_act: Seat,
    bids: [Option<Bid>; 4],
    n_bids: u8,
    contract: Contract,
    declarer: Option<Seat>,
    /// Bit per seat: Re. In a wedding before clarification only the declarer.
    re: u8,
    clarified: bool,
    /// Cards the announcement deadlines move down (wedding clarified late).
    shift: u8,
    order: Order,
    poverty: Option<Poverty>,
    trick: CurrentTrick,
    tricks: [Trick; 12],
    n_tricks: u8,
    anns: [Announcement; MAX_ANN],
    n_anns: u8,
    level: [Option<Level>; 2],
    late: [bool; 2],
    mandatory: Option<Seat>,
    /// The mandatory announcement is owed for piglets (not a first trick).
    piglets_owed: bool,
    said: [Said; 3],
    n_said: u8,
    genscher: Option<Genscher>,
    /// The wedding's clarification trick (the rules', or as chosen).
    wedding_rule: WeddingRule,
    /// Cards played when a Schwarze Sau's solo was chosen.
    sow_at: u8,
    plays: u8,
}

/// An error building a game from hands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// A hand has the wrong number of cards.
    #[error("hand of seat {seat} has {got} cards; {expected} expected")]
    HandSize {
        /// The seat.
        seat: Seat,
        /// Its card count.
        got: usize,
        /// The right count.
        expected: usize,
    },
    /// The hands together are not the pack.
    #[error("the hands are not one pack: {0}")]
    NotAPack(String),
}

const NORMAL_TRUMPS: Cards = normal_trumps();

const fn normal_trumps() -> Cards {
    let mut bits = 0u64;
    let mut i = 0;
    while i < 24 {
        let c = Card::from_index(i);
        let t = matches!(c.rank(), Rank::Queen | Rank::Jack)
            || (c.suit() as u8 == Suit::Diamonds as u8)
            || (c.suit() as u8 == Suit::Hearts as u8 && c.rank() as u8 == Rank::Ten as u8);
        if t {
            bits |= 3 << (2 * i);
        }
        i += 1;
    }
    Cards::from_bits(bits)
}

/// The trumps of a normal game (for poverty), as a mask.
pub const fn normal_game_trumps() -> Cards {
    NORMAL_TRUMPS
}

impl Game {
    /// A new deal with the hands as dealt, indexed by seat. Checks that the
    /// hands are one pack under the rules (48 or 40 cards).
    pub fn new(rules: Rules, dealer: Seat, hands: [Cards; 4]) -> Result<Game, DealError> {
        let per = rules.hand_size();
        let mut all = Cards::EMPTY;
        for s in Seat::ALL {
            let h = hands[s.index()];
            if h.len() != per {
                return Err(DealError::HandSize { seat: s, got: h.len(), expected: per });
            }
            all = all.checked_add(h).ok_or_else(|| {
                let c = Card::all().find(|c| Seat::ALL.iter().map(|s| hands[s.index()].count(*c)).sum::<usize>() > 2);
                DealError::NotAPack(format!("{} occurs more than twice", c.expect("some card is too often")))
            })?;
        }
        if all != Cards::pack(rules.nines) {
            let extra = all.checked_sub(Cards::pack(rules.nines)).unwrap_or(Cards::EMPTY);
            let what = if !extra.is_empty() {
                format!("{extra} not in the pack (nines: {})", rules.nines)
            } else {
                "cards missing".to_string()
            };
            return Err(DealError::NotAPack(what));
        }
        Ok(Game::new_unchecked(rules, dealer, hands))
    }

    /// A new deal dealt from a seed.
    pub fn deal(rules: Rules, dealer: Seat, seed: u64) -> Game {
        Game::new_unchecked(rules, dealer, crate::rng::deal(seed, rules.nines))
    }

    /// A new deal from hands known to be one pack (from [`crate::deal`]).
    pub(crate) fn new_unchecked(rules: Rules, dealer: Seat, hands: [Cards; 4]) -> Game {
        let empty_trick = Trick { leader: Seat::ALL[0], cards: [Card::CQ; 4], winner: Seat::ALL[0], points: 0 };
        let empty_ann =
            Announcement { seat: Seat::ALL[0], party: Party::Re, level: Level::Win, cards_in_hand: 0, after_plays: 0 };
        Game {
            rules,
            dealer,
            dealt: hands,
            hands,
            phase: Phase::Bidding,
            to_act: dealer.next(),
            bids: [None; 4],
            n_bids: 0,
            contract: Contract::Normal,
            declarer: None,
            re: 0,
            clarified: true,
            shift: 0,
            order: Order::new(Contract::Normal.trumps()),
            poverty: None,
            trick: CurrentTrick { leader: dealer.next(), cards: [Card::CQ; 4], len: 0 },
            tricks: [empty_trick; 12],
            n_tricks: 0,
            anns: [empty_ann; MAX_ANN],
            n_anns: 0,
            level: [None; 2],
            late: [false; 2],
            mandatory: None,
            piglets_owed: false,
            said: [Said { seat: Seat::ALL[0], what: Declaration::HalfChicken, after_plays: 0, after_anns: 0 }; 3],
            n_said: 0,
            genscher: None,
            wedding_rule: rules.wedding,
            sow_at: 0,
            plays: 0,
        }
    }

    // ----- reading -----

    /// The rule set frozen into this deal.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The dealer.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }
    /// Forehand: the dealer's left.
    pub fn forehand(&self) -> Seat {
        self.dealer.next()
    }
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The hands as dealt.
    pub fn dealt(&self) -> &[Cards; 4] {
        &self.dealt
    }
    /// The cards a seat holds now. Only for the engine's own callers that
    /// may see everything (records, tests, simulations); rendering and
    /// computer players use [`Game::view`].
    pub fn hand(&self, seat: Seat) -> Cards {
        self.hands[seat.index()]
    }
    /// The seat that must act next (bid, poverty step or card), if any.
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Finished | Phase::Redeal(_) => None,
            _ => Some(self.to_act),
        }
    }
    /// Each seat's bid, indexed by seat.
    pub fn bids(&self) -> &[Option<Bid>; 4] {
        &self.bids
    }
    /// The contract (meaningful once bidding is over; `Poverty` from the
    /// exchange on).
    pub fn contract(&self) -> Contract {
        self.contract
    }
    /// The seat whose reservation decided the contract, or the silent
    /// soloist; at a redeal the seat that threw in or declared the poverty
    /// every other seat declined.
    pub fn declarer(&self) -> Option<Seat> {
        self.declarer
    }
    /// The card order in force.
    pub fn order(&self) -> &Order {
        &self.order
    }
    /// The poverty exchange, when a poverty was declared.
    pub fn poverty(&self) -> Option<&Poverty> {
        self.poverty.as_ref()
    }
    /// The trick being played.
    pub fn current_trick(&self) -> &CurrentTrick {
        &self.trick
    }
    /// The completed tricks.
    pub fn tricks(&self) -> &[Trick] {
        &self.tricks[..self.n_tricks as usize]
    }
    /// The announcements in the order made.
    pub fn announcements(&self) -> &[Announcement] {
        &self.anns[..self.n_anns as usize]
    }
    /// The Genscher played in this deal, if any.
    pub fn genscher(&self) -> Option<Genscher> {
        self.genscher
    }
    /// The declarations said so far (half a chicken, piglets), in order.
    pub fn said(&self) -> &[Said] {
        &self.said[..self.n_said as usize]
    }
    /// The highest level each party has announced (`[re, kontra]`).
    pub fn levels(&self) -> [Option<Level>; 2] {
        self.level
    }
    /// Cards played so far.
    pub fn plays(&self) -> usize {
        self.plays as usize
    }
    /// Cards played before a Schwarze Sau's solo was chosen, once it was.
    pub fn sow_solo_at(&self) -> Option<usize> {
        matches!(self.contract, Contract::BlackSow(Some(_))).then_some(self.sow_at as usize)
    }
    /// Whether a wedding has been clarified, or a Schwarze Sau's soloist
    /// found (always true for other contracts).
    pub fn is_clarified(&self) -> bool {
        self.clarified
    }
    /// The seat that owes a mandatory announcement (Pflichtansage), if
    /// any: it may not play before its party has announced, and its own
    /// Re/Kontra is allowed whatever it holds.
    pub fn mandatory_announcement(&self) -> Option<Seat> {
        self.mandatory
    }
    /// The party of a seat. In a wedding before clarification, the
    /// undecided seats are reported as Kontra; see [`Game::is_clarified`].
    pub fn party(&self, seat: Seat) -> Party {
        if self.re & (1 << seat.index()) != 0 { Party::Re } else { Party::Kontra }
    }
    /// The seats of a party, in seat order.
    pub fn members(&self, party: Party) -> Vec<Seat> {
        Seat::ALL.into_iter().filter(|s| self.party(*s) == party).collect()
    }
    /// Whether the contract is played one against three (solo, silent
    /// solo, wedding without partner): no extra points, soloist scores
    /// three times.
    pub fn is_solo(&self) -> bool {
        self.re.count_ones() == 1 && matches!(self.phase, Phase::Playing | Phase::Finished) && self.clarified
    }
    /// Whether the deal is over (finished or void).
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Finished | Phase::Redeal(_))
    }
    /// Whether a fox is in a finished trick (under `piglets_first_only`
    /// the other one is no piglet then).
    pub fn fox_played(&self) -> bool {
        self.tricks().iter().any(|t| t.cards.contains(&Card::DA))
    }
    // `score` and `seat_score` are written in score.rs: scoring reads the
    // game, and the game needs nothing of scoring.

    // ----- acting (each kind of step in its own file below game/) -----

    /// Takes one action by a seat. On error nothing changes.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<(), ActionError> {
        match action {
            Action::Bid(b) if self.phase == Phase::SowChoice => self.choose_sow(seat, b),
            Action::Bid(b) => self.bid(seat, b),
            Action::Give(c) => self.give(seat, c),
            Action::Answer(a) => self.answer(seat, a),
            Action::Return(c) => self.give_back(seat, c),
            Action::Play(c) => self.play(seat, c),
            Action::Announce(c) => self.announce(seat, c),
            Action::Say(d) => self.say(seat, d),
            Action::Genscher(p) => self.play_genscher(seat, p),
        }
    }

    fn expect_phase(&self, seat: Seat, phase: Phase, what: Attempt) -> Result<(), ActionError> {
        if self.phase == phase {
            return Ok(());
        }
        Err(match self.phase {
            Phase::Finished | Phase::Redeal(_) => ActionError::DealOver,
            now => ActionError::WrongPhase { seat, what, now },
        })
    }

    fn expect_turn(&self, seat: Seat) -> Result<(), ActionError> {
        if seat == self.to_act { Ok(()) } else { Err(ActionError::NotYourTurn { seat, turn: self.to_act }) }
    }

    /// Every action a seat may take now. Poverty exchanges list every
    /// allowed combination of cards.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let mut v: Vec<Action> = Vec::new();
        match self.phase {
            Phase::Bidding | Phase::SowChoice => v.extend(self.legal_bids(seat).into_iter().map(Action::Bid)),
            Phase::PovertyGive if seat == self.to_act => {
                let hand = self.hands[seat.index()];
                let trumps = hand.with_mask(self.poverty_trumps());
                let k = self.poverty_count();
                for extra in combinations(hand.without_mask(self.poverty_trumps()), k - trumps.len()) {
                    v.push(Action::Give(trumps.checked_add(extra).expect("disjoint")));
                }
            }
            Phase::PovertyOffer if seat == self.to_act => {
                v.push(Action::Answer(true));
                v.push(Action::Answer(false));
            }
            Phase::PovertyReturn if seat == self.to_act => {
                let hand = self.hands[seat.index()];
                for c in combinations(hand, self.poverty_count()) {
                    if self.returned_trump_too_many(hand, c).is_none() {
                        v.push(Action::Return(c));
                    }
                }
            }
            Phase::Playing => {
                v.extend(self.legal_cards(seat).iter().map(Action::Play));
                v.extend(self.legal_calls(seat).into_iter().map(Action::Announce));
                v.extend(Declaration::ALL.into_iter().filter(|d| self.check_say(seat, *d).is_ok()).map(Action::Say));
                if self.rules.genscher {
                    v.extend(
                        Seat::ALL.into_iter().filter(|p| self.check_genscher(seat, *p).is_ok()).map(Action::Genscher),
                    );
                }
            }
            _ => {}
        }
        v
    }
}

/// All sub-multisets of `cards` with `k` cards (each distinct multiset once).
pub fn combinations(cards: Cards, k: usize) -> Vec<Cards> {
    let distinct: Vec<(Card, usize)> = cards.distinct().iter().map(|c| (c, cards.count(c))).collect();
    let mut out = Vec::new();
    fn rec(d: &[(Card, usize)], k: usize, acc: Cards, out: &mut Vec<Cards>) {
        if k == 0 {
            out.push(acc);
            return;
        }
        let Some(((c, n), rest)) = d.split_first() else { return };
        for take in (0..=(*n).min(k)).rev() {
            let mut a = acc;
            for _ in 0..take {
                a.insert(*c);
            }
            rec(rest, k - take, a, out);
        }
    }
    rec(&distinct, k, Cards::EMPTY, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_trump_mask() {
        assert_eq!(NORMAL_TRUMPS.len(), 26);
        assert!(NORMAL_TRUMPS.contains(Card::H10));
        assert!(!NORMAL_TRUMPS.contains("HA".parse().unwrap()));
    }

    #[test]
    fn combinations_count() {
        let h: Cards = ["CA", "CA", "S9", "HK"].iter().map(|s| s.parse().unwrap()).collect();
        // {CA CA}, {CA S9}, {CA HK}, {S9 HK}
        assert_eq!(combinations(h, 2).len(), 4);
        assert_eq!(combinations(h, 0).len(), 1);
        assert_eq!(combinations(h, 5).len(), 0);
    }
}
