//! A part of a stored state that changes seldom (a score sheet, a
//! table's seats), shared copy-on-write and kept with its JSON: a copy of
//! the state does not copy it, and writing the state again writes the
//! JSON it was last written as instead of serialising it again.
//!
//! For serde_json only, as states are stored: another serialiser would be
//! given serde_json's raw value.

use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// A value shared copy-on-write, with its JSON once it has been written.
///
/// ```
/// use doko_engine::Shared;
/// let mut rows = Shared::new(vec![1, 2]);
/// assert_eq!(serde_json::to_string(&rows).unwrap(), "[1,2]");
/// rows.make_mut().push(3); // drops the JSON kept
/// assert_eq!(serde_json::to_string(&rows).unwrap(), "[1,2,3]");
/// ```
pub struct Shared<T>(Arc<Inner<T>>);

struct Inner<T> {
    value: T,
    /// The value's JSON, written the first time it is serialised after a
    /// change.
    json: OnceLock<Box<RawValue>>,
}

impl<T> Shared<T> {
    /// A new shared value (its JSON not yet written).
    pub fn new(value: T) -> Shared<T> {
        Shared(Arc::new(Inner { value, json: OnceLock::new() }))
    }

    /// The value to change: copied first if another copy of the state
    /// shares it; its JSON is written again the next time it is
    /// serialised.
    pub fn make_mut(&mut self) -> &mut T
    where
        T: Clone,
    {
        if Arc::get_mut(&mut self.0).is_none() {
            *self = Shared::new(self.0.value.clone());
        }
        let inner = Arc::get_mut(&mut self.0).expect("the only holder: copied just above");
        inner.json = OnceLock::new();
        &mut inner.value
    }

    /// Whether its JSON is kept (for tests).
    #[cfg(test)]
    pub(crate) fn json_kept(&self) -> bool {
        self.0.json.get().is_some()
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0.value
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(self.0.clone())
    }
}

impl<T: Default> Default for Shared<T> {
    fn default() -> Shared<T> {
        Shared::new(T::default())
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.value == other.0.value
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.value.fmt(f)
    }
}

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let json = match self.0.json.get() {
            Some(json) => json,
            None => match serde_json::value::to_raw_value(&self.0.value) {
                Ok(json) => self.0.json.get_or_init(|| json),
                // (not JSON: the serialiser says what is wrong)
                Err(_) => return self.0.value.serialize(s),
            },
        };
        json.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Shared<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Shared<T>, D::Error> {
        T::deserialize(d).map(Shared::new)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// What is written is the value's JSON: the first time, after a
    /// copy of the state shares it, and after a change (never the JSON of
    /// before the change), and a copy changed leaves the other as it was.
    #[test]
    fn the_json_kept_is_the_values() {
        let mut a: Shared<BTreeMap<String, u32>> = Shared::default();
        assert_eq!(serde_json::to_string(&a).unwrap(), "{}");
        assert!(a.json_kept());
        a.make_mut().insert("x".into(), 1);
        assert!(!a.json_kept(), "a change drops the JSON kept");
        assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"x":1}"#);
        let b = a.clone();
        assert!(b.json_kept(), "a copy shares the JSON");
        assert_eq!(serde_json::to_string(&b).unwrap(), r#"{"x":1}"#);
        a.make_mut().insert("y".into(), 2);
        assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"x":1,"y":2}"#);
        assert_eq!(serde_json::to_string(&b).unwrap(), r#"{"x":1}"#, "the other copy is unchanged");
        assert_eq!(*b, BTreeMap::from([("x".to_string(), 1)]));
        assert_ne!(a, b);
        let back: Shared<BTreeMap<String, u32>> = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!(back, a);
        // inside a larger value, as the table writes it
        let outer = serde_json::to_string(&BTreeMap::from([("s", a.clone())])).unwrap();
        assert_eq!(outer, r#"{"s":{"x":1,"y":2}}"#);
        let v: serde_json::Value = serde_json::to_value(&a).unwrap();
        assert_eq!(v, serde_json::json!({"x": 1, "y": 2}));
    }
}
