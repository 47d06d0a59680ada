//! The contract every store passes (memory, embedded, Redis, Redis
//! Cluster): loads, compare-and-set commits with their records, record
//! numbering, trimming.

use doko_bot::{ChannelId, Commit, Keep, Platform, Store};

/// Loads, commits and records of two tables (same id, two platforms).
pub async fn contract<S: Store>(s: &S) {
    let a = ChannelId::new(Platform::DISCORD, "a");
    let b = ChannelId::new(Platform::MATRIX, "a"); // same id, other platform: another table
    assert_eq!(s.load(&a).await.unwrap(), None);
    assert_eq!(s.commit(&a, 0, "{\"t\":1}", &[]).await.unwrap(), Commit::Done(1));
    let got = s.load(&a).await.unwrap().unwrap();
    assert_eq!((got.json.as_str(), got.version), ("{\"t\":1}", 1));
    assert_eq!(s.load(&b).await.unwrap(), None, "platforms are kept apart");
    // a stale version is refused and changes nothing
    assert_eq!(s.commit(&a, 0, "{\"t\":2}", &["r0".into()]).await.unwrap(), Commit::Conflict);
    assert_eq!(s.load(&a).await.unwrap().unwrap().json, "{\"t\":1}");
    assert_eq!(s.record(&a, 1).await.unwrap(), None, "no record from a refused commit");
    // records are appended with the change, numbered from 1
    assert_eq!(s.commit(&a, 1, "{\"t\":3}", &["r1".into(), "r2".into()]).await.unwrap(), Commit::Done(2));
    assert_eq!(s.commit(&a, 2, "{\"t\":4}", &["r3".into()]).await.unwrap(), Commit::Done(3));
    assert_eq!(s.record(&a, 1).await.unwrap().as_deref(), Some("r1"));
    assert_eq!(s.record(&a, 3).await.unwrap().as_deref(), Some("r3"));
    assert_eq!(s.record(&a, 0).await.unwrap(), None);
    assert_eq!(s.record(&a, 4).await.unwrap(), None);
    assert_eq!(s.record(&b, 1).await.unwrap(), None);
    // the other table is independent
    assert_eq!(s.commit(&b, 0, "{}", &["x".into()]).await.unwrap(), Commit::Done(1));
    assert_eq!(s.record(&b, 1).await.unwrap().as_deref(), Some("x"));
    assert_eq!(s.load(&a).await.unwrap().unwrap().version, 3);
    // a large table round-trips unchanged
    let big = format!("{{\"x\":\"{}\"}}", "é♣".repeat(20_000));
    assert_eq!(s.commit(&a, 3, &big, &[]).await.unwrap(), Commit::Done(4));
    assert_eq!(s.load(&a).await.unwrap().unwrap().json, big);
}

/// Records beyond a table's cap are trimmed, oldest first, in the same
/// step; numbers stay put; a cap of 0 keeps them all.
pub async fn trimming<S: Store>(s: &S) {
    let a = ChannelId::new(Platform::DISCORD, "trim");
    let keep = Keep { durable: true, records: 3 };
    let mut v = 0;
    for i in 1..=7u32 {
        let recs: Vec<String> = if i == 4 { vec!["r4".into(), "r5".into()] } else { vec![format!("r{}", i + 1)] };
        let recs = if i < 4 { vec![format!("r{i}")] } else { recs };
        assert_eq!(s.commit_kept(&a, v, "{}", &recs, keep).await.unwrap(), Commit::Done(v + 1));
        v += 1;
    }
    // r1..r8 were stored, the last three are kept
    for n in 1..=5 {
        assert_eq!(s.record(&a, n).await.unwrap(), None, "record {n} trimmed");
    }
    for n in 6..=8 {
        assert_eq!(s.record(&a, n).await.unwrap(), Some(format!("r{n}")), "record {n} kept");
    }
    assert_eq!(s.record(&a, 9).await.unwrap(), None);
    // a commit without records trims nothing more
    assert_eq!(s.commit_kept(&a, v, "{}", &[], keep).await.unwrap(), Commit::Done(v + 1));
    assert_eq!(s.record(&a, 6).await.unwrap().as_deref(), Some("r6"));
    let b = ChannelId::new(Platform::DISCORD, "all");
    let all = Keep { durable: false, records: 0 };
    for i in 1..=5u64 {
        s.commit_kept(&b, i - 1, "{}", &[format!("x{i}")], all).await.unwrap();
    }
    assert_eq!(s.record(&b, 1).await.unwrap().as_deref(), Some("x1"));
}
