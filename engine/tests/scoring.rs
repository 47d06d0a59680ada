//! Table-driven scoring tests: every scoring example of the rule seeds and
//! the DDV cases (thresholds, 120:120, lone Kontra, Absagen on both sides,
//! no winner, extra points netted against the value, solo factor, doubles).
//! Expectations are worked out by hand from the rules, item by item.

use doko_engine::{Extras, Facts, Level, Party, ReKontra, Reason, evaluate};

use Level::*;
use Party::{Kontra as K, Re as R};

struct Case {
    name: &'static str,
    /// Re seats as a bit mask; 0b0101 is seats 0 and 2, 0b0001 a soloist.
    re: u8,
    re_points: u32,
    re_tricks: u32,
    re_level: Option<Level>,
    kontra_level: Option<Level>,
    extras: &'static [(Reason, Party)],
    doubles: bool,
    winner: Option<Party>,
    value: i32,
    items: &'static [(&'static str, Party, i32)],
    scores: [i32; 4],
}

const NORMAL: u8 = 0b0101;
const SOLO: u8 = 0b0001;

fn base() -> Case {
    Case {
        name: "",
        re: NORMAL,
        re_points: 121,
        re_tricks: 6,
        re_level: None,
        kontra_level: None,
        extras: &[],
        doubles: false,
        winner: None,
        value: 0,
        items: &[],
        scores: [0; 4],
    }
}

fn cases() -> Vec<Case> {
    [
        seed_examples(),
        seed_solo_examples(),
        thresholds_120(),
        thresholds_against_absagen(),
        schwarz_announced(),
        no_winner(),
        extras_netted(),
        doubles(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The examples "as stated in the official rules" (the Wikipedia en/pt seeds).
fn seed_examples() -> Vec<Case> {
    vec![
        Case {
            name: "seed 1: no bids, Re wins with 131",
            re_points: 131,
            re_tricks: 7,
            winner: Some(R),
            value: 1,
            items: &[("won", R, 1)],
            scores: [1, -1, 1, -1],
            ..base()
        },
        Case {
            name: "seed 2: Kontra, no 60 announced, Kontra gets 183",
            re_points: 57,
            re_tricks: 3,
            kontra_level: Some(No60),
            winner: Some(K),
            value: 8,
            items: &[
                ("won", K, 1),
                ("under_90", K, 1),
                ("under_60", K, 1),
                ("announced_no90", K, 1),
                ("announced_no60", K, 1),
                ("announced_kontra", K, 2),
                ("against_the_elders", K, 1),
            ],
            scores: [-8, 8, -8, 8],
            ..base()
        },
        Case {
            name: "seed 3: Re no 60, Kontra said Kontra, Kontra gets 60 and wins",
            re_points: 180,
            re_tricks: 9,
            re_level: Some(No60),
            kontra_level: Some(Win),
            winner: Some(K),
            value: 8,
            items: &[
                ("won", K, 1),
                ("announced_no90", K, 1),
                ("announced_no60", K, 1),
                ("announced_re", K, 2),
                ("announced_kontra", K, 2),
                ("against_the_elders", K, 1),
            ],
            scores: [-8, 8, -8, 8],
            ..base()
        },
        Case {
            name: "seed 4: as before, Kontra gets 90: +1 for 90 against no 60",
            re_points: 150,
            re_tricks: 8,
            re_level: Some(No60),
            kontra_level: Some(Win),
            winner: Some(K),
            value: 9,
            items: &[
                ("won", K, 1),
                ("reached_90_against_no60", K, 1),
                ("announced_no90", K, 1),
                ("announced_no60", K, 1),
                ("announced_re", K, 2),
                ("announced_kontra", K, 2),
                ("against_the_elders", K, 1),
            ],
            scores: [-9, 9, -9, 9],
            ..base()
        },
    ]
}

/// The seeds' solo examples: the soloist scores three times the value.
fn seed_solo_examples() -> Vec<Case> {
    vec![
        Case {
            name: "seed 5: soloist wins without announcements with 153",
            re: SOLO,
            re_points: 153,
            re_tricks: 8,
            winner: Some(R),
            value: 2,
            items: &[("won", R, 1), ("under_90", R, 1)],
            scores: [6, -2, -2, -2],
            ..base()
        },
        Case {
            name: "seed 6: soloist announces Re, no 90, gets only 87",
            re: SOLO,
            re_points: 87,
            re_tricks: 4,
            re_level: Some(No90),
            winner: Some(K),
            value: 6,
            items: &[
                ("won", K, 1),
                ("under_90", K, 1),
                ("reached_120_against_no90", K, 1),
                ("announced_no90", K, 1),
                ("announced_re", K, 2),
            ],
            scores: [-18, 6, 6, 6],
            ..base()
        },
    ]
}

/// Winning with 120 or 121 card points, as the announcements decide.
fn thresholds_120() -> Vec<Case> {
    vec![
        Case {
            name: "120:120, no announcements: Kontra wins with 120",
            re_points: 120,
            winner: Some(K),
            value: 2,
            items: &[("won", K, 1), ("against_the_elders", K, 1)],
            scores: [-2, 2, -2, 2],
            ..base()
        },
        Case {
            name: "120:120, only Kontra announced: Re wins with 120",
            re_points: 120,
            kontra_level: Some(Win),
            winner: Some(R),
            value: 3,
            items: &[("won", R, 1), ("announced_kontra", R, 2)],
            scores: [3, -3, 3, -3],
            ..base()
        },
        Case {
            name: "119:121, only Kontra announced: Kontra wins with 121",
            re_points: 119,
            kontra_level: Some(Win),
            winner: Some(K),
            value: 4,
            items: &[("won", K, 1), ("announced_kontra", K, 2), ("against_the_elders", K, 1)],
            scores: [-4, 4, -4, 4],
            ..base()
        },
        Case {
            name: "120:120, only Re announced: Kontra wins with 120",
            re_points: 120,
            re_level: Some(Win),
            winner: Some(K),
            value: 4,
            items: &[("won", K, 1), ("announced_re", K, 2), ("against_the_elders", K, 1)],
            scores: [-4, 4, -4, 4],
            ..base()
        },
        Case {
            name: "120:120, Re and Kontra announced: Kontra wins with 120",
            re_points: 120,
            re_level: Some(Win),
            kontra_level: Some(Win),
            winner: Some(K),
            value: 6,
            items: &[("won", K, 1), ("announced_re", K, 2), ("announced_kontra", K, 2), ("against_the_elders", K, 1)],
            scores: [-6, 6, -6, 6],
            ..base()
        },
    ]
}

/// Absagen made or missed, and what the other party reaches against them.
fn thresholds_against_absagen() -> Vec<Case> {
    vec![
        Case {
            name: "Re no 90 made with 151 (Kontra 89): under 90 counts too",
            re_points: 151,
            re_tricks: 9,
            re_level: Some(No90),
            winner: Some(R),
            value: 5,
            items: &[("won", R, 1), ("under_90", R, 1), ("announced_no90", R, 1), ("announced_re", R, 2)],
            scores: [5, -5, 5, -5],
            ..base()
        },
        Case {
            name: "Re no 90 missed by one (150:90): Kontra wins with 90, 120 not reached",
            re_points: 150,
            re_tricks: 9,
            re_level: Some(No90),
            winner: Some(K),
            value: 5,
            items: &[("won", K, 1), ("announced_no90", K, 1), ("announced_re", K, 2), ("against_the_elders", K, 1)],
            scores: [-5, 5, -5, 5],
            ..base()
        },
        Case {
            name: "Kontra no 30 (needs Re below 30), Re takes exactly 30: Re wins; 60 not reached",
            re_points: 30,
            re_tricks: 2,
            kontra_level: Some(No30),
            winner: Some(R),
            value: 6,
            items: &[
                ("won", R, 1),
                ("announced_no90", R, 1),
                ("announced_no60", R, 1),
                ("announced_no30", R, 1),
                ("announced_kontra", R, 2),
            ],
            scores: [6, -6, 6, -6],
            ..base()
        },
        Case {
            name: "Kontra no 30, Re takes 60: +1 for 60 against no 30",
            re_points: 60,
            re_tricks: 3,
            kontra_level: Some(No30),
            winner: Some(R),
            value: 7,
            items: &[
                ("won", R, 1),
                ("reached_60_against_no30", R, 1),
                ("announced_no90", R, 1),
                ("announced_no60", R, 1),
                ("announced_no30", R, 1),
                ("announced_kontra", R, 2),
            ],
            scores: [7, -7, 7, -7],
            ..base()
        },
    ]
}

/// Schwarz announced: every trick taken, or one trick of 0 points lost.
fn schwarz_announced() -> Vec<Case> {
    vec![
        Case {
            name: "Re schwarz announced and every trick taken",
            re_points: 240,
            re_tricks: 12,
            re_level: Some(Schwarz),
            winner: Some(R),
            value: 11,
            items: &[
                ("won", R, 1),
                ("under_90", R, 1),
                ("under_60", R, 1),
                ("under_30", R, 1),
                ("schwarz", R, 1),
                ("announced_no90", R, 1),
                ("announced_no60", R, 1),
                ("announced_no30", R, 1),
                ("announced_schwarz", R, 1),
                ("announced_re", R, 2),
            ],
            scores: [11, -11, 11, -11],
            ..base()
        },
        Case {
            name: "Re schwarz announced, Kontra takes one trick of 0 points: Kontra wins",
            re_points: 240,
            re_tricks: 11,
            re_level: Some(Schwarz),
            winner: Some(K),
            value: 8,
            items: &[
                ("won", K, 1),
                ("announced_no90", K, 1),
                ("announced_no60", K, 1),
                ("announced_no30", K, 1),
                ("announced_schwarz", K, 1),
                ("announced_re", K, 2),
                ("against_the_elders", K, 1),
            ],
            scores: [-8, 8, -8, 8],
            ..base()
        },
    ]
}

/// No winner: both parties made Absagen and neither reached its target.
fn no_winner() -> Vec<Case> {
    vec![
        Case {
            name: "no winner: Re no 90 and Kontra no 90, 140:100",
            re_points: 140,
            re_tricks: 7,
            re_level: Some(No90),
            kontra_level: Some(No90),
            winner: None,
            value: 1,
            items: &[("reached_120_against_no90", R, 1)],
            scores: [1, -1, 1, -1],
            ..base()
        },
        Case {
            name: "no winner: Re no 60 and Kontra no 90, 125:115 with a Kontra fox (both reach something)",
            re_points: 125,
            re_tricks: 6,
            re_level: Some(No60),
            kontra_level: Some(No90),
            extras: &[(Reason::Fox, K)],
            winner: None,
            value: -1,
            items: &[("reached_120_against_no90", R, 1), ("reached_90_against_no60", K, 1), ("fox", K, 1)],
            scores: [-1, 1, -1, 1],
            ..base()
        },
        Case {
            name: "no winner in a solo: soloist no 90 and Kontra no 90, 130:110",
            re: SOLO,
            re_points: 130,
            re_tricks: 6,
            re_level: Some(No90),
            kontra_level: Some(No90),
            winner: None,
            value: 1,
            items: &[("reached_120_against_no90", R, 1)],
            scores: [3, -1, -1, -1],
            ..base()
        },
    ]
}

/// Extra points netted against each other and the value.
fn extras_netted() -> Vec<Case> {
    vec![
        Case {
            name: "nominal winner ends negative: Re wins 125, Kontra caught two foxes",
            re_points: 125,
            re_tricks: 7,
            extras: &[(Reason::Fox, K), (Reason::Fox, K)],
            winner: Some(R),
            value: -1,
            items: &[("won", R, 1), ("fox", K, 1), ("fox", K, 1)],
            scores: [-1, 1, -1, 1],
            ..base()
        },
        Case {
            name: "extras cancel: Re Doppelkopf and Charlie against a Kontra fox",
            re_points: 140,
            re_tricks: 8,
            extras: &[(Reason::Doppelkopf, R), (Reason::Fox, K), (Reason::Charlie, R)],
            winner: Some(R),
            value: 2,
            items: &[("won", R, 1), ("doppelkopf", R, 1), ("fox", K, 1), ("charlie", R, 1)],
            scores: [2, -2, 2, -2],
            ..base()
        },
        Case {
            name: "Kontra wins: against the elders plus its fox, minus Re's Doppelkopf",
            re_points: 100,
            re_tricks: 5,
            extras: &[(Reason::Fox, K), (Reason::Doppelkopf, R)],
            winner: Some(K),
            value: 2,
            items: &[("won", K, 1), ("against_the_elders", K, 1), ("fox", K, 1), ("doppelkopf", R, 1)],
            scores: [-2, 2, -2, 2],
            ..base()
        },
    ]
}

/// House rule: Re and Kontra double.
fn doubles() -> Vec<Case> {
    vec![
        Case {
            name: "doubles: Re and Kontra, Re wins 185 (under 90, under 60 -> 3, x2, x2)",
            re_points: 185,
            re_tricks: 9,
            re_level: Some(Win),
            kontra_level: Some(Win),
            doubles: true,
            winner: Some(R),
            value: 12,
            items: &[
                ("won", R, 1),
                ("under_90", R, 1),
                ("under_60", R, 1),
                ("re_doubles", R, 3),
                ("kontra_doubles", R, 6),
            ],
            scores: [12, -12, 12, -12],
            ..base()
        },
        Case {
            name: "doubles: extra points are not doubled",
            re_points: 130,
            re_tricks: 6,
            re_level: Some(Win),
            doubles: true,
            extras: &[(Reason::Fox, R)],
            winner: Some(R),
            value: 3,
            items: &[("won", R, 1), ("re_doubles", R, 1), ("fox", R, 1)],
            scores: [3, -3, 3, -3],
            ..base()
        },
    ]
}

fn run(c: &Case) {
    let mut extras = Extras::default();
    for (r, p) in c.extras {
        extras.push(*r, *p);
    }
    let f = Facts {
        re: c.re,
        normal_game: c.re.count_ones() == 2,
        levels: [c.re_level, c.kontra_level],
        card_points: [c.re_points, 240 - c.re_points],
        tricks_won: [c.re_tricks, 12 - c.re_tricks],
        re_kontra: if c.doubles { ReKontra::Doubles } else { ReKontra::PlusTwo },
        against_the_elders: true,
        extras,
    };
    let s = evaluate(&f);
    assert_eq!(s.winner, c.winner, "{}: winner", c.name);
    assert_eq!(s.game_value, c.value, "{}: game value", c.name);
    assert_eq!(s.scores, c.scores, "{}: scores", c.name);
    assert_eq!(s.scores.iter().sum::<i32>(), 0, "{}: zero sum", c.name);
    let mut got: Vec<(&str, Party, i32)> =
        s.breakdown.items().iter().map(|i| (i.reason.name(), i.party, i.points)).collect();
    let mut want: Vec<(&str, Party, i32)> = c.items.to_vec();
    got.sort();
    want.sort();
    assert_eq!(got, want, "{}: breakdown", c.name);
}

#[test]
fn scoring_table() {
    for c in cases() {
        run(&c);
    }
}
