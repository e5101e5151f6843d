//! `gpu-noise sample`: points from stdin in noise space, one value per line on stdout.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use gpu_noise::backend::{BackendChoice, Engine};
use gpu_noise::spec::MAX_COORD;
use gpu_noise::{AdapterChoice, Error, Result, cpu};

use crate::args::SampleArgs;

pub fn run(args: SampleArgs) -> Result<ExitCode> {
    let layer = crate::spec_layers(&args.noise)?;
    let spec = layer.noise_spec()?;
    let prepared = spec.validate()?;
    let points = read_points(std::io::stdin().lock(), spec.dims as usize)?;
    // The last octave samples p * lacunarity^(octaves - 1); keep it inside the i32 lattice.
    let reach = spec.lacunarity.powi(spec.octaves as i32 - 1);
    if let Some(n) = points
        .iter()
        .position(|p| p.iter().any(|c| (c * reach).abs() >= MAX_COORD))
    {
        return Err(Error::InvalidSpec {
            field: "stdin",
            reason: format!(
                "point {}: coordinates times lacunarity^(octaves-1) must stay below 2^30 in magnitude",
                n + 1
            ),
        });
    }
    let mut out = String::new();
    match args.backend {
        BackendChoice::Cpu => {
            for v in cpu::sample(&prepared, &points) {
                out.push_str(&significant17(v));
                out.push('\n');
            }
        }
        choice => {
            let (mut engine, notice) = Engine::open(choice, &AdapterChoice::from_env())?;
            if let Some(notice) = notice {
                eprintln!("gpu-noise: {notice}");
            }
            match &mut engine {
                Engine::Gpu(renderer) => {
                    for v in renderer.sample(&prepared, &points)? {
                        out.push_str(&format!("{v}\n"));
                    }
                }
                Engine::Cpu => {
                    for v in cpu::sample(&prepared, &points) {
                        out.push_str(&significant17(v));
                        out.push('\n');
                    }
                }
            }
        }
    }
    std::io::stdout()
        .write_all(out.as_bytes())
        .map_err(|e| Error::Io {
            path: "stdout".into(),
            reason: e.to_string(),
        })?;
    Ok(ExitCode::SUCCESS)
}

/// Parses one point per non-blank line: exactly `dims` numbers separated by spaces.
pub fn read_points(input: impl BufRead, dims: usize) -> Result<Vec<[f64; 4]>> {
    let mut points = Vec::new();
    for (n, line) in input.lines().enumerate() {
        let line = line.map_err(|e| Error::Io {
            path: "stdin".into(),
            reason: e.to_string(),
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let bad = |reason: String| Error::InvalidSpec {
            field: "stdin",
            reason: format!("line {}: {reason}", n + 1),
        };
        let coords: Vec<f64> = line
            .split_whitespace()
            .map(|w| {
                w.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| bad(format!("{w:?} is not a finite number")))
            })
            .collect::<Result<_>>()?;
        if coords.len() != dims {
            return Err(bad(format!(
                "expected {dims} coordinates for --dims {dims}, got {}",
                coords.len()
            )));
        }
        let mut p = [0.0; 4];
        p[..dims].copy_from_slice(&coords);
        points.push(p);
    }
    Ok(points)
}

/// An f64 with 17 significant digits in plain notation (enough to round-trip exactly).
pub fn significant17(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let decimals = (16 - v.abs().log10().floor() as i32).clamp(0, 340) as usize;
    format!("{v:.decimals$}")
}
