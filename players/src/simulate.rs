//! Deals simulated from one seat's view, shared by the analysis and the
//! coach: worlds that fit what the seat saw, a line of its own actions
//! taken in each and the deal played out, the seat's score per world and
//! line.

use doko_engine::{Action, Game, Rng, Seat, SeatView};

use crate::playout::{PLAYOUT_NOISE, playout};
use crate::worlds::{basic_playout, knowledge, sample, world};

/// Per sampled world (from `world`, up to `worlds` of them), the person's
/// score after each line of its own actions: the mean of `playouts`
/// heuristic card playouts, or
/// (`whole`) one playout of the whole deal by basic players (bids and
/// poverty answers: the basic player is deterministic). A world where a
/// line cannot be played does not count.
pub(crate) fn rows(
    seat: Seat,
    lines: &[Vec<Action>],
    (worlds, playouts): (usize, usize),
    rng: &mut Rng,
    whole: bool,
    mut world: impl FnMut(&mut Rng) -> Option<Game>,
) -> Vec<Vec<f64>> {
    let mut rows: Vec<Vec<f64>> = Vec::new();
    let mut tries = 0;
    let playouts = if whole { 1 } else { playouts };
    while rows.len() < worlds && tries < worlds * 4 {
        tries += 1;
        let Some(w) = world(rng) else { continue };
        let row = lines
            .iter()
            .map(|line| {
                let mut total = 0.0;
                for _ in 0..playouts {
                    let mut p = w.clone();
                    // (a world's card order may differ from the view's)
                    if line.iter().any(|a| p.act(seat, *a).is_err()) {
                        return f64::NAN;
                    }
                    if whole {
                        basic_playout(&mut p);
                    } else {
                        playout(&mut p, true, PLAYOUT_NOISE, false, rng);
                    }
                    total += p.seat_score(seat).map_or(0.0, f64::from);
                }
                total / playouts as f64
            })
            .collect::<Vec<f64>>();
        if row.iter().all(|x| x.is_finite()) {
            rows.push(row);
        }
    }
    rows
}

/// In how many of the worlds of `rows` line `i` won (the person's score
/// above 0), in percent, and of how many worlds.
pub(crate) fn won(rows: &[Vec<f64>], i: usize) -> (u8, usize) {
    let wins = rows.iter().filter(|r| r[i] > 0.0).count();
    ((wins * 100).checked_div(rows.len()).unwrap_or(0) as u8, rows.len())
}

/// Card worlds: deals of the unseen cards that fit the seat's view.
pub(crate) fn card_worlds(v: &SeatView) -> Option<impl FnMut(&mut Rng) -> Option<Game> + '_> {
    let k = knowledge(v)?;
    Some(move |rng: &mut Rng| sample(&k, v, rng).and_then(|hands| world(v, hands)))
}
