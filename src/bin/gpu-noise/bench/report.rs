//! The bench's results: a markdown table, JSON, and a plot of throughput against grid size.
//! Ratios are medians over rounds of per-round ratios, thread for thread: our CPU backends on
//! one thread against fastnoise-lite on one, on all threads against fastnoise-lite on all.

use std::path::Path;
use std::time::Duration;

use gpu_noise::{Error, Result};
use plotters::prelude::*;
use serde_json::{Value, json};

use super::engines::{ENGINES, Engine, Timings};
use super::rounds::{median_f64, speedup};
use crate::workloads::{Grid, Workload};

pub struct Row {
    pub workload: Workload,
    pub grid: Grid,
    pub timings: Timings,
}

/// The ratios reported, as (label, engine, reference).
const RATIOS: [(&str, Engine, Engine); 5] = [
    (
        "simd_vs_fastnoise_lite",
        Engine::Simd,
        Engine::FastNoiseLiteRayon,
    ),
    (
        "simd_1thread_vs_fastnoise_lite_1thread",
        Engine::SimdOneThread,
        Engine::FastNoiseLite,
    ),
    (
        "cpu_vs_fastnoise_lite",
        Engine::Cpu,
        Engine::FastNoiseLiteRayon,
    ),
    (
        "cpu_1thread_vs_fastnoise_lite_1thread",
        Engine::CpuOneThread,
        Engine::FastNoiseLite,
    ),
    ("gpu_kernel_vs_cpu", Engine::GpuKernel, Engine::Cpu),
];

impl Row {
    fn times(&self, e: Engine) -> Option<&[Duration]> {
        self.timings
            .iter()
            .find(|(x, _)| *x == e)
            .map(|(_, t)| t.as_slice())
    }

    /// Msamples/s (texels x octaves per second) from the median time.
    pub fn rate(&self, e: Engine) -> Option<f64> {
        let t = self.times(e)?;
        let median = median_f64(t.iter().map(Duration::as_secs_f64).collect());
        Some(self.workload.samples(self.grid) / median / 1e6)
    }

    fn ratio(&self, e: Engine, reference: Engine) -> Option<f64> {
        Some(speedup(self.times(e)?, self.times(reference)?))
    }
}

/// One color per engine: GPU warm, gpu-noise's SIMD purple and f64 CPU blue, fastnoise-lite
/// green; one thread lighter.
fn engine_color(e: Engine) -> RGBColor {
    match e {
        Engine::GpuKernel => RGBColor(200, 30, 30),
        Engine::GpuReadback => RGBColor(240, 140, 40),
        Engine::Simd => RGBColor(120, 40, 160),
        Engine::SimdOneThread => RGBColor(190, 130, 220),
        Engine::Cpu => RGBColor(30, 70, 200),
        Engine::CpuOneThread => RGBColor(110, 170, 240),
        Engine::FastNoiseLiteRayon => RGBColor(20, 140, 60),
        Engine::FastNoiseLite => RGBColor(130, 200, 120),
    }
}

fn texel_label(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.0}M", x / 1e6)
    } else {
        format!("{:.0}k", x / 1e3)
    }
}

fn cell(v: Option<f64>, unit: &str) -> String {
    v.map_or("-".into(), |v| format!("{v:.2}{unit}"))
}

pub fn print_table(rows: &[Row]) -> Result<()> {
    let mut header = String::from("| workload | lattice | grid |");
    for e in ENGINES {
        header.push_str(&format!(" {} |", e.name()));
    }
    for (label, _, _) in RATIOS {
        header.push_str(&format!(" {label} |"));
    }
    outln!("Msamples/s (texels x octaves per second), median over rounds\n\n{header}")?;
    outln!(
        "|---|---|---|{}",
        "---:|".repeat(ENGINES.len() + RATIOS.len())
    )?;
    for row in rows {
        let w = &row.workload;
        let mut line = format!("| {} | {} | {} |", w.name, w.lattice, row.grid.name());
        for e in ENGINES {
            line.push_str(&format!(" {} |", cell(row.rate(e), "")));
        }
        for (_, e, reference) in RATIOS {
            line.push_str(&format!(" {} |", cell(row.ratio(e, reference), "x")));
        }
        outln!("{line}")?;
    }
    outln!()
}

pub fn json(rows: &[Row], machine: Value, peers: Value) -> Value {
    let rows: Vec<Value> = rows
        .iter()
        .map(|row| {
            let rates: serde_json::Map<String, Value> = ENGINES
                .iter()
                .filter_map(|&e| Some((e.name().to_string(), json!(row.rate(e)?))))
                .collect();
            let ratios: serde_json::Map<String, Value> = RATIOS
                .iter()
                .filter_map(|&(l, e, r)| Some((l.to_string(), json!(row.ratio(e, r)?))))
                .collect();
            json!({
                "workload": row.workload.name,
                "lattice": row.workload.lattice.name(),
                "grid": row.grid.name(),
                "samples": row.workload.samples(row.grid),
                "msamples_per_s": rates,
                "ratios": ratios,
            })
        })
        .collect();
    json!({ "machine": machine, "rows": rows, "webgl_noise": peers })
}

/// Throughput against texels per grid for the first row's workload and lattice, one line per
/// engine (log-log).
pub fn plot(rows: &[Row], path: &Path) -> Result<()> {
    let (workload, lattice) = match rows.first() {
        Some(row) => (row.workload.name, row.workload.lattice),
        None => ("", gpu_noise::spec::LatticeKind::default()),
    };
    let plot_error = |e: &dyn std::fmt::Display| Error::Encode {
        format: "plot",
        reason: e.to_string(),
    };
    let lines: Vec<(Engine, Vec<(f64, f64)>)> = ENGINES
        .iter()
        .map(|&e| {
            let points = rows
                .iter()
                .filter(|r| r.workload.name == workload && r.workload.lattice == lattice)
                .filter_map(|r| Some((r.grid.size().texels() as f64, r.rate(e)?)))
                .collect();
            (e, points)
        })
        .filter(|(_, p): &(Engine, Vec<_>)| !p.is_empty())
        .collect();
    let all = lines.iter().flat_map(|(_, p)| p.iter());
    let (x0, x1, y0, y1) = all.fold((f64::MAX, 0f64, f64::MAX, 0f64), |a, &(x, y)| {
        (a.0.min(x), a.1.max(x), a.2.min(y), a.3.max(y))
    });
    if lines.is_empty() {
        return Err(Error::InvalidSpec {
            field: "plot",
            reason: format!("no rows of workload {workload} to plot"),
        });
    }
    const SIZE: (u32, u32) = (900, 560);
    let mut pixels = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
    {
        gpu_noise::low_level::export::register_plot_font();
        let root = BitMapBackend::with_buffer(&mut pixels, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| plot_error(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{workload} ({lattice} lattice): Msamples/s against grid size"),
                ("sans-serif", 22),
            )
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(
                (x0 / 1.5..x1 * 1.5).log_scale(),
                (y0 / 1.5..y1 * 1.5).log_scale(),
            )
            .map_err(|e| plot_error(&e))?;
        chart
            .configure_mesh()
            .x_desc("texels per grid")
            .y_desc("Msamples/s")
            .x_label_formatter(&|x| texel_label(*x))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(|e| plot_error(&e))?;
        for (engine, points) in lines {
            let color = engine_color(engine);
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                .map_err(|e| plot_error(&e))?
                .label(engine.name())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], color));
            chart
                .draw_series(
                    points
                        .into_iter()
                        .map(|p| Circle::new(p, 4, color.filled())),
                )
                .map_err(|e| plot_error(&e))?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::LowerRight)
            .draw()
            .map_err(|e| plot_error(&e))?;
        root.present().map_err(|e| plot_error(&e))?;
    }
    write_png(path, &pixels, SIZE)
}

/// Writes the PNG through a temporary file that only a complete image replaces `path` with.
fn write_png(path: &Path, rgb: &[u8], size: (u32, u32)) -> Result<()> {
    let file = gpu_noise::low_level::export::OutputFile::create(path)?;
    {
        let mut encoder = png::Encoder::new(file.sink()?, size.0, size.1);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let encode = |e: png::EncodingError| Error::Encode {
            format: "png",
            reason: e.to_string(),
        };
        let mut writer = encoder.write_header().map_err(encode)?;
        writer.write_image_data(rgb).map_err(encode)?;
        writer.finish().map_err(encode)?;
    }
    file.commit()
}
