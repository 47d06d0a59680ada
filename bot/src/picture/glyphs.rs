//! The stroke font of the card faces: each digit and rank letter as a
//! centre line 10 units tall, drawn without any font file.

use tiny_skia::{Path, PathBuilder, Rect};

fn oval(p: &mut PathBuilder, x: f32, y: f32, w: f32, h: f32) {
    if let Some(r) = Rect::from_xywh(x, y, w, h) {
        p.push_oval(r);
    }
}

/// A stroke-font glyph: its centre line, 10 units tall (y down), and width.
pub(super) fn glyph(c: char) -> Option<(Path, f32)> {
    let mut p = PathBuilder::new();
    let width = digit_strokes(c, &mut p).or_else(|| letter_strokes(c, &mut p))?;
    p.finish().map(|path| (path, width))
}

/// A digit's strokes added to `p`, and its width; `None` for another
/// character (nothing added).
fn digit_strokes(c: char, p: &mut PathBuilder) -> Option<f32> {
    Some(match c {
        '0' => {
            oval(p, 0.0, 0.0, 5.8, 10.0);
            5.8
        }
        '1' => {
            p.move_to(0.0, 2.3);
            p.line_to(2.6, 0.0);
            p.line_to(2.6, 10.0);
            2.6
        }
        '2' => {
            p.move_to(0.2, 2.6);
            p.cubic_to(0.4, 0.9, 1.6, 0.0, 3.0, 0.0);
            p.cubic_to(4.6, 0.0, 5.7, 1.1, 5.7, 2.7);
            p.cubic_to(5.7, 4.7, 3.6, 6.2, 0.2, 10.0);
            p.line_to(6.0, 10.0);
            6.0
        }
        '3' => {
            p.move_to(0.3, 1.3);
            p.cubic_to(1.0, 0.4, 2.0, 0.0, 3.0, 0.0);
            p.cubic_to(4.6, 0.0, 5.6, 1.0, 5.6, 2.4);
            p.cubic_to(5.6, 3.8, 4.5, 4.7, 2.6, 4.7);
            p.cubic_to(4.8, 4.7, 6.0, 5.8, 6.0, 7.4);
            p.cubic_to(6.0, 9.0, 4.7, 10.0, 3.0, 10.0);
            p.cubic_to(1.8, 10.0, 0.8, 9.5, 0.1, 8.6);
            6.0
        }
        '4' => {
            p.move_to(4.6, 10.0);
            p.line_to(4.6, 0.0);
            p.line_to(0.0, 7.0);
            p.line_to(6.2, 7.0);
            6.2
        }
        '5' => {
            p.move_to(5.5, 0.0);
            p.line_to(1.0, 0.0);
            p.line_to(0.6, 4.6);
            p.cubic_to(1.3, 4.0, 2.2, 3.7, 3.0, 3.7);
            p.cubic_to(4.9, 3.7, 6.0, 5.0, 6.0, 6.8);
            p.cubic_to(6.0, 8.8, 4.7, 10.0, 2.9, 10.0);
            p.cubic_to(1.7, 10.0, 0.8, 9.5, 0.1, 8.6);
            6.0
        }
        '6' => {
            p.move_to(5.3, 0.9);
            p.cubic_to(4.7, 0.3, 4.0, 0.0, 3.2, 0.0);
            p.cubic_to(1.2, 0.0, 0.05, 2.3, 0.05, 7.0);
            oval(p, 0.05, 4.1, 5.9, 5.9);
            6.0
        }
        '7' => {
            p.move_to(0.0, 0.0);
            p.line_to(6.0, 0.0);
            p.line_to(2.0, 10.0);
            6.0
        }
        '8' => {
            oval(p, 0.5, 0.0, 5.0, 4.8);
            oval(p, 0.0, 4.8, 6.0, 5.2);
            6.0
        }
        '9' => {
            oval(p, 0.0, 0.0, 5.9, 5.9);
            p.move_to(5.95, 3.0);
            p.cubic_to(5.95, 7.7, 4.8, 10.0, 2.8, 10.0);
            p.cubic_to(2.0, 10.0, 1.3, 9.7, 0.7, 9.1);
            6.0
        }
        _ => return None,
    })
}

/// A rank letter's strokes (English and German) added to `p`, and its
/// width; `None` for another character (nothing added).
fn letter_strokes(c: char, p: &mut PathBuilder) -> Option<f32> {
    Some(match c {
        'A' => {
            p.move_to(0.0, 10.0);
            p.line_to(3.2, 0.0);
            p.line_to(6.4, 10.0);
            p.move_to(1.2, 6.6);
            p.line_to(5.2, 6.6);
            6.4
        }
        'K' => {
            p.move_to(0.3, 0.0);
            p.line_to(0.3, 10.0);
            p.move_to(5.8, 0.0);
            p.line_to(0.3, 6.2);
            p.move_to(2.3, 4.0);
            p.line_to(6.0, 10.0);
            6.0
        }
        'Q' => {
            oval(p, 0.0, 0.0, 6.4, 10.0);
            p.move_to(3.8, 7.2);
            p.line_to(6.6, 10.4);
            6.4
        }
        'J' => {
            p.move_to(2.0, 0.0);
            p.line_to(5.4, 0.0);
            p.move_to(4.6, 0.0);
            p.line_to(4.6, 7.4);
            p.cubic_to(4.6, 9.2, 3.7, 10.0, 2.4, 10.0);
            p.cubic_to(1.2, 10.0, 0.4, 9.2, 0.2, 7.8);
            5.4
        }
        'D' => {
            p.move_to(0.3, 0.0);
            p.line_to(0.3, 10.0);
            p.line_to(2.4, 10.0);
            p.cubic_to(5.0, 10.0, 6.0, 8.0, 6.0, 5.0);
            p.cubic_to(6.0, 2.0, 5.0, 0.0, 2.4, 0.0);
            p.close();
            6.0
        }
        'B' => {
            p.move_to(0.3, 4.7);
            p.line_to(3.2, 4.7);
            p.cubic_to(4.8, 4.7, 5.7, 3.9, 5.7, 2.4);
            p.cubic_to(5.7, 0.9, 4.7, 0.0, 3.0, 0.0);
            p.line_to(0.3, 0.0);
            p.line_to(0.3, 10.0);
            p.line_to(3.4, 10.0);
            p.cubic_to(5.1, 10.0, 6.1, 9.0, 6.1, 7.4);
            p.cubic_to(6.1, 5.7, 5.0, 4.7, 3.2, 4.7);
            6.1
        }
        _ => return None,
    })
}
