//! `gpu-noise render`: everything is checked before any work, and the file appears whole or not
//! at all.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
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
    let data = match &mut engine {
        Engine::Gpu(renderer) => {
            // Progress only matters when the image takes several dispatches.
            let show =
                std::io::stderr().is_terminal() && texels > u64::from(renderer.chunk_texels());
            renderer.render_with_progress(&prepared, &mut |done, total| {
                if show {
                    eprint!("\rgpu-noise: {:.0}%", 100.0 * done as f64 / total as f64);
                    if done == total {
                        eprintln!();
                    }
                }
            })?
        }
        Engine::Cpu => cpu::render_f32(&prepared),
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
