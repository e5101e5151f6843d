//! `gpu-noise bench`: Msamples/s (texels x octaves per second) of the GPU path, kernel only and
//! with readback, and of the CPU backend, on 2D and 3D perlin with 1 and 6 octaves.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use gpu_noise::{
    AdapterChoice, Error, Fractal, Kind, NoiseSpec, Prepared, Renderer, Result, Size, cpu,
};

use crate::args::BenchArgs;

fn median(mut f: impl FnMut() -> Result<()>, repeat: u32) -> Result<Duration> {
    f()?; // warm-up: pipeline compilation, buffer allocation, page faults
    let mut times = Vec::new();
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        f()?;
        times.push(start.elapsed());
    }
    times.sort();
    Ok(times[times.len() / 2])
}

pub fn run(args: BenchArgs) -> Result<ExitCode> {
    if !(64..=8192).contains(&args.side) {
        return Err(Error::InvalidSpec {
            field: "--side",
            reason: format!("must be in 64..=8192, got {}", args.side),
        });
    }
    let mut renderer = match Renderer::new(&AdapterChoice::from_env()) {
        Ok(r) => Some(r),
        Err(e) => {
            eprintln!("gpu-noise: bench: no GPU column: {e}");
            None
        }
    };
    if let Some(r) = &renderer {
        let i = &r.adapter().info;
        println!(
            "GPU: {} ({:?}, {})",
            i.name,
            i.backend,
            if r.adapter().software {
                "software"
            } else {
                "hardware"
            }
        );
    }
    println!(
        "CPU backend: {} threads; {}x{} texels; median of {}",
        rayon::current_num_threads(),
        args.side,
        args.side,
        args.repeat
    );
    println!();
    println!(
        "| case | CPU backend Msamples/s | GPU kernel Msamples/s | GPU + readback Msamples/s | GPU+readback / CPU |"
    );
    println!("| --- | ---: | ---: | ---: | ---: |");
    for dims in [2, 3] {
        for octaves in [1, 6] {
            let mut spec = NoiseSpec::new(Kind::Perlin, dims);
            spec.size = Size::new(args.side, args.side, 1);
            if octaves > 1 {
                spec.fractal = Fractal::Fbm;
                spec.octaves = octaves;
            }
            let prep = spec.validate()?;
            let samples = spec.size.texels() as f64 * f64::from(octaves);
            let rate = |d: Duration| samples / d.as_secs_f64() / 1e6;
            eprintln!("gpu-noise: bench: perlin {dims}D, {octaves} octave(s)...");
            let cpu_rate = rate(median(
                || {
                    std::hint::black_box(cpu::render_f32(&prep));
                    Ok(())
                },
                args.repeat,
            )?);
            let (kernel, full) = match renderer.as_mut() {
                Some(r) => gpu_rates(r, &prep, args.repeat, &rate)?,
                None => (f64::NAN, f64::NAN),
            };
            println!(
                "| perlin {dims}D, {octaves} octave{} | {cpu_rate:.1} | {kernel:.1} | {full:.1} | {:.2}x |",
                if octaves > 1 { "s fBm" } else { "" },
                full / cpu_rate
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn gpu_rates(
    r: &mut Renderer,
    prep: &Prepared,
    repeat: u32,
    rate: &dyn Fn(Duration) -> f64,
) -> Result<(f64, f64)> {
    let kernel = rate(median(|| r.render_on_device(prep), repeat)?);
    let full = rate(median(
        || {
            r.render(prep).map(|v| {
                std::hint::black_box(v);
            })
        },
        repeat,
    )?);
    Ok((kernel, full))
}
