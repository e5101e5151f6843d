//! Throughput on the same work for gpu-noise (GPU kernel only, GPU with readback, the SIMD and
//! the f64 CPU backends) and the peers noise-rs and fastnoise-lite: perlin 2D and 3D, 1 and 6 octaves (fBm), over a
//! 2048x2048 image. Samples = texels x octaves. After criterion's own report, a table of
//! Msamples/s and ratios is printed from criterion's median estimates.
//!
//! `cargo bench --bench throughput`; `BENCH_SIDE=512` for a quick run. The peers' "perlin"
//! differs in detail (hashes, gradient sets) but does the same amount of work per sample.

use std::path::PathBuf;

use criterion::{BenchmarkId, Criterion, Throughput};
use fastnoise_lite::{FastNoiseLite, FractalType, NoiseType};
use gpu_noise::low_level::gpu::LowLevelRenderer;
use gpu_noise::{
    Fractal, Kind, NoiseSpec, Renderer, Size, gpu::AdapterChoice, gpu::RendererOptions,
};
use gpu_noise::{cpu, simd};
use noise::{Fbm, MultiFractal, NoiseFn, Perlin};
use rayon::prelude::*;

const FREQUENCY: f64 = 1.0 / 32.0;

fn side() -> u32 {
    std::env::var("BENCH_SIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2048)
}

/// Fills a side x side image row by row, in parallel when `parallel`, like the CPU backend.
fn fill(side: u32, parallel: bool, f: impl Fn(f64, f64) -> f32 + Sync) -> Vec<f32> {
    let mut out = vec![0f32; (side * side) as usize];
    let row = |(j, texels): (usize, &mut [f32])| {
        for (i, t) in texels.iter_mut().enumerate() {
            *t = f(i as f64 * FREQUENCY, j as f64 * FREQUENCY);
        }
    };
    if parallel {
        out.par_chunks_mut(side as usize).enumerate().for_each(row);
    } else {
        out.chunks_mut(side as usize).enumerate().for_each(row);
    }
    out
}

fn fastnoise(octaves: u32) -> FastNoiseLite {
    let mut n = FastNoiseLite::with_seed(0);
    n.set_noise_type(Some(NoiseType::Perlin));
    n.set_frequency(Some(1.0)); // points are pre-scaled, as for the other engines
    if octaves > 1 {
        n.set_fractal_type(Some(FractalType::FBm));
        n.set_fractal_octaves(Some(octaves as i32));
    }
    n
}

struct Case {
    dims: u32,
    octaves: u32,
}

impl Case {
    fn group(&self) -> String {
        format!("perlin{}d-{}oct", self.dims, self.octaves)
    }
}

const ENGINES: [&str; 10] = [
    "gpu-noise-gpu-kernel",
    "gpu-noise-gpu-readback",
    "gpu-noise-cpu",
    "gpu-noise-cpu-1thread",
    "fastnoise-lite",
    "fastnoise-lite-rayon",
    "noise-rs",
    "noise-rs-rayon",
    "gpu-noise-simd",
    "gpu-noise-simd-1thread",
];

fn bench_case(
    c: &mut Criterion,
    case: &Case,
    renderer: &mut Option<Renderer>,
    one_thread: &rayon::ThreadPool,
) {
    let side = side();
    let mut spec = NoiseSpec::new(Kind::Perlin, case.dims);
    spec.size = Size::new(side, side, 1);
    spec.frequency = FREQUENCY;
    if case.octaves > 1 {
        spec.fractal = Fractal::Fbm;
        spec.octaves = case.octaves;
    }
    let prep = spec.validate().expect("valid bench spec");
    let mut group = c.benchmark_group(case.group());
    group.throughput(Throughput::Elements(u64::from(side * side * case.octaves)));
    group.sample_size(10);
    if let Some(r) = renderer.as_mut() {
        let target = r.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("bench target"),
            size: spec.size.texels() * 4,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        group.bench_function(ENGINES[0], |b| {
            b.iter(|| {
                let mut encoder = r.device().create_command_encoder(&Default::default());
                let buffer = gpu_noise::gpu::Target::Buffer {
                    buffer: &target,
                    offset: 0,
                };
                r.record(&mut encoder, &prep, buffer).expect("gpu render");
                r.queue().submit([encoder.finish()]);
                r.device()
                    .poll(wgpu::PollType::wait_indefinitely())
                    .expect("gpu wait");
            })
        });
        group.bench_function(ENGINES[1], |b| {
            let full = gpu_noise::Window::full(prep.size());
            b.iter(|| r.read(&prep, full).expect("gpu render"))
        });
    }
    group.bench_function(ENGINES[8], |b| b.iter(|| simd::render_f32(&prep).unwrap()));
    group.bench_function(ENGINES[9], |b| {
        b.iter(|| one_thread.install(|| simd::render_f32(&prep).unwrap()))
    });
    group.bench_function(ENGINES[2], |b| b.iter(|| cpu::render_f32(&prep).unwrap()));
    group.bench_function(ENGINES[3], |b| {
        b.iter(|| one_thread.install(|| cpu::render_f32(&prep).unwrap()))
    });
    let fnl = fastnoise(case.octaves);
    let fnl_at = |x: f64, y: f64| match case.dims {
        2 => fnl.get_noise_2d(x as f32, y as f32),
        _ => fnl.get_noise_3d(x as f32, y as f32, 0.0),
    };
    group.bench_function(ENGINES[4], |b| b.iter(|| fill(side, false, fnl_at)));
    group.bench_function(ENGINES[5], |b| b.iter(|| fill(side, true, fnl_at)));
    let perlin = Perlin::new(0);
    let fbm = Fbm::<Perlin>::new(0).set_octaves(case.octaves as usize);
    let rs_at = |x: f64, y: f64| {
        (match (case.dims, case.octaves) {
            (2, 1) => perlin.get([x, y]),
            (_, 1) => perlin.get([x, y, 0.0]),
            (2, _) => fbm.get([x, y]),
            _ => fbm.get([x, y, 0.0]),
        }) as f32
    };
    group.bench_function(BenchmarkId::from_parameter(ENGINES[6]), |b| {
        b.iter(|| fill(side, false, rs_at))
    });
    group.bench_function(BenchmarkId::from_parameter(ENGINES[7]), |b| {
        b.iter(|| fill(side, true, rs_at))
    });
    group.finish();
}

/// Criterion's median time (ns) for one benchmark, from its saved estimates.
fn median_ns(group: &str, engine: &str) -> Option<f64> {
    let base = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"));
    let path = base
        .join("criterion")
        .join(group)
        .join(engine)
        .join("new")
        .join("estimates.json");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    json["median"]["point_estimate"].as_f64()
}

fn summary(cases: &[Case], adapter: &str) {
    let side = f64::from(side());
    println!(
        "\nMsamples/s (texels x octaves / s), {side}x{side}, criterion medians; GPU: {adapter}"
    );
    println!("CPU backend threads: {}\n", rayon::current_num_threads());
    let mut header = String::from("| engine |");
    let mut rule = String::from("| --- |");
    for case in cases {
        header.push_str(&format!(" {} |", case.group()));
        rule.push_str(" ---: |");
    }
    println!("{header}\n{rule}");
    let rate = |case: &Case, engine: &str| {
        median_ns(&case.group(), engine).map(|ns| side * side * f64::from(case.octaves) / ns * 1e3)
    };
    for engine in ENGINES {
        let mut line = format!("| {engine} |");
        for case in cases {
            match rate(case, engine) {
                Some(r) => line.push_str(&format!(" {r:.1} |")),
                None => line.push_str(" - |"),
            }
        }
        println!("{line}");
    }
    // Thread for thread: 1 vs 1 and N vs N, never mixed; the GPU rows against the N-thread CPU.
    let ratios = [
        (
            "1 thread: gpu-noise-simd / fastnoise-lite",
            "gpu-noise-simd-1thread",
            "fastnoise-lite",
        ),
        (
            "N threads: gpu-noise-simd / fastnoise-lite",
            "gpu-noise-simd",
            "fastnoise-lite-rayon",
        ),
        (
            "1 thread: gpu-noise-cpu / fastnoise-lite",
            "gpu-noise-cpu-1thread",
            "fastnoise-lite",
        ),
        (
            "1 thread: gpu-noise-cpu / noise-rs",
            "gpu-noise-cpu-1thread",
            "noise-rs",
        ),
        (
            "N threads: gpu-noise-cpu / fastnoise-lite",
            "gpu-noise-cpu",
            "fastnoise-lite-rayon",
        ),
        (
            "N threads: gpu-noise-cpu / noise-rs",
            "gpu-noise-cpu",
            "noise-rs-rayon",
        ),
        (
            "gpu-readback / gpu-noise-cpu (N threads)",
            "gpu-noise-gpu-readback",
            "gpu-noise-cpu",
        ),
        (
            "gpu-kernel / gpu-noise-cpu (N threads)",
            "gpu-noise-gpu-kernel",
            "gpu-noise-cpu",
        ),
    ];
    for (label, a, b) in ratios {
        let mut line = format!("| {label} |");
        for case in cases {
            match (rate(case, a), rate(case, b)) {
                (Some(x), Some(y)) => line.push_str(&format!(" {:.2}x |", x / y)),
                _ => line.push_str(" - |"),
            }
        }
        println!("{line}");
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let choice = AdapterChoice::from_env().unwrap_or_default();
    let mut renderer = match pollster::block_on(Renderer::open(&choice, RendererOptions::default()))
    {
        Ok(r) => Some(r),
        Err(e) => {
            eprintln!("no GPU rows: {e}");
            None
        }
    };
    let adapter = renderer
        .as_ref()
        .map(|r| r.adapter_name())
        .unwrap_or_else(|| "none".into());
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("thread pool");
    let cases = [
        Case {
            dims: 2,
            octaves: 1,
        },
        Case {
            dims: 3,
            octaves: 1,
        },
        Case {
            dims: 2,
            octaves: 6,
        },
        Case {
            dims: 3,
            octaves: 6,
        },
    ];
    for case in &cases {
        bench_case(&mut c, case, &mut renderer, &one_thread);
    }
    c.final_summary();
    summary(&cases, &adapter);
}
