//! Card pictures: hands, tricks and deals rendered to PNG in-process.
//!
//! Every card face is drawn here from vector paths (tiny-skia): the suit
//! symbols are filled shapes and the ranks come from a tiny hand-made stroke
//! font, so no font or image files are needed. A picture is a list of
//! [`Row`]s of overlapping cards (a fan: each card's top-left corner index
//! stays visible), each row with an optional numeric label in the left
//! margin.
//!
//! Every PNG carries a `tEXt` chunk with the keyword [`CARDS_KEYWORD`] whose
//! text lists the rows' cards as card codes, rows separated by `/` (e.g.
//! `CQ SQ H10/D9 CA`); [`cards_of`] reads it back (for tests and alt text).

mod glyphs;

use std::sync::OnceLock;

use doko_engine::{Card, Rank, Suit};

use glyphs::glyph;
use tiny_skia::{
    Color, FillRule, LineCap, LineJoin, Paint, Path, PathBuilder, Pixmap, Rect, Stroke, StrokeDash, Transform,
};

/// Which letters the faces carry.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Faces {
    /// `A K Q J 10 9`.
    #[default]
    English,
    /// `A K D B 10 9` (Ass, König, Dame, Bube).
    German,
}

/// How a card is shown.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mark {
    /// A plain card.
    #[default]
    Normal,
    /// A card that may be played now: raised, with a blue outline.
    Playable,
    /// A card that may not be played now: greyed out.
    Dimmed,
    /// A card to point out (e.g. the one that won a trick): golden outline.
    Highlight,
}

/// One row of a picture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// A short label of digits drawn in the left margin (e.g. a seat number);
    /// `None` or an empty string draws none.
    pub label: Option<String>,
    /// The cards left to right, each with its mark.
    pub cards: Vec<(Card, Mark)>,
}

impl Row {
    /// A row without label whose cards all have the same mark.
    pub fn plain(cards: &[Card], mark: Mark) -> Row {
        Row { label: None, cards: cards.iter().map(|&c| (c, mark)).collect() }
    }
}

/// Why a picture could not be made or read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// No row has a card.
    #[error("the picture has no cards")]
    Empty,
    /// More rows than [`MAX_ROWS`].
    #[error("too many rows: {rows} (at most {max})")]
    TooManyRows {
        /// The rows asked for.
        rows: usize,
        /// The limit.
        max: usize,
    },
    /// A row with more cards than [`MAX_CARDS_PER_ROW`].
    #[error("too many cards in row {row}: {cards} (at most {max})")]
    TooManyCards {
        /// The row's index.
        row: usize,
        /// Its number of cards.
        cards: usize,
        /// The limit.
        max: usize,
    },
    /// A label with a character other than an ASCII digit, or longer than
    /// [`MAX_LABEL_LEN`].
    #[error("bad row label '{0}' (at most 2 ASCII digits)")]
    BadLabel(String),
    /// The winner index of the last trick is not one of its cards.
    #[error("the last trick has {cards} cards, so no winner {index}")]
    BadWinner {
        /// The index given.
        index: usize,
        /// The trick's number of cards.
        cards: usize,
    },
    /// The canvas could not be allocated.
    #[error("cannot allocate a {width}x{height} canvas")]
    Canvas {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// PNG encoding failed.
    #[error("PNG encoding failed: {0}")]
    Encode(String),
    /// The bytes are not a readable PNG.
    #[error("PNG decoding failed: {0}")]
    Decode(String),
    /// The PNG has no `doko-cards` text chunk (not made here).
    #[error("the PNG carries no card list")]
    NoCards,
    /// The card list in the PNG has a code that is not a card.
    #[error("bad card code '{0}' in the PNG's card list")]
    BadCode(String),
}

/// The keyword of the `tEXt` chunk that lists a picture's cards.
pub const CARDS_KEYWORD: &str = "doko-cards";
/// The most rows a picture may have.
pub const MAX_ROWS: usize = 8;
/// The most cards a row may have.
pub const MAX_CARDS_PER_ROW: usize = 16;
/// The longest row label, in digits.
pub const MAX_LABEL_LEN: usize = 2;
/// The most cards in one row of [`hand`]; more make two rows.
pub const HAND_ROW: usize = 12;

// Geometry, in pixels.
const CARD_W: f32 = 84.0;
const CARD_H: f32 = 120.0;
const CARD_R: f32 = 7.0;
/// The horizontal distance between the cards of a full row (12 cards).
const STEP: f32 = 50.0;
/// The horizontal distance between cards that do not overlap.
const STEP_APART: f32 = CARD_W + 8.0;
/// The width of a full row of 12 cards; shorter rows spread out in it.
const FAN_W: f32 = 11.0 * STEP + CARD_W;
/// How far a playable card is raised (also the row's headroom).
const RAISE: f32 = 9.0;
const MARGIN: f32 = 8.0;
const ROW_GAP: f32 = 8.0;
const LABEL_W: f32 = 28.0;

// Stroke font: glyphs are 10 units tall.
const GLYPH_H: f32 = 10.0;
const GLYPH_GAP: f32 = 1.3;

/// The largest picture (in pixels) compressed with `png::Compression::Best`.
const BEST_COMPRESSION_PIXELS: usize = 250_000;

// Colours.
const TABLE: (u8, u8, u8) = (0xd9, 0xec, 0xd9);
const RED: (u8, u8, u8) = (0xd0, 0x12, 0x1b);
const BLACK: (u8, u8, u8) = (0x16, 0x16, 0x16);
const LABEL: (u8, u8, u8) = (0x2b, 0x4d, 0x2b);
const BORDER: (u8, u8, u8) = (0x70, 0x70, 0x70);
const BLUE: (u8, u8, u8) = (0x1f, 0x66, 0xe0);
const GOLD: (u8, u8, u8) = (0xf0, 0xa8, 0x00);

/// Renders rows to a PNG.
///
/// Cards in a row overlap left to right; rows are stacked top to bottom on
/// a light-green table. The PNG carries the cards (see [`cards_of`]).
pub fn render(rows: &[Row], faces: Faces) -> Result<Vec<u8>, PictureError> {
    if rows.len() > MAX_ROWS {
        return Err(PictureError::TooManyRows { rows: rows.len(), max: MAX_ROWS });
    }
    for (i, row) in rows.iter().enumerate() {
        if row.cards.len() > MAX_CARDS_PER_ROW {
            return Err(PictureError::TooManyCards { row: i, cards: row.cards.len(), max: MAX_CARDS_PER_ROW });
        }
        if let Some(label) = &row.label
            && (label.len() > MAX_LABEL_LEN || !label.bytes().all(|b| b.is_ascii_digit()))
        {
            return Err(PictureError::BadLabel(label.clone()));
        }
    }
    if rows.iter().all(|r| r.cards.is_empty()) {
        return Err(PictureError::Empty);
    }

    let labelled = rows.iter().any(|r| r.label.as_deref().is_some_and(|l| !l.is_empty()));
    let left = MARGIN + if labelled { LABEL_W } else { 0.0 };
    let widest = rows.iter().map(|r| r.cards.len().max(1)).max().unwrap_or(1);
    let step = if widest > 1 { ((FAN_W - CARD_W) / (widest - 1) as f32).clamp(STEP, STEP_APART).floor() } else { 0.0 };
    // a row with a raised card has headroom for it
    let headroom = |r: &Row| if r.cards.iter().any(|&(_, m)| m == Mark::Playable) { RAISE } else { 0.0 };
    let rows_h: f32 = rows.iter().map(|r| headroom(r) + CARD_H).sum();
    let width = (left + (widest - 1) as f32 * step + CARD_W + MARGIN).ceil() as u32;
    let height = (2.0 * MARGIN + rows_h + (rows.len() - 1) as f32 * ROW_GAP).ceil() as u32;
    let mut pixmap = Pixmap::new(width, height).ok_or(PictureError::Canvas { width, height })?;
    pixmap.fill(Color::from_rgba8(TABLE.0, TABLE.1, TABLE.2, 255));

    let art = art();
    let mut top = MARGIN;
    for row in rows {
        let raise = headroom(row);
        let base = top + raise;
        if let Some(label) = row.label.as_deref().filter(|l| !l.is_empty()) {
            let t = Transform::from_translate(MARGIN + LABEL_W / 2.0 - 2.0, base + CARD_H / 2.0 - 10.0);
            draw_text(&mut pixmap, art, label, t, 20.0, 3.0, LABEL);
        }
        if row.cards.is_empty() {
            draw_slot(&mut pixmap, left, base);
        }
        for (j, &(card, mark)) in row.cards.iter().enumerate() {
            let x = left + j as f32 * step;
            let y = if mark == Mark::Playable { base - raise } else { base };
            let covered = j + 1 < row.cards.len() && step < CARD_W;
            draw_card(&mut pixmap, art, (card, mark), faces, (x, y), covered);
        }
        top = base + CARD_H + ROW_GAP;
    }

    let text = rows
        .iter()
        .map(|r| r.cards.iter().map(|(c, _)| c.to_string()).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("/");
    encode(&pixmap, text)
}

/// Convenience: a hand (one row, or two rows when more than 12 cards).
pub fn hand(cards: &[(Card, Mark)], faces: Faces) -> Result<Vec<u8>, PictureError> {
    let rows = if cards.len() > HAND_ROW {
        let (a, b) = cards.split_at(cards.len().div_ceil(2));
        vec![Row { label: None, cards: a.to_vec() }, Row { label: None, cards: b.to_vec() }]
    } else {
        vec![Row { label: None, cards: cards.to_vec() }]
    };
    render(&rows, faces)
}

/// Convenience: the current trick and optionally the last trick (two rows;
/// cards in play order; the last trick's winner highlighted by index).
///
/// The current trick is the first row (an empty slot when no card has been
/// played yet), the last trick the second.
pub fn trick(current: &[Card], last: Option<(&[Card], usize)>, faces: Faces) -> Result<Vec<u8>, PictureError> {
    let mut rows = vec![Row::plain(current, Mark::Normal)];
    if let Some((cards, winner)) = last {
        if winner >= cards.len() {
            return Err(PictureError::BadWinner { index: winner, cards: cards.len() });
        }
        let cards = cards
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, if i == winner { Mark::Highlight } else { Mark::Normal }))
            .collect();
        rows.push(Row { label: None, cards });
    }
    render(&rows, faces)
}

/// Convenience: a whole deal, four hands as dealt, rows labelled "1".."4".
pub fn deal(hands: &[Vec<Card>; 4], faces: Faces) -> Result<Vec<u8>, PictureError> {
    let rows: Vec<Row> = hands
        .iter()
        .enumerate()
        .map(|(i, h)| Row { label: Some((i + 1).to_string()), ..Row::plain(h, Mark::Normal) })
        .collect();
    render(&rows, faces)
}

/// The card codes a PNG made here carries, row by row, for tests and alt
/// text.
pub fn cards_of(png: &[u8]) -> Result<Vec<Vec<Card>>, PictureError> {
    let decode = |e: png::DecodingError| PictureError::Decode(e.to_string());
    let mut reader = png::Decoder::new(png).read_info().map_err(decode)?;
    let find = |info: &png::Info<'_>| {
        info.uncompressed_latin1_text.iter().find(|c| c.keyword == CARDS_KEYWORD).map(|c| c.text.clone())
    };
    let text = match find(reader.info()) {
        Some(text) => text,
        None => {
            // a chunk after the image data: read on to the end
            let mut buf = vec![0; reader.output_buffer_size()];
            reader.next_frame(&mut buf).map_err(decode)?;
            reader.finish().map_err(decode)?;
            find(reader.info()).ok_or(PictureError::NoCards)?
        }
    };
    text.split('/')
        .map(|row| {
            row.split_whitespace()
                .map(|code| code.parse::<Card>().map_err(|_| PictureError::BadCode(code.to_string())))
                .collect()
        })
        .collect()
}

/// Encodes an opaque pixmap as an 8-bit RGB PNG with the card list.
fn encode(pixmap: &Pixmap, text: String) -> Result<Vec<u8>, PictureError> {
    let encode = |e: png::EncodingError| PictureError::Encode(e.to_string());
    let mut rgb = Vec::with_capacity(pixmap.pixels().len() * 3);
    for p in pixmap.pixels() {
        // the table is opaque, so demultiplying changes nothing but is right
        let c = p.demultiply();
        rgb.extend_from_slice(&[c.red(), c.green(), c.blue()]);
    }
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        // `Best` costs twice the time of `Default` for 3 % less: only for
        // small pictures
        let small = pixmap.pixels().len() <= BEST_COMPRESSION_PIXELS;
        encoder.set_compression(if small { png::Compression::Best } else { png::Compression::Default });
        // flat colours: no filter compresses best here (and fastest)
        encoder.set_filter(png::FilterType::NoFilter);
        encoder.add_text_chunk(CARDS_KEYWORD.to_string(), text).map_err(encode)?;
        let mut writer = encoder.write_header().map_err(encode)?;
        writer.write_image_data(&rgb).map_err(encode)?;
        writer.finish().map_err(encode)?;
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Drawing

/// The paths every picture uses, built once.
struct Art {
    /// Suit shapes in `-1..1` units, indexed by `Suit as usize`.
    suits: [Option<Path>; 4],
    /// Stroke-font glyphs: the character, its path (10 units tall) and width.
    glyphs: Vec<(char, Path, f32)>,
    /// A card's outline at the origin.
    card: Option<Path>,
}

fn art() -> &'static Art {
    static ART: OnceLock<Art> = OnceLock::new();
    ART.get_or_init(|| Art {
        suits: Suit::ALL.map(suit_path),
        glyphs: "0123456789AKQJDB".chars().filter_map(|c| glyph(c).map(|(p, w)| (c, p, w))).collect(),
        card: rounded_rect(0.0, 0.0, CARD_W, CARD_H, CARD_R),
    })
}

fn paint(rgb: (u8, u8, u8), alpha: u8) -> Paint<'static> {
    let mut paint = Paint { anti_alias: true, ..Paint::default() };
    paint.set_color_rgba8(rgb.0, rgb.1, rgb.2, alpha);
    paint
}

fn stroke(width: f32) -> Stroke {
    Stroke { width, line_cap: LineCap::Round, line_join: LineJoin::Round, ..Stroke::default() }
}

fn suit_colour(suit: Suit) -> (u8, u8, u8) {
    match suit {
        Suit::Hearts | Suit::Diamonds => RED,
        Suit::Clubs | Suit::Spades => BLACK,
    }
}

fn rank_text(rank: Rank, faces: Faces) -> &'static str {
    match (rank, faces) {
        (Rank::Ace, _) => "A",
        (Rank::Ten, _) => "10",
        (Rank::King, _) => "K",
        (Rank::Queen, Faces::English) => "Q",
        (Rank::Queen, Faces::German) => "D",
        (Rank::Jack, Faces::English) => "J",
        (Rank::Jack, Faces::German) => "B",
        (Rank::Nine, _) => "9",
    }
}

/// Draws one card with its top-left corner at `(x, y)`;
/// `covered` says that the next card hides the right part, bottom-right
/// corner index included, which is then not drawn.
fn draw_card(
    pixmap: &mut Pixmap,
    art: &Art,
    (card, mark): (Card, Mark),
    faces: Faces,
    (x, y): (f32, f32),
    covered: bool,
) {
    let Some(outline) = &art.card else { return };
    let at = Transform::from_translate(x, y);
    // a shadow below and right, lit from the top left (plain rectangles:
    // cheaper than a path, and it is only two pixels wide)
    let shade = paint((0, 0, 0), 40);
    for (dx, dy, w, h) in [(3.0, CARD_H, CARD_W - 3.0, 2.0), (CARD_W, 3.0, 1.5, CARD_H - 3.0)] {
        if let Some(r) = Rect::from_xywh(x + dx, y + dy, w, h) {
            pixmap.fill_rect(r, &shade, Transform::identity(), None);
        }
    }
    if mark == Mark::Highlight {
        pixmap.stroke_path(outline, &paint(GOLD, 255), &stroke(7.0), at, None);
    }
    pixmap.fill_path(outline, &paint((255, 255, 255), 255), FillRule::Winding, at, None);

    let colour = suit_colour(card.suit());
    let text = rank_text(card.rank(), faces);
    // corner index, top left and (turned) bottom right
    let turned = at.pre_concat(Transform::from_row(-1.0, 0.0, 0.0, -1.0, CARD_W, CARD_H));
    let corners = [at, turned];
    for &corner in &corners[..if covered { 1 } else { 2 }] {
        draw_text(pixmap, art, text, corner.pre_translate(14.0, 6.0), 18.0, 2.4, colour);
        draw_suit(pixmap, art, card.suit(), corner.pre_translate(14.0, 36.0), 8.0);
    }
    // the big suit in the middle
    draw_suit(pixmap, art, card.suit(), at.pre_translate(CARD_W / 2.0, CARD_H / 2.0), 20.0);

    match mark {
        Mark::Normal => pixmap.stroke_path(outline, &paint(BORDER, 255), &stroke(1.0), at, None),
        Mark::Playable => pixmap.stroke_path(outline, &paint(BLUE, 255), &stroke(3.0), at, None),
        Mark::Dimmed => {
            pixmap.fill_path(outline, &paint((0x8c, 0x8c, 0x8c), 140), FillRule::Winding, at, None);
            pixmap.stroke_path(outline, &paint(BORDER, 255), &stroke(1.0), at, None);
        }
        Mark::Highlight => pixmap.stroke_path(outline, &paint((0xb0, 0x78, 0x00), 255), &stroke(1.0), at, None),
    }
}

/// Draws a suit symbol centred on `at`'s origin, `half` pixels from the
/// centre to the edge.
fn draw_suit(pixmap: &mut Pixmap, art: &Art, suit: Suit, at: Transform, half: f32) {
    if let Some(path) = &art.suits[suit as usize] {
        let t = at.pre_scale(half, half);
        pixmap.fill_path(path, &paint(suit_colour(suit), 255), FillRule::Winding, t, None);
    }
}

/// Draws text in the stroke font, horizontally centred on `at`'s origin,
/// its top at the origin, `height` pixels tall.
fn draw_text(pixmap: &mut Pixmap, art: &Art, text: &str, at: Transform, height: f32, weight: f32, rgb: (u8, u8, u8)) {
    let glyphs: Vec<&(char, Path, f32)> =
        text.chars().filter_map(|c| art.glyphs.iter().find(|(g, _, _)| *g == c)).collect();
    let width: f32 = glyphs.iter().map(|(_, _, w)| w).sum::<f32>() + GLYPH_GAP * glyphs.len().saturating_sub(1) as f32;
    let scale = height / GLYPH_H;
    let mut t = at.pre_scale(scale, scale).pre_translate(-width / 2.0, 0.0);
    let paint = paint(rgb, 255);
    let stroke = stroke(weight / scale);
    for (_, path, w) in glyphs {
        pixmap.stroke_path(path, &paint, &stroke, t, None);
        t = t.pre_translate(w + GLYPH_GAP, 0.0);
    }
}

/// Draws the dashed outline of an empty card place.
fn draw_slot(pixmap: &mut Pixmap, x: f32, y: f32) {
    if let Some(path) = rounded_rect(x + 2.0, y + 2.0, CARD_W - 4.0, CARD_H - 4.0, CARD_R) {
        let mut s = stroke(2.0);
        s.dash = StrokeDash::new(vec![7.0, 5.0], 0.0);
        pixmap.stroke_path(&path, &paint(LABEL, 110), &s, Transform::identity(), None);
    }
}

fn rounded_rect(x: f32, y: f32, w: f32, h: f32, r: f32) -> Option<Path> {
    const K: f32 = 0.552_284_8;
    let (x1, y1) = (x + w, y + h);
    let mut p = PathBuilder::new();
    p.move_to(x + r, y);
    p.line_to(x1 - r, y);
    p.cubic_to(x1 - r + r * K, y, x1, y + r - r * K, x1, y + r);
    p.line_to(x1, y1 - r);
    p.cubic_to(x1, y1 - r + r * K, x1 - r + r * K, y1, x1 - r, y1);
    p.line_to(x + r, y1);
    p.cubic_to(x + r - r * K, y1, x, y1 - r + r * K, x, y1 - r);
    p.line_to(x, y + r);
    p.cubic_to(x, y + r - r * K, x + r - r * K, y, x + r, y);
    p.close();
    p.finish()
}

/// A suit's shape in `-1..1` units (y down).
fn suit_path(suit: Suit) -> Option<Path> {
    let mut p = PathBuilder::new();
    match suit {
        Suit::Hearts => {
            p.move_to(0.0, 0.95);
            p.cubic_to(-0.5, 0.5, -1.0, 0.15, -1.0, -0.35);
            p.cubic_to(-1.0, -0.75, -0.72, -0.95, -0.46, -0.95);
            p.cubic_to(-0.2, -0.95, -0.05, -0.8, 0.0, -0.58);
            p.cubic_to(0.05, -0.8, 0.2, -0.95, 0.46, -0.95);
            p.cubic_to(0.72, -0.95, 1.0, -0.75, 1.0, -0.35);
            p.cubic_to(1.0, 0.15, 0.5, 0.5, 0.0, 0.95);
            p.close();
        }
        Suit::Diamonds => {
            p.move_to(0.0, -1.0);
            p.quad_to(0.32, -0.38, 0.78, 0.0);
            p.quad_to(0.32, 0.38, 0.0, 1.0);
            p.quad_to(-0.32, 0.38, -0.78, 0.0);
            p.quad_to(-0.32, -0.38, 0.0, -1.0);
            p.close();
        }
        Suit::Spades => {
            p.move_to(0.0, -1.0);
            p.cubic_to(-0.45, -0.5, -0.95, -0.25, -0.95, 0.2);
            p.cubic_to(-0.95, 0.52, -0.7, 0.7, -0.45, 0.7);
            p.cubic_to(-0.25, 0.7, -0.1, 0.62, 0.0, 0.48);
            p.cubic_to(0.1, 0.62, 0.25, 0.7, 0.45, 0.7);
            p.cubic_to(0.7, 0.7, 0.95, 0.52, 0.95, 0.2);
            p.cubic_to(0.95, -0.25, 0.45, -0.5, 0.0, -1.0);
            p.close();
            stem(&mut p);
        }
        Suit::Clubs => {
            p.push_circle(0.0, -0.52, 0.43);
            p.push_circle(-0.5, 0.17, 0.43);
            p.push_circle(0.5, 0.17, 0.43);
            p.push_circle(0.0, 0.05, 0.25);
            stem(&mut p);
        }
    }
    p.finish()
}

/// The flared stem of clubs and spades.
fn stem(p: &mut PathBuilder) {
    p.move_to(-0.07, 0.3);
    p.quad_to(-0.1, 0.82, -0.42, 1.0);
    p.line_to(0.42, 1.0);
    p.quad_to(0.1, 0.82, 0.07, 0.3);
    p.close();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixels(png: &[u8]) -> Vec<u8> {
        let mut reader = png::Decoder::new(png).read_info().expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).expect("a frame");
        buf.truncate(info.buffer_size());
        buf
    }

    fn all_cards() -> Vec<Card> {
        Card::all().collect()
    }

    fn a_deal() -> [Vec<Card>; 4] {
        let mut cards: Vec<Card> = Card::all().chain(Card::all()).collect();
        // a fixed shuffle
        let mut seed = 12345u32;
        for i in (1..cards.len()).rev() {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            cards.swap(i, (seed >> 8) as usize % (i + 1));
        }
        [cards[0..12].to_vec(), cards[12..24].to_vec(), cards[24..36].to_vec(), cards[36..48].to_vec()]
    }

    #[test]
    fn every_card_renders_and_round_trips() {
        for faces in [Faces::English, Faces::German] {
            for chunk in all_cards().chunks(12) {
                let marks = [Mark::Normal, Mark::Playable, Mark::Dimmed, Mark::Highlight];
                let cards: Vec<(Card, Mark)> = chunk.iter().enumerate().map(|(i, &c)| (c, marks[i % 4])).collect();
                let png = hand(&cards, faces).expect("renders");
                assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
                assert!(png.len() < 60_000, "{} bytes", png.len());
                assert_eq!(cards_of(&png), Ok(vec![chunk.to_vec()]));
            }
        }
    }

    #[test]
    fn hand_trick_and_deal_round_trip() {
        let cards: Vec<(Card, Mark)> = all_cards().into_iter().take(14).map(|c| (c, Mark::Playable)).collect();
        let png = hand(&cards, Faces::German).expect("renders");
        let rows = cards_of(&png).expect("cards");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows.concat(), cards.iter().map(|&(c, _)| c).collect::<Vec<_>>());

        let current = [Card::CQ, Card::H10];
        let last = [Card::DA, Card::D10, Card::CJ, Card::SQ];
        let png = trick(&current, Some((&last, 3)), Faces::English).expect("renders");
        assert_eq!(cards_of(&png), Ok(vec![current.to_vec(), last.to_vec()]));
        let png = trick(&[], Some((&last, 0)), Faces::English).expect("renders");
        assert_eq!(cards_of(&png), Ok(vec![vec![], last.to_vec()]));
        assert_eq!(
            trick(&current, Some((&last, 4)), Faces::English),
            Err(PictureError::BadWinner { index: 4, cards: 4 })
        );

        let hands = a_deal();
        for faces in [Faces::English, Faces::German] {
            let png = deal(&hands, faces).expect("renders");
            assert!(png.len() < 60_000, "{} bytes", png.len());
            assert_eq!(cards_of(&png), Ok(hands.to_vec()));
        }
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(render(&[], Faces::English), Err(PictureError::Empty));
        assert_eq!(render(&[Row::default()], Faces::English), Err(PictureError::Empty));
        assert_eq!(hand(&[], Faces::English), Err(PictureError::Empty));
        assert_eq!(trick(&[], None, Faces::English), Err(PictureError::Empty));
        for label in ["x", "1a", "123", " 1"] {
            let row = Row { label: Some(label.to_string()), ..Row::plain(&[Card::CQ], Mark::Normal) };
            assert_eq!(render(&[row], Faces::English), Err(PictureError::BadLabel(label.to_string())));
        }
        let rows = vec![Row::plain(&[Card::CQ], Mark::Normal); MAX_ROWS + 1];
        assert_eq!(render(&rows, Faces::English), Err(PictureError::TooManyRows { rows: MAX_ROWS + 1, max: MAX_ROWS }));
        let row = Row::plain(&[Card::CQ; MAX_CARDS_PER_ROW + 1], Mark::Normal);
        assert!(matches!(render(&[row], Faces::English), Err(PictureError::TooManyCards { row: 0, .. })));
        assert!(matches!(cards_of(b"not a png"), Err(PictureError::Decode(_))));
    }

    #[test]
    fn different_cards_differ() {
        let one = |c: Card, faces: Faces| pixels(&hand(&[(c, Mark::Normal)], faces).expect("renders"));
        assert_ne!(one(Card::HA, Faces::English), one(Card::DA, Faces::English));
        assert_ne!(one(Card::CQ, Faces::English), one(Card::SQ, Faces::English));
        assert_ne!(one(Card::CQ, Faces::English), one(Card::CQ, Faces::German));
        assert_eq!(one(Card::HK, Faces::English), one(Card::HK, Faces::German));
        let all: Vec<Vec<u8>> = all_cards().into_iter().map(|c| one(c, Faces::German)).collect();
        for i in 0..all.len() {
            for j in i + 1..all.len() {
                assert_ne!(all[i], all[j], "card {i} and {j} look the same");
            }
        }
    }

    #[test]
    fn marks_differ() {
        let one = |m: Mark| pixels(&hand(&[(Card::CQ, m)], Faces::English).expect("renders"));
        let marks = [Mark::Normal, Mark::Playable, Mark::Dimmed, Mark::Highlight].map(one);
        for i in 0..4 {
            for j in i + 1..4 {
                assert_ne!(marks[i], marks[j]);
            }
        }
    }

    #[test]
    fn foreign_pngs_carry_no_cards() {
        let mut out = Vec::new();
        {
            let mut encoder = png::Encoder::new(&mut out, 1, 1);
            encoder.set_color(png::ColorType::Rgb);
            let mut writer = encoder.write_header().expect("header");
            writer.write_image_data(&[1, 2, 3]).expect("data");
        }
        assert_eq!(cards_of(&out), Err(PictureError::NoCards));
    }

    #[test]
    fn labels_render() {
        let digits = ["0", "12", "34", "56", "78", "9"];
        let rows: Vec<Row> = digits
            .iter()
            .map(|d| Row { label: Some(d.to_string()), ..Row::plain(&[Card::D10], Mark::Normal) })
            .collect();
        let png = render(&rows, Faces::English).expect("renders");
        assert_eq!(cards_of(&png).expect("cards").len(), 6);
    }
}
