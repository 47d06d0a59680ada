//! Random records: any rule values, bids and actions.

use doko_engine::{Action, Bid, Call, Card, Cards, KEYS, Preset, Record, Reservation, Rng, Rules, Seat, SoloKind};

/// Valid values per rule key (by `Rules::set`), for random rule sets.
fn rule_values(key: &str) -> &'static [&'static str] {
    match key {
        "nines" | "soloist_leads" => &["true", "false"],
        "dulle" => &["first-wins", "second-wins", "second-wins-except-last"],
        "solos" => &["none", "kings", "diamonds hearts spades clubs queens jacks aces kings", "aces queens"],
        "wedding" => &["first-foreign", "first-fail", "first-trump"],
        "poverty"
        | "piglets"
        | "superpiglets"
        | "bock"
        | "solo_double"
        | "announce_on_turn"
        | "poverty_fox_counts"
        | "poverty_return_trumps"
        | "dullen"
        | "mandatory_further"
        | "piglets_first_only"
        | "piglets_announce"
        | "half_chicken"
        | "genscher"
        | "black_sow"
        | "wedding_choose"
        | "coach" => &["on", "off"],
        "piglets_when" => &["deal", "play"],
        "bock_stacking" => &["extend", "stack"],
        "solo_priority" => &["first", "last"],
        "re_deadline" => &["before-second-card", "before-first-card"],
        "throw_in_low_trumps" => &["off", "0", "3"],
        "throw_in_low_points" => &["off", "10", "60"],
        "bock_triggers" => &["none", "tie lost-re lost-kontra", "heart-trick lost-solo"],
        "poverty_max_trumps" => &["0", "3", "5"],
        "throw_in_nines" | "throw_in_kings" => &["off", "5", "8"],
        "re_kontra" => &["plus-two", "doubles"],
        "extra_points" => &[
            "none",
            "fox",
            "charlie-caught fox-last-trick doppelkopf",
            "lizzie-miller fox-first-trick dulle-caught heart-trick",
        ],
        "mandatory_announcement" => &["off", "30", "40"],
        "compulsory_solos" => &["0", "1", "2"],
        "games_per_session" => &["0", "24", "100"],
        "turn_timeout" => &["0", "60", "86400"],
        _ => &[],
    }
}

fn random_rules(rng: &mut Rng) -> Rules {
    let mut r = Rules::preset(if rng.below(2) == 0 { Preset::Ddv } else { Preset::Casual });
    for k in KEYS {
        let vals = rule_values(k.name);
        assert!(!vals.is_empty(), "no test values for rule {}", k.name);
        if rng.below(2) == 0 {
            r.set(k.name, vals[rng.below(vals.len())]).expect("valid value");
        }
    }
    r
}

fn random_bid(rng: &mut Rng) -> Bid {
    match rng.below(5) {
        0 => Bid::Healthy,
        1 => Bid::Reserve(Reservation::Wedding(None)),
        2 => Bid::Reserve(Reservation::Poverty),
        3 => Bid::Reserve(Reservation::ThrowIn),
        _ => Bid::Reserve(Reservation::Solo { kind: SoloKind::ALL[rng.below(8)], duty: rng.below(2) == 0 }),
    }
}

/// A record with random rules, hands, bids and actions of the kinds a
/// record's `actions` hold (everything but bids). Not necessarily one that
/// replays.
pub fn random_record(rng: &mut Rng) -> Record {
    let seat = |rng: &mut Rng| Seat::ALL[rng.below(4)];
    let bids = (rng.below(4) != 0).then(|| (0..rng.below(6)).map(|_| (seat(rng), random_bid(rng))).collect());
    let actions = (0..rng.below(20))
        .map(|_| {
            let a = match rng.below(5) {
                0 => Action::Give(Cards::from_bits(rng.next_u64())),
                1 => Action::Answer(rng.below(2) == 0),
                2 => Action::Return(Cards::from_bits(rng.next_u64() & rng.next_u64())),
                3 => Action::Play(Card::from_index(rng.below(24))),
                _ => Action::Announce(Call::ALL[rng.below(6)]),
            };
            (seat(rng), a)
        })
        .collect();
    Record {
        rules: random_rules(rng),
        dealer: seat(rng),
        hands: std::array::from_fn(|_| Cards::from_bits(rng.next_u64())),
        bids,
        actions,
        aborted: None,
    }
}
