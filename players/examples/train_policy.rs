//! Trains the card-play model the expert reads hidden hands with
//! (`players/src/policy.rs`) on self-play records and writes it.
//!
//! `cargo run --release -p doko-players --example train_policy -- [DEALS
//! [SEED [OUT]]]` (16,000 deals, seed 11, players/model/policy.txt):
//! plays DEALS deals (half under the DDV rules, half under `casual`) with the strong player on every seat, records every card
//! chosen among two or more (the seat's view: its hand, the table's
//! history), fits the softmax's weights to nine tenths of them by
//! gradient descent (Adam) and reports, on the last tenth, the mean log
//! likelihood of the cards played against a uniform guess and how often
//! the model's likeliest card was the one played. `THREADS` (2) splits
//! the deals. `scripts/train-policy` runs it as the shipped model was made.

use std::time::Instant;

use doko_engine::{Action, Game, Phase, Preset, Rules};
use doko_players::arena::match_deals;
use doko_players::player::Player;
use doko_players::policy::{F, FEATURES, Features, Policy, candidates};
use doko_players::strong::{StrongConfig, StrongPlayer};

/// One decision: the candidates' features and which was played.
struct Sample {
    feats: Vec<Features>,
    chosen: usize,
}

fn record(deals: usize, seed: u64) -> Vec<Sample> {
    let mut out = Vec::new();
    for (n, (deal_seed, dealer)) in match_deals(deals, seed).enumerate() {
        let rules = if n % 2 == 0 { Rules::default() } else { Rules::preset(Preset::Casual) };
        let mut players: Vec<StrongPlayer> =
            (0..4).map(|i| StrongPlayer::new(StrongConfig::default(), deal_seed ^ (i as u64 + 1))).collect();
        let mut g = Game::deal(rules, dealer, deal_seed);
        while let Some(s) = g.mandatory_announcement().or(g.to_act()) {
            let v = g.view(s);
            let a = players[s.index()].decide(&v);
            if g.phase() == Phase::Playing
                && let Action::Play(c) = a
            {
                let (cards, feats) = candidates(&v);
                if cards.len() > 1
                    && let Some(chosen) = cards.iter().position(|x| *x == c)
                {
                    out.push(Sample { feats, chosen });
                }
            }
            g.act(s, a).expect("a player's choice is legal");
        }
    }
    out
}

/// Mean negative log likelihood and its gradient.
fn loss(w: &Features, data: &[Sample]) -> (f64, [f64; F]) {
    let model = Policy { weights: *w };
    let mut grad = [0f64; F];
    let mut total = 0.0;
    for s in data {
        let p = model.probabilities(&s.feats);
        total -= p[s.chosen].ln();
        for (i, f) in s.feats.iter().enumerate() {
            let d = p[i] - f64::from(u8::from(i == s.chosen));
            for k in 0..F {
                grad[k] += d * f64::from(f[k]);
            }
        }
    }
    let n = data.len() as f64;
    (total / n, grad.map(|g| g / n))
}

fn train(data: &[Sample], steps: usize) -> Features {
    let mut w = [0f64; F];
    let (mut m, mut v) = ([0f64; F], [0f64; F]);
    let (lr, b1, b2, l2) = (0.05, 0.9, 0.999, 1e-4);
    for t in 1..=steps {
        let wf = w.map(|x| x as f32);
        let (l, g) = loss(&wf, data);
        if t % 50 == 0 || t == 1 {
            eprintln!("step {t}: training loss {l:.4}");
        }
        for k in 0..F {
            let g = g[k] + l2 * w[k];
            m[k] = b1 * m[k] + (1.0 - b1) * g;
            v[k] = b2 * v[k] + (1.0 - b2) * g * g;
            let mh = m[k] / (1.0 - b1.powi(t as i32));
            let vh = v[k] / (1.0 - b2.powi(t as i32));
            w[k] -= lr * mh / (vh.sqrt() + 1e-8);
        }
    }
    w.map(|x| x as f32)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: usize = args.get(1).map_or(16000, |d| d.parse().expect("deals"));
    let seed: u64 = args.get(2).map_or(11, |s| s.parse().expect("seed"));
    let out = args.get(3).map_or("players/model/policy.txt", String::as_str);
    let threads: usize = std::env::var("THREADS").map_or(2, |t| t.parse().expect("threads"));
    let t0 = Instant::now();
    let per = deals.div_ceil(threads);
    let mut data: Vec<Sample> = std::thread::scope(|sc| {
        let hs: Vec<_> =
            (0..threads).map(|t| sc.spawn(move || record(per, seed.wrapping_add(t as u64 * 0x9E37_79B9)))).collect();
        hs.into_iter().flat_map(|h| h.join().expect("thread")).collect()
    });
    eprintln!("{} decisions from {} deals in {:.0} s", data.len(), per * threads, t0.elapsed().as_secs_f64());
    let test = data.split_off(data.len() * 9 / 10);
    let w = train(&data, 400);
    let model = Policy { weights: w };
    let (test_loss, _) = loss(&w, &test);
    let uniform: f64 = test.iter().map(|s| (s.feats.len() as f64).ln()).sum::<f64>() / test.len() as f64;
    let top = |m: &Policy| {
        test.iter()
            .filter(|s| {
                let p = m.probabilities(&s.feats);
                (0..p.len()).max_by(|a, b| p[*a].total_cmp(&p[*b])) == Some(s.chosen)
            })
            .count() as f64
            / test.len() as f64
    };
    let mut basic_only = [0f32; F];
    basic_only[FEATURES.iter().position(|f| *f == "basic").expect("a basic feature")] = 1.0;
    let summary = format!(
        "# The card-play model (players/src/policy.rs), trained by scripts/train-policy:\n\
         # {} decisions of the strong player from {} deals (seed {seed}, half DDV, half casual);\n\
         # on the {} held out: log likelihood per card {:.4} (uniform {:.4}),\n\
         # the likeliest card played {:.1}% (the basic player's card {:.1}%).\n",
        data.len(),
        per * threads,
        test.len(),
        -test_loss,
        -uniform,
        100.0 * top(&model),
        100.0 * top(&Policy { weights: basic_only }),
    );
    eprint!("{summary}");
    std::fs::write(out, format!("{summary}{}", model.to_text())).expect("the model file is written");
    eprintln!("written to {out} in {:.0} s", t0.elapsed().as_secs_f64());
}
