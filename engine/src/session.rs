//! A session: a list of deals played by four or five players under one
//! rule set, with its score sheet.
//!
//! The session owns the Doppelkopf rules that span deals:
//!
//! - **Dealer rotation.** Game seat `i` is player `dealer + 1 + i`; the
//!   dealer passes to the next player after each scored deal. With five
//!   players the dealer sits out.
//! - **Compulsory solos** (`rules.compulsory_solos` per player). A solo bid
//!   by a player who still owes one is their compulsory solo; after it the
//!   same dealer deals again. A silent solo does not count.
//! - **Vorführen.** When the deals left in the list run short of the
//!   compulsory solos still owed, each player who owes one is forced to play
//!   it: on a forced deal the forced player must bid a solo and the others
//!   healthy. A forced solo never falls on a dealer who sits out: the player
//!   before the forced one deals instead.
//! - **Bock** (`rules.bock`). What `rules.bock_triggers` lists (by
//!   default a 120:120 split or a lost Re/Kontra announcement; a trick of
//!   plain hearts and a lost solo may be added) adds a round of deals (one
//!   per player) that count double. A trigger during Bock deals adds its
//!   round after the pending ones (`bock_stacking extend`) or lets it start
//!   with the next deal (`stack`): a deal two rounds cover counts four
//!   times (Doppelbock).
//! - **The list length** (`rules.games_per_session`, 0 = open-ended). It
//!   counts every scored deal, compulsory solos included: the DDV list of
//!   four players is 24 deals, 20 of them with the dealer passing on and 4
//!   compulsory solos.
//!
//! Each step is checked and returns a typed [`SessionError`]; the session
//! is never left half changed.
//!
//! ```
//! use doko_engine::{Action, Bid, Outcome, NextDeal, Rules, Session};
//! let rules = Rules::default();
//! let mut s = Session::new(4, &rules).unwrap();
//! let NextDeal::Dealt(start) = s.next_deal(&rules, || 7).unwrap() else { panic!() };
//! assert_eq!(start.number, 1);
//! // everybody says healthy and plays the first legal card
//! while let Some(seat) = s.game().unwrap().to_act() {
//!     let g = s.game().unwrap();
//!     let action = match g.legal_actions(seat)[0] {
//!         Action::Bid(_) => Action::Bid(Bid::Healthy),
//!         a => a,
//!     };
//!     s.act(seat, action).unwrap();
//! }
//! let Outcome::Scored(scored) = s.finish(1).unwrap() else { panic!("a normal deal is scored") };
//! assert_eq!(scored.row.scores.iter().sum::<i64>(), 0);
//! assert_eq!(s.deals(), 1);
//! ```

use serde::{Deserialize, Serialize};

use crate::contract::{Bid, Contract, Reservation};
use crate::error::ActionError;
use crate::game::{Action, Game};
use crate::phase::{Phase, RedealReason};
use crate::player::{ByPlayer, MAX_PLAYERS, MIN_PLAYERS, Player};
use crate::rules::{BockStacking, BockTrigger, Rules};
use crate::score::Score;
use crate::seat::{Party, Seat};

/// A step the session refused. The session is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// A session has four or five players.
    #[error("a session has 4 or 5 players, not {0}")]
    Players(usize),
    /// The session is over.
    #[error("the session is over")]
    Over,
    /// A deal is being played.
    #[error("a deal is running")]
    DealRunning,
    /// No deal is being played.
    #[error("no deal is running")]
    NoDeal,
    /// The deal is still being played.
    #[error("the deal is not over yet")]
    NotFinished,
    /// On a forced deal the forced player must bid a solo.
    #[error("this deal is a forced solo (vorführen): you must bid a solo")]
    MustBidSolo {
        /// The forced player.
        player: Player,
    },
    /// On a forced deal only the forced player bids; the others say healthy.
    #[error("this deal is a forced solo (vorführen): only the forced player bids; say healthy")]
    OnlyForcedBids {
        /// Who tried to bid.
        player: Player,
        /// The forced player.
        forced: Player,
    },
    /// The game refused the action.
    #[error(transparent)]
    Action(#[from] ActionError),
    /// Stored data that no session can have.
    #[error("inconsistent session: {0}")]
    Inconsistent(&'static str),
}

/// A deal on the score sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetRow {
    /// Deal number in the session, from 1.
    pub deal: u32,
    /// The contract's record name (`normal`, `solo-queens`, ...).
    pub contract: String,
    /// Points per player (0 for the one sitting out); they sum to zero.
    pub scores: ByPlayer<i64>,
    /// Whether it counted double (Bock).
    #[serde(default, skip_serializing_if = "is_false")]
    pub bock: bool,
    /// How many Bock rounds covered it (2 or more only with
    /// `bock_stacking stack`; 1 for a Bock row read back, whose one round
    /// is not written).
    #[serde(default, skip_serializing_if = "at_most_one")]
    pub bock_rounds: u8,
    /// The number the deal's record was filed under (given to
    /// [`Session::finish`]).
    pub record: u32,
    /// The players in the deal's seats 1 to 4 (`None` in rows kept
    /// before the seats were).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<[Player; 4]>,
    /// The player who declared the contract (a solo, a wedding, a
    /// poverty), if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declarer: Option<Player>,
    /// A compulsory solo (counted against the declarer's duty).
    #[serde(default, skip_serializing_if = "is_false")]
    pub duty: bool,
}

impl SheetRow {
    /// What the game's score was multiplied by: 1, 2 for Bock, 4 for
    /// Doppelbock, ...
    pub fn factor(&self) -> i64 {
        bock_factor(self.rounds())
    }

    /// How many Bock rounds covered it (a row stored before rounds were
    /// kept counts one when it was Bock).
    pub fn rounds(&self) -> u8 {
        self.bock_rounds.max(u8::from(self.bock))
    }
}

fn at_most_one(n: &u8) -> bool {
    *n <= 1
}

/// 2 to the power of the Bock rounds covering a deal (at most 2^6).
pub fn bock_factor(rounds: u8) -> i64 {
    1 << rounds.min(6)
}

/// The deal being played: its game and who plays which seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    seats: [Player; 4],
    game: Game,
    bock: u8,
    forced: Option<Player>,
}

impl Deal {
    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The player of each game seat.
    pub fn seats(&self) -> &[Player; 4] {
        &self.seats
    }

    /// The player on a game seat.
    pub fn player(&self, seat: Seat) -> Player {
        self.seats[seat.index()]
    }

    /// The game seat of a player, `None` for the one sitting out.
    pub fn seat_of(&self, p: Player) -> Option<Seat> {
        self.seats.iter().position(|x| *x == p).map(Seat::new)
    }

    /// Whether the deal counts double.
    pub fn bock(&self) -> bool {
        self.bock > 0
    }

    /// How many Bock rounds cover the deal (2 or more: Doppelbock).
    pub fn bock_rounds(&self) -> u8 {
        self.bock
    }

    /// The player forced to play a compulsory solo (vorführen), if any.
    pub fn forced(&self) -> Option<Player> {
        self.forced
    }
}

/// A new deal, as dealt.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DealStart {
    /// Deal number in the session, from 1.
    pub number: u32,
    /// Who deals (and, with five, sits out).
    pub dealer: Player,
    /// The player of each game seat.
    pub seats: [Player; 4],
    /// Whether it counts double.
    pub bock: bool,
    /// How many Bock rounds cover it (2 or more: Doppelbock).
    pub bock_rounds: u8,
    /// The player forced to play a compulsory solo, if any.
    pub forced: Option<Player>,
}

/// What [`Session::next_deal`] did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NextDeal {
    /// A deal was dealt.
    Dealt(DealStart),
    /// The list is complete and every compulsory solo played: the session
    /// is over now.
    Over,
}

/// A scored deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    /// Its row on the score sheet.
    pub row: SheetRow,
    /// The game's score (per game seat, before Bock doubles it).
    pub score: Score,
    /// The deal: its game and who played which seat.
    pub deal: Deal,
    /// It was a compulsory solo (the same dealer deals again).
    pub compulsory: bool,
    /// Deals it added to the Bock count.
    pub bock_added: u32,
}

/// How a deal ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Scored and written on the sheet.
    Scored(Box<Scored>),
    /// Void: the same dealer deals again; nothing is written.
    Redeal(RedealReason),
}

/// A series of deals. Fields are private: a session changes only through
/// its checked steps.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "SessionData")]
pub struct Session {
    dealer: Player,
    deals: u32,
    /// (Shared copy-on-write: a copy of the session, as a service keeps
    /// to put a table back on a refused command, does not copy the rows;
    /// kept with its JSON, which grows with every deal of a list and is
    /// written again only when a row is added.)
    sheet: crate::Shared<Vec<SheetRow>>,
    totals: ByPlayer<i64>,
    duty_left: ByPlayer<u8>,
    /// Per upcoming Bock deal, how many rounds cover it (front: the next).
    bock: Vec<u8>,
    deal: Option<Deal>,
    over: bool,
}

impl Session {
    /// A new session of `players` (4 or 5); the last player deals first, so
    /// player 0 leads the first deal. Each player owes
    /// `rules.compulsory_solos`.
    pub fn new(players: usize, rules: &Rules) -> Result<Session, SessionError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(SessionError::Players(players));
        }
        Ok(Session {
            dealer: Player::new(players - 1),
            deals: 0,
            sheet: crate::Shared::default(),
            totals: ByPlayer::filled(players, 0),
            duty_left: ByPlayer::filled(players, rules.compulsory_solos),
            bock: Vec::new(),
            deal: None,
            over: false,
        })
    }

    /// How many players (4 or 5).
    pub fn players(&self) -> usize {
        self.totals.len()
    }

    /// The dealer of the deal being played, or of the next one.
    pub fn dealer(&self) -> Player {
        self.dealer
    }

    /// Deals scored so far.
    pub fn deals(&self) -> u32 {
        self.deals
    }

    /// The score sheet, one row per scored deal.
    pub fn sheet(&self) -> &[SheetRow] {
        &self.sheet
    }

    /// Running totals per player.
    pub fn totals(&self) -> &ByPlayer<i64> {
        &self.totals
    }

    /// Compulsory solos each player still owes.
    pub fn duty_left(&self) -> &ByPlayer<u8> {
        &self.duty_left
    }

    /// Deals that still count double.
    pub fn bock_left(&self) -> u32 {
        self.bock.len() as u32
    }

    /// Per Bock deal still to come, how many rounds cover it (front: the
    /// next deal scored).
    pub fn bock_rounds(&self) -> &[u8] {
        &self.bock
    }

    /// Whether the session has ended.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The deal being played.
    pub fn deal(&self) -> Option<&Deal> {
        self.deal.as_ref()
    }

    /// The game being played.
    pub fn game(&self) -> Option<&Game> {
        self.deal.as_ref().map(|d| &d.game)
    }

    /// Deals the next deal with `rules` (the rules apply to that deal; the
    /// list length and compulsory solos are read from them too), or ends
    /// the session when the list is complete and every compulsory solo is
    /// played. `seed` is asked for the deal's seed only when one is dealt.
    pub fn next_deal(&mut self, rules: &Rules, seed: impl FnOnce() -> u64) -> Result<NextDeal, SessionError> {
        if self.over {
            return Err(SessionError::Over);
        }
        if self.deal.is_some() {
            return Err(SessionError::DealRunning);
        }
        let n = self.players();
        let limit = u32::from(rules.games_per_session);
        let owed: u32 = if rules.compulsory_solos > 0 { self.duty_left.iter().map(|d| u32::from(*d)).sum() } else { 0 };
        // vorführen: the compulsory solos still owed fill the rest of the list
        let forced = if limit > 0 && self.deals + owed >= limit {
            match self.duty_left.position(|d| *d > 0) {
                Some(p) if rules.compulsory_solos > 0 => Some(p),
                _ => {
                    self.over = true;
                    return Ok(NextDeal::Over);
                }
            }
        } else {
            None
        };
        // with five, the dealer sits out: a forced solo never falls on them
        if n == MAX_PLAYERS
            && let Some(f) = forced
            && f == self.dealer
        {
            self.dealer = f.prev(n);
        }
        let dealer = self.dealer;
        let seats = [dealer.plus(1, n), dealer.plus(2, n), dealer.plus(3, n), dealer.plus(4, n)];
        let game = Game::deal(*rules, Seat::new(3), seed());
        let bock_rounds = self.bock.first().copied().unwrap_or(0);
        self.deal = Some(Deal { seats, game, bock: bock_rounds, forced });
        Ok(NextDeal::Dealt(DealStart {
            number: self.deals + 1,
            dealer,
            seats,
            bock: bock_rounds > 0,
            bock_rounds,
            forced,
        }))
    }

    /// A bid made to fit the session: a solo by a player who still owes a
    /// compulsory solo is that solo; on a forced deal the forced player must
    /// bid a solo and the others healthy (unless the rules allow no solo at
    /// all). Returns the bid as it counts.
    pub fn check_bid(&self, seat: Seat, bid: Bid) -> Result<Bid, SessionError> {
        let deal = self.deal.as_ref().ok_or(SessionError::NoDeal)?;
        if deal.game.phase() == Phase::SowChoice {
            // a Schwarze Sau's solo is no compulsory solo
            return Ok(bid);
        }
        let player = deal.player(seat);
        let rules = deal.game.rules();
        let owes = self.duty_left[player] > 0 && rules.compulsory_solos > 0;
        let solo = matches!(bid, Bid::Reserve(Reservation::Solo { .. }));
        if let Some(forced) = deal.forced {
            let any_solo = rules.solos.iter().next().is_some();
            match (forced == player, solo) {
                (true, true) => {}
                (true, false) if any_solo => return Err(SessionError::MustBidSolo { player }),
                (true, false) => {}
                (false, false) if bid == Bid::Healthy => {}
                (false, _) => return Err(SessionError::OnlyForcedBids { player, forced }),
            }
        }
        Ok(match bid {
            Bid::Reserve(Reservation::Solo { kind, .. }) => Bid::Reserve(Reservation::Solo { kind, duty: owes }),
            b => b,
        })
    }

    /// A computer player's bid made to fit the session: [`Session::check_bid`]
    /// where it passes, the first legal solo for the forced player,
    /// healthy for everyone else. Never refused by the session.
    pub fn computer_bid(&self, seat: Seat, bid: Bid) -> Bid {
        match self.check_bid(seat, bid) {
            Ok(b) => b,
            Err(SessionError::MustBidSolo { .. }) => {
                let solo = self
                    .game()
                    .map(|g| g.legal_bids(seat))
                    .unwrap_or_default()
                    .into_iter()
                    .find(|b| matches!(b, Bid::Reserve(Reservation::Solo { .. })))
                    .unwrap_or(Bid::Healthy);
                self.check_bid(seat, solo).unwrap_or(solo)
            }
            Err(_) => Bid::Healthy,
        }
    }

    /// One action in the deal being played; a bid is checked and adjusted
    /// by [`Session::check_bid`]. Returns the action as taken.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<Action, SessionError> {
        let action = match action {
            Action::Bid(b) => Action::Bid(self.check_bid(seat, b)?),
            a => a,
        };
        let deal = self.deal.as_mut().ok_or(SessionError::NoDeal)?;
        deal.game.act(seat, action)?;
        Ok(action)
    }

    /// Ends the deal being played once its game is over: a finished game is
    /// scored and written on the sheet (its record filed under `record`), a
    /// void one is dropped and the same dealer deals again. The next deal is
    /// dealt by [`Session::next_deal`].
    pub fn finish(&mut self, record: u32) -> Result<Outcome, SessionError> {
        let deal = self.deal.as_ref().ok_or(SessionError::NoDeal)?;
        let score = match deal.game.phase() {
            Phase::Redeal(reason) => {
                self.deal = None;
                return Ok(Outcome::Redeal(reason));
            }
            Phase::Finished => deal.game.score().ok_or(SessionError::NotFinished)?,
            _ => return Err(SessionError::NotFinished),
        };
        let deal = self.deal.take().expect("checked above");
        let g = &deal.game;
        let n = self.players();
        let factor = bock_factor(deal.bock);
        let mut scores = ByPlayer::filled(n, 0i64);
        for s in Seat::ALL {
            scores[deal.player(s)] = i64::from(score.scores[s.index()]) * factor;
        }
        debug_assert_eq!(scores.iter().sum::<i64>(), 0, "zero sum");
        for (p, d) in scores.players() {
            self.totals[p] += d;
        }
        self.deals += 1;
        // a compulsory solo is counted, and the same dealer deals again
        let declarer = g.declarer().filter(|d| {
            matches!(g.bids()[d.index()], Some(Bid::Reserve(Reservation::Solo { duty: true, .. })))
                && g.contract() != Contract::SilentSolo
        });
        let compulsory = declarer.is_some();
        let row = SheetRow {
            deal: self.deals,
            contract: g.contract().name(),
            scores,
            bock: deal.bock > 0,
            bock_rounds: deal.bock,
            record,
            seats: Some(deal.seats),
            declarer: g.declarer().map(|d| deal.player(d)),
            duty: compulsory,
        };
        self.sheet.make_mut().push(row.clone());
        match declarer {
            Some(d) => {
                let p = deal.player(d);
                self.duty_left[p] = self.duty_left[p].saturating_sub(1);
            }
            None => self.dealer = self.dealer.plus(1, n),
        }
        // Bock: a trigger (by default a 120:120 split or a lost Re/Kontra)
        // starts a round of Bock, after the pending deals or on them
        if deal.bock > 0 && !self.bock.is_empty() {
            self.bock.remove(0);
        }
        let bock_added = if g.rules().bock && triggers_bock(g, &score) { n as u32 } else { 0 };
        for i in 0..bock_added as usize {
            match g.rules().bock_stacking {
                BockStacking::Stack if i < self.bock.len() => self.bock[i] = self.bock[i].saturating_add(1),
                _ => self.bock.push(1),
            }
        }
        Ok(Outcome::Scored(Box::new(Scored { row, score, deal, compulsory, bock_added })))
    }

    /// Drops the deal being played unscored (the same dealer deals again).
    pub fn abort(&mut self) -> Result<Deal, SessionError> {
        self.deal.take().ok_or(SessionError::NoDeal)
    }

    /// Ends the session between deals. Returns whether it was still open.
    pub fn end(&mut self) -> Result<bool, SessionError> {
        if self.deal.is_some() {
            return Err(SessionError::DealRunning);
        }
        Ok(!std::mem::replace(&mut self.over, true))
    }
}

/// Whether a scored game starts a round of Bock, by the rules'
/// `bock_triggers`: a 120:120 split, a party that announced Re or Kontra
/// lost, a trick of four plain hearts cards (no trump among them), a
/// declared solo lost.
pub fn triggers_bock(g: &Game, score: &Score) -> bool {
    let on = g.rules().bock_triggers;
    let lost = |p: Party| g.levels()[p.index()].is_some() && score.winner.is_some_and(|w| w != p);
    (on.contains(BockTrigger::Tie) && score.card_points[0] == 120)
        || (on.contains(BockTrigger::LostRe) && lost(Party::Re))
        || (on.contains(BockTrigger::LostKontra) && lost(Party::Kontra))
        || (on.contains(BockTrigger::HeartTrick)
            && g.tricks()
                .iter()
                .any(|t| t.cards.iter().all(|c| c.suit() == crate::card::Suit::Hearts && !g.order().is_trump(*c))))
        || (on.contains(BockTrigger::LostSolo)
            && matches!(g.contract(), Contract::Solo(_))
            && score.winner.is_some_and(|w| w != Party::Re))
}

/// The stored form of a session: the fields as they are, checked when read.
#[derive(Deserialize)]
struct SessionData {
    dealer: Player,
    deals: u32,
    #[serde(default)]
    sheet: Vec<SheetRow>,
    totals: ByPlayer<i64>,
    duty_left: ByPlayer<u8>,
    #[serde(default)]
    bock_left: u32,
    /// Rounds per pending Bock deal, where one is covered by more than one.
    #[serde(default)]
    bock_stack: Vec<u8>,
    deal: Option<DealData>,
    #[serde(default)]
    over: bool,
}

fn no_rows(sheet: &&crate::Shared<Vec<SheetRow>>) -> bool {
    sheet.is_empty()
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Deserialize)]
struct DealData {
    seats: [Player; 4],
    #[serde(deserialize_with = "game_serde::deserialize", rename = "record")]
    game: Game,
    #[serde(default)]
    bock: bool,
    #[serde(default)]
    bock_rounds: u8,
    #[serde(default)]
    forced: Option<Player>,
}

/// [`SessionData`] as written: borrowed from the session (no copy of it).
#[derive(Serialize)]
struct SessionRef<'a> {
    dealer: Player,
    deals: u32,
    #[serde(skip_serializing_if = "no_rows")]
    sheet: &'a crate::Shared<Vec<SheetRow>>,
    totals: &'a ByPlayer<i64>,
    duty_left: &'a ByPlayer<u8>,
    #[serde(skip_serializing_if = "is_zero")]
    bock_left: u32,
    #[serde(skip_serializing_if = "<[u8]>::is_empty")]
    bock_stack: &'a [u8],
    deal: Option<DealRef<'a>>,
    #[serde(skip_serializing_if = "is_false")]
    over: bool,
}

/// [`DealData`] as written, borrowed.
#[derive(Serialize)]
struct DealRef<'a> {
    seats: [Player; 4],
    #[serde(serialize_with = "game_ref", rename = "record")]
    game: &'a Game,
    #[serde(skip_serializing_if = "is_false")]
    bock: bool,
    #[serde(skip_serializing_if = "at_most_one")]
    bock_rounds: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    forced: Option<Player>,
}

fn game_ref<S: serde::Serializer>(g: &&Game, s: S) -> Result<S::Ok, S::Error> {
    game_serde::serialize(g, s)
}

impl Serialize for Session {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        SessionRef {
            dealer: self.dealer,
            deals: self.deals,
            sheet: &self.sheet,
            totals: &self.totals,
            duty_left: &self.duty_left,
            bock_left: self.bock.len() as u32,
            bock_stack: if self.bock.iter().any(|r| *r > 1) { &self.bock } else { &[] },
            deal: self.deal.as_ref().map(|d| DealRef {
                seats: d.seats,
                game: &d.game,
                bock: d.bock > 0,
                bock_rounds: d.bock,
                forced: d.forced,
            }),
            over: self.over,
        }
        .serialize(s)
    }
}

impl TryFrom<SessionData> for Session {
    type Error = SessionError;

    fn try_from(d: SessionData) -> Result<Session, SessionError> {
        use SessionError::Inconsistent;
        let n = d.totals.len();
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n) {
            return Err(SessionError::Players(n));
        }
        if d.duty_left.len() != n {
            return Err(Inconsistent("duty_left has another number of players than totals"));
        }
        if d.dealer.index() >= n {
            return Err(Inconsistent("the dealer is not a player"));
        }
        if d.sheet.iter().any(|r| r.scores.len() != n) {
            return Err(Inconsistent("a sheet row has another number of players than totals"));
        }
        if d.over && d.deal.is_some() {
            return Err(Inconsistent("a deal is running in a session that is over"));
        }
        if d.bock_left > 100_000 {
            return Err(Inconsistent("more Bock deals pending than any list has"));
        }
        let bock = if d.bock_stack.is_empty() { vec![1; d.bock_left as usize] } else { d.bock_stack };
        if bock.len() != d.bock_left as usize || bock.contains(&0) {
            return Err(Inconsistent("the Bock rounds do not match the Bock deals left"));
        }
        let deal = match d.deal {
            Some(x) => {
                let mut seen = [false; MAX_PLAYERS];
                for p in x.seats {
                    if p.index() >= n || std::mem::replace(&mut seen[p.index()], true) {
                        return Err(Inconsistent("the deal's seats are not four different players"));
                    }
                }
                if x.forced.is_some_and(|f| !x.seats.contains(&f)) {
                    return Err(Inconsistent("the forced player does not play"));
                }
                let bock = x.bock_rounds.max(u8::from(x.bock));
                Some(Deal { seats: x.seats, game: x.game, bock, forced: x.forced })
            }
            None => None,
        };
        // a Bock row's one round is not written (only Doppelbock's 2 or
        // more are): read back, a Bock row counts one round, as it did
        let mut sheet = d.sheet;
        for row in &mut sheet {
            row.bock_rounds = row.rounds();
        }
        Ok(Session {
            dealer: d.dealer,
            deals: d.deals,
            sheet: crate::Shared::new(sheet),
            totals: d.totals,
            duty_left: d.duty_left,
            bock,
            deal,
            over: d.over,
        })
    }
}

/// A game is stored as its record and rebuilt by replaying it, so what is
/// stored is exactly what a dispute would be settled with, and every step
/// of it is checked again when it is read. It is written in the compact
/// form (a base64 text, see [`crate::Record::to_compact`]); the `doko-record/1`
/// JSON object earlier builds wrote is read as well.
mod game_serde {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::game::Game;
    use crate::record::Record;

    pub fn serialize<S: Serializer>(g: &Game, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&Record::compact_of_game(g))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        let rec = match &v {
            serde_json::Value::String(s) => Record::from_compact(s),
            other => Record::from_value(other),
        }
        .map_err(serde::de::Error::custom)?;
        rec.to_game().map_err(serde::de::Error::custom)
    }
}
