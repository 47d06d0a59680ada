//! The chart of a list's running score: one line per player over the
//! deals, drawn as SVG on the server (plotters' SVG backend). The page
//! names the players beside it (the legend, in the page's colours) and
//! gives the same numbers as text.

use plotters::prelude::*;

use super::COLOURS;

/// The chart's size in pixels.
const SIZE: (u32, u32) = (720, 300);

/// The running score as SVG: `totals[d]` is every player's total after
/// deal `d` (`totals[0]` the start, all 0), one line per player in
/// [`COLOURS`]' order. Empty when it cannot be drawn (logged).
pub fn running_chart(totals: &[Vec<i64>]) -> String {
    let mut svg = String::new();
    if let Err(e) = draw(totals, &mut svg) {
        tracing::warn!(error = %e, "the running score's chart could not be drawn");
        return String::new();
    }
    svg
}

fn draw(totals: &[Vec<i64>], svg: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let players = totals.first().map_or(0, Vec::len);
    let deals = totals.len().saturating_sub(1).max(1) as i64;
    let lo = totals.iter().flatten().copied().min().unwrap_or(0).min(0);
    let hi = totals.iter().flatten().copied().max().unwrap_or(0).max(0);
    let pad = ((hi - lo) / 10).max(1);
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .margin(12)
        .x_label_area_size(28)
        .y_label_area_size(44)
        .build_cartesian_2d(0i64..deals, (lo - pad)..(hi + pad))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels((deals as usize + 1).min(25))
        .y_labels(8)
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    for p in 0..players {
        let colour = hex(COLOURS[p % COLOURS.len()]);
        let points = totals.iter().enumerate().map(|(d, row)| (d as i64, row[p]));
        chart.draw_series(LineSeries::new(points, colour.stroke_width(3)))?;
    }
    root.present()?;
    Ok(())
}

/// A colour written `#rrggbb`.
fn hex(c: &str) -> RGBColor {
    let v = u32::from_str_radix(c.trim_start_matches('#'), 16).unwrap_or(0);
    RGBColor((v >> 16) as u8, (v >> 8) as u8, v as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_player() {
        let totals = vec![vec![0, 0, 0, 0], vec![2, 2, -2, -2], vec![-1, 5, -1, -3], vec![-4, 8, 2, -6]];
        let svg = running_chart(&totals);
        assert!(svg.starts_with("<svg"), "{svg}");
        // the players' lines in their colours (the axes are black ones)
        let lines: Vec<&str> = svg
            .split("<polyline")
            .skip(1)
            .map(|l| &l[..l.find('>').unwrap_or(l.len())])
            .filter(|l| !l.contains("stroke=\"#000000\""))
            .collect();
        assert_eq!(lines.len(), 4, "{svg}");
        for (line, c) in lines.iter().zip(&COLOURS) {
            assert!(line.contains(&format!("stroke=\"{}\"", c.to_uppercase())), "{c} in {line}");
            assert_eq!(line.matches(',').count(), totals.len(), "a point per deal and the start: {line}");
        }
        // no inline style (the pages' Content Security Policy allows none)
        assert!(!svg.contains("style="), "{svg}");
    }
}
