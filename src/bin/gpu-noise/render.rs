//! `gpu-noise render`: everything is checked before any work, and the file appears whole or not
//! at all.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use gpu_noise::backend::Engine;
use gpu_noise::export::{Format, check_range, write_image};
use gpu_noise::spec_file::SpecFile;
use gpu_noise::{AdapterChoice, Error, Result, cpu};

use crate::args::RenderArgs;

pub fn run(args: RenderArgs) -> Result<ExitCode> {
    let layer = crate::spec_layers(&args.noise)?.overlay(SpecFile {
        bits: args.bits,
        range: args.range,
        backend: args.backend,
        output: args.output.as_ref().map(|p| p.display().to_string()),
        ..SpecFile::default()
    });
    let effective = layer.effective()?;
    if args.print_spec {
        println!("{}", effective.to_json());
    }
    let Some(output) = layer.output.as_ref().map(PathBuf::from) else {
        if args.print_spec {
            return Ok(ExitCode::SUCCESS);
        }
        return Err(Error::InvalidSpec {
            field: "-o",
            reason: "give an output file (.png, .f32 or .npy), or --print-spec".into(),
        });
    };
    let spec = layer.noise_spec()?;
    let prepared = spec.validate()?;
    let format = Format::from_path(&output, layer.bits())?;
    format.check_size(spec.size)?;
    let range = layer.range(&spec);
    check_range(range)?;

    let (mut engine, notice) = Engine::open(
        layer.backend.unwrap_or_default(),
        &AdapterChoice::from_env(),
    )?;
    if let Some(notice) = notice {
        eprintln!("gpu-noise: {notice}");
    }
    let start = Instant::now();
    let texels = spec.size.texels();
    // Progress on a terminal, for work that takes a while (about a second or more).
    let work = texels * u64::from(spec.octaves);
    let report = Percent::new(std::io::stderr().is_terminal() && work > 50_000_000);
    let data = match &mut engine {
        Engine::Gpu(renderer) => renderer
            .render_with_progress(&prepared, &mut |done, total| report.update(done, total))?,
        Engine::Cpu => {
            cpu::render_f32_with_progress(&prepared, &|done, total| report.update(done, total))
        }
    };
    let elapsed = start.elapsed();
    write_image(&output, &data, spec.size, format, range)?;
    let s = spec.size;
    let dims = if s.depth > 1 {
        format!("{}x{}x{}", s.width, s.height, s.depth)
    } else {
        format!("{}x{}", s.width, s.height)
    };
    eprintln!(
        "gpu-noise: wrote {} ({dims}, {} {}D, {:.2} Msamples/s) in {} on {}",
        output.display(),
        spec.kind.name(),
        spec.dims,
        texels as f64 * f64::from(spec.octaves) / elapsed.as_secs_f64() / 1e6,
        crate::seconds(elapsed),
        engine.name()
    );
    Ok(ExitCode::SUCCESS)
}

/// Prints "NN%" on stderr when the whole percentage grows; callable from any thread.
struct Percent {
    enabled: bool,
    last: AtomicU64,
}

impl Percent {
    fn new(enabled: bool) -> Self {
        Self {
            enabled,
            last: AtomicU64::new(0),
        }
    }

    fn update(&self, done: u64, total: u64) {
        if !self.enabled || total == 0 {
            return;
        }
        let pct = done * 100 / total;
        if self.last.fetch_max(pct, Ordering::Relaxed) < pct {
            eprint!("\rgpu-noise: rendering {pct:3}%");
            if pct == 100 {
                eprintln!();
            }
        }
    }
}
