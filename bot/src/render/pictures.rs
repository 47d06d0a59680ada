//! Card pictures: a hand, a deal's result, the trick on the table.

use doko_engine::HandView;

use crate::command::CardStyle;
use crate::lang::Lang;
use crate::outbox::Picture;
use crate::table::{Summary, Table};
use crate::tr;

/// The faces of a language's cards in pictures.
pub(crate) fn faces(l: Lang) -> crate::picture::Faces {
    match l {
        Lang::De => crate::picture::Faces::German,
        Lang::En => crate::picture::Faces::English,
    }
}

/// A picture from the renderer, or none when it fails (logged without
/// cards: the text carries the same).
pub(super) fn picture(name: &str, alt: String, png: Result<Vec<u8>, crate::picture::PictureError>) -> Option<Picture> {
    match png {
        Ok(png) => Some(Picture { name: name.to_string(), png: png.into(), alt }),
        Err(e) => {
            tracing::warn!(error = %e, picture = name, "a card picture could not be drawn");
            None
        }
    }
}

/// A hand as a picture, at a table that shows cards as pictures: sorted by
/// the contract's order; when the seat must play, the cards it may play
/// marked and the others dimmed.
pub fn hand_picture(t: &Table, view: &HandView) -> Option<Picture> {
    use crate::picture::{Mark, hand};
    if t.card_style() != CardStyle::Images {
        return None;
    }
    let playable = view.legal_cards();
    let playing = !playable.is_empty();
    let cards: Vec<_> = view
        .sorted_hand()
        .into_iter()
        .map(|c| {
            let mark = match (playing, playable.contains(c)) {
                (false, _) => Mark::Normal,
                (true, true) => Mark::Playable,
                (true, false) => Mark::Dimmed,
            };
            (c, mark)
        })
        .collect();
    let l = t.lang();
    picture("hand.png", tr!(l, "picture-hand", n = cards.len()), hand(&cards, faces(l)))
}

/// The whole deal as a picture (every hand as dealt, in the deal's
/// order), with its result, at a table that shows cards as pictures.
pub fn deal_picture(t: &Table, s: &Summary) -> Option<Picture> {
    if t.card_style() != CardStyle::Images || s.hands.len() != 4 {
        return None;
    }
    let l = t.lang();
    let hands: [Vec<doko_engine::Card>; 4] = std::array::from_fn(|i| s.hands[i].1.clone());
    picture("deal.png", tr!(l, "picture-deal"), crate::picture::deal(&hands, faces(l)))
}

/// The table's picture, at a table that shows cards as pictures: the
/// trick on the table and the last one (its winner's card marked).
pub fn table_picture(t: &Table) -> Option<Picture> {
    if t.card_style() != CardStyle::Images {
        return None;
    }
    let l = t.lang();
    let g = t.game().ok().flatten()?;
    let pv = g.public_view();
    let current = pv.trick.played();
    let last = pv.tricks.last().map(|tr| {
        let winner = (0..4).find(|i| tr.leader.plus(*i) == tr.winner).unwrap_or(0);
        (tr.cards, winner)
    });
    if current.is_empty() && last.is_none() {
        return None;
    }
    let last_ref = last.as_ref().map(|(c, w)| (&c[..], *w));
    picture("trick.png", tr!(l, "picture-trick"), crate::picture::trick(current, last_ref, faces(l)))
}
