//! The delivery ids a table has handled, kept small: a platform's id takes
//! 19 (a Discord interaction) to 44 characters (a Matrix event), and a
//! table remembers [`DELIVERIES_KEPT`](super::DELIVERIES_KEPT) of them,
//! written to the store at every move.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The characters one remembered delivery takes.
const ENTRY: usize = 8;

/// One remembered delivery: the first 48 bits of its id's XXH3 hash as
/// eight characters of URL-safe base64.
pub(crate) type Entry = [u8; ENTRY];

/// The delivery ids a table has handled (applied or refused), oldest first.
/// Each is kept as the first 48 bits of its XXH3 hash (a hash with a
/// published, fixed output, so every process and version agrees), written
/// as eight characters of URL-safe base64, all of them one string: 256
/// deliveries take 2,048 characters, where the ids themselves took 5,600
/// (Discord) to 12,000 (Matrix) in JSON. A new delivery is taken for one
/// of 256 remembered with a chance of 256 in 2^48 (about one in a
/// trillion).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deliveries(String);

impl Deliveries {
    /// The entry a delivery id is remembered by.
    pub(crate) fn entry(id: &str) -> Entry {
        let hash = xxhash_rust::xxh3::xxh3_64(id.as_bytes()).to_be_bytes();
        let mut out = [0u8; ENTRY];
        let n = URL_SAFE_NO_PAD.encode_slice(&hash[..6], &mut out).expect("six bytes are eight characters");
        debug_assert_eq!(n, ENTRY);
        out
    }

    /// How many deliveries are remembered.
    pub fn len(&self) -> usize {
        self.0.len() / ENTRY
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether a delivery id is remembered.
    pub fn contains(&self, id: &str) -> bool {
        self.holds(&Self::entry(id))
    }

    /// Whether an entry is remembered.
    pub(crate) fn holds(&self, e: &Entry) -> bool {
        let e = u64::from_ne_bytes(*e);
        self.0.as_bytes().chunks_exact(ENTRY).any(|c| u64::from_ne_bytes(c.try_into().expect("eight bytes")) == e)
    }

    /// Remembers a delivery id and forgets the oldest beyond `keep`;
    /// returns the entries forgotten, or None when the id was remembered
    /// already (nothing changes).
    pub(crate) fn insert(&mut self, id: &str, keep: usize) -> Option<Vec<Entry>> {
        let e = Self::entry(id);
        (!self.holds(&e)).then(|| self.push(e, keep))
    }

    /// Remembers an entry not yet held (see [`holds`](Self::holds)) and
    /// forgets the oldest beyond `keep`; returns the entries forgotten.
    pub(crate) fn push(&mut self, e: Entry, keep: usize) -> Vec<Entry> {
        self.0.push_str(std::str::from_utf8(&e).expect("base64 is ASCII"));
        let over = self.len().saturating_sub(keep) * ENTRY;
        let forgotten = self.0.as_bytes()[..over].chunks_exact(ENTRY).map(|c| c.try_into().expect("eight")).collect();
        self.0.drain(..over);
        forgotten
    }
}

impl Serialize for Deliveries {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Deliveries {
    /// Reads the entries as written, or (store format 2) the list of the
    /// ids themselves, which are remembered by their entries from then on.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Deliveries;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("delivery entries (URL-safe base64, eight characters each) or a list of delivery ids")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Deliveries, E> {
                let valid = v.len().is_multiple_of(ENTRY)
                    && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
                if !valid {
                    return Err(E::invalid_value(serde::de::Unexpected::Str(v), &self));
                }
                Ok(Deliveries(v.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Deliveries, A::Error> {
                let mut d = Deliveries::default();
                while let Some(id) = seq.next_element::<String>()? {
                    d.insert(&id, usize::MAX);
                }
                Ok(d)
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_ids_are_known_and_the_oldest_forgotten() {
        let mut d = Deliveries::default();
        let ids: Vec<String> =
            (0..300u64).map(|i| (1_190_000_000_000_000_000u64 + i * 4_194_304).to_string()).collect();
        for (i, id) in ids.iter().enumerate() {
            assert!(!d.contains(id), "{id} before it came");
            let forgotten = d.insert(id, 256).expect("a new id");
            if i < 256 {
                assert!(forgotten.is_empty());
            } else {
                assert_eq!(forgotten, vec![Deliveries::entry(&ids[i - 256])]);
            }
            assert!(d.contains(id));
            assert_eq!(d.insert(id, 256), None, "remembered once");
        }
        assert_eq!(d.len(), 256);
        assert!(ids[..44].iter().all(|id| !d.contains(id)), "the oldest forgotten");
        assert!(ids[44..].iter().all(|id| d.contains(id)), "the newest 256 kept");
        assert_eq!(d.0.len(), 2048);
        // 300 ids this close together have 300 distinct entries
        let mut entries: Vec<Entry> = ids.iter().map(|i| Deliveries::entry(i)).collect();
        entries.sort();
        entries.dedup();
        assert_eq!(entries.len(), 300);
    }

    #[test]
    fn read_as_written_and_from_a_list_of_ids() {
        let mut d = Deliveries::default();
        for id in ["$a:example.org", "1190000000000000000", "terminal:1:2"] {
            d.insert(id, 256);
        }
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(json.len(), 2 + 3 * 8);
        assert_eq!(serde_json::from_str::<Deliveries>(&json).unwrap(), d);
        let listed = r#"["$a:example.org","1190000000000000000","terminal:1:2"]"#;
        assert_eq!(serde_json::from_str::<Deliveries>(listed).unwrap(), d, "format 2's list of ids");
        for bad in [r#""abc""#, r#""abcdefg!""#, "3"] {
            assert!(serde_json::from_str::<Deliveries>(bad).is_err(), "{bad}");
        }
    }
}
