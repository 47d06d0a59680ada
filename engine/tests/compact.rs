//! The compact record form: every example record and every aborted one
//! survives it unchanged, it is a fraction of the JSON's size, and damaged
//! or foreign bytes are refused with a typed error, never a panic.

use std::fs;
use std::path::Path;

use doko_engine::{COMPACT_VERSION, Game, Preset, Record, RecordError, Rng, Rules, Seat, random_game};
use proptest::prelude::*;

fn examples() -> Vec<(String, Record)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records");
    let mut out = Vec::new();
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let n = p.file_name().unwrap().to_string_lossy().to_string();
        if n.ends_with(".json") && !n.ends_with(".expected.json") {
            let text = fs::read_to_string(&p).unwrap();
            out.push((n, Record::from_json(&text).unwrap()));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn example_records_survive_the_compact_form() {
    let ex = examples();
    assert!(ex.len() >= 10, "the example records are there");
    for (name, rec) in ex {
        let bytes = rec.to_bytes();
        assert_eq!(bytes[0], COMPACT_VERSION, "{name}: the version byte comes first");
        assert_eq!(Record::from_bytes(&bytes).as_ref(), Ok(&rec), "{name}");
        let text = rec.to_compact();
        assert!(!text.starts_with('{'), "{name}");
        assert_eq!(Record::from_stored(&text).as_ref(), Ok(&rec), "{name}");
        assert_eq!(Record::from_stored(&rec.to_json()).as_ref(), Ok(&rec), "{name}: JSON is read as well");
        // the same game and result as the JSON record
        let (a, b) = (rec.to_game(), Record::from_compact(&text).unwrap().to_game());
        assert_eq!(a, b, "{name}");
        assert!(text.len() * 5 < rec.to_json().len(), "{name}: {} against {}", text.len(), rec.to_json().len());
    }
}

#[test]
fn a_whole_deal_takes_about_a_hundred_bytes() {
    let mut sizes = Vec::new();
    for seed in 0..200 {
        let g = random_game(&Rules::preset(Preset::Ddv), &mut Rng::new(seed));
        let rec = Record::from_game(&g);
        sizes.push((rec.to_bytes().len(), rec.to_compact().len(), rec.to_json().len()));
        let aborted = Record::aborted(&g, "timeout");
        assert_eq!(Record::from_compact(&aborted.to_compact()).as_ref(), Ok(&aborted));
    }
    sizes.sort();
    let (bytes, text, json) = sizes[sizes.len() / 2];
    println!("median compact record: {bytes} bytes, {text} as text (JSON {json})");
    assert!(bytes <= 100 && text <= 136, "median compact record: {bytes} bytes, {text} as text (JSON {json})");
}

#[test]
fn another_version_is_refused_by_name() {
    let rec = Record::from_game(&Game::deal(Rules::default(), Seat::ALL[0], 7));
    let mut bytes = rec.to_bytes();
    bytes[0] = COMPACT_VERSION + 1;
    let e = Record::from_bytes(&bytes).unwrap_err().to_string();
    assert!(e.contains("written by a newer doko"), "{e}");
    bytes[0] = 0;
    assert!(Record::from_bytes(&bytes).is_err());
    assert!(Record::from_bytes(&[]).is_err());
    assert!(Record::from_compact("not base64!").is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any bytes: a record or a typed error, never a panic; a real
    /// record with one byte changed or cut short likewise, and what is
    /// read plays through the engine's checks (a refusal is an error).
    #[test]
    fn damaged_bytes_are_refused_not_panicked_on(
        seed in any::<u64>(), at in any::<usize>(), to in any::<u8>(), cut in any::<usize>(),
        noise in proptest::collection::vec(any::<u8>(), 0..160),
    ) {
        let _ = Record::from_bytes(&noise);
        let mut noisy = vec![COMPACT_VERSION];
        noisy.extend_from_slice(&noise);
        if let Ok(r) = Record::from_bytes(&noisy) {
            let _ = r.to_game();
        }
        let g = random_game(&Rules::preset(Preset::ALL[(seed % 4) as usize]), &mut Rng::new(seed));
        let bytes = Record::from_game(&g).to_bytes();
        let mut changed = bytes.clone();
        let i = at % changed.len();
        changed[i] = to;
        match Record::from_bytes(&changed) {
            Ok(r) => { let _ = r.to_game(); }
            Err(e) => {
                let form = matches!(e, RecordError::Record(_) | RecordError::Malformed { .. });
                prop_assert!(form, "a form error expected: {}", e);
            }
        }
        let short = &bytes[..cut % bytes.len()];
        prop_assert!(Record::from_bytes(short).is_err(), "a record cut short at {} was read", short.len());
    }
}

/// A compact record names a house-rule key by its place in `KEYS`: the
/// keys of version 1 keep their places (new keys go at the end).
#[test]
fn rule_keys_keep_their_places() {
    const V1: [&str; 37] = [
        "nines",
        "dulle",
        "dullen",
        "solos",
        "soloist_leads",
        "wedding",
        "wedding_choose",
        "poverty",
        "poverty_max_trumps",
        "poverty_fox_counts",
        "poverty_return_trumps",
        "piglets",
        "superpiglets",
        "piglets_first_only",
        "piglets_when",
        "piglets_announce",
        "half_chicken",
        "genscher",
        "black_sow",
        "throw_in_nines",
        "throw_in_kings",
        "throw_in_low_trumps",
        "throw_in_low_points",
        "re_kontra",
        "extra_points",
        "mandatory_announcement",
        "mandatory_further",
        "compulsory_solos",
        "games_per_session",
        "bock",
        "turn_timeout",
        "solo_double",
        "solo_priority",
        "announce_on_turn",
        "re_deadline",
        "bock_triggers",
        "bock_stacking",
    ];
    let now: Vec<&str> = doko_engine::KEYS.iter().map(|k| k.name).collect();
    assert!(now.len() >= V1.len());
    assert_eq!(&now[..V1.len()], V1.as_slice(), "a key moved: compact records would read another key");
}

/// A game's compact text written straight from the game is the compact
/// text of its record, and its record replays to the game, at every step of random deals under every preset,
/// with and without Schwarze Sau (a poverty taken where a seat may, offers
/// mostly declined, most seats healthy: poverty exchanges, Schwarze Sau solos, announcements
/// and declarations among them).
#[test]
fn a_games_compact_text_is_its_records() {
    use doko_engine::{Action, Bid, Reservation};
    let (mut steps, mut poverty, mut sow, mut calls) = (0, 0, 0, 0);
    for preset in Preset::ALL {
        for (nines, black_sow) in [(true, false), (false, false), (true, true)] {
            let rules = Rules { nines, black_sow, ..Rules::preset(preset) };
            for seed in 0..100u64 {
                let mut rng = Rng::new(seed);
                let mut g = Game::deal(rules, Seat::new(rng.below(4)), seed);
                loop {
                    let rec = Record::from_game(&g);
                    assert_eq!(Record::compact_of_game(&g), rec.to_compact(), "{preset:?} seed {seed}");
                    // and the record lists the steps as they happened
                    assert_eq!(rec.to_game().unwrap(), g, "{preset:?} seed {seed}");
                    steps += 1;
                    let Some(s) = g.mandatory_announcement().or(g.to_act()) else { break };
                    let acts = g.legal_actions(s);
                    if acts.is_empty() {
                        break;
                    }
                    let poor = Action::Bid(Bid::Reserve(Reservation::Poverty));
                    let a = if acts.contains(&poor) {
                        poor
                    } else if acts.contains(&Action::Answer(false)) && rng.below(4) != 0 {
                        Action::Answer(false)
                    } else if acts.contains(&Action::Bid(Bid::Healthy)) && rng.below(4) != 0 {
                        Action::Bid(Bid::Healthy)
                    } else {
                        acts[rng.below(acts.len())]
                    };
                    g.act(s, a).unwrap();
                }
                let rec = Record::from_game(&g);
                poverty += usize::from(rec.actions.iter().any(|(_, a)| matches!(a, Action::Give(_))));
                sow += usize::from(g.sow_solo_at().is_some());
                calls += rec.actions.iter().filter(|(_, a)| matches!(a, Action::Announce(_))).count();
            }
        }
    }
    assert!(steps > 50_000, "{steps} steps");
    assert!(poverty >= 20 && sow >= 3 && calls >= 1_000, "poverty {poverty}, sow {sow}, calls {calls}");
}
