//! Scoring per the DDV tournament rules, with the house-rule variants.
//!
//! Winning (DDV TSR 7.1): Re wins with 121 card points; Kontra with 120.
//! When only Kontra was announced, Kontra needs 121 and Re wins with 120.
//! A party's own Absage raises its target (no 90: the opponents below 90,
//! i.e. 151; no 60: 181; no 30: 211; schwarz: every trick) and lowers the
//! opponents' target to 90/60/30/one trick. When both parties made Absagen
//! it can happen that neither reaches its target: then there is no winner,
//! and each party is credited only what it achieved (opponents below
//! 90/60/30/schwarz, 120/90/60/30 reached against the opponents' Absage)
//! plus its extra points, netted; nothing for "won" or for announcing.
//!
//! Game value (7.2), for the winner: won 1; opponents under 90, 60, 30,
//! schwarz 1 each; Re announced 2; Kontra announced 2 (or each doubles,
//! house rule); each Absage by either party 1; 120 against no 90, 90
//! against no 60, 60 against no 30, 30 against schwarz 1 each. Extra
//! points (normal games only: against the elders, Doppelkopf, fox,
//! Charlie and the house extras) are netted against each other and the
//! difference is added to the winner's value, which can therefore end at
//! zero or below. A solo's declarer scores three times the value.

use std::fmt;

use crate::announce::Level;
use crate::card::Card;
use crate::contract::Contract;
use crate::game::Game;
use crate::phase::Phase;
use crate::rules::{Extra, ReKontra};
use crate::seat::{Party, Seat};

/// Why points were scored.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Game won.
    Won,
    /// Opponents under 90.
    Under90,
    /// Opponents under 60.
    Under60,
    /// Opponents under 30.
    Under30,
    /// Opponents took no trick.
    Schwarz,
    /// Re was announced (+2).
    AnnouncedRe,
    /// Kontra was announced (+2).
    AnnouncedKontra,
    /// Re doubled the value (house rule `re_kontra doubles`).
    ReDoubles,
    /// Kontra doubled the value.
    KontraDoubles,
    /// No 90 was announced.
    AnnouncedNo90,
    /// No 60 was announced.
    AnnouncedNo60,
    /// No 30 was announced.
    AnnouncedNo30,
    /// Schwarz was announced.
    AnnouncedSchwarz,
    /// 120 reached against the opponents' no 90.
    Reached120AgainstNo90,
    /// 90 reached against no 60.
    Reached90AgainstNo60,
    /// 60 reached against no 30.
    Reached60AgainstNo30,
    /// 30 reached against schwarz.
    Reached30AgainstSchwarz,
    /// Extra point: Kontra won against the queens of clubs.
    AgainstTheElders,
    /// Extra point: a trick of 40 or more.
    Doppelkopf,
    /// Extra point: an opponent's fox caught.
    Fox,
    /// House extra: the fox was caught in the last trick.
    FoxLastTrick,
    /// Extra point: the last trick won with a jack of clubs.
    Charlie,
    /// House extra: an opponent's jack of clubs caught in the last trick.
    CharlieCaught,
    /// House extra: a fox caught in the first trick.
    FoxFirstTrick,
    /// House extra: an opponent's hearts ten caught.
    DulleCaught,
    /// House extra: without nines, a trick of both hearts aces and kings.
    HeartTrick,
    /// House extra: an opponent's jack of clubs caught in the last trick
    /// by a queen of diamonds.
    LizzieMiller,
    /// House rule `solo_double`: a declared solo counts double (the item
    /// is the value before doubling).
    SoloDouble,
}

impl Reason {
    /// The JSON name (`won`, `under_90`, `announced_re`, `fox`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Reason::Won => "won",
            Reason::Under90 => "under_90",
            Reason::Under60 => "under_60",
            Reason::Under30 => "under_30",
            Reason::Schwarz => "schwarz",
            Reason::AnnouncedRe => "announced_re",
            Reason::AnnouncedKontra => "announced_kontra",
            Reason::ReDoubles => "re_doubles",
            Reason::KontraDoubles => "kontra_doubles",
            Reason::AnnouncedNo90 => "announced_no90",
            Reason::AnnouncedNo60 => "announced_no60",
            Reason::AnnouncedNo30 => "announced_no30",
            Reason::AnnouncedSchwarz => "announced_schwarz",
            Reason::Reached120AgainstNo90 => "reached_120_against_no90",
            Reason::Reached90AgainstNo60 => "reached_90_against_no60",
            Reason::Reached60AgainstNo30 => "reached_60_against_no30",
            Reason::Reached30AgainstSchwarz => "reached_30_against_schwarz",
            Reason::AgainstTheElders => "against_the_elders",
            Reason::Doppelkopf => "doppelkopf",
            Reason::Fox => "fox",
            Reason::FoxLastTrick => "fox_last_trick",
            Reason::Charlie => "charlie",
            Reason::CharlieCaught => "charlie_caught",
            Reason::FoxFirstTrick => "fox_first_trick",
            Reason::DulleCaught => "dulle_caught",
            Reason::HeartTrick => "heart_trick",
            Reason::LizzieMiller => "lizzie_miller",
            Reason::SoloDouble => "solo_double",
        }
    }

    /// Whether this is an extra point (Sonderpunkt).
    pub const fn is_extra(self) -> bool {
        matches!(
            self,
            Reason::AgainstTheElders
                | Reason::Doppelkopf
                | Reason::Fox
                | Reason::FoxLastTrick
                | Reason::Charlie
                | Reason::CharlieCaught
                | Reason::FoxFirstTrick
                | Reason::DulleCaught
                | Reason::HeartTrick
                | Reason::LizzieMiller
        )
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One line of the breakdown: `points` for `party`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Item {
    /// Why.
    pub reason: Reason,
    /// The party credited.
    pub party: Party,
    /// How many points (positive).
    pub points: i32,
}

const MAX_ITEMS: usize = 48;

/// The items of a score, without heap allocation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Breakdown {
    items: [Item; MAX_ITEMS],
    len: u8,
}

impl Breakdown {
    fn new() -> Breakdown {
        Breakdown { items: [Item { reason: Reason::Won, party: Party::Re, points: 0 }; MAX_ITEMS], len: 0 }
    }
    fn push(&mut self, reason: Reason, party: Party, points: i32) {
        self.items[self.len as usize] = Item { reason, party, points };
        self.len += 1;
    }
    /// The items in order.
    pub fn items(&self) -> &[Item] {
        &self.items[..self.len as usize]
    }
}

/// Where scoring puts the items of a score: a full score's breakdown, or
/// only their net value ([`Net`], for random playouts and search).
trait Items {
    /// One item: `points` for `party`.
    fn push(&mut self, reason: Reason, party: Party, points: i32);
    /// One item of one point for `party` where `cond` holds: a net value
    /// adds it without a branch (the thresholds are met or not at random).
    #[inline(always)]
    fn push_if(&mut self, cond: bool, reason: Reason, party: Party) {
        if cond {
            self.push(reason, party, 1);
        }
    }
    /// The points of the items so far, whoever they are for (what
    /// `re_kontra doubles` doubles).
    fn total(&self) -> i32;
}

impl Items for Breakdown {
    #[inline]
    fn push(&mut self, reason: Reason, party: Party, points: i32) {
        Breakdown::push(self, reason, party, points);
    }
    #[inline]
    fn total(&self) -> i32 {
        self.items().iter().map(|it| it.points).sum()
    }
}

/// The items of a score netted for one party as they are pushed: what
/// [`fill`] makes of a breakdown's items, without the breakdown.
struct Net {
    /// The party the value is for (the winner, else Re).
    persp: Party,
    /// The items' points, for `persp` and against it.
    value: i32,
    /// The items' points, whoever they are for.
    total: i32,
}

impl Items for Net {
    #[inline]
    fn push(&mut self, _: Reason, party: Party, points: i32) {
        self.total += points;
        self.value += if party == self.persp { points } else { -points };
    }
    #[inline(always)]
    fn push_if(&mut self, cond: bool, reason: Reason, party: Party) {
        self.push(reason, party, i32::from(cond));
    }
    #[inline]
    fn total(&self) -> i32 {
        self.total
    }
}

/// Where the trick-based extra points go: a full score's list
/// ([`Extras`]), or a count per party (`[re, kontra]`).
trait ExtraItems {
    /// One extra point for a party.
    fn push(&mut self, reason: Reason, party: Party);
    /// One extra point for a party where `cond` holds: a count adds it
    /// without a branch.
    #[inline(always)]
    fn push_if(&mut self, cond: bool, reason: Reason, party: Party) {
        if cond {
            self.push(reason, party);
        }
    }
}

impl ExtraItems for Extras {
    #[inline]
    fn push(&mut self, reason: Reason, party: Party) {
        Extras::push(self, reason, party);
    }
}

impl ExtraItems for [i32; 2] {
    #[inline]
    fn push(&mut self, _: Reason, party: Party) {
        self[party.index()] += 1;
    }
    #[inline(always)]
    fn push_if(&mut self, cond: bool, _: Reason, party: Party) {
        self[party.index()] += i32::from(cond);
    }
}

/// The score of a finished deal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    /// The winning party, or `None` when neither reached its target.
    pub winner: Option<Party>,
    /// The value for the winner before the solo factor (for no winner:
    /// the net value for Re). May be zero or negative after netting extra
    /// points.
    pub game_value: i32,
    /// What makes up the value.
    pub breakdown: Breakdown,
    /// Points per seat; they sum to zero.
    pub scores: [i32; 4],
    /// Card points `[re, kontra]`; they sum to 240.
    pub card_points: [u32; 2],
    /// Tricks won `[re, kontra]`.
    pub tricks_won: [u32; 2],
}

/// What a party needs to win, given both parties' announcements.
fn reaches_target(own: u32, own_tricks: u32, opp: u32, opp_tricks: u32, levels: [Option<Level>; 2], p: Party) -> bool {
    let mine = levels[p.index()];
    let theirs = levels[p.other().index()];
    // own Absagen must hold
    if let Some(l) = mine {
        let ok = match l {
            Level::Win => true,
            Level::Schwarz => opp_tricks == 0,
            _ => opp < l.limit().expect("absage has a limit"),
        };
        if !ok {
            return false;
        }
    }
    // basic target, lowered by the opponents' Absage
    match theirs {
        Some(Level::No90) => own >= 90,
        Some(Level::No60) => own >= 60,
        Some(Level::No30) => own >= 30,
        Some(Level::Schwarz) => own_tricks > 0,
        _ => {
            let only_kontra = levels[0].is_none() && levels[1].is_some();
            match p {
                Party::Re => own >= if only_kontra { 120 } else { 121 },
                Party::Kontra => own >= if only_kontra { 121 } else { 120 },
            }
        }
    }
}

/// The facts a score is computed from: everything scoring needs to know
/// about a finished deal, and nothing else.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Facts {
    /// Bit per seat: the Re seats. One bit: a 1-vs-3 game (soloist x3).
    pub re: u8,
    /// Whether extra points apply (a normal game, wedding with partner or
    /// poverty; not a solo, silent solo or wedding without partner).
    pub normal_game: bool,
    /// The highest level each party announced, `[re, kontra]`.
    pub levels: [Option<Level>; 2],
    /// Card points `[re, kontra]`.
    pub card_points: [u32; 2],
    /// Tricks won `[re, kontra]`.
    pub tricks_won: [u32; 2],
    /// How Re and Kontra raise the value.
    pub re_kontra: ReKontra,
    /// Whether "against the elders" is scored.
    pub against_the_elders: bool,
    /// The trick-based extra points (Doppelkopf, fox, Charlie, ...) with
    /// the party they are for, in trick order.
    pub extras: Extras,
}

/// Trick-based extra points of a deal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Extras {
    items: [(Reason, Party); 32],
    len: u8,
}

impl Default for Extras {
    fn default() -> Extras {
        Extras { items: [(Reason::Fox, Party::Re); 32], len: 0 }
    }
}

impl Extras {
    /// Adds one extra point for a party.
    pub fn push(&mut self, reason: Reason, party: Party) {
        if (self.len as usize) < self.items.len() {
            self.items[self.len as usize] = (reason, party);
            self.len += 1;
        }
    }
    /// The extra points in order.
    pub fn items(&self) -> &[(Reason, Party)] {
        &self.items[..self.len as usize]
    }
}

impl Facts {
    /// Facts of a plain 2:2 normal game (Re = seats 0 and 2) under DDV
    /// rules, for building examples.
    pub fn normal(re_points: u32, re_tricks: u32) -> Facts {
        Facts {
            re: 0b0101,
            normal_game: true,
            levels: [None, None],
            card_points: [re_points, 240 - re_points],
            tricks_won: [re_tricks, 12 - re_tricks],
            re_kontra: ReKontra::PlusTwo,
            against_the_elders: true,
            extras: Extras::default(),
        }
    }
}

impl Game {
    /// The score, once all tricks are played.
    #[inline]
    pub fn score(&self) -> Option<Score> {
        if self.phase() == Phase::Finished { Some(score(self)) } else { None }
    }
    /// One seat's points once the game is finished: `score()`'s
    /// `scores[seat]`, found without writing the score's breakdown (for
    /// random playouts and searches, which read only the points).
    pub fn seat_score(&self, seat: Seat) -> Option<i32> {
        if self.phase() == Phase::Finished { Some(seat_score(self, seat)) } else { None }
    }
}

/// Scores a finished game (for one seat's points alone, [`seat_score`]).
#[inline]
pub(crate) fn score(g: &Game) -> Score {
    let mut facts = facts(g);
    if facts.normal_game {
        trick_extras(g, &mut facts.extras);
    }
    let mut s = Score::blank(&facts);
    fill(&facts, &mut s);
    // house rule: a declared solo (and a Schwarze Sau's) counts double
    // (one more item of the value so far, so the breakdown still sums to
    // the game value)
    if doubled_solo(g) && s.game_value != 0 {
        let persp = s.winner.unwrap_or(Party::Re);
        let (party, points) = if s.game_value > 0 { (persp, s.game_value) } else { (persp.other(), -s.game_value) };
        s.breakdown.push(Reason::SoloDouble, party, points);
        s.game_value *= 2;
        for x in &mut s.scores {
            *x *= 2;
        }
    }
    s
}

/// A seat's points for a finished game, as [`score`] gives them
/// (`scores[seat]`), from the same items netted as they are found, with
/// no breakdown written: the random games' and the searches' score.
#[inline]
pub(crate) fn seat_score(g: &Game, seat: Seat) -> i32 {
    let facts = facts(g);
    let mut extras = [0i32; 2];
    if facts.normal_game {
        trick_extras(g, &mut extras);
    }
    let winner = winner(&facts);
    let persp = winner.unwrap_or(Party::Re);
    let mut net = Net { persp, value: 0, total: 0 };
    items(&facts, winner, &mut net);
    // the extra points come last (as `fill` pushes them): nothing after
    // them reads the total
    let mut value = net.value + extras[persp.index()] - extras[persp.other().index()];
    if doubled_solo(g) {
        value *= 2;
    }
    seat_scores(facts.re, persp, value)[seat.index()]
}

/// Whether the house rule `solo_double` doubles this game's value (a
/// declared solo or a Schwarze Sau's).
#[inline]
fn doubled_solo(g: &Game) -> bool {
    g.rules().solo_double && matches!(g.contract(), Contract::Solo(_) | Contract::BlackSow(_))
}

/// A finished game's facts, its trick-based extra points not yet found.
#[inline]
fn facts(g: &Game) -> Facts {
    // by seat first, then by party: a trick's party is not looked up
    let mut seat_points = [0u32; 4];
    let mut seat_tricks = [0u32; 4];
    for t in g.tricks() {
        let w = t.winner.index();
        seat_points[w] += t.points();
        seat_tricks[w] += 1;
    }
    let mut re = 0u8;
    let mut card_points = [0u32; 2];
    let mut tricks_won = [0u32; 2];
    for s in Seat::ALL {
        let p = g.party(s);
        if p == Party::Re {
            re |= 1 << s.index();
        }
        card_points[p.index()] += seat_points[s.index()];
        tricks_won[p.index()] += seat_tricks[s.index()];
    }
    Facts {
        re,
        normal_game: !g.is_solo(),
        levels: g.levels(),
        card_points,
        tricks_won,
        re_kontra: g.rules().re_kontra,
        against_the_elders: g.rules().extra_points.contains(Extra::AgainstTheElders),
        extras: Extras::default(),
    }
}

/// Scores from facts: decides the winner, lists every item and nets the
/// extra points (see the module documentation for the rules).
///
/// ```
/// use doko_engine::{Facts, Party, evaluate};
/// // No announcements, Re wins with 131: +1 for each Re player.
/// let s = evaluate(&Facts::normal(131, 7));
/// assert_eq!(s.winner, Some(Party::Re));
/// assert_eq!(s.scores, [1, -1, 1, -1]);
/// ```
#[inline]
pub fn evaluate(f: &Facts) -> Score {
    let mut score = Score::blank(f);
    fill(f, &mut score);
    score
}

impl Score {
    /// A score of nothing yet for the facts: no winner, no item.
    #[inline]
    fn blank(f: &Facts) -> Score {
        Score {
            winner: None,
            game_value: 0,
            breakdown: Breakdown::new(),
            scores: [0; 4],
            card_points: f.card_points,
            tricks_won: f.tricks_won,
        }
    }
}

/// [`evaluate`] into a blank score (the caller's, so that the score's
/// some 400 bytes are not copied on their way out).
#[inline]
fn fill(f: &Facts, score: &mut Score) {
    let winner = winner(f);
    score.winner = winner;
    items(f, winner, &mut score.breakdown);
    let persp = winner.unwrap_or(Party::Re);
    let game_value: i32 =
        score.breakdown.items().iter().map(|it| if it.party == persp { it.points } else { -it.points }).sum();
    score.scores = seat_scores(f.re, persp, game_value);
    score.game_value = game_value;
}

/// The party that reaches its target (Re first), if any.
#[inline]
fn winner(f: &Facts) -> Option<Party> {
    let (card_points, tricks_won, levels) = (f.card_points, f.tricks_won, f.levels);
    let reach = |p: Party| {
        let (i, o) = (p.index(), p.other().index());
        reaches_target(card_points[i], tricks_won[i], card_points[o], tricks_won[o], levels, p)
    };
    if reach(Party::Re) {
        Some(Party::Re)
    } else if reach(Party::Kontra) {
        Some(Party::Kontra)
    } else {
        None
    }
}

/// Each seat's points for a game value for `persp`: the members of the
/// other party lose it, the lone player of a 1:3 game scores three times.
#[inline]
fn seat_scores(re: u8, persp: Party, game_value: i32) -> [i32; 4] {
    let mut scores = [0; 4];
    let re_count = re.count_ones() as i32;
    for s in Seat::ALL {
        let p = if re & (1 << s.index()) != 0 { Party::Re } else { Party::Kontra };
        let sign = if p == persp { 1 } else { -1 };
        let members = if p == Party::Re { re_count } else { 4 - re_count };
        // the lone player of a 1:3 game scores three times
        let factor = if members == 1 { 3 } else { 1 };
        scores[s.index()] = sign * game_value * factor;
    }
    scores
}

/// Every item of a score, in order, for the winner `winner` (see the
/// module documentation for the rules).
#[inline]
fn items<I: Items>(f: &Facts, winner: Option<Party>, b: &mut I) {
    let card_points = f.card_points;
    let tricks_won = f.tricks_won;
    let levels = f.levels;
    // Threshold items for a party against the other.
    let thresholds = |b: &mut I, p: Party| {
        let (i, o) = (p.index(), p.other().index());
        let opp = card_points[o];
        b.push_if(opp < 90, Reason::Under90, p);
        b.push_if(opp < 60, Reason::Under60, p);
        b.push_if(opp < 30, Reason::Under30, p);
        b.push_if(tricks_won[o] == 0, Reason::Schwarz, p);
        let own = card_points[i];
        if let Some(ol) = levels[o] {
            let against = [
                (Level::No90, 120, Reason::Reached120AgainstNo90),
                (Level::No60, 90, Reason::Reached90AgainstNo60),
                (Level::No30, 60, Reason::Reached60AgainstNo30),
            ];
            for (l, need, r) in against {
                b.push_if((ol >= l) & (own >= need), r, p);
            }
            b.push_if((ol >= Level::Schwarz) & (own >= 30), Reason::Reached30AgainstSchwarz, p);
        }
    };

    match winner {
        Some(w) => {
            b.push(Reason::Won, w, 1);
            thresholds(b, w);
            for p in [Party::Re, Party::Kontra] {
                if let Some(l) = levels[p.index()] {
                    let abs = [
                        (Level::No90, Reason::AnnouncedNo90),
                        (Level::No60, Reason::AnnouncedNo60),
                        (Level::No30, Reason::AnnouncedNo30),
                        (Level::Schwarz, Reason::AnnouncedSchwarz),
                    ];
                    for (al, r) in abs {
                        if l >= al {
                            b.push(r, w, 1);
                        }
                    }
                }
            }
            match f.re_kontra {
                ReKontra::PlusTwo => {
                    if levels[0].is_some() {
                        b.push(Reason::AnnouncedRe, w, 2);
                    }
                    if levels[1].is_some() {
                        b.push(Reason::AnnouncedKontra, w, 2);
                    }
                }
                ReKontra::Doubles => {
                    let base = b.total();
                    let mut v = base;
                    if levels[0].is_some() {
                        b.push(Reason::ReDoubles, w, v);
                        v *= 2;
                    }
                    if levels[1].is_some() {
                        b.push(Reason::KontraDoubles, w, v);
                    }
                }
            }
        }
        None => {
            thresholds(b, Party::Re);
            thresholds(b, Party::Kontra);
        }
    }

    if f.normal_game {
        if winner == Some(Party::Kontra) && f.against_the_elders {
            b.push(Reason::AgainstTheElders, Party::Kontra, 1);
        }
        for (r, p) in f.extras.items() {
            b.push(*r, *p, 1);
        }
    }
}

#[inline]
fn trick_extras(g: &Game, b: &mut impl ExtraItems) {
    let ex = g.rules().extra_points;
    let tricks = g.tricks();
    let n = tricks.len();
    let doppelkopf = ex.contains(Extra::Doppelkopf);
    let heart_trick = ex.contains(Extra::HeartTrick) && !g.rules().nines;
    let charlie = ex.contains(Extra::Charlie);
    // the cards whose capture can score, in any trick and in the last:
    // most tricks hold none and skip the look at each card's owner
    let bit = |c: Card| 1u32 << c.index();
    let foxes = ex.contains(Extra::Fox) || ex.contains(Extra::FoxLastTrick) || ex.contains(Extra::FoxFirstTrick);
    let dullen = ex.contains(Extra::DulleCaught) && g.order().has_dulle();
    let every = if foxes { bit(Card::DA) } else { 0 } | if dullen { bit(Card::H10) } else { 0 };
    let charlies = ex.contains(Extra::CharlieCaught) || ex.contains(Extra::LizzieMiller);
    let in_last = every | if charlies { bit(Card::CJ) } else { 0 };
    for (ti, t) in tricks.iter().enumerate() {
        let wp = g.party(t.winner);
        let last = ti + 1 == n;
        if doppelkopf {
            b.push_if(t.points() >= 40, Reason::Doppelkopf, wp);
        }
        let held = bit(t.cards[0]) | bit(t.cards[1]) | bit(t.cards[2]) | bit(t.cards[3]);
        let watched = if last { in_last } else { every };
        for (i, c) in t.cards.iter().enumerate().filter(|_| held & watched != 0) {
            // whether this card is caught is as random as the cards: each
            // item is pushed where it holds (a count adds it without a
            // branch), in the order a breakdown lists them
            let caught = g.party(t.player(i)) != wp;
            let fox = (*c == Card::DA) & caught;
            if ex.contains(Extra::Fox) {
                b.push_if(fox, Reason::Fox, wp);
            }
            // in the last (first) trick: 2 in all, one more than `fox`,
            // or both where `fox` is not scored
            for (here, extra, reason) in [
                (last, Extra::FoxLastTrick, Reason::FoxLastTrick),
                (ti == 0, Extra::FoxFirstTrick, Reason::FoxFirstTrick),
            ] {
                if here && ex.contains(extra) {
                    b.push_if(fox, reason, wp);
                    if !ex.contains(Extra::Fox) {
                        b.push_if(fox, reason, wp);
                    }
                }
            }
            if dullen {
                b.push_if((*c == Card::H10) & caught, Reason::DulleCaught, wp);
            }
            if last {
                let charlie_caught = (*c == Card::CJ) & caught;
                if ex.contains(Extra::CharlieCaught) {
                    b.push_if(charlie_caught, Reason::CharlieCaught, wp);
                }
                if ex.contains(Extra::LizzieMiller) {
                    b.push_if(charlie_caught && t.winning_card() == Card::DQ, Reason::LizzieMiller, wp);
                }
            }
        }
        if heart_trick
            && t.cards.iter().all(|c| *c == Card::HA || *c == Card::HK)
            && t.cards.iter().filter(|c| **c == Card::HA).count() == 2
        {
            b.push(Reason::HeartTrick, wp);
        }
        if last && charlie {
            b.push_if(t.winning_card() == Card::CJ, Reason::Charlie, wp);
        }
    }
}
