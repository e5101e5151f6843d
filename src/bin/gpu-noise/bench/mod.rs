//! `gpu-noise bench`: Msamples/s (texels x octaves per second) of the GPU path, kernel only and
//! with readback, and of the CPU backend, on 2D and 3D perlin with 1 and 6 octaves on the table
//! and the hash lattice; then frames
//! per second of a real-time loop (2D fBm, 6 octaves, the offset moving every frame) at 512^2
//! and 1024^2, rendering into a buffer on the GPU, and with readback to the host.

mod clock;
mod webgl_noise;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use gpu_noise::gpu::adapter::new_instance;
use gpu_noise::{
    AdapterChoice, Error, Fractal, Kind, LatticeKind, NoiseSpec, Prepared, Renderer,
    RendererOptions, Result, Size, cpu,
};

use crate::args::BenchArgs;
use clock::Clock;

fn median(mut f: impl FnMut() -> Result<()>, repeat: u32) -> Result<Duration> {
    f()?; // warm-up: pipeline compilation, buffer allocation, page faults
    let mut times = Vec::new();
    for _ in 0..repeat {
        let start = Instant::now();
        f()?;
        times.push(start.elapsed());
    }
    times.sort();
    Ok(times[times.len() / 2])
}

/// The median of `repeat` timings that `f` measures itself (after one warm-up).
fn median_of(mut f: impl FnMut() -> Result<Duration>, repeat: u32) -> Result<Duration> {
    f()?;
    let mut times = (0..repeat).map(|_| f()).collect::<Result<Vec<_>>>()?;
    times.sort();
    Ok(times[times.len() / 2])
}

/// The bench's GPU: a renderer on a device of the bench's own, opened with timestamp queries
/// where the adapter has them, and the clock that times its work.
struct BenchGpu {
    renderer: Renderer,
    clock: Clock,
}

impl BenchGpu {
    async fn open(choice: &AdapterChoice) -> Result<Self> {
        let instance = new_instance(choice);
        let (adapter, summary) = gpu_noise::gpu::best_adapter(&instance, choice)
            .await
            .ok_or_else(|| Error::NoAdapter {
                detail: format!(" that can run compute shaders ({})", choice.describe()),
            })?;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("gpu-noise bench"),
                required_features: summary.features & clock::TIMESTAMPS,
                required_limits: summary.limits.clone(),
                ..Default::default()
            })
            .await
            .map_err(|source| Error::DeviceRequest {
                adapter: summary.info.name.clone(),
                source,
            })?;
        let clock = Clock::new(&device, &queue);
        let renderer = Renderer::new(&device, &queue, RendererOptions::default())?;
        println!(
            "GPU: {} ({:?}, {}); {}",
            summary.info.name,
            summary.info.backend,
            if summary.software {
                "software"
            } else {
                "hardware"
            },
            clock.describe()
        );
        Ok(BenchGpu { renderer, clock })
    }

    /// Times what `record` records on the renderer's device.
    fn time(
        &mut self,
        record: impl FnOnce(&mut Renderer, &mut wgpu::CommandEncoder) -> Result<()>,
    ) -> Result<Duration> {
        let device = self.renderer.device().clone();
        let queue = self.renderer.queue().clone();
        let renderer = &mut self.renderer;
        self.clock.time(&device, &queue, |e| record(renderer, e))
    }
}

pub fn run(args: BenchArgs) -> Result<ExitCode> {
    if !(64..=8192).contains(&args.side) {
        return Err(Error::InvalidSpec {
            field: "side",
            reason: format!("must be in 64..=8192, got {}", args.side),
        });
    }
    let choice = AdapterChoice::from_env()?;
    let mut gpu = match pollster::block_on(BenchGpu::open(&choice)) {
        Ok(g) => Some(g),
        Err(e) => {
            eprintln!("gpu-noise: bench: no GPU column: {e}");
            None
        }
    };
    println!(
        "CPU backend: {} threads; {}x{} texels; median of {}\n",
        cpu::threads(),
        args.side,
        args.side,
        args.repeat
    );
    if let Some(g) = gpu.as_mut() {
        peer_table(&args, g)?;
        if std::env::var_os("BENCH_PEERS_ONLY").is_some() {
            return Ok(ExitCode::SUCCESS);
        }
    }
    let mut renderer = gpu.map(|g| g.renderer);
    throughput_table(&args, renderer.as_mut())?;
    kind_table(&args, renderer.as_mut())?;
    if let Some(r) = renderer.as_mut() {
        frame_table(r, args.repeat)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// gpu-noise's kernels (table and hash lattice) beside webgl-noise's functions on the same
/// adapter and grid, one octave.
fn peer_table(args: &BenchArgs, gpu: &mut BenchGpu) -> Result<()> {
    let dir = webgl_noise::package_dir(args.webgl_noise.clone())?;
    println!(
        "| same adapter, {0}x{0}, 1 octave, Msamples/s | gpu-noise table | gpu-noise hash | webgl-noise | table / webgl-noise | hash / webgl-noise |",
        args.side
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let cases = [
        ("simplex 2D", Kind::Simplex, 2, webgl_noise::SIMPLEX_2D),
        ("simplex 3D", Kind::Simplex, 3, webgl_noise::SIMPLEX_3D),
        ("perlin 3D", Kind::Perlin, 3, webgl_noise::CLASSIC_3D),
    ];
    let texels = f64::from(args.side) * f64::from(args.side);
    let rate = |d: Duration| texels / d.as_secs_f64() / 1e6;
    for (name, kind, dims, function) in cases {
        eprintln!("gpu-noise: bench: {name} beside webgl-noise...");
        let mut spec = NoiseSpec::new(kind, dims);
        spec.size = Size::new(args.side, args.side, 1);
        let device = gpu.renderer.device().clone();
        let target = frame_buffer(&device, spec.size.texels() * 4);
        let mut ours = [0.0; 2];
        for (rate_of, lattice) in ours.iter_mut().zip([LatticeKind::Table, LatticeKind::Hash]) {
            spec.lattice = lattice;
            let prep = spec.validate()?;
            *rate_of = rate(median_of(
                || gpu.time(|r, e| r.render_to_buffer(e, &prep, &target, 0)),
                args.repeat,
            )?);
        }
        let frequency = spec.frequency as f32;
        let peer = webgl_noise::PeerKernel::new(&device, &dir, function, args.side, frequency)?;
        let theirs = rate(median_of(
            || {
                gpu.time(|_, e| {
                    peer.record(e);
                    Ok(())
                })
            },
            args.repeat,
        )?);
        println!(
            "| {name} | {:.1} | {:.1} | {theirs:.1} | {:.2}x | {:.2}x |",
            ours[0],
            ours[1],
            ours[0] / theirs,
            ours[1] / theirs
        );
    }
    println!();
    Ok(())
}

fn frame_buffer(device: &wgpu::Device, bytes: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("bench frame"),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    })
}

fn fbm(dims: u32, side: u32, octaves: u32) -> NoiseSpec {
    let mut spec = NoiseSpec::new(Kind::Perlin, dims);
    spec.size = Size::new(side, side, 1);
    if octaves > 1 {
        spec.fractal = Fractal::Fbm;
        spec.octaves = octaves;
    }
    spec
}

fn throughput_table(args: &BenchArgs, mut renderer: Option<&mut Renderer>) -> Result<()> {
    let mut target = FrameTarget::default();
    println!(
        "| case | CPU backend Msamples/s | GPU kernel Msamples/s | GPU + readback Msamples/s | GPU+readback / CPU |"
    );
    println!("| --- | ---: | ---: | ---: | ---: |");
    let cases = [2, 3]
        .into_iter()
        .flat_map(|dims| [1, 6].map(|octaves| (dims, octaves)))
        .flat_map(|case| [LatticeKind::Table, LatticeKind::Hash].map(|l| (case, l)));
    for ((dims, octaves), lattice) in cases {
        let mut spec = fbm(dims, args.side, octaves);
        spec.lattice = lattice;
        let prep = spec.validate()?;
        let samples = spec.size.texels() as f64 * f64::from(octaves);
        let rate = |d: Duration| samples / d.as_secs_f64() / 1e6;
        eprintln!("gpu-noise: bench: perlin {dims}D, {octaves} octave(s), {lattice} lattice...");
        let cpu_rate = rate(median(
            || {
                std::hint::black_box(cpu::render_f32(&prep)?);
                Ok(())
            },
            args.repeat,
        )?);
        let (kernel, full) = match renderer.as_deref_mut() {
            Some(r) => (
                rate(median(|| target.render(r, &prep), args.repeat)?),
                rate(median(
                    || r.render(&prep).map(|v| drop(std::hint::black_box(v))),
                    args.repeat,
                )?),
            ),
            None => (f64::NAN, f64::NAN),
        };
        println!(
            "| perlin {dims}D, {octaves} octave{}, {lattice} lattice | {cpu_rate:.1} | {kernel:.1} | {full:.1} | {:.2}x |",
            if octaves > 1 { "s fBm" } else { "" },
            full / cpu_rate
        );
    }
    Ok(())
}

/// Every kind, 2D, one octave, default parameters: CPU and GPU Msamples/s beside perlin's.
fn kind_table(args: &BenchArgs, mut renderer: Option<&mut Renderer>) -> Result<()> {
    println!(
        "\n| kind, 2D, 1 octave | CPU backend Msamples/s | GPU kernel Msamples/s | vs perlin (CPU, GPU) |"
    );
    println!("| --- | ---: | ---: | ---: |");
    let mut target = FrameTarget::default();
    let mut perlin = (f64::NAN, f64::NAN);
    for kind in Kind::ALL {
        let mut spec = NoiseSpec::new(*kind, 2);
        spec.size = Size::new(args.side, args.side, 1);
        let prep = spec.validate()?;
        let texels = spec.size.texels() as f64;
        let rate = |d: Duration| texels / d.as_secs_f64() / 1e6;
        eprintln!("gpu-noise: bench: {kind} 2D...");
        let cpu_rate = rate(median(
            || cpu::render_f32(&prep).map(|v| drop(std::hint::black_box(v))),
            args.repeat,
        )?);
        let gpu_rate = match renderer.as_deref_mut() {
            Some(r) => rate(median(|| target.render(r, &prep), args.repeat)?),
            None => f64::NAN,
        };
        if *kind == Kind::Perlin {
            perlin = (cpu_rate, gpu_rate);
        }
        println!(
            "| {kind} | {cpu_rate:.1} | {gpu_rate:.1} | {:.2}x, {:.2}x |",
            cpu_rate / perlin.0,
            gpu_rate / perlin.1
        );
    }
    Ok(())
}

/// The device buffer frames render into, made once per size (as a real-time caller keeps one).
#[derive(Default)]
struct FrameTarget(Option<wgpu::Buffer>);

impl FrameTarget {
    /// One frame that stays on the GPU: render into the buffer, submit, wait for it.
    fn render(&mut self, r: &mut Renderer, prep: &Prepared) -> Result<()> {
        let bytes = prep.spec().size.texels() * 4;
        if self.0.as_ref().is_none_or(|b| b.size() != bytes) {
            self.0 = Some(r.device().create_buffer(&wgpu::BufferDescriptor {
                label: Some("bench frame"),
                size: bytes,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            }));
        }
        let Some(buffer) = &self.0 else {
            return Ok(());
        };
        let mut encoder = r.device().create_command_encoder(&Default::default());
        r.render_to_buffer(&mut encoder, prep, buffer, 0)?;
        r.queue().submit([encoder.finish()]);
        r.device()
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| Error::DeviceLost(e.to_string()))
    }
}

/// Frames per second of a real-time loop: every frame moves the offset (the time), so only the
/// uniform changes between frames.
fn frame_table(r: &mut Renderer, repeat: u32) -> Result<()> {
    println!(
        "\n| 2D fBm, 6 octaves, new offset each frame | render only fps | render + readback fps |"
    );
    println!("| --- | ---: | ---: |");
    let mut target = FrameTarget::default();
    for side in [512, 1024] {
        let mut prep = fbm(2, side, 6).validate()?;
        let frames = (repeat * 4).max(8);
        let mut time = 0.0;
        let mut step = |prep: &mut Prepared| -> Result<()> {
            time += 1.0;
            prep.set_offset([time, 0.0, 0.0, 0.0])
        };
        target.render(r, &prep)?; // warm-up
        let start = Instant::now();
        for _ in 0..frames {
            step(&mut prep)?;
            target.render(r, &prep)?;
        }
        let render_only = f64::from(frames) / start.elapsed().as_secs_f64();
        let start = Instant::now();
        for _ in 0..frames {
            step(&mut prep)?;
            std::hint::black_box(r.render(&prep)?);
        }
        let with_readback = f64::from(frames) / start.elapsed().as_secs_f64();
        println!("| {side}x{side} | {render_only:.1} | {with_readback:.1} |");
    }
    Ok(())
}
