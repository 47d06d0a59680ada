//! Seats and parties.

use std::fmt;

/// A seat at the table, `0..4`, numbered clockwise.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Seat(u8);

impl Seat {
    /// All four seats.
    pub const ALL: [Seat; 4] = [Seat(0), Seat(1), Seat(2), Seat(3)];

    /// The seat with a number `0..4`.
    ///
    /// # Panics
    /// When the number is 4 or more.
    #[track_caller]
    pub const fn new(n: usize) -> Seat {
        assert!(n < 4, "seat out of range");
        Seat(n as u8)
    }

    /// The seat with a number, or `None` when it is not `0..4`.
    pub const fn try_new(n: u64) -> Option<Seat> {
        if n < 4 { Some(Seat(n as u8)) } else { None }
    }

    /// The seat's number.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The next seat clockwise (to the left).
    #[inline]
    pub const fn next(self) -> Seat {
        Seat((self.0 + 1) & 3)
    }

    /// The seat `n` places clockwise.
    #[inline]
    pub const fn plus(self, n: usize) -> Seat {
        Seat(((self.0 as usize + n) & 3) as u8)
    }

    /// The four seats clockwise starting with this one.
    pub fn clockwise(self) -> [Seat; 4] {
        [self, self.plus(1), self.plus(2), self.plus(3)]
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// One of the two parties of a deal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Party {
    /// Re: the queens of clubs, or the declarer's side.
    Re,
    /// Kontra: the others.
    Kontra,
}

impl Party {
    /// The other party.
    #[inline]
    pub const fn other(self) -> Party {
        match self {
            Party::Re => Party::Kontra,
            Party::Kontra => Party::Re,
        }
    }

    /// Index 0 for Re, 1 for Kontra.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"re"` or `"kontra"`.
    pub const fn name(self) -> &'static str {
        match self {
            Party::Re => "re",
            Party::Kontra => "kontra",
        }
    }
}

impl fmt::Display for Party {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Party::Re => "Re",
            Party::Kontra => "Kontra",
        })
    }
}
