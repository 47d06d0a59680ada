//! The house-rule keys: each key's allowed values, meaning and JSON form,
//! and the error naming a key or value that is not one of them.

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
    KeyInfo {
        name: "coach",
        allowed: "on, off",
        meaning: "on: a seated player may ask `hint` on their own turn and is told privately what the expert computer player would do and why; the table is told, and the score sheet marks the deal",
        kind: ValueKind::OnOff,
    },
];
