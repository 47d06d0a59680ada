//! Contracts, reservations and the card order each contract imposes.

use std::fmt;

use crate::card::{Card, Rank, Suit};
use crate::cards::Cards;
use crate::rules::{PigletsWhen, Rules, WeddingRule};
use crate::solo::{SoloKind, Trumps};

/// The game being played once reservations are settled.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Contract {
    /// Normal game: Re are the holders of the queens of clubs.
    Normal,
    /// Wedding (Hochzeit): the declarer holds both queens of clubs; the
    /// partner is decided by the clarification trick, or the declarer
    /// plays alone (scored as a solo).
    Wedding,
    /// Silent solo: both queens of clubs, said healthy.
    SilentSolo,
    /// Poverty (Armut): the pauper and the acceptor against the others.
    Poverty,
    /// A declared solo.
    Solo(SoloKind),
    /// Schwarze Sau (house rule `black_sow`): a poverty nobody took,
    /// played everyone for themselves until the second queen of spades
    /// falls; then the solo its taker chose (`None` before the choice, or
    /// when the taker plays on alone in the normal order).
    BlackSow(Option<SoloKind>),
}

impl Contract {
    /// The trump structure.
    pub const fn trumps(self) -> Trumps {
        match self {
            Contract::Solo(k) | Contract::BlackSow(Some(k)) => k.trumps(),
            _ => Trumps::Suit(Suit::Diamonds),
        }
    }

    /// The record/JSON name: `normal`, `wedding`, `silent-solo`, `poverty`,
    /// `solo-<kind>`, `black-sow` or `black-sow-<kind>`.
    pub fn name(self) -> String {
        match self {
            Contract::Normal => "normal".into(),
            Contract::Wedding => "wedding".into(),
            Contract::SilentSolo => "silent-solo".into(),
            Contract::Poverty => "poverty".into(),
            Contract::Solo(k) => format!("solo-{}", k.key()),
            Contract::BlackSow(None) => "black-sow".into(),
            Contract::BlackSow(Some(k)) => format!("black-sow-{}", k.key()),
        }
    }
}

impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A reservation (Vorbehalt).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reservation {
    /// Wedding: both queens of clubs; with `wedding_choose` the kind of
    /// clarification trick named with it (`None`: the rules' `wedding`).
    Wedding(Option<WeddingRule>),
    /// Poverty: few trumps.
    Poverty,
    /// Throw the hand in (too many nines or kings); the same dealer redeals.
    ThrowIn,
    /// A solo; `duty` marks a compulsory solo.
    Solo {
        /// The solo kind.
        kind: SoloKind,
        /// Compulsory (Pflichtsolo).
        duty: bool,
    },
}

impl Reservation {
    /// Precedence in the reservation query: a higher number wins; ties go
    /// to the earlier seat in bidding order.
    pub const fn precedence(self) -> u8 {
        match self {
            Reservation::Wedding(_) => 1,
            Reservation::Poverty => 2,
            Reservation::Solo { duty: false, .. } => 3,
            Reservation::Solo { duty: true, .. } => 4,
            Reservation::ThrowIn => 5,
        }
    }
}

/// A seat's answer in the reservation query.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Bid {
    /// Healthy (gesund): content with a normal game.
    Healthy,
    /// A reservation.
    Reserve(Reservation),
}

impl Bid {
    /// The record name: `healthy`, `wedding`, `poverty`, `throw-in`,
    /// `solo-<kind>`.
    pub fn name(self) -> String {
        match self {
            Bid::Healthy => "healthy".into(),
            Bid::Reserve(Reservation::Wedding(None)) => "wedding".into(),
            Bid::Reserve(Reservation::Wedding(Some(k))) => format!("wedding-{}", k.key()),
            Bid::Reserve(Reservation::Poverty) => "poverty".into(),
            Bid::Reserve(Reservation::ThrowIn) => "throw-in".into(),
            Bid::Reserve(Reservation::Solo { kind, .. }) => format!("solo-{}", kind.key()),
        }
    }

    /// Parses a record name; `duty` marks a compulsory solo.
    pub fn from_name(s: &str, duty: bool) -> Option<Bid> {
        let b = match s.to_ascii_lowercase().as_str() {
            "healthy" => Bid::Healthy,
            "wedding" => Bid::Reserve(Reservation::Wedding(None)),
            "poverty" => Bid::Reserve(Reservation::Poverty),
            "throw-in" => Bid::Reserve(Reservation::ThrowIn),
            other if other.starts_with("wedding-") => {
                let kind = WeddingRule::ALL.into_iter().find(|k| other.strip_prefix("wedding-") == Some(k.key()))?;
                Bid::Reserve(Reservation::Wedding(Some(kind)))
            }
            other => {
                let k = SoloKind::from_key(other.strip_prefix("solo-")?)?;
                return Some(Bid::Reserve(Reservation::Solo { kind: k, duty }));
            }
        };
        if duty { None } else { Some(b) }
    }
}

/// The effective suit of a card under a contract: trump or one of the four
/// fail suits.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Class {
    /// Trump.
    Trump = 0,
    /// Clubs as a fail suit.
    Clubs = 1,
    /// Spades as a fail suit.
    Spades = 2,
    /// Hearts as a fail suit.
    Hearts = 3,
    /// Diamonds as a fail suit.
    Diamonds = 4,
}

impl Class {
    /// The fail class of a printed suit.
    pub const fn of_suit(s: Suit) -> Class {
        match s {
            Suit::Clubs => Class::Clubs,
            Suit::Spades => Class::Spades,
            Suit::Hearts => Class::Hearts,
            Suit::Diamonds => Class::Diamonds,
        }
    }

    /// The name ("trumps", "spades").
    pub const fn name(self) -> &'static str {
        match self {
            Class::Trump => "trumps",
            Class::Clubs => "clubs",
            Class::Spades => "spades",
            Class::Hearts => "hearts",
            Class::Diamonds => "diamonds",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The card order of one deal: effective suit and strength of every card.
/// Built once when play starts (it depends on the contract and on piglets).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    // 32 entries so that `index & 31` needs no bounds check; 24..32 unused
    class: [Class; 32],
    /// Each card's power (bits 0-7) with its class's bit (bits 8-12:
    /// [`class_bit`]): its key in a trick where it counts
    /// ([`Order::key_in`])
    base: [u16; 32],
    masks: [Cards; 5],
    dulle: bool,
}

/// A card's entry in an order's `base`: its power, with its class's bit.
const fn base_of(class: Class, power: u8) -> u16 {
    power as u16 | class_bit(class)
}

/// A class's bit in a trick key: the trumps' highest (bit 12), then the
/// fail suits (bits 11 to 8), each above every power (bits 0 to 7).
const fn class_bit(class: Class) -> u16 {
    0x1000 >> class as u8
}

/// The bits of a trick key that are kept in a trick whose led card has
/// `led_base` (its entry in `base`): every power, the trumps' bit and the
/// led class's bit.
#[inline(always)]
const fn counting_mask(led_base: u16) -> u16 {
    led_base | class_bit(Class::Trump) | 0xFF
}

const FAIL_POWER: [u8; 6] = [60, 50, 40, 30, 20, 10]; // A 10 K Q J 9

const fn build_order(trumps: Trumps) -> Order {
    let mut class = [Class::Trump; 32];
    let mut base = [0u16; 32];
    let mut masks = [0u64; 5];
    let mut i = 0;
    while i < 24 {
        let c = Card::from_index(i);
        let (suit, rank) = (c.suit(), c.rank());
        let fail = (Class::of_suit(suit), FAIL_POWER[rank as usize]);
        let (cl, p) = match trumps {
            Trumps::Suit(ts) => {
                if suit as u8 == Suit::Hearts as u8 && rank as u8 == Rank::Ten as u8 {
                    (Class::Trump, 200)
                } else if rank as u8 == Rank::Queen as u8 {
                    (Class::Trump, 190 - suit as u8)
                } else if rank as u8 == Rank::Jack as u8 {
                    (Class::Trump, 180 - suit as u8)
                } else if suit as u8 == ts as u8 {
                    (Class::Trump, 100 + FAIL_POWER[rank as usize])
                } else {
                    fail
                }
            }
            Trumps::Rank(r) => {
                if rank as u8 == r as u8 {
                    (Class::Trump, 190 - suit as u8)
                } else {
                    fail
                }
            }
            Trumps::None => fail,
        };
        class[i] = cl;
        base[i] = base_of(cl, p);
        masks[cl as usize] |= 3 << (2 * i);
        i += 1;
    }
    Order {
        class,
        base,
        masks: [
            Cards::from_bits(masks[0]),
            Cards::from_bits(masks[1]),
            Cards::from_bits(masks[2]),
            Cards::from_bits(masks[3]),
            Cards::from_bits(masks[4]),
        ],
        dulle: matches!(trumps, Trumps::Suit(_)),
    }
}

/// Whether a trick holds both hearts tens: its four card indices (each
/// below 24) as the bytes of a word, those of a hearts ten made zero, and
/// the zero bytes counted.
#[inline(always)]
fn both_hearts_tens(cards: &[Card; 4]) -> bool {
    const ONES: u32 = 0x0101_0101;
    let x = u32::from_le_bytes(cards.map(|c| c.index() as u8)) ^ (Card::H10.index() as u32 * ONES);
    // the high bit of each byte that is not zero (exact: bytes below 0x80)
    let nonzero = (((x & 0x7F7F_7F7F) + 0x7F7F_7F7F) | x) & 0x8080_8080;
    nonzero.count_ones() == 2
}

/// The orders of every trump structure, built at compile time.
static ORDERS: [Order; 8] = [
    build_order(Trumps::Suit(Suit::Clubs)),
    build_order(Trumps::Suit(Suit::Spades)),
    build_order(Trumps::Suit(Suit::Hearts)),
    build_order(Trumps::Suit(Suit::Diamonds)),
    build_order(Trumps::Rank(Rank::Queen)),
    build_order(Trumps::Rank(Rank::Jack)),
    build_order(Trumps::Rank(Rank::King)),
    build_order(Trumps::None),
];

impl Order {
    /// The order of a trump structure, without piglets.
    #[inline]
    pub fn new(trumps: Trumps) -> Order {
        let i = match trumps {
            Trumps::Suit(s) => s as usize,
            Trumps::Rank(Rank::Queen) => 4,
            Trumps::Rank(Rank::Jack) => 5,
            Trumps::Rank(Rank::King) => 6,
            Trumps::Rank(r) => return build_order(Trumps::Rank(r)),
            Trumps::None => 7,
        };
        ORDERS[i]
    }

    /// The order for a contract under the rules, with piglets and
    /// superpiglets when enabled and held (`hands` as at the start of play).
    pub fn for_deal(contract: Contract, rules: &Rules, hands: &[Cards; 4]) -> Order {
        let mut o = Order::new(contract.trumps());
        if !rules.dullen && o.dulle {
            // house rule: the hearts tens are plain hearts cards (a hearts
            // trump between ace and king in a hearts solo)
            let i = Card::H10.index();
            let hearts_solo = contract.trumps() == Trumps::Suit(Suit::Hearts);
            let (cl, p) = if hearts_solo { (Class::Trump, 150) } else { (Class::Hearts, 50) };
            let both = Cards::both(Card::H10);
            o.masks[Class::Trump as usize] = o.masks[Class::Trump as usize].without_mask(both);
            o.masks[cl as usize] = Cards::from_bits(o.masks[cl as usize].bits() | both.bits());
            o.class[i] = cl;
            o.base[i] = base_of(cl, p);
            o.dulle = false;
        }
        let from_deal = rules.piglets_when == PigletsWhen::Deal;
        if from_deal && o.piglets_possible(rules) && hands.iter().any(|h| h.count(Card::DA) == 2) {
            o.promote_piglets();
            if rules.superpiglets && hands.iter().any(|h| h.count(Order::superpiglet(rules)) == 2) {
                o.promote_superpiglets(rules);
            }
        }
        o
    }

    /// Each card's class and strength, by card index (the 24 cards): what
    /// [`Order::from_table`] builds an order from again.
    pub fn table(&self) -> ([Class; 24], [u8; 24]) {
        (std::array::from_fn(|i| self.class[i]), std::array::from_fn(|i| self.base[i] as u8))
    }

    /// The order with each card's class and strength given by card index,
    /// and whether the hearts ten is the Dulle here; the inverse of
    /// [`Order::table`] with [`Order::has_dulle`].
    pub fn from_table(class: [Class; 24], power: [u8; 24], dulle: bool) -> Order {
        let mut o = Order { class: [Class::Trump; 32], base: [0; 32], masks: [Cards::EMPTY; 5], dulle };
        for i in 0..24 {
            o.class[i] = class[i];
            o.base[i] = base_of(class[i], power[i]);
            let m = &mut o.masks[class[i] as usize];
            *m = Cards::from_bits(m.bits() | Cards::both(Card::from_index(i)).bits());
        }
        o
    }

    /// Whether piglets can count in this order: the rules have them and
    /// the foxes are trumps.
    pub fn piglets_possible(&self, rules: &Rules) -> bool {
        rules.piglets && self.class[Card::DA.index()] == Class::Trump
    }

    /// The superpiglet card: the nine of diamonds, without nines the king.
    pub fn superpiglet(rules: &Rules) -> Card {
        Card::new(Suit::Diamonds, if rules.nines { Rank::Nine } else { Rank::King })
    }

    /// The foxes become the highest trumps (piglets).
    pub fn promote_piglets(&mut self) {
        let i = Card::DA.index();
        self.base[i] = base_of(self.class[i], 210);
    }

    /// The superpiglet cards rank above the piglets.
    pub fn promote_superpiglets(&mut self, rules: &Rules) {
        let i = Order::superpiglet(rules).index();
        self.base[i] = base_of(self.class[i], 220);
    }

    /// The foxes rank as plain foxes again (house rule
    /// `piglets_first_only`, once the first has been played): the power
    /// the contract's order gives them.
    pub fn demote_piglets(&mut self, contract: Contract) {
        let i = Card::DA.index();
        self.base[i] = base_of(self.class[i], Order::new(contract.trumps()).power(Card::DA));
    }

    /// The effective suit of a card.
    #[inline]
    pub fn class(&self, c: Card) -> Class {
        self.class[c.index() & 31]
    }

    /// The strength of a card (meaningful within one class).
    #[inline]
    pub fn power(&self, c: Card) -> u8 {
        self.base[c.index() & 31] as u8
    }

    /// Whether a card is a trump.
    #[inline]
    pub fn is_trump(&self, c: Card) -> bool {
        self.class[c.index() & 31] == Class::Trump
    }

    /// Both copies of every card of a class (a mask).
    #[inline]
    pub fn mask(&self, class: Class) -> Cards {
        self.masks[class as usize]
    }

    /// Whether the hearts ten is a trump here (the `dulle` rule applies).
    #[inline]
    pub fn has_dulle(&self) -> bool {
        self.dulle
    }

    /// The strength of a card in a trick whose led card has class `led`:
    /// a trump 256 + its power, a card of the led suit its power, any
    /// other 0. Of equal keys the first played wins (see [`Order::beats`]
    /// for the dulle exception).
    #[inline]
    pub fn trick_key(&self, c: Card, led: Class) -> u16 {
        let i = c.index() & 31;
        let power = self.base[i] & 0xFF;
        match self.class[i] {
            Class::Trump => 256 + power,
            class if class == led => power,
            _ => 0,
        }
    }

    /// A card's key in a trick under the trick's [`counting_mask`]: its
    /// entry in `base` with the bits of the classes that do not count
    /// cleared, ordered as [`trick_key`](Self::trick_key) orders the cards
    /// that count, and every card that does not below them (its power
    /// alone). One load and one and, without a branch: which card wins is
    /// what random play cannot predict.
    #[inline(always)]
    fn key_in(&self, c: Card, mask: u16) -> u16 {
        self.base[c.index() & 31] & mask
    }

    /// The index (0..4) of the card that wins a trick.
    #[inline]
    pub fn trick_winner(&self, cards: &[Card; 4], second_wins_dulle: bool) -> usize {
        self.trick_winner_by(cards, || second_wins_dulle)
    }

    /// [`trick_winner`](Self::trick_winner) asking whether the second
    /// hearts ten wins only where a hearts ten would win the trick.
    #[inline(always)]
    pub(crate) fn trick_winner_by(&self, cards: &[Card; 4], second_wins_dulle: impl FnOnce() -> bool) -> usize {
        let mask = counting_mask(self.base[cards[0].index() & 31]);
        let key = |c: Card| self.key_in(c, mask);
        let (k1, k2, k3) = (key(cards[1]), key(cards[2]), key(cards[3]));
        // the first of equal keys wins
        let (mut best, mut high) = (0, key(cards[0]));
        if k1 > high {
            (best, high) = (1, k1);
        }
        if k2 > high {
            (best, high) = (2, k2);
        }
        if k3 > high {
            best = 3;
        }
        // but of the two hearts tens the second, where the rule says so
        // (no card is equal to a hearts ten but the other one). Asked
        // only of a trick with both, which few are: whether the winner is
        // a hearts ten is what a branch cannot foresee
        if both_hearts_tens(cards) && self.dulle && cards[best] == Card::H10 && second_wins_dulle() {
            for (i, c) in cards.iter().enumerate().skip(best + 1) {
                if *c == Card::H10 {
                    return i;
                }
            }
        }
        best
    }

    /// Whether `card`, played after `best` (the card winning the trick so
    /// far), beats it. Equal cards: the first wins, except two hearts tens
    /// under `second_wins`. The same rule as [`Order::trick_winner`].
    #[inline]
    pub fn beats(&self, card: Card, best: Card, second_wins_dulle: bool) -> bool {
        let led = self.class(best);
        self.trick_key(card, led) > self.trick_key(best, led)
            || (second_wins_dulle && self.dulle && card == Card::H10 && best == Card::H10)
    }

    /// Sorting key for showing a hand: trumps first (highest first), then
    /// fail suits in the order clubs, spades, hearts, diamonds, each
    /// highest first. Smaller sorts first.
    pub fn sort_key(&self, c: Card) -> (u8, u8) {
        (self.class[c.index()] as u8, 255 - self.power(c))
    }

    /// The cards of a hand sorted for display.
    pub fn sorted(&self, cards: Cards) -> Vec<Card> {
        let mut v: Vec<Card> = cards.iter().collect();
        v.sort_by_key(|c| self.sort_key(*c));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    fn trump_order(o: &Order) -> Vec<Card> {
        let mut v: Vec<Card> = Card::all().filter(|c| o.is_trump(*c)).collect();
        v.sort_by_key(|c| std::cmp::Reverse(o.power(*c)));
        v
    }

    #[test]
    fn normal_trumps_as_in_the_seeds() {
        let o = Order::new(Contract::Normal.trumps());
        assert_eq!(trump_order(&o), cards("H10 CQ SQ HQ DQ CJ SJ HJ DJ DA D10 DK D9"));
        assert_eq!(o.mask(Class::Hearts).len(), 6); // HA HK H9 twice
        assert_eq!(o.mask(Class::Trump).len(), 26);
    }

    #[test]
    fn suit_solos() {
        let o = Order::new(SoloKind::Hearts.trumps());
        assert_eq!(trump_order(&o), cards("H10 CQ SQ HQ DQ CJ SJ HJ DJ HA HK H9"));
        assert_eq!(o.mask(Class::Diamonds).len(), 8);
        let o = Order::new(SoloKind::Spades.trumps());
        assert_eq!(trump_order(&o), cards("H10 CQ SQ HQ DQ CJ SJ HJ DJ SA S10 SK S9"));
        assert_eq!(o.mask(Class::Hearts).len(), 6);
    }

    #[test]
    fn picture_solos_and_fleischlos() {
        let o = Order::new(SoloKind::Queens.trumps());
        assert_eq!(trump_order(&o), cards("CQ SQ HQ DQ"));
        assert!(o.beats("SJ".parse().unwrap(), "S9".parse().unwrap(), false));
        assert!(o.beats("SK".parse().unwrap(), "SJ".parse().unwrap(), false));
        let o = Order::new(SoloKind::Jacks.trumps());
        assert_eq!(trump_order(&o), cards("CJ SJ HJ DJ"));
        let o = Order::new(SoloKind::Aces.trumps());
        assert!(trump_order(&o).is_empty());
        assert!(!o.has_dulle());
        assert!(o.beats("HQ".parse().unwrap(), "HJ".parse().unwrap(), false));
    }

    /// Every order the engine builds: each trump structure, the hearts
    /// tens as plain cards, piglets and superpiglets promoted (and the
    /// piglets demoted again); and some it never builds (piglets where
    /// the foxes are no trumps).
    fn every_order() -> Vec<Order> {
        let mut out = Vec::new();
        for trumps in [Contract::Normal.trumps()].into_iter().chain(SoloKind::ALL.map(|k| k.trumps())) {
            for contract in [Contract::Normal, Contract::Solo(SoloKind::Hearts)] {
                let o = Order::new(trumps);
                out.push(o);
                let mut r = Rules { dullen: false, ..Rules::default() };
                let c = if trumps == contract.trumps() { contract } else { Contract::Solo(SoloKind::Diamonds) };
                out.push(Order::for_deal(c, &r, &[Cards::EMPTY; 4]));
                r.dullen = true;
                let mut p = Order::for_deal(c, &r, &[Cards::EMPTY; 4]);
                p.promote_piglets();
                out.push(p);
                p.promote_superpiglets(&r);
                out.push(p);
                p.demote_piglets(c);
                out.push(p);
            }
        }
        out
    }

    /// The branch-free `trick_winner` agrees with the trick keys (the
    /// highest key wins, the first of equal keys, but the second of two
    /// hearts tens where the rule says so) on random tricks in every order.
    #[test]
    fn trick_winner_agrees_with_the_trick_keys() {
        let mut rng = crate::rng::Rng::new(7);
        let mut tricks = 0;
        for o in every_order() {
            // the key as defined: a trump 256 + its power, a card of the
            // led suit its power, any other 0
            for c in Card::all() {
                for led in [Class::Trump, Class::Clubs, Class::Spades, Class::Hearts, Class::Diamonds] {
                    let p = u16::from(o.power(c));
                    let defined = if o.is_trump(c) {
                        256 + p
                    } else if o.class(c) == led {
                        p
                    } else {
                        0
                    };
                    assert_eq!(o.trick_key(c, led), defined, "{c} led {led:?}");
                }
            }
            for _ in 0..3000 {
                // the hearts ten often, so that two of them meet; no card
                // more than twice (a pack has two of each)
                let mut cards = [Card::CQ; 4];
                for i in 0..4 {
                    loop {
                        let c = if rng.below(4) == 0 { Card::H10 } else { Card::from_index(rng.below(24)) };
                        if cards[..i].iter().filter(|x| **x == c).count() < 2 {
                            cards[i] = c;
                            break;
                        }
                    }
                }
                for second_wins in [false, true] {
                    let led = o.class(cards[0]);
                    let mut best = 0;
                    for i in 1..4 {
                        let (k, b) = (o.trick_key(cards[i], led), o.trick_key(cards[best], led));
                        if k > b || (second_wins && o.has_dulle() && cards[i] == Card::H10 && cards[best] == Card::H10)
                        {
                            best = i;
                        }
                    }
                    assert_eq!(o.trick_winner(&cards, second_wins), best, "{cards:?} second wins {second_wins}");
                    tricks += 1;
                }
            }
        }
        assert!(tricks > 100_000);
    }

    #[test]
    fn first_of_equal_cards_wins_unless_second_dulle() {
        let o = Order::new(Contract::Normal.trumps());
        assert!(!o.beats(Card::H10, Card::H10, false));
        assert!(o.beats(Card::H10, Card::H10, true));
        assert!(!o.beats(Card::CQ, Card::CQ, true));
        // a fail card never beats the led suit of another fail
        assert!(!o.beats("CA".parse().unwrap(), "S9".parse().unwrap(), false));
    }
}
