//! Where a deal stands, and why a deal is dealt again.

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

impl Phase {
    /// What is going on in this phase, as a clause ("the cards are being
    /// played").
    pub const fn describe(self) -> &'static str {
        match self {
            Phase::Bidding => "the reservations are being asked",
            Phase::PovertyGive => "the pauper is to put down cards",
            Phase::PovertyOffer => "the poverty is being offered",
            Phase::PovertyReturn => "the poverty cards are to be returned",
            Phase::Playing => "the cards are being played",
            Phase::SowChoice => "the taker of the second queen of spades is choosing a solo",
            Phase::Finished | Phase::Redeal(_) => "the deal is over",
        }
    }
}
