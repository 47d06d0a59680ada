//! Session players and per-player data.
//!
//! A session has four or five players; each deal seats four of them on the
//! game [`Seat`](crate::Seat)s. A [`Player`] is an index into the session,
//! [`ByPlayer`] holds one value per player.

use std::fmt;
use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

/// The most players a session has (with five, the dealer sits out).
pub const MAX_PLAYERS: usize = 5;

/// The fewest players a session has.
pub const MIN_PLAYERS: usize = 4;

/// A player of a session, `0..5`, in table order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Player(u8);

impl Player {
    /// The player with a number `0..5`.
    ///
    /// # Panics
    /// When the number is 5 or more.
    ///
    /// ```
    /// use doko_engine::Player;
    /// assert_eq!(Player::new(4).index(), 4);
    /// ```
    #[track_caller]
    pub const fn new(n: usize) -> Player {
        assert!(n < MAX_PLAYERS, "player out of range");
        Player(n as u8)
    }

    /// The player with a number, or `None` when it is not `0..5`.
    pub const fn try_new(n: usize) -> Option<Player> {
        if n < MAX_PLAYERS { Some(Player(n as u8)) } else { None }
    }

    /// The player's number.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The player `k` places after this one among `n` players.
    ///
    /// ```
    /// use doko_engine::Player;
    /// assert_eq!(Player::new(3).plus(2, 5), Player::new(0));
    /// ```
    #[inline]
    pub const fn plus(self, k: usize, n: usize) -> Player {
        Player(((self.0 as usize + k) % n) as u8)
    }

    /// The player before this one among `n` players.
    #[inline]
    pub const fn prev(self, n: usize) -> Player {
        self.plus(n - 1, n)
    }

    /// The players `0..n`.
    pub fn all(n: usize) -> impl Iterator<Item = Player> {
        (0..n.min(MAX_PLAYERS)).map(Player::new)
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// One value per session player, indexed by [`Player`].
///
/// ```
/// use doko_engine::{ByPlayer, Player};
/// let mut points = ByPlayer::filled(4, 0i64);
/// points[Player::new(2)] += 30;
/// assert_eq!(points.iter().sum::<i64>(), 30);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ByPlayer<T>(Vec<T>);

impl<T> ByPlayer<T> {
    /// `n` copies of a value.
    pub fn filled(n: usize, value: T) -> ByPlayer<T>
    where
        T: Clone,
    {
        ByPlayer(vec![value; n])
    }

    /// The values in player order, or `None` when there are not 4 or 5.
    pub fn from_vec(values: Vec<T>) -> Option<ByPlayer<T>> {
        (MIN_PLAYERS..=MAX_PLAYERS).contains(&values.len()).then_some(ByPlayer(values))
    }

    /// How many players.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never true for a session's data; for completeness.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The value of a player, if there is one.
    pub fn get(&self, p: Player) -> Option<&T> {
        self.0.get(p.index())
    }

    /// The values in player order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    /// The values with their players.
    pub fn players(&self) -> impl Iterator<Item = (Player, &T)> {
        self.0.iter().enumerate().map(|(i, v)| (Player::new(i), v))
    }

    /// The values as a slice, in player order.
    pub fn as_slice(&self) -> &[T] {
        &self.0
    }

    /// The first player with a value for which `f` holds.
    pub fn position(&self, f: impl FnMut(&T) -> bool) -> Option<Player> {
        self.0.iter().position(f).map(Player::new)
    }
}

impl<T> Index<Player> for ByPlayer<T> {
    type Output = T;
    #[track_caller]
    fn index(&self, p: Player) -> &T {
        &self.0[p.index()]
    }
}

impl<T> IndexMut<Player> for ByPlayer<T> {
    #[track_caller]
    fn index_mut(&mut self, p: Player) -> &mut T {
        &mut self.0[p.index()]
    }
}

impl<'a, T> IntoIterator for &'a ByPlayer<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
