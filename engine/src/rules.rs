//! House rules: the option keys of `house-rules.md`, their values, the
//! `ddv` and `casual` presets, and validation with helpful messages.

use std::fmt;

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

/// Which of several solo bids of the same rank wins the bidding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SoloPriority {
    /// The first in bidding order, from forehand (DDV).
    First,
    /// The last in bidding order (the end of the auction has priority).
    Last,
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

/// What a Bock trigger during Bock deals does (`bock_stacking`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BockStacking {
    /// The new round is played after the Bock deals still pending.
    Extend,
    /// The new round starts with the next deal; a deal two rounds cover
    /// counts four times (Doppelbock), three rounds eight times.
    Stack,
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
            .ok_or_else(|| RuleError::UnknownPreset(crate::quote::quoted(name)))
    }
}

/// A house-rule problem: unknown key, value outside its set, unknown preset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The key is not one of the house-rule keys.
    #[error("unknown rule '{key}'; the rules are: {}", KEYS.iter().map(|k| k.name).collect::<Vec<_>>().join(", "))]
    UnknownKey {
        /// What was given.
        key: String,
    },
    /// The value is not allowed for the key.
    #[error("'{value}' is not a value of {key}; allowed: {allowed}")]
    BadValue {
        /// The key.
        key: &'static str,
        /// What was given.
        value: String,
        /// The allowed values.
        allowed: &'static str,
    },
    /// No such preset.
    #[error("unknown preset '{0}'; presets: ddv, casual, sharp, freedoko")]
    UnknownPreset(String),
}

/// How a key's value is written in a record's `rules` object (JSON). A
/// record is read strictly: a value of another JSON type is refused, never
/// read as something else (`"poverty": true`, `"poverty_max_trumps": "3"`,
/// `"extra_points": "fox"` are refused).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A JSON boolean: `true`, `false`.
    Bool,
    /// The string `"on"` or `"off"`.
    OnOff,
    /// A JSON number in the key's range.
    Number,
    /// The string `"off"` or a JSON number in the key's range.
    OffOrNumber,
    /// One of the key's words, as a string.
    Word,
    /// A list of the key's words (strings), none repeated; `[]` for none.
    List,
}

impl ValueKind {
    /// How the value is written, for the spec table.
    pub const fn json(self) -> &'static str {
        match self {
            ValueKind::Bool => "boolean",
            ValueKind::OnOff => "string `on`/`off`",
            ValueKind::Number => "number",
            ValueKind::OffOrNumber => "string `off` or number",
            ValueKind::Word => "string",
            ValueKind::List => "list of strings",
        }
    }
}

/// A house-rule key with its allowed values and meaning.
#[derive(Copy, Clone, Debug)]
pub struct KeyInfo {
    /// The key as admins type it.
    pub name: &'static str,
    /// The allowed values, for messages and help.
    pub allowed: &'static str,
    /// One line on what it means.
    pub meaning: &'static str,
    /// How a record writes its value.
    pub kind: ValueKind,
}

impl KeyInfo {
    /// The key of that name (exactly as [`KEYS`] writes it).
    pub fn named(name: &str) -> Option<&'static KeyInfo> {
        KEYS.iter().find(|k| k.name == name)
    }
}

/// Every house-rule key, in the order of the spec.
pub const KEYS: &[KeyInfo] = &[
    KeyInfo {
        name: "nines",
        allowed: "true, false",
        meaning: "48 cards; false plays the 40-card game without nines",
        kind: ValueKind::Bool,
    },
    KeyInfo {
        name: "dulle",
        allowed: "first-wins, second-wins, second-wins-except-last",
        meaning: "which of two hearts tens in one trick wins",
        kind: ValueKind::Word,
    },
    KeyInfo {
        name: "dullen",
        allowed: "on, off",
        meaning: "off: the hearts tens are no trumps but plain hearts cards between ace and king (in a hearts solo a hearts trump there); the dulle rule and dulle-caught then do not apply",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "solos",
        allowed: "a list of diamonds hearts spades clubs queens jacks aces kings, none repeated (or none)",
        meaning: "solo kinds that may be bid",
        kind: ValueKind::List,
    },
    KeyInfo {
        name: "soloist_leads",
        allowed: "true, false",
        meaning: "a free solo's declarer leads the first trick (a compulsory solo's always does)",
        kind: ValueKind::Bool,
    },
    KeyInfo {
        name: "wedding",
        allowed: "first-foreign, first-fail, first-trump",
        meaning: "which trick within the first three decides the wedding partner",
        kind: ValueKind::Word,
    },
    KeyInfo {
        name: "wedding_choose",
        allowed: "off, on",
        meaning: "the wedding player names the clarification trick with the bid: wedding-first-foreign, wedding-first-fail or wedding-first-trump (a plain wedding bid keeps the wedding key's)",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "poverty",
        allowed: "off, on",
        meaning: "a player with at most poverty_max_trumps trumps may declare poverty",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "poverty_max_trumps",
        allowed: "0 to 5",
        meaning: "the most trumps a poverty hand may hold",
        kind: ValueKind::Number,
    },
    KeyInfo {
        name: "poverty_fox_counts",
        allowed: "on, off",
        meaning: "whether the aces of diamonds (foxes) count as trumps for poverty_max_trumps (the pauper puts them down all the same)",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "poverty_return_trumps",
        allowed: "on, off",
        meaning: "whether the player who takes a poverty may give trumps back (off: only where too few other cards are left)",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "piglets",
        allowed: "off, on",
        meaning: "both aces of diamonds in one hand become the highest trumps",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "superpiglets",
        allowed: "off, on",
        meaning: "with piglets, both nines (without nines: kings) of diamonds in one hand rank above the piglets",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "piglets_first_only",
        allowed: "off, on",
        meaning: "with piglets, only the first fox played is a piglet; once its trick is over the other ranks as a plain fox again",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "piglets_when",
        allowed: "deal, play",
        meaning: "with piglets: deal, both foxes in one hand rank highest from the deal on; play, only once their holder says piglets during play (superpiglets likewise, after piglets)",
        kind: ValueKind::Word,
    },
    KeyInfo {
        name: "piglets_announce",
        allowed: "off, on",
        meaning: "with piglets: their holder must announce (Re or Kontra for its party) before playing on, once the piglets count, unless its party has announced (not in a wedding before it is clarified)",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "half_chicken",
        allowed: "off, on",
        meaning: "a player holding both tens of diamonds may say half a chicken during play; it changes nothing and is shown at the table",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "genscher",
        allowed: "off, on",
        meaning: "in a normal game (or a clarified wedding) the holder of both kings of diamonds may, playing the first of them, name any other player as partner: the two form its party (keeping its name), the other two the other; announcements stay with the party names, and the deal is scored by the parties at its end",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "black_sow",
        allowed: "off, on",
        meaning: "with poverty: when every player declines a poverty, the deal is played instead of dealt again, everyone for themselves until the second queen of spades falls; whoever takes that trick chooses a solo (one the rules allow), played from the next trick on and scored as a solo with every trick taken so far (Schwarze Sau; without allowed solos, or in the last trick, the taker plays alone in the normal order)",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "throw_in_nines",
        allowed: "off, 5 to 8",
        meaning: "a hand with that many nines may be thrown in; the same dealer redeals",
        kind: ValueKind::OffOrNumber,
    },
    KeyInfo {
        name: "throw_in_kings",
        allowed: "off, 5 to 8",
        meaning: "likewise for kings",
        kind: ValueKind::OffOrNumber,
    },
    KeyInfo {
        name: "throw_in_low_trumps",
        allowed: "off, 0 to 3",
        meaning: "a hand with at most that many trumps (of a normal game) may be thrown in",
        kind: ValueKind::OffOrNumber,
    },
    KeyInfo {
        name: "throw_in_low_points",
        allowed: "off, 10 to 60",
        meaning: "a hand of fewer card points than that may be thrown in",
        kind: ValueKind::OffOrNumber,
    },
    KeyInfo {
        name: "re_kontra",
        allowed: "plus-two, doubles",
        meaning: "how Re and Kontra raise the game value",
        kind: ValueKind::Word,
    },
    KeyInfo {
        name: "extra_points",
        allowed: "a list of against-the-elders doppelkopf fox charlie fox-last-trick charlie-caught fox-first-trick dulle-caught heart-trick lizzie-miller, none repeated, not both charlie-caught and lizzie-miller (or none)",
        meaning: "which extra points are scored (normal games only); fox-last-trick and fox-first-trick: a fox caught in that trick counts 2 in all; dulle-caught: an opponent's hearts ten caught; heart-trick: without nines, a trick of both hearts aces and kings; lizzie-miller: charlie-caught only by a queen of diamonds",
        kind: ValueKind::List,
    },
    KeyInfo {
        name: "mandatory_announcement",
        allowed: "off, 30 to 40",
        meaning: "taking that many points in the first trick forces an announcement",
        kind: ValueKind::OffOrNumber,
    },
    KeyInfo {
        name: "mandatory_further",
        allowed: "off, on",
        meaning: "with mandatory_announcement: a party that has announced already must announce one level further (no 90 after Re), where that is still allowed",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "compulsory_solos",
        allowed: "0 to 2",
        meaning: "compulsory solos per player per session",
        kind: ValueKind::Number,
    },
    KeyInfo {
        name: "games_per_session",
        allowed: "0 to 100 (0 = open-ended)",
        meaning: "deals in a session",
        kind: ValueKind::Number,
    },
    KeyInfo {
        name: "bock",
        allowed: "off, on",
        meaning: "after a trigger the next round of deals counts double",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "turn_timeout",
        allowed: "seconds, 0 to 86400 (0 = none)",
        meaning: "time a player has to act",
        kind: ValueKind::Number,
    },
    KeyInfo {
        name: "solo_double",
        allowed: "off, on",
        meaning: "a declared solo (free or compulsory) counts double, and so does a Schwarze Sau's; a silent solo and a wedding without partner do not",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "solo_priority",
        allowed: "first, last",
        meaning: "which of several solo bids of the same rank wins: the first in bidding order (from forehand) or the last",
        kind: ValueKind::Word,
    },
    KeyInfo {
        name: "announce_on_turn",
        allowed: "off, on",
        meaning: "announcements only by the player whose turn it is to play",
        kind: ValueKind::OnOff,
    },
    KeyInfo {
        name: "re_deadline",
        allowed: "before-second-card, before-first-card",
        meaning: "until when Re and Kontra may be announced: holding 11 cards (DDV) or all 12 (without nines 9 or 10); the reply comes one card later, the Absagen are unchanged",
        kind: ValueKind::Word,
    },
    KeyInfo {
        name: "bock_triggers",
        allowed: "a list of tie lost-re lost-kontra heart-trick lost-solo, none repeated (or none)",
        meaning: "with bock on, what starts a round of Bock: 120:120, a lost Re, a lost Kontra, a trick of four plain hearts cards, a lost declared solo",
        kind: ValueKind::List,
    },
    KeyInfo {
        name: "bock_stacking",
        allowed: "extend, stack",
        meaning: "with bock on, a trigger during Bock deals: extend plays the new round after the pending ones; stack starts it with the next deal, so deals two rounds cover count four times (Doppelbock)",
        kind: ValueKind::Word,
    },
];

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
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::preset(Preset::Ddv)
    }
}

fn onoff(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

/// The words of a list value (separated by spaces or commas), each one of
/// `all` by its `key`, none repeated; `none` adds nothing. `None`: a word
/// that is not one of them, or one repeated.
fn word_list<T: Copy + PartialEq>(v: &str, all: &[T], key: fn(T) -> &'static str) -> Option<Vec<T>> {
    let mut out: Vec<T> = Vec::new();
    for w in v.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty() && *w != "none") {
        let x = all.iter().copied().find(|x| key(*x) == w)?;
        if out.contains(&x) {
            return None;
        }
        out.push(x);
    }
    Some(out)
}

/// The text form of a list value: its words, or `none`.
fn list_text(words: impl Iterator<Item = &'static str>) -> String {
    let v: Vec<&str> = words.collect();
    if v.is_empty() { "none".to_string() } else { v.join(" ") }
}

fn opt_num(v: Option<u8>) -> String {
    v.map_or_else(|| "off".to_string(), |n| n.to_string())
}

impl Rules {
    /// The rule set of a preset.
    ///
    /// ```
    /// use doko_engine::{Preset, Rules};
    /// let r = Rules::preset(Preset::Casual);
    /// assert!(r.poverty && r.piglets && r.soloist_leads);
    /// assert_eq!(r.get("compulsory_solos").unwrap(), "0");
    /// ```
    pub fn preset(p: Preset) -> Rules {
        let mut solos = SoloSet::default();
        for k in SoloKind::ALL {
            if k != SoloKind::Kings {
                solos.insert(k);
            }
        }
        let mut extra = ExtraSet::default();
        for e in [Extra::AgainstTheElders, Extra::Doppelkopf, Extra::Fox, Extra::Charlie] {
            extra.insert(e);
        }
        let mut bock_triggers = BockSet::default();
        for t in [BockTrigger::Tie, BockTrigger::LostRe, BockTrigger::LostKontra] {
            bock_triggers.insert(t);
        }
        let ddv = Rules {
            preset: Preset::Ddv,
            nines: true,
            dulle: Dulle::FirstWins,
            dullen: true,
            solos,
            soloist_leads: false,
            wedding: WeddingRule::FirstForeign,
            wedding_choose: false,
            poverty: false,
            poverty_max_trumps: 3,
            poverty_fox_counts: true,
            poverty_return_trumps: true,
            piglets: false,
            superpiglets: false,
            piglets_first_only: false,
            piglets_when: PigletsWhen::Deal,
            piglets_announce: false,
            half_chicken: false,
            genscher: false,
            black_sow: false,
            throw_in_nines: None,
            throw_in_kings: None,
            throw_in_low_trumps: None,
            throw_in_low_points: None,
            re_kontra: ReKontra::PlusTwo,
            extra_points: extra,
            mandatory_announcement: None,
            mandatory_further: false,
            compulsory_solos: 1,
            games_per_session: 24,
            bock: false,
            turn_timeout: 0,
            solo_double: false,
            solo_priority: SoloPriority::First,
            announce_on_turn: false,
            re_deadline: ReDeadline::BeforeSecondCard,
            bock_triggers,
            bock_stacking: BockStacking::Extend,
        };
        match p {
            Preset::Ddv => ddv,
            Preset::Casual => {
                let mut extra = extra;
                extra.insert(Extra::FoxLastTrick);
                Rules {
                    preset: Preset::Casual,
                    poverty: true,
                    piglets: true,
                    soloist_leads: true,
                    extra_points: extra,
                    compulsory_solos: 0,
                    ..ddv
                }
            }
            Preset::Sharp => Rules { preset: Preset::Sharp, nines: false, mandatory_announcement: Some(30), ..ddv },
            Preset::Freedoko => {
                // FreeDoko's hard-coded defaults (src/party/rule.cpp,
                // Rule::reset_to_hardcoded)
                let mut extra = extra;
                extra.insert(Extra::FoxLastTrick);
                extra.insert(Extra::CharlieCaught);
                let mut all = solos;
                all.insert(SoloKind::Kings);
                let mut tie = BockSet::default();
                tie.insert(BockTrigger::Tie);
                Rules {
                    preset: Preset::Freedoko,
                    dulle: Dulle::SecondWins,
                    solos: all,
                    soloist_leads: true,
                    poverty: true,
                    piglets: true,
                    throw_in_nines: Some(5),
                    re_kontra: ReKontra::Doubles,
                    extra_points: extra,
                    compulsory_solos: 0,
                    games_per_session: 80,
                    bock: true,
                    bock_triggers: tie,
                    bock_stacking: BockStacking::Stack,
                    ..ddv
                }
            }
        }
    }

    /// Sets one option from its text form, as admins type it
    /// (`rules set dulle second-wins`).
    ///
    /// ```
    /// use doko_engine::Rules;
    /// let mut r = Rules::default();
    /// r.set("dulle", "second-wins").unwrap();
    /// let e = r.set("dulle", "third").unwrap_err();
    /// assert!(e.to_string().contains("first-wins, second-wins, second-wins-except-last"));
    /// ```
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RuleError> {
        let key_l = key.trim().to_ascii_lowercase().replace('-', "_");
        let info = KeyInfo::named(&key_l).ok_or_else(|| RuleError::UnknownKey { key: crate::quote::quoted(key) })?;
        let v = value.trim().to_ascii_lowercase();
        let bad = || RuleError::BadValue { key: info.name, value: crate::quote::quoted(value), allowed: info.allowed };
        let boolean = |v: &str| match v {
            "true" | "on" | "yes" | "1" => Ok(true),
            "false" | "off" | "no" | "0" => Ok(false),
            _ => Err(bad()),
        };
        let range = |v: &str, lo: u32, hi: u32| -> Result<u32, RuleError> {
            let n: u32 = v.parse().map_err(|_| bad())?;
            if (lo..=hi).contains(&n) { Ok(n) } else { Err(bad()) }
        };
        let off_or = |v: &str, lo: u32, hi: u32| -> Result<Option<u8>, RuleError> {
            if v == "off" || v == "false" { Ok(None) } else { Ok(Some(range(v, lo, hi)? as u8)) }
        };
        match info.name {
            "nines" => self.nines = boolean(&v)?,
            "dulle" => {
                self.dulle = match v.as_str() {
                    "first-wins" => Dulle::FirstWins,
                    "second-wins" => Dulle::SecondWins,
                    "second-wins-except-last" => Dulle::SecondWinsExceptLast,
                    _ => return Err(bad()),
                }
            }
            "solos" => {
                let mut s = SoloSet::default();
                for k in word_list(&v, &SoloKind::ALL, SoloKind::key).ok_or_else(bad)? {
                    s.insert(k);
                }
                self.solos = s;
            }
            "soloist_leads" => self.soloist_leads = boolean(&v)?,
            "dullen" => self.dullen = boolean(&v)?,
            "wedding" => self.wedding = WeddingRule::ALL.into_iter().find(|k| k.key() == v).ok_or_else(bad)?,
            "wedding_choose" => self.wedding_choose = boolean(&v)?,
            "poverty" => self.poverty = boolean(&v)?,
            "poverty_max_trumps" => self.poverty_max_trumps = range(&v, 0, 5)? as u8,
            "poverty_fox_counts" => self.poverty_fox_counts = boolean(&v)?,
            "poverty_return_trumps" => self.poverty_return_trumps = boolean(&v)?,
            "piglets" => self.piglets = boolean(&v)?,
            "superpiglets" => self.superpiglets = boolean(&v)?,
            "piglets_first_only" => self.piglets_first_only = boolean(&v)?,
            "piglets_when" => {
                self.piglets_when = match v.as_str() {
                    "deal" => PigletsWhen::Deal,
                    "play" => PigletsWhen::Play,
                    _ => return Err(bad()),
                }
            }
            "piglets_announce" => self.piglets_announce = boolean(&v)?,
            "half_chicken" => self.half_chicken = boolean(&v)?,
            "genscher" => self.genscher = boolean(&v)?,
            "black_sow" => self.black_sow = boolean(&v)?,
            "throw_in_nines" => self.throw_in_nines = off_or(&v, 5, 8)?,
            "throw_in_kings" => self.throw_in_kings = off_or(&v, 5, 8)?,
            "throw_in_low_trumps" => self.throw_in_low_trumps = off_or(&v, 0, 3)?,
            "throw_in_low_points" => self.throw_in_low_points = off_or(&v, 10, 60)?,
            "re_kontra" => {
                self.re_kontra = match v.as_str() {
                    "plus-two" => ReKontra::PlusTwo,
                    "doubles" => ReKontra::Doubles,
                    _ => return Err(bad()),
                }
            }
            "extra_points" => {
                let mut s = ExtraSet::default();
                for e in word_list(&v, &Extra::ALL, Extra::key).ok_or_else(bad)? {
                    s.insert(e);
                }
                if s.contains(Extra::CharlieCaught) && s.contains(Extra::LizzieMiller) {
                    return Err(bad());
                }
                self.extra_points = s;
            }
            "mandatory_announcement" => self.mandatory_announcement = off_or(&v, 30, 40)?,
            "mandatory_further" => self.mandatory_further = boolean(&v)?,
            "compulsory_solos" => self.compulsory_solos = range(&v, 0, 2)? as u8,
            "games_per_session" => self.games_per_session = range(&v, 0, 100)? as u8,
            "bock" => self.bock = boolean(&v)?,
            "turn_timeout" => self.turn_timeout = range(&v, 0, 86_400)?,
            "solo_double" => self.solo_double = boolean(&v)?,
            "solo_priority" => {
                self.solo_priority = match v.as_str() {
                    "first" => SoloPriority::First,
                    "last" => SoloPriority::Last,
                    _ => return Err(bad()),
                }
            }
            "announce_on_turn" => self.announce_on_turn = boolean(&v)?,
            "re_deadline" => {
                self.re_deadline = match v.as_str() {
                    "before-second-card" => ReDeadline::BeforeSecondCard,
                    "before-first-card" => ReDeadline::BeforeFirstCard,
                    _ => return Err(bad()),
                }
            }
            "bock_triggers" => {
                let mut s = BockSet::default();
                for t in word_list(&v, &BockTrigger::ALL, BockTrigger::key).ok_or_else(bad)? {
                    s.insert(t);
                }
                self.bock_triggers = s;
            }
            "bock_stacking" => {
                self.bock_stacking = match v.as_str() {
                    "extend" => BockStacking::Extend,
                    "stack" => BockStacking::Stack,
                    _ => return Err(bad()),
                }
            }
            _ => unreachable!("every key in KEYS is handled"),
        }
        Ok(())
    }

    /// The text form of one option's value.
    pub fn get(&self, key: &str) -> Result<String, RuleError> {
        let key_l = key.trim().to_ascii_lowercase().replace('-', "_");
        Ok(match key_l.as_str() {
            "nines" => self.nines.to_string(),
            "dulle" => match self.dulle {
                Dulle::FirstWins => "first-wins",
                Dulle::SecondWins => "second-wins",
                Dulle::SecondWinsExceptLast => "second-wins-except-last",
            }
            .to_string(),
            "solos" => list_text(self.solos.iter().map(|k| k.key())),
            "soloist_leads" => self.soloist_leads.to_string(),
            "dullen" => onoff(self.dullen),
            "wedding" => self.wedding.key().to_string(),
            "wedding_choose" => onoff(self.wedding_choose),
            "poverty" => onoff(self.poverty),
            "poverty_max_trumps" => self.poverty_max_trumps.to_string(),
            "poverty_fox_counts" => onoff(self.poverty_fox_counts),
            "poverty_return_trumps" => onoff(self.poverty_return_trumps),
            "piglets" => onoff(self.piglets),
            "superpiglets" => onoff(self.superpiglets),
            "piglets_first_only" => onoff(self.piglets_first_only),
            "piglets_when" => match self.piglets_when {
                PigletsWhen::Deal => "deal",
                PigletsWhen::Play => "play",
            }
            .to_string(),
            "piglets_announce" => onoff(self.piglets_announce),
            "half_chicken" => onoff(self.half_chicken),
            "genscher" => onoff(self.genscher),
            "black_sow" => onoff(self.black_sow),
            "throw_in_nines" => opt_num(self.throw_in_nines),
            "throw_in_kings" => opt_num(self.throw_in_kings),
            "throw_in_low_trumps" => opt_num(self.throw_in_low_trumps),
            "throw_in_low_points" => opt_num(self.throw_in_low_points),
            "re_kontra" => match self.re_kontra {
                ReKontra::PlusTwo => "plus-two",
                ReKontra::Doubles => "doubles",
            }
            .to_string(),
            "extra_points" => list_text(self.extra_points.iter().map(|e| e.key())),
            "mandatory_announcement" => opt_num(self.mandatory_announcement),
            "mandatory_further" => onoff(self.mandatory_further),
            "compulsory_solos" => self.compulsory_solos.to_string(),
            "games_per_session" => self.games_per_session.to_string(),
            "bock" => onoff(self.bock),
            "turn_timeout" => self.turn_timeout.to_string(),
            "solo_double" => onoff(self.solo_double),
            "solo_priority" => match self.solo_priority {
                SoloPriority::First => "first",
                SoloPriority::Last => "last",
            }
            .to_string(),
            "announce_on_turn" => onoff(self.announce_on_turn),
            "re_deadline" => match self.re_deadline {
                ReDeadline::BeforeSecondCard => "before-second-card",
                ReDeadline::BeforeFirstCard => "before-first-card",
            }
            .to_string(),
            "bock_triggers" => list_text(self.bock_triggers.iter().map(|t| t.key())),
            "bock_stacking" => match self.bock_stacking {
                BockStacking::Extend => "extend",
                BockStacking::Stack => "stack",
            }
            .to_string(),
            _ => return Err(RuleError::UnknownKey { key: crate::quote::quoted(key) }),
        })
    }

    /// Every option with its value and whether it differs from the preset.
    pub fn entries(&self) -> Vec<RuleEntry> {
        let base = Rules::preset(self.preset);
        KEYS.iter()
            .map(|k| {
                let value = self.get(k.name).expect("known key");
                let differs = value != base.get(k.name).expect("known key");
                RuleEntry { key: k.name, value, differs }
            })
            .collect()
    }

    /// The options that differ from the preset, as `(key, value)`.
    pub fn overrides(&self) -> Vec<(&'static str, String)> {
        // (the common case, without writing out every key's value)
        if *self == Rules::preset(self.preset) {
            return Vec::new();
        }
        self.entries().into_iter().filter(|e| e.differs).map(|e| (e.key, e.value)).collect()
    }

    /// Cards per hand: 12, or 10 without nines.
    pub const fn hand_size(&self) -> usize {
        if self.nines { 12 } else { 10 }
    }
}

/// The table of every key as `config/presets.md` has it (markdown): the
/// key, its value in each preset, the allowed values, how a record writes
/// it, and its meaning.
pub fn key_table() -> String {
    let presets = Preset::ALL.map(Rules::preset);
    let mut out = String::from("| key |");
    for p in Preset::ALL {
        out.push_str(&format!(" `{}` |", p.name()));
    }
    out.push_str(" allowed values | in a record | meaning |\n|---|");
    out.push_str(&"---|".repeat(Preset::ALL.len() + 3));
    out.push('\n');
    for k in KEYS {
        out.push_str(&format!("| `{}` |", k.name));
        for r in &presets {
            out.push_str(&format!(" {} |", r.get(k.name).expect("a key")));
        }
        out.push_str(&format!(" {} | {} | {} |\n", k.allowed, k.kind.json(), k.meaning));
    }
    out
}

/// One line of `rules show`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleEntry {
    /// The key.
    pub key: &'static str,
    /// Its value.
    pub value: String,
    /// Whether it differs from the preset.
    pub differs: bool,
}

impl fmt::Display for Rules {
    /// `rules show`: one line per option, `*` marking what differs from
    /// the preset.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "preset {}", self.preset.name())?;
        for e in self.entries() {
            writeln!(f, "{} {} = {}", if e.differs { "*" } else { " " }, e.key, e.value)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_round_trips_through_get_and_set() {
        for p in Preset::ALL {
            let r = Rules::preset(p);
            for k in KEYS {
                let v = r.get(k.name).unwrap();
                let mut r2 = Rules::preset(p);
                r2.set(k.name, &v).unwrap();
                assert_eq!(r, r2, "{}", k.name);
            }
        }
    }

    #[test]
    fn bad_values_list_the_allowed_ones() {
        let mut r = Rules::default();
        let cases = [
            ("nines", "maybe"),
            ("dulle", "x"),
            ("solos", "diamonds trumps"),
            ("wedding", "first"),
            ("poverty_max_trumps", "6"),
            ("throw_in_nines", "4"),
            ("throw_in_kings", "9"),
            ("re_kontra", "triples"),
            ("extra_points", "fox karlchen"),
            ("mandatory_announcement", "29"),
            ("compulsory_solos", "3"),
            ("games_per_session", "101"),
            ("turn_timeout", "-1"),
        ];
        for (k, v) in cases {
            let e = r.set(k, v).unwrap_err();
            match &e {
                RuleError::BadValue { allowed, .. } => assert!(e.to_string().contains(allowed)),
                other => panic!("{k}: {other:?}"),
            }
        }
        assert_eq!(r, Rules::default(), "a refused value changes nothing");
        assert!(matches!(r.set("foo", "1"), Err(RuleError::UnknownKey { .. })));
        assert!(r.set("foo", "1").unwrap_err().to_string().contains("dulle"));
    }

    #[test]
    fn sharp_and_freedoko_differ_where_they_should() {
        let d = Rules::preset(Preset::Ddv);
        let differs = |p: Preset| -> Vec<&str> {
            let r = Rules::preset(p);
            KEYS.iter().filter(|k| r.get(k.name).unwrap() != d.get(k.name).unwrap()).map(|k| k.name).collect()
        };
        assert_eq!(differs(Preset::Sharp), ["nines", "mandatory_announcement"]);
        assert_eq!(
            differs(Preset::Freedoko),
            [
                "dulle",
                "solos",
                "soloist_leads",
                "poverty",
                "piglets",
                "throw_in_nines",
                "re_kontra",
                "extra_points",
                "compulsory_solos",
                "games_per_session",
                "bock",
                "bock_triggers",
                "bock_stacking"
            ]
        );
        let f = Rules::preset(Preset::Freedoko);
        assert_eq!(f.get("dulle").unwrap(), "second-wins");
        assert_eq!(f.get("bock_triggers").unwrap(), "tie");
        assert_eq!(Preset::from_name("FreeDoko").unwrap(), Preset::Freedoko);
        // a record of a deal under each preset names it and reads back the same
        for p in Preset::ALL {
            let r = Rules::preset(p);
            assert_eq!(crate::record::rules_from_json(Some(&crate::record::rules_to_json(&r))).unwrap(), r);
        }
    }

    #[test]
    fn casual_differs_where_the_spec_says() {
        let c = Rules::preset(Preset::Casual);
        let mut diff: Vec<&str> = Vec::new();
        let d = Rules::preset(Preset::Ddv);
        for k in KEYS {
            if c.get(k.name).unwrap() != d.get(k.name).unwrap() {
                diff.push(k.name);
            }
        }
        assert_eq!(diff, ["soloist_leads", "poverty", "piglets", "extra_points", "compulsory_solos"]);
        assert!(c.extra_points.contains(Extra::FoxLastTrick));
    }
}
