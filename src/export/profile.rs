//! 1D renders: `x,value` CSV, and a plotted profile with axes and labels (PNG through the
//! `plotters` crate, drawn with the DejaVu Sans font from the `dejavu` crate). Long profiles are
//! plotted as their min/max envelope per pixel column, accumulated as the values stream in.

use std::io::Write;

use plotters::prelude::*;

use super::atomic::{OutputFile, Sink};
use super::{ImageWriter, Profile, check_finite};
use crate::error::{Error, Result};

/// The plot's size in pixels.
const PLOT: (u32, u32) = (1200, 500);
/// Width of the plotting area in pixels (the plot less its margins and labels).
const COLUMNS: usize = 1080;

fn plot_error(e: impl std::fmt::Display) -> Error {
    Error::Encode {
        format: "plot",
        reason: e.to_string(),
    }
}

/// `x,value` per texel: x is the sample's coordinate in lattice cells.
pub(super) struct CsvWriter {
    file: OutputFile,
    sink: Sink,
    profile: Profile,
    next: u64,
}

impl CsvWriter {
    pub fn new(file: OutputFile, profile: Profile) -> Result<Self> {
        let mut sink = file.sink()?;
        sink.write_all(b"x,value\n")
            .map_err(|e| Error::io(file.target(), e))?;
        Ok(Self {
            file,
            sink,
            profile,
            next: 0,
        })
    }
}

impl ImageWriter for CsvWriter {
    fn write_rows(&mut self, values: &[f32]) -> Result<()> {
        check_finite(values)?;
        let mut text = String::with_capacity(values.len() * 32);
        for &v in values {
            let x = self.profile.x(self.next);
            text.push_str(&format!("{x},{v}\n"));
            self.next += 1;
        }
        let target = self.file.target();
        self.sink
            .write_all(text.as_bytes())
            .map_err(|e| Error::io(target, e))
    }

    fn finish(self: Box<Self>) -> Result<()> {
        let CsvWriter { file, sink, .. } = *self;
        drop(sink);
        file.commit()
    }
}

/// A plotted profile: min and max of the values falling in each pixel column (or every value,
/// when there are fewer than the columns).
pub(super) struct PlotWriter {
    file: OutputFile,
    profile: Profile,
    count: u64,
    next: u64,
    envelope: Vec<(f32, f32)>,
    /// The last value seen, which each new column starts from so the envelope is connected.
    last: Option<f32>,
}

impl PlotWriter {
    pub fn new(file: OutputFile, profile: Profile, count: u64) -> Self {
        let columns = count.min(COLUMNS as u64) as usize;
        Self {
            file,
            profile,
            count,
            next: 0,
            envelope: vec![(f32::INFINITY, f32::NEG_INFINITY); columns],
            last: None,
        }
    }

    fn column(&self, i: u64) -> usize {
        (i * self.envelope.len() as u64 / self.count) as usize
    }

    fn draw(&self, pixels: &mut [u8]) -> Result<()> {
        register_plot_font();
        let root = BitMapBackend::with_buffer(pixels, PLOT).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let (lo, hi) = self
            .envelope
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), (l, h)| {
                (a.min(*l), b.max(*h))
            });
        let pad = ((hi - lo) * 0.05).max(1e-6);
        let (x0, x1) = (
            self.profile.x(0),
            self.profile.x(self.count.saturating_sub(1)),
        );
        let x1 = if x1 > x0 { x1 } else { x0 + 1.0 };
        let mut chart = ChartBuilder::on(&root)
            .caption(&self.profile.title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(x0..x1, f64::from(lo - pad)..f64::from(hi + pad))
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("x (lattice cells)")
            .y_desc("noise value")
            .label_style(("sans-serif", 15))
            .draw()
            .map_err(plot_error)?;
        let columns = self.envelope.len() as f64;
        let at = |c: usize| x0 + (x1 - x0) * (c as f64 + 0.5) / columns;
        let color = RGBColor(31, 119, 180);
        if self.count as usize == self.envelope.len() {
            let line = self
                .envelope
                .iter()
                .enumerate()
                .map(|(c, (v, _))| (at(c), f64::from(*v)));
            chart
                .draw_series(LineSeries::new(line, color.stroke_width(2)))
                .map_err(plot_error)?;
        } else {
            let bars = self.envelope.iter().enumerate().map(|(c, (l, h))| {
                PathElement::new(vec![(at(c), f64::from(*l)), (at(c), f64::from(*h))], color)
            });
            chart.draw_series(bars).map_err(plot_error)?;
        }
        root.present().map_err(plot_error)
    }
}

impl ImageWriter for PlotWriter {
    fn write_rows(&mut self, values: &[f32]) -> Result<()> {
        check_finite(values)?;
        for &v in values {
            let c = self.column(self.next);
            let starts_column = self.next == 0 || self.column(self.next - 1) != c;
            let slot = &mut self.envelope[c];
            if let (true, Some(last)) = (starts_column, self.last) {
                *slot = (last, last);
            }
            *slot = (slot.0.min(v), slot.1.max(v));
            self.last = Some(v);
            self.next += 1;
        }
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<()> {
        if self.next != self.count {
            return Err(plot_error("the profile ended early"));
        }
        let mut pixels = vec![0u8; (PLOT.0 * PLOT.1 * 3) as usize];
        self.draw(&mut pixels)?;
        let mut encoder = png::Encoder::new(self.file.sink()?, PLOT.0, PLOT.1);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(plot_error)?;
        writer.write_image_data(&pixels).map_err(plot_error)?;
        writer.finish().map_err(plot_error)?;
        self.file.commit()
    }
}

/// Registers DejaVu Sans as the plots' "sans-serif" once per process (the bench's plot too).
pub fn register_plot_font() {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    REGISTERED.call_once(|| {
        // The font is compiled in and valid; a failure would only lose the labels' text.
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
    });
}
