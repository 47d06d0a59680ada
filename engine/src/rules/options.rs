//! The values of the house rules: one type per option with several values,
//! the sets of solos, extra points and Bock triggers, the presets' names,
//! and [`Rules`], the complete rule set.

use super::keys::RuleError;
use crate::quote::quoted;
use crate::solo::SoloKind;

/// Which of two hearts tens in one trick wins.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dulle {
    /// The first played wins (DDV).
    FirstWins,
    /// The second played wins.
    SecondWins,
    /// The second wins, except in the last trick.
    SecondWinsExceptLast,
}

impl Dulle {
    /// Every value, as the `dulle` key lists them.
    pub(crate) const ALL: [Dulle; 3] = [Dulle::FirstWins, Dulle::SecondWins, Dulle::SecondWinsExceptLast];

    /// The value's name in the `dulle` key.
    pub(crate) const fn key(self) -> &'static str {
        match self {
            Dulle::FirstWins => "first-wins",
            Dulle::SecondWins => "second-wins",
            Dulle::SecondWinsExceptLast => "second-wins-except-last",
        }
    }
}

/// Which trick within the first three decides a wedding partner.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WeddingRule {
    /// The first trick won by another player (DDV).
    FirstForeign,
    /// The first trick led with a non-trump card and won by another player.
    FirstFail,
    /// The first trick led with a trump and won by another player.
    FirstTrump,
}

impl WeddingRule {
    /// Every kind of clarification trick.
    pub const ALL: [WeddingRule; 3] = [WeddingRule::FirstForeign, WeddingRule::FirstFail, WeddingRule::FirstTrump];

    /// The value's name in the `wedding` key (and after `wedding-` in a
    /// chosen wedding's bid).
    pub const fn key(self) -> &'static str {
        match self {
            WeddingRule::FirstForeign => "first-foreign",
            WeddingRule::FirstFail => "first-fail",
            WeddingRule::FirstTrump => "first-trump",
        }
    }
}

/// How Re and Kontra raise the game value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReKontra {
    /// Each adds two points (DDV).
    PlusTwo,
    /// Each doubles the game value (extra points are not doubled).
    Doubles,
}

impl ReKontra {
    /// Every value, as the `re_kontra` key lists them.
    pub(crate) const ALL: [ReKontra; 2] = [ReKontra::PlusTwo, ReKontra::Doubles];

    /// The value's name in the `re_kontra` key.
    pub(crate) const fn key(self) -> &'static str {
        match self {
            ReKontra::PlusTwo => "plus-two",
            ReKontra::Doubles => "doubles",
        }
    }
}

/// Which of several solo bids of the same rank wins the bidding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SoloPriority {
    /// The first in bidding order, from forehand (DDV).
    First,
    /// The last in bidding order (the end of the auction has priority).
    Last,
}

impl SoloPriority {
    /// Every value, as the `solo_priority` key lists them.
    pub(crate) const ALL: [SoloPriority; 2] = [SoloPriority::First, SoloPriority::Last];

    /// The value's name in the `solo_priority` key.
    pub(crate) const fn key(self) -> &'static str {
        match self {
            SoloPriority::First => "first",
            SoloPriority::Last => "last",
        }
    }
}

/// When piglets count (`piglets_when`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PigletsWhen {
    /// From the deal: both foxes in one hand are the highest trumps at
    /// once (the table learns it when the first is played).
    Deal,
    /// Only once their holder says "piglets" during play (any time while
    /// holding both); until then the foxes rank as usual.
    Play,
}

impl PigletsWhen {
    /// Every value, as the `piglets_when` key lists them.
    pub(crate) const ALL: [PigletsWhen; 2] = [PigletsWhen::Deal, PigletsWhen::Play];

    /// The value's name in the `piglets_when` key.
    pub(crate) const fn key(self) -> &'static str {
        match self {
            PigletsWhen::Deal => "deal",
            PigletsWhen::Play => "play",
        }
    }
}

/// What a Bock trigger during Bock deals does (`bock_stacking`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BockStacking {
    /// The new round is played after the Bock deals still pending.
    Extend,
    /// The new round starts with the next deal; a deal two rounds cover
    /// counts four times (Doppelbock), three rounds eight times.
    Stack,
}

impl BockStacking {
    /// Every value, as the `bock_stacking` key lists them.
    pub(crate) const ALL: [BockStacking; 2] = [BockStacking::Extend, BockStacking::Stack];

    /// The value's name in the `bock_stacking` key.
    pub(crate) const fn key(self) -> &'static str {
        match self {
            BockStacking::Extend => "extend",
            BockStacking::Stack => "stack",
        }
    }
}

/// Until when Re and Kontra may be announced by themselves (not as a
/// reply).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReDeadline {
    /// Holding at least 11 cards (without nines 9): until one's second
    /// card (DDV).
    BeforeSecondCard,
    /// Holding all 12 cards (without nines 10): before one's first card.
    BeforeFirstCard,
}

impl ReDeadline {
    /// Every value, as the `re_deadline` key lists them.
    pub(crate) const ALL: [ReDeadline; 2] = [ReDeadline::BeforeSecondCard, ReDeadline::BeforeFirstCard];

    /// The value's name in the `re_deadline` key.
    pub(crate) const fn key(self) -> &'static str {
        match self {
            ReDeadline::BeforeSecondCard => "before-second-card",
            ReDeadline::BeforeFirstCard => "before-first-card",
        }
    }
}

/// An extra point (Sonderpunkt) kind; scored in normal games only.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Extra {
    /// Kontra wins against the queens of clubs (gegen die Alten).
    AgainstTheElders = 0,
    /// A trick of 40 or more points.
    Doppelkopf = 1,
    /// An opponent's ace of diamonds caught.
    Fox = 2,
    /// The last trick won with a jack of clubs (Karlchen).
    Charlie = 3,
    /// A fox caught in the last trick counts one more.
    FoxLastTrick = 4,
    /// An opponent's jack of clubs caught in the last trick.
    CharlieCaught = 5,
    /// A fox caught in the first trick counts 2 in all (like
    /// `fox-last-trick`).
    FoxFirstTrick = 6,
    /// An opponent's hearts ten (Dulle) caught.
    DulleCaught = 7,
    /// Without nines: a trick of both hearts aces and both hearts kings.
    HeartTrick = 8,
    /// Lieschen Müller: an opponent's jack of clubs caught in the last
    /// trick by a queen of diamonds (the stricter form of
    /// `charlie-caught`).
    LizzieMiller = 9,
}

impl Extra {
    /// All extra kinds in key order.
    pub const ALL: [Extra; 10] = [
        Extra::AgainstTheElders,
        Extra::Doppelkopf,
        Extra::Fox,
        Extra::Charlie,
        Extra::FoxLastTrick,
        Extra::CharlieCaught,
        Extra::FoxFirstTrick,
        Extra::DulleCaught,
        Extra::HeartTrick,
        Extra::LizzieMiller,
    ];

    /// The value's name in the `extra_points` key.
    pub const fn key(self) -> &'static str {
        match self {
            Extra::AgainstTheElders => "against-the-elders",
            Extra::Doppelkopf => "doppelkopf",
            Extra::Fox => "fox",
            Extra::Charlie => "charlie",
            Extra::FoxLastTrick => "fox-last-trick",
            Extra::CharlieCaught => "charlie-caught",
            Extra::FoxFirstTrick => "fox-first-trick",
            Extra::DulleCaught => "dulle-caught",
            Extra::HeartTrick => "heart-trick",
            Extra::LizzieMiller => "lizzie-miller",
        }
    }
}

/// What starts a round of Bock (with `bock` on).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum BockTrigger {
    /// 120:120 card points.
    Tie = 0,
    /// Re announced and lost.
    LostRe = 1,
    /// Kontra announced and lost.
    LostKontra = 2,
    /// A trick of four plain hearts cards (no trump among them; without
    /// nines: both hearts aces and kings).
    HeartTrick = 3,
    /// A declared solo lost.
    LostSolo = 4,
}

impl BockTrigger {
    /// All triggers in key order.
    pub const ALL: [BockTrigger; 5] = [
        BockTrigger::Tie,
        BockTrigger::LostRe,
        BockTrigger::LostKontra,
        BockTrigger::HeartTrick,
        BockTrigger::LostSolo,
    ];

    /// The value's name in the `bock_triggers` key.
    pub const fn key(self) -> &'static str {
        match self {
            BockTrigger::Tie => "tie",
            BockTrigger::LostRe => "lost-re",
            BockTrigger::LostKontra => "lost-kontra",
            BockTrigger::HeartTrick => "heart-trick",
            BockTrigger::LostSolo => "lost-solo",
        }
    }
}

/// A set of Bock triggers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct BockSet(u8);

impl BockSet {
    /// Whether the set holds a trigger.
    pub const fn contains(self, t: BockTrigger) -> bool {
        self.0 & (1 << t as u8) != 0
    }
    /// Adds a trigger.
    pub fn insert(&mut self, t: BockTrigger) {
        self.0 |= 1 << t as u8;
    }
    /// The triggers in the set, in key order.
    pub fn iter(self) -> impl Iterator<Item = BockTrigger> {
        BockTrigger::ALL.into_iter().filter(move |t| self.contains(*t))
    }
}

/// A named rule preset.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// The German Doppelkopf Association's tournament rules.
    Ddv,
    /// A common home game: poverty, piglets, soloist leads, fox in the last
    /// trick, no compulsory solos.
    Casual,
    /// Sharp Doppelkopf: the DDV rules without nines, with the forced
    /// announcement at 30 points in the first trick.
    Sharp,
    /// FreeDoko's standard rules, for people who learned there.
    Freedoko,
}

impl Preset {
    /// All presets.
    pub const ALL: [Preset; 4] = [Preset::Ddv, Preset::Casual, Preset::Sharp, Preset::Freedoko];

    /// The preset's name.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Ddv => "ddv",
            Preset::Casual => "casual",
            Preset::Sharp => "sharp",
            Preset::Freedoko => "freedoko",
        }
    }

    /// Looks a preset up by name (case-insensitive).
    pub fn from_name(name: &str) -> Result<Preset, RuleError> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| RuleError::UnknownPreset(quoted(name)))
    }
}

/// A set of solo kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct SoloSet(u8);

impl SoloSet {
    /// Whether the set holds a kind.
    pub const fn contains(self, k: SoloKind) -> bool {
        self.0 & (1 << k as u8) != 0
    }
    /// Whether no kind is allowed.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Adds a kind.
    pub fn insert(&mut self, k: SoloKind) {
        self.0 |= 1 << k as u8;
    }
    /// The kinds in the set, in key order.
    pub fn iter(self) -> impl Iterator<Item = SoloKind> {
        SoloKind::ALL.into_iter().filter(move |k| self.contains(*k))
    }
}

/// A set of extra-point kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ExtraSet(u16);

impl ExtraSet {
    /// Whether the set holds a kind.
    pub const fn contains(self, e: Extra) -> bool {
        self.0 & (1 << e as u16) != 0
    }
    /// Adds a kind.
    pub fn insert(&mut self, e: Extra) {
        self.0 |= 1 << e as u16;
    }
    /// The kinds in the set, in key order.
    pub fn iter(self) -> impl Iterator<Item = Extra> {
        Extra::ALL.into_iter().filter(move |e| self.contains(*e))
    }
}

/// A complete rule set: a value, frozen into each deal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The preset this rule set started from (for "what differs").
    pub preset: Preset,
    /// 48 cards (`true`) or 40 without nines.
    pub nines: bool,
    /// Two hearts tens in one trick.
    pub dulle: Dulle,
    /// The hearts tens are trumps (Dullen).
    pub dullen: bool,
    /// Solo kinds that may be bid.
    pub solos: SoloSet,
    /// A free solo's declarer leads.
    pub soloist_leads: bool,
    /// Wedding clarification.
    pub wedding: WeddingRule,
    /// The wedding player may name the clarification trick.
    pub wedding_choose: bool,
    /// Poverty may be declared.
    pub poverty: bool,
    /// At most this many trumps for poverty.
    pub poverty_max_trumps: u8,
    /// Foxes count as trumps for `poverty_max_trumps`.
    pub poverty_fox_counts: bool,
    /// The acceptor may give trumps back.
    pub poverty_return_trumps: bool,
    /// Piglets (Schweinchen).
    pub piglets: bool,
    /// Superpiglets (with piglets).
    pub superpiglets: bool,
    /// Only the first fox played is a piglet.
    pub piglets_first_only: bool,
    /// When piglets count: from the deal or once said.
    pub piglets_when: PigletsWhen,
    /// Piglets force an announcement.
    pub piglets_announce: bool,
    /// Half a chicken may be said.
    pub half_chicken: bool,
    /// Genscher: the holder of both kings of diamonds names a partner.
    pub genscher: bool,
    /// Schwarze Sau: a declined poverty is played, and the taker of the
    /// second queen of spades chooses a solo.
    pub black_sow: bool,
    /// Throw in with that many nines.
    pub throw_in_nines: Option<u8>,
    /// Throw in with that many kings.
    pub throw_in_kings: Option<u8>,
    /// Throw in with at most that many trumps.
    pub throw_in_low_trumps: Option<u8>,
    /// Throw in with fewer card points than that.
    pub throw_in_low_points: Option<u8>,
    /// Re/Kontra scoring.
    pub re_kontra: ReKontra,
    /// Extra points scored in normal games.
    pub extra_points: ExtraSet,
    /// Points in the first trick that force an announcement.
    pub mandatory_announcement: Option<u8>,
    /// The forced announcement goes one level further where the party has
    /// announced already.
    pub mandatory_further: bool,
    /// Compulsory solos per player per session.
    pub compulsory_solos: u8,
    /// Deals per session (0 = open-ended).
    pub games_per_session: u8,
    /// Bock rounds.
    pub bock: bool,
    /// Seconds per turn (0 = none).
    pub turn_timeout: u32,
    /// Declared solos count double.
    pub solo_double: bool,
    /// Which of several solo bids of the same rank wins.
    pub solo_priority: SoloPriority,
    /// Announcements only on one's own turn.
    pub announce_on_turn: bool,
    /// Until when Re and Kontra may be announced.
    pub re_deadline: ReDeadline,
    /// What starts a round of Bock.
    pub bock_triggers: BockSet,
    /// Bock inside Bock: extend or stack.
    pub bock_stacking: BockStacking,
    /// Hints from the expert on a player's turn (`coach`), marked on the
    /// score sheet; off in every preset.
    pub coach: bool,
}

impl Rules {
    /// Cards per hand: 12, or 10 without nines.
    pub const fn hand_size(&self) -> usize {
        if self.nines { 12 } else { 10 }
    }
}
