//! Doppelkopf's own terms in each language (parties, calls, solos,
//! reservations, contracts, counts of cards), formatted from the catalog
//! once per process.

use std::borrow::Cow;

use doko_engine::{Call, Contract, Party, Reservation, SoloKind, WeddingRule};

use crate::lang::Lang;
use crate::{cached_tr, tr};

impl Lang {
    /// The party's name (Re and Kontra in both languages).
    pub fn party(self, p: Party) -> Cow<'static, str> {
        Cow::Borrowed(&self.terms().party[p.index()])
    }

    /// An announcement's name.
    pub fn call(self, c: Call) -> Cow<'static, str> {
        Cow::Borrowed(&self.terms().call[c as usize])
    }

    /// A solo kind's name.
    pub fn solo(self, k: SoloKind) -> Cow<'static, str> {
        Cow::Borrowed(&self.terms().solo[k as usize])
    }

    /// A count of cards (`1 card`, `12 cards`): the catalog's
    /// `table-cards`.
    pub fn card_count(self, n: usize) -> Cow<'static, str> {
        match self.terms().card_count.get(n) {
            Some(text) => Cow::Borrowed(text),
            None => cached_tr!(self, "table-cards", n = n),
        }
    }

    /// This language's [`Terms`].
    fn terms(self) -> &'static Terms {
        &TERMS[self as usize]
    }

    /// A reservation's name (a compulsory solo marked so).
    pub fn reservation(self, r: Reservation) -> Cow<'static, str> {
        Cow::Borrowed(&self.terms().reservation[reservation_index(r)])
    }

    /// A contract's name.
    pub fn contract(self, c: Contract) -> Cow<'static, str> {
        Cow::Borrowed(&self.terms().contract[contract_index(c)])
    }

    /// What a seat said in the bidding, as the table shows it: healthy, or
    /// a reservation not yet named (the catalog's `bid-word`).
    pub fn bid_said(self, reserved: bool) -> Cow<'static, str> {
        Cow::Borrowed(&self.terms().bid_said[usize::from(reserved)])
    }
}

/// Every reservation, each at its [`reservation_index`].
fn all_reservations() -> Vec<Reservation> {
    let mut all = vec![Reservation::Wedding(None), Reservation::Poverty, Reservation::ThrowIn];
    all.extend(WeddingRule::ALL.map(|w| Reservation::Wedding(Some(w))));
    all.extend(SoloKind::ALL.map(|kind| Reservation::Solo { kind, duty: false }));
    all.extend(SoloKind::ALL.map(|kind| Reservation::Solo { kind, duty: true }));
    all
}

/// A reservation's place in [`all_reservations`].
fn reservation_index(r: Reservation) -> usize {
    let (w, n) = (WeddingRule::ALL.len(), SoloKind::ALL.len());
    match r {
        Reservation::Wedding(None) => 0,
        Reservation::Poverty => 1,
        Reservation::ThrowIn => 2,
        Reservation::Wedding(Some(rule)) => 3 + rule as usize,
        Reservation::Solo { kind, duty: false } => 3 + w + kind as usize,
        Reservation::Solo { kind, duty: true } => 3 + w + n + kind as usize,
    }
}

/// Every contract, each at its [`contract_index`].
fn all_contracts() -> Vec<Contract> {
    let mut all =
        vec![Contract::Normal, Contract::Wedding, Contract::SilentSolo, Contract::Poverty, Contract::BlackSow(None)];
    all.extend(SoloKind::ALL.map(Contract::Solo));
    all.extend(SoloKind::ALL.map(|k| Contract::BlackSow(Some(k))));
    all
}

/// A contract's place in [`all_contracts`].
fn contract_index(c: Contract) -> usize {
    let n = SoloKind::ALL.len();
    match c {
        Contract::Normal => 0,
        Contract::Wedding => 1,
        Contract::SilentSolo => 2,
        Contract::Poverty => 3,
        Contract::BlackSow(None) => 4,
        Contract::Solo(k) => 5 + k as usize,
        Contract::BlackSow(Some(k)) => 5 + n + k as usize,
    }
}

/// A language's words of a few values each, formatted by Fluent once per
/// process: the table and the hands name parties, calls, solos and counts
/// of cards at every move, and [`Lang::word`]'s look-up (its key written
/// and hashed) cost more than the rest of such a word.
struct Terms {
    /// By [`Party::index`].
    party: [String; 2],
    /// By the order of [`Call::ALL`].
    call: [String; 6],
    /// By the order of [`SoloKind::ALL`].
    solo: [String; 8],
    /// `table-cards` for 0 to 12 cards.
    card_count: [String; 13],
    /// By [`reservation_index`].
    reservation: Vec<String>,
    /// By [`contract_index`].
    contract: Vec<String>,
    /// `bid-word`: healthy, reserved.
    bid_said: [String; 2],
}

/// Each language's [`Terms`], by [`Lang::ALL`]'s order.
static TERMS: std::sync::LazyLock<[Terms; 2]> = std::sync::LazyLock::new(|| Lang::ALL.map(Terms::new));

impl Terms {
    /// A language's terms, each formatted by Fluent.
    fn new(l: Lang) -> Terms {
        let solo = SoloKind::ALL.map(|k| tr!(l, "solo", kind = k.key()));
        Terms {
            party: [Party::Re, Party::Kontra].map(|p| tr!(l, "party", party = party_key(p))),
            call: Call::ALL.map(|c| tr!(l, "call", call = c.name())),
            card_count: std::array::from_fn(|n| tr!(l, "table-cards", n = n)),
            reservation: all_reservations().into_iter().map(|r| reservation_text(l, &solo, r)).collect(),
            contract: all_contracts().into_iter().map(|c| contract_text(l, &solo, c)).collect(),
            bid_said: ["healthy", "reserved"].map(|bid| tr!(l, "bid-word", bid = bid)),
            solo,
        }
    }
}

/// A reservation's name formatted by Fluent (`solo`: the solos' names).
fn reservation_text(l: Lang, solo: &[String; 8], r: Reservation) -> String {
    match r {
        Reservation::Wedding(None) => tr!(l, "reservation", what = "wedding"),
        Reservation::Wedding(Some(k)) => tr!(l, "reservation-wedding-chosen", kind = k.key()),
        Reservation::Poverty => tr!(l, "reservation", what = "poverty"),
        Reservation::ThrowIn => tr!(l, "reservation", what = "throw-in"),
        Reservation::Solo { kind, duty: false } => solo[kind as usize].clone(),
        Reservation::Solo { kind, duty: true } => tr!(l, "reservation-duty-solo", solo = &solo[kind as usize]),
    }
}

/// A contract's name formatted by Fluent (`solo`: the solos' names).
fn contract_text(l: Lang, solo: &[String; 8], c: Contract) -> String {
    match c {
        Contract::Normal => tr!(l, "contract", contract = "normal"),
        Contract::Wedding => tr!(l, "contract", contract = "wedding"),
        Contract::SilentSolo => tr!(l, "contract", contract = "silent-solo"),
        Contract::Poverty => tr!(l, "contract", contract = "poverty"),
        Contract::Solo(k) => solo[k as usize].clone(),
        Contract::BlackSow(None) => tr!(l, "contract", contract = "black-sow"),
        Contract::BlackSow(Some(k)) => tr!(l, "contract-black-sow-solo", solo = &solo[k as usize]),
    }
}

/// The catalog's key of a party.
pub(crate) fn party_key(p: Party) -> &'static str {
    match p {
        Party::Re => "re",
        Party::Kontra => "kontra",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A term looked up by its index is the catalog's message for that
    /// value, in both languages: the tables are in the order the indexes
    /// count (a party's, a call's, a solo kind's, a count of cards).
    #[test]
    fn terms_are_the_catalogs_messages() {
        for l in Lang::ALL {
            for p in [Party::Re, Party::Kontra] {
                assert_eq!(l.party(p), tr!(l, "party", party = party_key(p)), "{l:?} {p:?}");
            }
            for c in Call::ALL {
                assert_eq!(l.call(c), tr!(l, "call", call = c.name()), "{l:?} {c:?}");
            }
            for k in SoloKind::ALL {
                assert_eq!(l.solo(k), tr!(l, "solo", kind = k.key()), "{l:?} {k:?}");
            }
            for n in 0..=14usize {
                assert_eq!(l.card_count(n), tr!(l, "table-cards", n = n), "{l:?} {n}");
            }
        }
        for (i, r) in all_reservations().into_iter().enumerate() {
            assert_eq!(reservation_index(r), i, "{r:?}");
        }
        for (i, c) in all_contracts().into_iter().enumerate() {
            assert_eq!(contract_index(c), i, "{c:?}");
        }
        assert_eq!(all_reservations().len(), 3 + WeddingRule::ALL.len() + 2 * SoloKind::ALL.len());
        assert_eq!(all_contracts().len(), 5 + 2 * SoloKind::ALL.len());
        for l in Lang::ALL {
            let solo = |k: SoloKind| tr!(l, "solo", kind = k.key());
            for k in SoloKind::ALL {
                let duty = Reservation::Solo { kind: k, duty: true };
                assert_eq!(l.reservation(duty), tr!(l, "reservation-duty-solo", solo = solo(k)));
                assert_eq!(l.reservation(Reservation::Solo { kind: k, duty: false }), solo(k));
                assert_eq!(l.contract(Contract::Solo(k)), solo(k));
                let sow = tr!(l, "contract-black-sow-solo", solo = solo(k));
                assert_eq!(l.contract(Contract::BlackSow(Some(k))), sow);
            }
            for w in WeddingRule::ALL {
                let chosen = tr!(l, "reservation-wedding-chosen", kind = w.key());
                assert_eq!(l.reservation(Reservation::Wedding(Some(w))), chosen);
            }
            for (r, what) in [
                (Reservation::Wedding(None), "wedding"),
                (Reservation::Poverty, "poverty"),
                (Reservation::ThrowIn, "throw-in"),
            ] {
                assert_eq!(l.reservation(r), tr!(l, "reservation", what = what));
            }
            for (c, name) in [
                (Contract::Normal, "normal"),
                (Contract::Wedding, "wedding"),
                (Contract::SilentSolo, "silent-solo"),
                (Contract::Poverty, "poverty"),
                (Contract::BlackSow(None), "black-sow"),
            ] {
                assert_eq!(l.contract(c), tr!(l, "contract", contract = name));
            }
            assert_eq!(l.bid_said(false), tr!(l, "bid-word", bid = "healthy"));
            assert_eq!(l.bid_said(true), tr!(l, "bid-word", bid = "reserved"));
        }
        assert_eq!(Lang::En.card_count(1), "1 card");
        assert_eq!(Lang::De.call(Call::No90), tr!(Lang::De, "call", call = "no90"));
    }
}
