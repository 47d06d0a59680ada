//! The deal as a state machine: reservations, poverty exchange, play and
//! announcements. Every input is either a legal step or a typed error that
//! leaves the game unchanged.

use crate::announce::{Announcement, Call, Declaration, Level, Said};
use crate::card::{Card, Rank, Suit};
use crate::cards::Cards;
use crate::contract::{Bid, Contract, Order, Reservation};
use crate::error::ActionError;
use crate::rules::{Dulle, PigletsWhen, ReDeadline, Rules, SoloPriority, WeddingRule};
use crate::seat::{Party, Seat};

/// Where a deal stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The reservation query: each seat in turn says healthy or names a
    /// reservation.
    Bidding,
    /// Poverty: the pauper puts down cards.
    PovertyGive,
    /// Poverty: the seats in turn accept or decline the cards.
    PovertyOffer,
    /// Poverty: the acceptor returns cards.
    PovertyReturn,
    /// Tricks are being played.
    Playing,
    /// Schwarze Sau (house rule): the taker of the second queen of spades
    /// chooses the solo played from the next trick on.
    SowChoice,
    /// All tricks played; the deal can be scored.
    Finished,
    /// The deal is void and the same dealer deals again.
    Redeal(RedealReason),
}

/// Why a deal is dealt again.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RedealReason {
    /// A hand was thrown in (too many nines or kings).
    ThrowIn,
    /// Nobody accepted the poverty.
    PovertyDeclined,
}

impl RedealReason {
    /// `throw-in` or `poverty-declined`.
    pub const fn name(self) -> &'static str {
        match self {
            RedealReason::ThrowIn => "throw-in",
            RedealReason::PovertyDeclined => "poverty-declined",
        }
    }
}

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
    /// soloist.
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
    // (`score` and `seat_score` are in score.rs: scoring reads the game,
    // the game needs nothing of scoring)

    // ----- acting -----

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

    /// Whether a seat may play a Genscher naming `partner` now.
    pub fn check_genscher(&self, seat: Seat, partner: Seat) -> Result<(), ActionError> {
        self.expect_phase(seat, Phase::Playing, "play a Genscher")?;
        self.expect_turn(seat)?;
        // a silent solo looks like a normal game: the Genscher is allowed
        // there too (and changes nothing)
        let game = matches!(self.contract, Contract::Normal | Contract::SilentSolo)
            || (self.contract == Contract::Wedding && self.clarified);
        if !self.rules.genscher
            || !game
            || self.genscher.is_some()
            || partner == seat
            || self.hands[seat.index()].count(Card::DK) != 2
            || !self.legal_cards(seat).contains(Card::DK)
        {
            return Err(ActionError::CannotGenscher { seat });
        }
        Ok(())
    }

    /// Plays a Genscher: the parties are formed anew (the holder and the
    /// partner in the holder's party, keeping its name; in a silent solo
    /// nothing changes), then the king of diamonds is played.
    fn play_genscher(&mut self, seat: Seat, partner: Seat) -> Result<(), ActionError> {
        self.check_genscher(seat, partner)?;
        let pair = (1u8 << seat.index()) | (1u8 << partner.index());
        if self.contract != Contract::SilentSolo {
            self.re = if self.party(seat) == Party::Re { pair } else { 0b1111 & !pair };
        }
        self.genscher = Some(Genscher { seat, partner, at_play: self.plays });
        self.play(seat, Card::DK)
    }

    fn expect_phase(&self, seat: Seat, phase: Phase, what: &'static str) -> Result<(), ActionError> {
        if self.phase == phase {
            return Ok(());
        }
        Err(match self.phase {
            Phase::Finished | Phase::Redeal(_) => ActionError::DealOver,
            now => ActionError::WrongPhase { seat, what, now: phase_name(now) },
        })
    }

    fn expect_turn(&self, seat: Seat) -> Result<(), ActionError> {
        if seat == self.to_act { Ok(()) } else { Err(ActionError::NotYourTurn { seat, turn: self.to_act }) }
    }

    /// Whether a bid is allowed for a seat's hand under the rules (not
    /// whose turn it is).
    #[inline]
    pub fn check_bid(&self, seat: Seat, bid: Bid) -> Result<(), ActionError> {
        let hand = self.hands[seat.index()];
        let Bid::Reserve(r) = bid else { return Ok(()) };
        match r {
            Reservation::Wedding(choice) => {
                if choice.is_some() && !self.rules.wedding_choose {
                    return Err(ActionError::RuleOff { seat, what: "choosing the wedding trick" });
                }
                if hand.count(Card::CQ) != 2 {
                    return Err(ActionError::WeddingNeedsQueens { seat });
                }
            }
            Reservation::Poverty => {
                if !self.rules.poverty {
                    return Err(ActionError::RuleOff { seat, what: "poverty" });
                }
                let mut t = hand.with_mask(self.poverty_trumps()).len();
                if !self.rules.poverty_fox_counts {
                    t -= hand.count(Card::DA);
                }
                if t > self.rules.poverty_max_trumps as usize {
                    return Err(ActionError::TooManyTrumps { seat, trumps: t, max: self.rules.poverty_max_trumps });
                }
            }
            Reservation::ThrowIn => {
                let nines = self.rules.throw_in_nines.filter(|_| self.rules.nines);
                let kings = self.rules.throw_in_kings;
                let low_trumps = self.rules.throw_in_low_trumps;
                let low_points = self.rules.throw_in_low_points;
                if nines.is_none() && kings.is_none() && low_trumps.is_none() && low_points.is_none() {
                    return Err(ActionError::RuleOff { seat, what: "throwing in" });
                }
                let n9 = hand.with_mask(Cards::rank(Rank::Nine)).len();
                let nk = hand.with_mask(Cards::rank(Rank::King)).len();
                let trumps = hand.with_mask(self.poverty_trumps()).len();
                let points = hand.points() as usize;
                let ok = nines.is_some_and(|n| n9 >= n as usize)
                    || kings.is_some_and(|n| nk >= n as usize)
                    || low_trumps.is_some_and(|n| trumps <= n as usize)
                    || low_points.is_some_and(|n| points < n as usize);
                if !ok {
                    return Err(ActionError::CannotThrowIn { seat, nines: n9, kings: nk, trumps, points });
                }
            }
            Reservation::Solo { kind, duty } => {
                if !self.rules.solos.contains(kind) {
                    return Err(ActionError::SoloNotAllowed { seat, kind: kind.key() });
                }
                if duty && self.rules.compulsory_solos == 0 {
                    return Err(ActionError::RuleOff { seat, what: "compulsory solos" });
                }
            }
        }
        Ok(())
    }

    fn bid(&mut self, seat: Seat, bid: Bid) -> Result<(), ActionError> {
        self.expect_phase(seat, Phase::Bidding, "bid")?;
        self.expect_turn(seat)?;
        self.check_bid(seat, bid)?;
        self.bid_legal(seat, bid);
        Ok(())
    }

    /// A bid of the seat to act in the reservation query, taken from its
    /// legal bids, without checking it again (random games); debug builds
    /// still check it.
    pub(crate) fn bid_legal(&mut self, seat: Seat, bid: Bid) {
        debug_assert!(
            self.phase == Phase::Bidding && self.to_act == seat && self.check_bid(seat, bid).is_ok(),
            "bid_legal with a bid that is not legal"
        );
        self.bids[seat.index()] = Some(bid);
        self.n_bids += 1;
        if bid == Bid::Reserve(Reservation::ThrowIn) {
            self.phase = Phase::Redeal(RedealReason::ThrowIn);
            return;
        }
        self.to_act = seat.next();
        if self.n_bids == 4 {
            self.resolve_bids();
        }
    }

    fn resolve_bids(&mut self) {
        let mut best: Option<(Seat, Reservation)> = None;
        for s in self.forehand().clockwise() {
            // of solos of the same rank the first wins, or the last where
            // the house rule says so
            let last_wins = self.rules.solo_priority == SoloPriority::Last;
            if let Some(Bid::Reserve(r)) = self.bids[s.index()]
                && best.is_none_or(|(_, b)| {
                    r.precedence() > b.precedence()
                        || (last_wins && r.precedence() == b.precedence() && matches!(r, Reservation::Solo { .. }))
                })
            {
                best = Some((s, r));
            }
        }
        let forehand = self.forehand();
        match best {
            None => {
                // the seats with one queen of clubs and the one with both,
                // each seat's count read without a branch (they are dealt
                // at random)
                let (mut re, mut both) = (0u8, 0u8);
                for s in Seat::ALL {
                    let n = self.hands[s.index()].count(Card::CQ);
                    re |= u8::from(n == 1) << s.index();
                    both |= u8::from(n == 2) << s.index();
                }
                let silent = (both != 0).then(|| Seat::new(both.trailing_zeros() as usize));
                if let Some(s) = silent {
                    self.contract = Contract::SilentSolo;
                    self.declarer = Some(s);
                    self.re = 1 << s.index();
                } else {
                    self.contract = Contract::Normal;
                    self.re = re;
                }
                self.start_play(forehand);
            }
            Some((s, Reservation::Wedding(choice))) => {
                self.wedding_rule = choice.unwrap_or(self.rules.wedding);
                self.contract = Contract::Wedding;
                self.declarer = Some(s);
                self.re = 1 << s.index();
                self.clarified = false;
                self.start_play(forehand);
            }
            Some((s, Reservation::Poverty)) => {
                self.contract = Contract::Poverty;
                self.declarer = Some(s);
                self.poverty = Some(Poverty { pauper: s, ..Poverty::default() });
                self.phase = Phase::PovertyGive;
                self.to_act = s;
            }
            Some((s, Reservation::Solo { kind, duty })) => {
                self.contract = Contract::Solo(kind);
                self.declarer = Some(s);
                self.re = 1 << s.index();
                let leader = if duty || self.rules.soloist_leads { s } else { forehand };
                self.start_play(leader);
            }
            Some((_, Reservation::ThrowIn)) => unreachable!("a throw-in ends the query at once"),
        }
    }

    fn start_play(&mut self, leader: Seat) {
        self.order = Order::for_deal(self.contract, &self.rules, &self.hands);
        self.phase = Phase::Playing;
        self.to_act = leader;
        self.trick = CurrentTrick { leader, cards: [Card::CQ; 4], len: 0 };
        // house rule: piglets counting from the deal force an announcement
        if self.order.power(Card::DA) > 200
            && let Some(holder) = Seat::ALL.into_iter().find(|s| self.hands[s.index()].count(Card::DA) == 2)
        {
            self.owe_for_piglets(holder);
        }
    }

    /// Under `piglets_announce`: the piglets' holder owes an announcement,
    /// unless its party has announced (or a wedding is not clarified yet).
    fn owe_for_piglets(&mut self, holder: Seat) {
        if self.rules.piglets_announce
            && self.clarified
            && self.mandatory.is_none()
            && self.level[self.party(holder).index()].is_none()
        {
            self.mandatory = Some(holder);
            self.piglets_owed = true;
        }
    }

    /// Whether a seat may say a declaration now.
    pub fn check_say(&self, seat: Seat, what: Declaration) -> Result<(), ActionError> {
        match self.phase {
            Phase::Playing => {}
            Phase::Finished | Phase::Redeal(_) => return Err(ActionError::DealOver),
            now => return Err(ActionError::WrongPhase { seat, what: "say that", now: phase_name(now) }),
        }
        let r = &self.rules;
        let in_rules = match what {
            Declaration::HalfChicken => r.half_chicken,
            Declaration::Piglets => r.piglets && r.piglets_when == PigletsWhen::Play,
            Declaration::Superpiglets => r.piglets && r.superpiglets && r.piglets_when == PigletsWhen::Play,
        };
        if !in_rules {
            return Err(ActionError::SayNotInRules { what });
        }
        if self.said().iter().any(|s| s.what == what) {
            return Err(ActionError::AlreadySaid { what });
        }
        let hand = self.hands[seat.index()];
        let can = match what {
            Declaration::HalfChicken => hand.count(Card::D10) == 2,
            Declaration::Piglets => self.order.piglets_possible(r) && hand.count(Card::DA) == 2,
            Declaration::Superpiglets => {
                self.said().iter().any(|s| s.what == Declaration::Piglets)
                    && self.order.power(Card::DA) > 200
                    && hand.count(Order::superpiglet(r)) == 2
            }
        };
        if can { Ok(()) } else { Err(ActionError::CannotSay { seat, what }) }
    }

    /// Says a declaration: piglets and superpiglets count from now on.
    pub fn say(&mut self, seat: Seat, what: Declaration) -> Result<(), ActionError> {
        self.check_say(seat, what)?;
        self.said[self.n_said as usize] = Said { seat, what, after_plays: self.plays, after_anns: self.n_anns };
        self.n_said += 1;
        match what {
            Declaration::HalfChicken => {}
            Declaration::Piglets => {
                self.order.promote_piglets();
                self.owe_for_piglets(seat);
            }
            Declaration::Superpiglets => self.order.promote_superpiglets(&self.rules),
        }
        Ok(())
    }

    /// How many cards the pauper puts down: three, or all trumps when a
    /// house rule allows more than three.
    pub fn poverty_count(&self) -> usize {
        let p = self.poverty.map_or(self.to_act, |p| p.pauper);
        self.dealt[p.index()].with_mask(self.poverty_trumps()).len().max(3)
    }

    fn give(&mut self, seat: Seat, cards: Cards) -> Result<(), ActionError> {
        self.expect_phase(seat, Phase::PovertyGive, "put down poverty cards")?;
        self.expect_turn(seat)?;
        let hand = self.hands[seat.index()];
        let k = self.poverty_count();
        if cards.len() != k {
            return Err(ActionError::ExchangeCount { seat, expected: k, got: cards.len() });
        }
        let rest = hand.checked_sub(cards).ok_or_else(|| not_held(seat, hand, cards))?;
        if let Some(t) = rest.with_mask(self.poverty_trumps()).iter().next() {
            return Err(ActionError::MustGiveTrumps { seat, keeps: t });
        }
        self.hands[seat.index()] = rest;
        let pov = self.poverty.as_mut().expect("poverty phase");
        pov.given = cards;
        self.phase = Phase::PovertyOffer;
        self.to_act = seat.next();
        Ok(())
    }

    fn answer(&mut self, seat: Seat, accept: bool) -> Result<(), ActionError> {
        self.expect_phase(seat, Phase::PovertyOffer, "answer the poverty")?;
        self.expect_turn(seat)?;
        let pov = self.poverty.as_mut().expect("poverty phase");
        if accept {
            pov.acceptor = Some(seat);
            let given = pov.given;
            let h = &mut self.hands[seat.index()];
            *h = h.checked_add(given).expect("at most two copies in one pack");
            self.phase = Phase::PovertyReturn;
        } else {
            pov.declined += 1;
            if seat.next() == pov.pauper && self.rules.black_sow {
                self.start_black_sow();
            } else if seat.next() == pov.pauper {
                self.phase = Phase::Redeal(RedealReason::PovertyDeclined);
            } else {
                self.to_act = seat.next();
            }
        }
        Ok(())
    }

    /// Schwarze Sau: a poverty nobody took is played. The pauper takes the
    /// cards put down back; everyone plays for themselves in the normal
    /// order until the second queen of spades falls.
    fn start_black_sow(&mut self) {
        let pov = self.poverty.expect("poverty phase");
        let h = &mut self.hands[pov.pauper.index()];
        *h = h.checked_add(pov.given).expect("the pauper's own cards");
        self.contract = Contract::BlackSow(None);
        self.declarer = None;
        self.re = 0;
        self.clarified = false;
        self.start_play(self.forehand());
    }

    /// Schwarze Sau: the taker of the second queen of spades names the
    /// solo (a free one the rules allow); it is played from the next
    /// trick on, which the taker leads.
    fn choose_sow(&mut self, seat: Seat, bid: Bid) -> Result<(), ActionError> {
        self.expect_turn(seat)?;
        let Bid::Reserve(Reservation::Solo { kind, duty: false }) = bid else {
            return Err(ActionError::MustChooseSolo { seat });
        };
        if !self.rules.solos.contains(kind) {
            return Err(ActionError::SoloNotAllowed { seat, kind: kind.key() });
        }
        self.contract = Contract::BlackSow(Some(kind));
        self.clarified = true;
        self.shift = self.n_tricks - 1;
        self.sow_at = self.plays;
        self.order = Order::for_deal(self.contract, &self.rules, &self.hands);
        self.phase = Phase::Playing;
        Ok(())
    }

    fn give_back(&mut self, seat: Seat, cards: Cards) -> Result<(), ActionError> {
        self.expect_phase(seat, Phase::PovertyReturn, "return poverty cards")?;
        self.expect_turn(seat)?;
        let k = self.poverty_count();
        if cards.len() != k {
            return Err(ActionError::ExchangeCount { seat, expected: k, got: cards.len() });
        }
        let hand = self.hands[seat.index()];
        let rest = hand.checked_sub(cards).ok_or_else(|| not_held(seat, hand, cards))?;
        if let Some(t) = self.returned_trump_too_many(hand, cards) {
            return Err(ActionError::MustReturnOtherCards { seat, trump: t });
        }
        self.hands[seat.index()] = rest;
        let pov = self.poverty.as_mut().expect("poverty phase");
        pov.returned = cards;
        let pauper = pov.pauper;
        let ph = &mut self.hands[pauper.index()];
        *ph = ph.checked_add(cards).expect("at most two copies in one pack");
        self.re = (1 << pauper.index()) | (1 << seat.index());
        self.start_play(self.forehand());
        Ok(())
    }

    /// The trumps of a normal game under the rules (what poverty and
    /// throwing in count): without the hearts tens when `dullen` is off.
    fn poverty_trumps(&self) -> Cards {
        if self.rules.dullen { NORMAL_TRUMPS } else { NORMAL_TRUMPS.without_mask(Cards::both(Card::H10)) }
    }

    /// Under `poverty_return_trumps` off: a trump given back while other
    /// cards could have been (only as many trumps as the hand lacks other
    /// cards may go back).
    fn returned_trump_too_many(&self, hand: Cards, cards: Cards) -> Option<Card> {
        if self.rules.poverty_return_trumps {
            return None;
        }
        let others = hand.without_mask(self.poverty_trumps()).len();
        let allowed = cards.len().saturating_sub(others);
        let trumps = cards.with_mask(self.poverty_trumps());
        if trumps.len() > allowed { trumps.iter().next() } else { None }
    }

    /// The cards a seat may play now (one copy each); empty when it is not
    /// that seat's turn to play or it owes an announcement first.
    #[inline]
    pub fn legal_cards(&self, seat: Seat) -> Cards {
        if self.phase != Phase::Playing || seat != self.to_act || self.mandatory == Some(seat) {
            return Cards::EMPTY;
        }
        self.playable(seat).distinct()
    }

    #[inline]
    fn playable(&self, seat: Seat) -> Cards {
        let hand = self.hands[seat.index()];
        if self.trick.len == 0 {
            return hand;
        }
        let led = self.order.class(self.trick.cards[0]);
        let follow = hand.with_mask(self.order.mask(led));
        if follow.is_empty() { hand } else { follow }
    }

    /// Plays a card.
    pub fn play(&mut self, seat: Seat, card: Card) -> Result<(), ActionError> {
        self.expect_phase(seat, Phase::Playing, "play a card")?;
        self.expect_turn(seat)?;
        if self.mandatory == Some(seat) {
            if self.piglets_owed {
                return Err(ActionError::MustAnnouncePiglets { seat });
            }
            return Err(ActionError::MustAnnounce { seat, points: self.tricks[self.n_tricks as usize - 1].points() });
        }
        let hand = self.hands[seat.index()];
        if !hand.contains(card) {
            return Err(ActionError::NotInHand { seat, card });
        }
        if self.trick.len > 0 {
            let led = self.order.class(self.trick.cards[0]);
            if self.order.class(card) != led {
                let follow = hand.with_mask(self.order.mask(led));
                if !follow.is_empty() {
                    let holds = self.order.sorted(follow)[0];
                    return Err(ActionError::MustFollow { seat, class: led, holds });
                }
            }
        }
        self.apply_play(seat, card);
        Ok(())
    }

    /// Plays a card taken from [`legal_cards`](Self::legal_cards) of the
    /// seat to act, without checking it again: the validated-once path for
    /// simulations (random playouts, search), where the card comes from
    /// the list the checks made. Debug builds still check it. Agrees with
    /// [`play`](Self::play) for every legal card (a property test).
    ///
    /// A card not in that list leaves the game in a state no legal play
    /// reaches: use [`play`](Self::play) for anything typed or received.
    #[inline]
    pub fn play_legal(&mut self, seat: Seat, card: Card) {
        debug_assert!(
            self.phase == Phase::Playing && self.to_act == seat && self.legal_cards(seat).contains(card),
            "play_legal with a card legal_cards did not list"
        );
        self.apply_play(seat, card);
    }

    /// A checked card goes on the trick (and completes it).
    #[inline]
    fn apply_play(&mut self, seat: Seat, card: Card) {
        self.hands[seat.index()].remove(card);
        self.plays += 1;
        let len = self.trick.len as usize;
        if len == 3 {
            // the fourth card goes to the trick in a register: read back
            // from the byte just stored, the trick's four bytes would wait
            // for the store to reach the cache
            let t = &self.trick.cards;
            self.finish_trick([t[0], t[1], t[2], card]);
        } else {
            self.trick.cards[len & 3] = card;
            self.trick.len += 1;
            self.to_act = seat.next();
        }
    }

    #[inline(never)]
    fn finish_trick(&mut self, cards: [Card; 4]) {
        self.end_trick(cards);
    }

    /// The body of [`finish_trick`](Self::finish_trick), inlined where
    /// random play ends its tricks.
    #[inline(always)]
    fn end_trick(&mut self, cards: [Card; 4]) {
        let t = self.n_tricks as usize;
        let last = t + 1 == self.rules.hand_size();
        let dulle = self.rules.dulle;
        let best = self.order.trick_winner_by(&cards, || match dulle {
            Dulle::FirstWins => false,
            Dulle::SecondWins => true,
            Dulle::SecondWinsExceptLast => !last,
        });
        // house rule: only the first fox played is a piglet
        if self.rules.piglets_first_only && cards.contains(&Card::DA) {
            self.order.demote_piglets(self.contract);
        }
        let leader = self.trick.leader;
        let winner = leader.plus(best);
        let points = cards[0].points() + cards[1].points() + cards[2].points() + cards[3].points();
        let trick = Trick { leader, cards, winner, points };
        self.tricks[t] = trick;
        self.n_tricks += 1;
        self.trick = CurrentTrick { leader: winner, cards: [Card::CQ; 4], len: 0 };
        self.to_act = winner;

        // a Schwarze Sau before its second queen of spades and a wedding
        // before its clarification; neither in most tricks
        if !self.clarified {
            self.clarify(t, cards, winner, last);
        }

        if let Some(th) = self.rules.mandatory_announcement
            && t == if matches!(self.contract, Contract::Wedding) { self.shift as usize + 1 } else { 0 }
            && self.clarified
            && self.mandatory.is_none()
            && trick.points() >= th as u32
            && !last
        {
            let party = self.party(winner);
            match self.level[party.index()] {
                None => self.mandatory = Some(winner),
                // house rule: one level further, where still allowed
                Some(l) if self.rules.mandatory_further && l < Level::Schwarz => {
                    let next = Call::of(Level::from_index(l as usize + 1), party);
                    if self.check_announce(winner, next).is_ok() {
                        self.mandatory = Some(winner);
                    }
                }
                Some(_) => {}
            }
        }

        if last {
            self.phase = Phase::Finished;
            self.mandatory = None;
            self.piglets_owed = false;
        }
    }

    /// The clarification steps of a trick while the parties are not yet
    /// known: a Schwarze Sau's second queen of spades, a wedding's partner.
    #[inline(never)]
    fn clarify(&mut self, t: usize, cards: [Card; 4], winner: Seat, last: bool) {
        if matches!(self.contract, Contract::BlackSow(None)) && cards.contains(&Card::SQ) {
            // the trick with the second queen of spades: its taker is the
            // soloist and chooses the solo (in the last trick, or without
            // allowed solos, plays on alone in the normal order)
            let fallen: usize = self.tricks().iter().map(|t| t.cards.iter().filter(|c| **c == Card::SQ).count()).sum();
            if fallen == 2 {
                self.declarer = Some(winner);
                self.re = 1 << winner.index();
                if last || self.rules.solos.is_empty() {
                    self.clarified = true;
                    self.shift = t as u8;
                } else {
                    self.phase = Phase::SowChoice;
                }
            }
        }

        if !self.clarified && matches!(self.contract, Contract::Wedding) {
            let declarer = self.declarer.expect("wedding has a declarer");
            let led_trump = self.order.is_trump(cards[0]);
            let qualifies = match self.wedding_rule {
                WeddingRule::FirstForeign => true,
                WeddingRule::FirstFail => !led_trump,
                WeddingRule::FirstTrump => led_trump,
            };
            if qualifies && winner != declarer {
                self.re |= 1 << winner.index();
                self.clarified = true;
                self.shift = t as u8;
            } else if t == 2 {
                self.clarified = true;
                self.shift = 2;
            }
        }
    }

    /// The fewest cards a seat must hold to announce a level by itself
    /// (not as a reply).
    pub fn deadline(&self, level: Level) -> usize {
        // house rule: Re/Kontra only before one's first card
        let first_card = level == Level::Win && self.rules.re_deadline == ReDeadline::BeforeFirstCard;
        (self.rules.hand_size() - 1 + usize::from(first_card)).saturating_sub(level as usize + self.shift as usize)
    }

    /// Whether a seat may make a call now; `Ok(late)` where `late` tells
    /// that the Re/Kontra it includes is only allowed as a reply.
    pub fn check_announce(&self, seat: Seat, call: Call) -> Result<bool, ActionError> {
        match self.phase {
            Phase::Playing => {}
            Phase::Finished | Phase::Redeal(_) => return Err(ActionError::DealOver),
            now => return Err(ActionError::WrongPhase { seat, what: "announce", now: phase_name(now) }),
        }
        if !self.clarified {
            return Err(if self.contract == Contract::Wedding {
                ActionError::BeforeClarification { seat }
            } else {
                ActionError::BeforeSowSolo { seat }
            });
        }
        if self.rules.announce_on_turn && self.to_act != seat {
            return Err(ActionError::NotYourTurn { seat, turn: self.to_act });
        }
        let party = self.party(seat);
        if let Some(named) = call.party()
            && named != party
        {
            return Err(ActionError::WrongParty { seat, party, call });
        }
        let target = call.level();
        let current = self.level[party.index()];
        if current.is_some_and(|l| l >= target) {
            return Err(ActionError::AlreadyAnnounced { seat, party, call });
        }
        let cards = self.hands[seat.index()].len();
        let start = current.map_or(0, |l| l as usize + 1);
        let mut late = self.late[party.index()];
        for li in start..=target as usize {
            let l = Level::from_index(li);
            let needed = self.deadline(l);
            if l == Level::Win {
                // a compulsory announcement is always in time
                if cards >= needed || self.mandatory == Some(seat) {
                    continue;
                }
                let reply = self.level[party.other().index()].map(|ol| self.deadline(ol).saturating_sub(1));
                match reply {
                    Some(r) if cards >= r => late = true,
                    _ => {
                        return Err(ActionError::TooLate {
                            seat,
                            call: Call::of(l, party),
                            cards,
                            needed: reply.map_or(needed, |r| r.min(needed)),
                        });
                    }
                }
            } else if late {
                return Err(ActionError::AfterLateReply { seat, party, call: Call::of(l, party) });
            } else if cards < needed {
                return Err(ActionError::TooLate { seat, call: Call::of(l, party), cards, needed });
            }
        }
        Ok(late)
    }

    /// Whether a seat may make a call now, as
    /// [`check_announce`](Self::check_announce) decides (`Some(late)` for
    /// its `Ok(late)`), without its order of refusals: each condition is
    /// found and all are and-ed, with no branch between them. Random
    /// games' calls are legal or not at random, and each early refusal of
    /// `check_announce` is a branch the CPU cannot foresee.
    ///
    /// Of the levels from the party's next one up to the call's, Re or
    /// Kontra (where among them) must be in time, or a reply in time for
    /// it (which makes the call late); every higher level must not follow
    /// a late reply and must be in time, and the lowest of them has the
    /// latest deadline of all (a deadline is one card earlier per level).
    #[inline(always)]
    pub(crate) fn announce_allowed(&self, seat: Seat, call: Call) -> Option<bool> {
        let party = self.party(seat);
        let (pi, oi) = (party.index(), party.other().index());
        let target = call.level() as usize;
        let start = self.level[pi].map_or(0, |l| l as usize + 1);
        let cards = self.hands[seat.index()].len();
        let with_win = start == 0;
        let in_time = (cards >= self.deadline(Level::Win)) | (self.mandatory == Some(seat));
        let other = self.level[oi];
        let reply = other.is_some() & (cards >= self.deadline(other.unwrap_or(Level::Win)).saturating_sub(1));
        let late = self.late[pi] | (with_win & !in_time);
        let lowest = start.max(1);
        let higher_ok = (target < lowest) | (!late & (cards >= self.deadline(Level::from_index(lowest.min(4)))));
        let ok = (self.phase == Phase::Playing)
            & self.clarified
            & (!self.rules.announce_on_turn | (self.to_act == seat))
            & call.party().is_none_or(|named| named == party)
            & (start <= target)
            & (!with_win | in_time | reply)
            & higher_ok;
        ok.then_some(late)
    }

    /// Announces for the seat's own party.
    pub fn announce(&mut self, seat: Seat, call: Call) -> Result<(), ActionError> {
        let late = self.check_announce(seat, call)?;
        self.announce_checked(seat, call, late);
        Ok(())
    }

    /// [`announce`](Self::announce) of a call found legal (`late` as
    /// [`check_announce`](Self::check_announce) gives it).
    #[inline(always)]
    fn announce_checked(&mut self, seat: Seat, call: Call, late: bool) {
        let party = self.party(seat);
        self.level[party.index()] = Some(call.level());
        self.late[party.index()] = late;
        let a = Announcement {
            seat,
            party,
            level: call.level(),
            cards_in_hand: self.hands[seat.index()].len() as u8,
            after_plays: self.plays,
        };
        self.anns[self.n_anns as usize] = a;
        self.n_anns += 1;
        if self.mandatory.is_some_and(|m| self.party(m) == party) {
            self.mandatory = None;
            self.piglets_owed = false;
        }
    }

    /// The calls a seat may make now, lowest first.
    pub fn legal_calls(&self, seat: Seat) -> Vec<Call> {
        if self.phase != Phase::Playing {
            return Vec::new();
        }
        let p = self.party(seat);
        Level::ALL.into_iter().map(|l| Call::of(l, p)).filter(|c| self.check_announce(seat, *c).is_ok()).collect()
    }

    /// The bids a seat may make now.
    pub fn legal_bids(&self, seat: Seat) -> Vec<Bid> {
        if self.phase == Phase::SowChoice && seat == self.to_act {
            return self.rules.solos.iter().map(|kind| Bid::Reserve(Reservation::Solo { kind, duty: false })).collect();
        }
        if self.phase != Phase::Bidding || seat != self.to_act {
            return Vec::new();
        }
        let mut v = Vec::with_capacity(20);
        self.each_legal_bid(seat, |b| v.push(b));
        v
    }

    /// The bids of [`legal_bids`](Self::legal_bids) in the reservation
    /// query, in its order, each given to `f` (no list is built: random
    /// games draw one of them).
    #[inline]
    pub(crate) fn each_legal_bid(&self, seat: Seat, mut f: impl FnMut(Bid)) {
        f(Bid::Healthy);
        // a wedding with a chosen trick needs what the plain one needs and
        // the house rule that lets the trick be chosen (`check_bid`)
        let wedding = self.check_bid(seat, Bid::Reserve(Reservation::Wedding(None))).is_ok();
        if wedding {
            f(Bid::Reserve(Reservation::Wedding(None)));
        }
        for r in [Reservation::Poverty, Reservation::ThrowIn] {
            if self.check_bid(seat, Bid::Reserve(r)).is_ok() {
                f(Bid::Reserve(r));
            }
        }
        if wedding && self.rules.wedding_choose {
            for k in WeddingRule::ALL {
                f(Bid::Reserve(Reservation::Wedding(Some(k))));
            }
        }
        for duty in [false, true] {
            if duty && self.rules.compulsory_solos == 0 {
                break;
            }
            for kind in self.rules.solos.iter() {
                f(Bid::Reserve(Reservation::Solo { kind, duty }));
            }
        }
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

impl Game {
    /// Plays random legal cards (and the owed announcements) to the end
    /// of the deal. For simulations.
    pub fn random_playout(&mut self, rng: &mut crate::rng::Rng) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            // SAFETY: this CPU has BMI2, checked just above
            return unsafe { self.random_playout_bmi2(rng) };
        }
        self.playout_with(rng, |legal, n| legal.nth(n));
    }

    /// [`crate::random_game`]'s play: random legal cards until the phase
    /// changes; before each card, one time in 32, a random call kept when
    /// legal, and an owed announcement as a random legal call. One loop
    /// over the state the engine keeps, without the public calls' checks
    /// of phase and turn at every card (they hold here by construction);
    /// the same games as `legal_cards` and `play_legal` would play.
    ///
    /// A trick that starts with no announcement owed is played in one go
    /// (its cards in registers, the follow mask found once): nothing in
    /// it can owe one, since only a trick's end and the deal's start do.
    /// Its choices are the digits of one draw ([`Digits`](crate::rng::Digits)):
    /// first, below 2^20, whether each card's seat calls (its digit in
    /// base 32 is zero, the first card's highest), then for each card
    /// which call (where it calls) and which card: at most
    /// 32^4 · 6^4 · 12^4 < 2^45 choices, a relative bias under 2^-19.
    /// Any other card, and an owed announcement, takes a draw of its own.
    #[inline(always)]
    pub(crate) fn random_cards(&mut self, rng: &mut crate::rng::Rng, nth_bit: &impl Fn(Cards, usize) -> u64) {
        while self.phase == Phase::Playing {
            let s = self.to_act;
            if self.mandatory == Some(s) {
                let calls = self.legal_calls(s);
                let c = calls[rng.below(calls.len())];
                self.announce(s, c).expect("listed as legal");
                continue;
            }
            let mut d = rng.digits();
            if self.trick.len == 0 && self.mandatory.is_none() {
                self.random_trick(&mut d, nth_bit);
                continue;
            }
            // a trick begun before, or one where another seat owes an
            // announcement: one card, from a draw of its own
            if d.below(32) == 0 {
                self.random_call(s, self.plays, d.below(6));
            }
            let legal = self.playable(s).distinct();
            let card = Card::from_bit(nth_bit(legal, d.below(legal.len())));
            self.apply_play(s, card);
        }
    }

    /// [`random_cards`](Self::random_cards)'s trick from its lead, from
    /// the digits of its draw.
    #[inline(always)]
    fn random_trick(&mut self, d: &mut crate::rng::Digits, nth_bit: &impl Fn(Cards, usize) -> u64) {
        // whether each seat calls before its card (one time in 32): four
        // digits in base 32 of one, the first card's highest. Most tricks
        // have no zero digit, and their cards are not asked
        let calls = d.below(1 << 20) as u32;
        if calls.wrapping_sub(0x8421) & !calls & 0x8_4210 == 0 {
            self.random_trick_cards::<false>(d, calls, nth_bit);
        } else {
            self.random_trick_cards::<true>(d, calls, nth_bit);
        }
    }

    /// [`random_trick`](Self::random_trick)'s four cards; `CALLS`: whether
    /// some digit of `calls` is zero (a seat calls before its card).
    #[inline(always)]
    fn random_trick_cards<const CALLS: bool>(
        &mut self,
        d: &mut crate::rng::Digits,
        calls: u32,
        nth_bit: &impl Fn(Cards, usize) -> u64,
    ) {
        let leader = self.to_act;
        let plays = self.plays;
        let mut cards = [Card::CQ; 4];
        let mut follow = Cards::EMPTY;
        for (i, slot) in cards.iter_mut().enumerate() {
            let s = leader.plus(i);
            if CALLS && (calls >> (15 - 5 * i)) & 31 == 0 {
                self.random_call(s, plays + i as u8, d.below(6));
            }
            let hand = self.hands[s.index()];
            let suited = hand.with_mask(follow);
            let legal = if suited.is_empty() { hand } else { suited }.distinct();
            let bit = nth_bit(legal, d.below(legal.len()));
            let card = Card::from_bit(bit);
            self.hands[s.index()].remove_bit(bit);
            if i == 0 {
                follow = self.order.mask(self.order.class(card));
            }
            *slot = card;
        }
        self.plays = plays + 4;
        self.end_trick(cards);
    }

    /// A random play's random call (one card in 32; `which` of
    /// [`Call::ALL`]), kept where legal. The seat is made the one to act
    /// and the cards played counted, as they are when it calls before its
    /// card (where calls are allowed only on one's turn).
    #[cold]
    #[inline(never)]
    fn random_call(&mut self, s: Seat, plays: u8, which: usize) {
        self.to_act = s;
        self.plays = plays;
        let call = Call::ALL[which];
        let allowed = self.announce_allowed(s, call);
        debug_assert_eq!(allowed, self.check_announce(s, call).ok(), "{call:?} of {s:?}");
        if let Some(late) = allowed {
            self.announce_checked(s, call, late);
        }
    }

    /// [`random_playout`](Self::random_playout) compiled for CPUs with
    /// BMI2 (its random card by [`Cards::nth_bmi2`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn random_playout_bmi2(&mut self, rng: &mut crate::rng::Rng) {
        self.playout_with(rng, |legal, n| legal.nth_bmi2(n));
    }

    /// The body of [`random_playout`](Self::random_playout), with the way
    /// to pick the `n`-th legal card.
    #[inline(always)]
    fn playout_with(&mut self, rng: &mut crate::rng::Rng, nth: impl Fn(Cards, usize) -> Option<Card>) {
        while matches!(self.phase, Phase::Playing | Phase::SowChoice) {
            let s = self.to_act;
            if self.phase == Phase::SowChoice {
                let solos = self.legal_bids(s);
                self.choose_sow(s, solos[rng.below(solos.len())]).expect("listed as legal");
                continue;
            }
            if self.mandatory == Some(s) {
                match self.legal_calls(s).first() {
                    Some(c) => self.announce(s, *c).expect("listed as legal"),
                    None => {
                        self.mandatory = None;
                        self.piglets_owed = false;
                    }
                }
                continue;
            }
            let legal = self.playable(s).distinct();
            let card = nth(legal, rng.below(legal.len())).expect("a hand in play is never empty");
            // taken from the playable cards: no second check
            self.play_legal(s, card);
        }
    }
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Bidding => "the reservations are being asked",
        Phase::PovertyGive => "the pauper is to put down cards",
        Phase::PovertyOffer => "the poverty is being offered",
        Phase::PovertyReturn => "the poverty cards are to be returned",
        Phase::Playing => "the cards are being played",
        Phase::SowChoice => "the taker of the second queen of spades is choosing a solo",
        Phase::Finished | Phase::Redeal(_) => "the deal is over",
    }
}

fn not_held(seat: Seat, hand: Cards, cards: Cards) -> ActionError {
    let mut h = hand;
    for c in cards.iter() {
        if !h.remove(c) {
            return ActionError::NotInHand { seat, card: c };
        }
    }
    unreachable!("called only when some card is missing")
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

    /// The legal bids are the reservations `check_bid` allows, in the
    /// order the query lists them (healthy, the plain wedding, poverty,
    /// throwing in, the weddings with a chosen trick, then the solos), for
    /// every preset with the wedding's trick chosen or not.
    #[test]
    fn the_legal_bids_are_those_check_bid_allows() {
        use crate::rules::Preset;
        let mut weddings = 0;
        for preset in Preset::ALL {
            for wedding_choose in [false, true] {
                let rules = Rules { wedding_choose, ..Rules::preset(preset) };
                for seed in 0..300 {
                    let g = Game::deal(rules, Seat::ALL[0], seed);
                    let s = g.to_act().expect("the query is open");
                    let chosen = WeddingRule::ALL.map(|k| Reservation::Wedding(Some(k)));
                    let mut expected = vec![Bid::Healthy];
                    for r in [Reservation::Wedding(None), Reservation::Poverty, Reservation::ThrowIn]
                        .into_iter()
                        .chain(chosen)
                    {
                        if g.check_bid(s, Bid::Reserve(r)).is_ok() {
                            expected.push(Bid::Reserve(r));
                        }
                    }
                    for duty in [false, true] {
                        for kind in rules.solos.iter() {
                            let b = Bid::Reserve(Reservation::Solo { kind, duty });
                            if g.check_bid(s, b).is_ok() {
                                expected.push(b);
                            }
                        }
                    }
                    weddings += usize::from(expected.contains(&Bid::Reserve(Reservation::Wedding(None))));
                    assert_eq!(g.legal_bids(s), expected, "{preset:?} choose {wedding_choose} seed {seed}");
                }
            }
        }
        assert!(weddings > 50, "weddings dealt: {weddings}");
    }

    /// Where the CPU has BMI2, `random_playout` plays the same cards as
    /// the portable loop from the same states.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn random_playout_is_the_same_with_bmi2() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return;
        }
        for seed in 0..2000u64 {
            let rules = Rules { nines: seed % 2 == 0, ..Rules::default() };
            let mut g = Game::deal(rules, Seat::ALL[(seed % 4) as usize], seed);
            for s in g.forehand().clockwise() {
                g.act(s, Action::Bid(Bid::Healthy)).unwrap();
            }
            let (mut portable, mut fast) = (g.clone(), g);
            let (mut a, mut b) = (crate::rng::Rng::new(seed), crate::rng::Rng::new(seed));
            portable.playout_with(&mut a, |legal, n| legal.nth(n));
            // SAFETY: BMI2 is there, checked above
            unsafe { fast.random_playout_bmi2(&mut b) };
            assert_eq!(portable, fast, "seed {seed}");
            assert_eq!(portable.phase(), Phase::Finished);
        }
    }

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
