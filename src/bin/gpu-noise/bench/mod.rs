//! `gpu-noise bench`: Msamples/s (texels x octaves per second) of the GPU path, kernel only and
//! with readback, and of the CPU backend, on 2D and 3D perlin with 1 and 6 octaves on the table
//! and the hash lattice; then frames
//! per second of a real-time loop (2D fBm, 6 octaves, the offset moving every frame) at 512^2
//! and 1024^2, rendering into a buffer on the GPU, and with readback to the host.

mod clock;
mod engines;
mod fastnoise2;
mod frames;
mod graph;
mod report;
mod rounds;
mod webgl_noise;

use std::process::ExitCode;
use std::time::Duration;

use gpu_noise::low_level::gpu::LowLevelRenderer;
use gpu_noise::simd::InstructionSet;
use gpu_noise::{
    Error, Job, Kind, NoiseSpec, Renderer, Result, Size, cpu, gpu::AdapterChoice,
    gpu::RendererOptions, spec::LatticeKind,
};

use crate::args::BenchArgs;
use crate::workloads::{GRIDS, Grid, WORKLOADS, Workload};
use clock::{Burst, Clock};
use rounds::{interleaved, median_f64, speedup};

/// The bench's GPU: a renderer on a device of the bench's own, opened with timestamp queries
/// where the adapter has them, and the clock that times its work.
struct BenchGpu {
    renderer: Renderer,
    clock: Clock,
    /// The adapter: name, backend, software or hardware.
    description: String,
}

impl BenchGpu {
    async fn open(choice: &AdapterChoice) -> Result<Self> {
        let options = RendererOptions {
            features: clock::TIMESTAMPS,
            ..Default::default()
        };
        let renderer = Renderer::open(choice, options).await?;
        let hardware = renderer.adapter().is_some_and(|a| !a.software);
        let clock = Clock::new(renderer.device(), renderer.queue(), hardware);
        let description = match renderer.adapter() {
            Some(a) => format!(
                "{} ({:?}, {})",
                a.info.name,
                a.info.backend,
                if a.software { "software" } else { "hardware" }
            ),
            None => renderer.adapter_name(),
        };
        outln!("GPU: {description}; {}", clock.describe())?;
        Ok(BenchGpu {
            renderer,
            clock,
            description,
        })
    }

    /// Times one copy of what `record` records on the renderer's device, in bursts of
    /// `burst` (see [`Burst`]).
    fn time(
        &mut self,
        burst: &Burst,
        mut record: impl FnMut(&mut Renderer, &mut wgpu::CommandEncoder) -> Result<()>,
    ) -> Result<Duration> {
        let device = self.renderer.device().clone();
        let queue = self.renderer.queue().clone();
        let renderer = &mut self.renderer;
        (self.clock).time_burst(&device, &queue, burst, |e| record(renderer, e))
    }
}

pub fn run(args: BenchArgs) -> Result<ExitCode> {
    if !(64..=8192).contains(&args.side) {
        return Err(Error::InvalidSpec {
            field: "side",
            reason: format!("must be in 64..=8192, got {}", args.side),
        });
    }
    if let Some(path) = &args.fastnoise2 {
        fastnoise2::table(path, args.repeat, args.case.as_deref())?;
        return Ok(ExitCode::SUCCESS);
    }
    let choice = AdapterChoice::from_env()?;
    if let Some(path) = &args.graph {
        let mut gpu = pollster::block_on(BenchGpu::open(&choice))?;
        graph::fusion_table(path, args.side, args.repeat, args.gpu_only, &mut gpu)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut gpu = match pollster::block_on(BenchGpu::open(&choice)) {
        Ok(g) => Some(g),
        // With --gpu-only there is nothing to time without one.
        Err(e) if args.gpu_only => return Err(e),
        Err(e) => {
            note!("gpu-noise: bench: no GPU columns: {e}");
            None
        }
    };
    let machine = machine(gpu.as_ref());
    let isa = simd_isa(&args)?;
    outln!(
        "CPU: {}, {} threads, SIMD engines on {}; median of {} rounds\n",
        cpu_name(),
        cpu::threads(),
        isa.name(),
        args.repeat
    )?;
    let peers = match gpu.as_mut() {
        Some(g) if !args.no_webgl_noise => peer_table(&args, g)?,
        _ => serde_json::Value::Null,
    };
    let rows = engine_rows(&args, gpu.as_mut())?;
    report::print_table(&rows)?;
    if let Some(g) = gpu.as_mut() {
        frames::frame_table(&mut g.renderer, args.repeat)?;
    }
    if let Some(path) = &args.plot {
        report::plot(&rows, path)?;
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report::json(&rows, machine, peers))
            .map_err(|e| Error::Unsupported(e.to_string()))?;
        if path.as_os_str() == "-" {
            outln!("{text}")?;
        } else {
            std::fs::write(path, text + "\n").map_err(|e| Error::io(path, e))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Every selected workload over every selected grid it applies to (the volume only in 3D).
fn engine_rows(args: &BenchArgs, mut gpu: Option<&mut BenchGpu>) -> Result<Vec<report::Row>> {
    let workloads = if args.workload.is_empty() {
        WORKLOADS.to_vec()
    } else {
        args.workload.clone()
    };
    let grids = if args.grid.is_empty() {
        GRIDS.to_vec()
    } else {
        args.grid.clone()
    };
    let lattices = if args.lattice.is_empty() {
        vec![LatticeKind::default()]
    } else {
        args.lattice.clone()
    };
    let workloads: Vec<Workload> = (workloads.iter())
        .flat_map(|w| lattices.iter().map(|&lattice| Workload { lattice, ..*w }))
        .collect();
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| Error::Unsupported(format!("a one-thread pool: {e}")))?;
    let isa = simd_isa(args)?;
    let mut rows = Vec::new();
    for workload in workloads {
        for &grid in &grids {
            if matches!(grid, Grid::Cube(_)) && workload.dims < 3 {
                continue;
            }
            note!(
                "gpu-noise: bench: {} ({} lattice) over {}...",
                workload.name,
                workload.lattice,
                grid.name()
            );
            let prep = workload.spec(grid).validate()?;
            let timings = engines::time_engines(
                &workload,
                grid,
                &prep,
                gpu.as_deref_mut(),
                (&one_thread, isa),
                args.repeat,
                args.gpu_only,
            )?;
            rows.push(report::Row {
                workload,
                grid,
                timings,
            });
        }
    }
    Ok(rows)
}

/// The SIMD engines' instruction set: `--isa`, or the widest this CPU runs.
fn simd_isa(args: &BenchArgs) -> Result<InstructionSet> {
    let isa = args.isa.unwrap_or_else(InstructionSet::detect);
    if !isa.available() {
        return Err(Error::InvalidSpec {
            field: "isa",
            reason: format!(
                "this CPU lacks {}; it runs {}",
                isa.name(),
                available_isas()
            ),
        });
    }
    Ok(isa)
}

/// The instruction sets this CPU runs, by name, widest first.
fn available_isas() -> String {
    let names: Vec<&str> = (InstructionSet::ALL.into_iter())
        .filter(|isa| isa.available())
        .map(InstructionSet::name)
        .collect();
    names.join(", ")
}

/// The processor's model name (Linux), or the architecture.
fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

fn machine(gpu: Option<&BenchGpu>) -> serde_json::Value {
    let unix_time = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    serde_json::json!({
        "cpu": cpu_name(),
        "threads": cpu::threads(),
        "gpu": gpu.map(|g| g.description.clone()),
        "gpu_timing": gpu.map(|g| g.clock.describe()),
        "unix_time": unix_time,
    })
}

/// gpu-noise's kernels (table, hash and prime lattice) beside webgl-noise's functions on the
/// same adapter and grid, one octave, interleaved round by round.
fn peer_table(args: &BenchArgs, gpu: &mut BenchGpu) -> Result<serde_json::Value> {
    let dir = webgl_noise::package_dir(args.webgl_noise.clone())?;
    outln!(
        "| same adapter, {0}x{0}, 1 octave, Msamples/s | gpu-noise table | gpu-noise hash | gpu-noise prime | webgl-noise | table / webgl-noise | hash / webgl-noise | prime / webgl-noise |",
        args.side
    )?;
    outln!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")?;
    let cases = [
        ("simplex 2D", Kind::Simplex, 2, webgl_noise::SIMPLEX_2D),
        ("simplex 3D", Kind::Simplex, 3, webgl_noise::SIMPLEX_3D),
        ("perlin 3D", Kind::Perlin, 3, webgl_noise::CLASSIC_3D),
    ];
    let texels = f64::from(args.side) * f64::from(args.side);
    let mut rows = Vec::new();
    for (name, kind, dims, function) in cases {
        note!("gpu-noise: bench: {name} beside webgl-noise...");
        let mut spec = NoiseSpec::new(kind, dims);
        spec.size = Size::new(args.side, args.side, 1);
        let table = spec.validate()?;
        spec.lattice = LatticeKind::Hash;
        let hash = spec.validate()?;
        spec.lattice = LatticeKind::Prime;
        let prime = spec.validate()?;
        let device = gpu.renderer.device().clone();
        let target = frame_buffer(&device, spec.size.texels() * 4);
        let peer = webgl_noise::PeerKernel::new(
            &device,
            &dir,
            function,
            args.side,
            spec.frequency as f32,
        )?;
        let gpu = std::cell::RefCell::new(&mut *gpu);
        let bursts: [Burst; 4] = Default::default();
        let time_ours = |prep: &Job, burst: &Burst| {
            gpu.borrow_mut().time(burst, |r, e| {
                r.record(
                    e,
                    prep,
                    gpu_noise::gpu::Target::Buffer {
                        buffer: &target,
                        offset: 0,
                    },
                )
            })
        };
        let times = interleaved(
            args.repeat,
            &mut [
                &mut || time_ours(&table, &bursts[0]),
                &mut || time_ours(&hash, &bursts[1]),
                &mut || time_ours(&prime, &bursts[2]),
                &mut || {
                    gpu.borrow_mut().time(&bursts[3], |_, e| {
                        peer.record(e);
                        Ok(())
                    })
                },
            ],
        )?;
        let rate = |t: &[Duration]| {
            texels / 1e6 / median_f64(t.iter().map(Duration::as_secs_f64).collect())
        };
        let peer_times = &times[3];
        let [table_x, hash_x, prime_x] = [0, 1, 2].map(|i| speedup(&times[i], peer_times));
        outln!(
            "| {name} | {:.1} | {:.1} | {:.1} | {:.1} | {table_x:.2}x | {hash_x:.2}x | {prime_x:.2}x |",
            rate(&times[0]),
            rate(&times[1]),
            rate(&times[2]),
            rate(peer_times),
        )?;
        rows.push(serde_json::json!({
            "case": name,
            "grid": format!("{}^2", args.side),
            "msamples_per_s": {
                "gpu_noise_table": rate(&times[0]),
                "gpu_noise_hash": rate(&times[1]),
                "gpu_noise_prime": rate(&times[2]),
                "webgl_noise": rate(peer_times),
            },
            "ratios": {
                "table_vs_webgl_noise": table_x,
                "hash_vs_webgl_noise": hash_x,
                "prime_vs_webgl_noise": prime_x,
            },
        }));
    }
    outln!()?;
    Ok(serde_json::Value::Array(rows))
}

fn frame_buffer(device: &wgpu::Device, bytes: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("bench frame"),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    })
}
