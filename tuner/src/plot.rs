//! Training curves drawn with `plotters` (PNG and SVG): training and validation loss against
//! step, and the learning rate against step.

use crate::checkpoint::CurvePoint;
use anyhow::{anyhow, Context, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

pub(crate) fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The DejaVu font ships inside the `dejavu` crate, so plots need no system fonts.
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
    });
}

pub(crate) type Series<'a> = (&'a str, Vec<(f64, f64)>, RGBColor);

/// What one plot shows, drawn alike into each image format.
#[derive(Clone, Copy)]
struct PlotSpec<'a> {
    title: &'a str,
    x_label: &'a str,
    y_label: &'a str,
    series: &'a [Series<'a>],
    /// One x label per whole number (generations).
    whole_x: bool,
}

fn draw<DB: DrawingBackend>(area: DrawingArea<DB, Shift>, spec: PlotSpec) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let PlotSpec {
        title,
        x_label,
        y_label,
        series,
        whole_x,
    } = spec;
    area.fill(&WHITE).map_err(|e| anyhow!("{e:?}"))?;
    let points = series.iter().flat_map(|(_, p, _)| p.iter());
    let (mut x_max, mut y_min, mut y_max) = (1.0f64, f64::MAX, f64::MIN);
    for &(x, y) in points {
        x_max = x_max.max(x);
        y_min = y_min.min(y);
        y_max = y_max.max(y);
    }
    if y_min > y_max {
        (y_min, y_max) = (0.0, 1.0);
    }
    let pad = ((y_max - y_min) * 0.05).max(1e-9);
    let mut chart = ChartBuilder::on(&area)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..x_max, (y_min - pad)..(y_max + pad))
        .map_err(|e| anyhow!("{e:?}"))?;
    let whole_number = |x: &f64| format!("{x:.0}");
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(x_label)
        .y_desc(y_label)
        .label_style(("sans-serif", 14));
    if whole_x {
        // One label (and grid line) per whole number: generations.
        mesh.x_labels(x_max as usize + 1)
            .x_label_formatter(&whole_number)
            .x_max_light_lines(0);
    }
    mesh.draw().map_err(|e| anyhow!("{e:?}"))?;
    for (name, data, color) in series {
        let color = *color;
        chart
            .draw_series(LineSeries::new(data.iter().copied(), color.stroke_width(2)))
            .map_err(|e| anyhow!("{e:?}"))?;
        chart
            .draw_series(
                data.iter()
                    .map(|&(x, y)| Circle::new((x, y), 3, color.filled())),
            )
            .map_err(|e| anyhow!("{e:?}"))?
            .label(*name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(|e| anyhow!("{e:?}"))?;
    area.present().map_err(|e| anyhow!("{e:?}"))?;
    Ok(())
}

pub(crate) fn both_formats(
    dir: &Path,
    stem: &str,
    title: &str,
    (x_label, y_label): (&str, &str),
    series: &[Series],
    whole_x: bool,
) -> Result<()> {
    let spec = PlotSpec {
        title,
        x_label,
        y_label,
        series,
        whole_x,
    };
    let png = dir.join(format!("{stem}.png"));
    draw(
        BitMapBackend::new(&png, (900, 520)).into_drawing_area(),
        spec,
    )
    .with_context(|| format!("writing {}", png.display()))?;
    let svg = dir.join(format!("{stem}.svg"));
    draw(SVGBackend::new(&svg, (900, 520)).into_drawing_area(), spec)
        .with_context(|| format!("writing {}", svg.display()))?;
    Ok(())
}

/// Writes `loss.png`, `loss.svg`, `lr.png` and `lr.svg` into `dir`.
pub fn plot_curves(dir: &Path, curve: &[CurvePoint], name: &str) -> Result<()> {
    register_font();
    let train: Vec<(f64, f64)> = curve
        .iter()
        .map(|p| (p.step as f64, p.train_loss as f64))
        .collect();
    let val: Vec<(f64, f64)> = curve
        .iter()
        .filter(|p| p.val_loss.is_finite())
        .map(|p| (p.step as f64, p.val_loss as f64))
        .collect();
    let mut loss_series: Vec<Series> = vec![("training loss", train, BLUE)];
    if !val.is_empty() {
        loss_series.push(("validation loss", val, RED));
    }
    both_formats(
        dir,
        "loss",
        &format!("{name}: loss"),
        ("step", "MSE (sigmoid space)"),
        &loss_series,
        false,
    )?;
    let lr: Vec<(f64, f64)> = curve.iter().map(|p| (p.step as f64, p.lr as f64)).collect();
    both_formats(
        dir,
        "lr",
        &format!("{name}: learning rate"),
        ("step", "learning rate"),
        &[("lr", lr, GREEN)],
        false,
    )?;
    Ok(())
}
