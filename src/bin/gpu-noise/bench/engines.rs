//! The engines the bench times on one workload and grid, round by round (see `interleaved`):
//! gpu-noise's GPU kernel alone and with readback, its SIMD and f64 CPU backends on all threads
//! and on one, and fastnoise-lite on one thread and on all (rows in parallel with rayon, as our backend).

use std::time::{Duration, Instant};

use fastnoise_lite::FastNoiseLite;
use gpu_noise::simd::InstructionSet;
use gpu_noise::{Job, Result, Window, cpu, gpu::Target, gpu::TextureOutput, simd};
use rayon::prelude::*;

use super::BenchGpu;
use super::rounds::interleaved;
use crate::workloads::{FREQUENCY, Grid, Workload};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    GpuKernel,
    GpuReadback,
    Simd,
    SimdOneThread,
    Cpu,
    CpuOneThread,
    FastNoiseLite,
    FastNoiseLiteRayon,
}

pub const ENGINES: [Engine; 8] = [
    Engine::GpuKernel,
    Engine::GpuReadback,
    Engine::Simd,
    Engine::SimdOneThread,
    Engine::Cpu,
    Engine::CpuOneThread,
    Engine::FastNoiseLite,
    Engine::FastNoiseLiteRayon,
];

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::GpuKernel => "gpu_kernel",
            Engine::GpuReadback => "gpu_readback",
            Engine::Simd => "simd",
            Engine::SimdOneThread => "simd_1thread",
            Engine::Cpu => "cpu",
            Engine::CpuOneThread => "cpu_1thread",
            Engine::FastNoiseLite => "fastnoise_lite_1thread",
            Engine::FastNoiseLiteRayon => "fastnoise_lite",
        }
    }
}

/// Each engine's times on one workload and grid (absent: the engine cannot run it here).
pub type Timings = Vec<(Engine, Vec<Duration>)>;

/// One engine's timed run.
type Run<'a> = Box<dyn FnMut() -> Result<Duration> + 'a>;

/// Times every engine that can run `w` over `grid`, interleaved round by round.
pub fn time_engines(
    w: &Workload,
    grid: Grid,
    prep: &Job,
    gpu: Option<&mut BenchGpu>,
    (one_thread, isa): (&rayon::ThreadPool, InstructionSet),
    repeat: u32,
    gpu_only: bool,
) -> Result<Timings> {
    let gpu = gpu.map(std::cell::RefCell::new);
    let target = gpu.as_ref().map(|g| GpuTarget::new(&g.borrow(), grid));
    let mut runs: Vec<(Engine, Run)> = Vec::new();
    if let (Some(g), Some(t)) = (&gpu, &target) {
        let burst = super::clock::Burst::default();
        runs.push((
            Engine::GpuKernel,
            Box::new(move || g.borrow_mut().time(&burst, |r, e| t.record(r, e, prep))),
        ));
        runs.push((
            Engine::GpuReadback,
            Box::new(move || {
                let full = gpu_noise::Window::full(prep.size());
                wall(|| g.borrow_mut().renderer.read(prep, full).map(drop))
            }),
        ));
    }
    if !gpu_only {
        runs.extend(cpu_runs(w, grid, prep, (one_thread, isa)));
    }
    let mut contenders: Vec<&mut dyn FnMut() -> Result<Duration>> =
        runs.iter_mut().map(|(_, f)| f.as_mut() as _).collect();
    let times = interleaved(repeat, &mut contenders)?;
    Ok(runs.iter().map(|(e, _)| *e).zip(times).collect())
}

/// The CPU engines' runs: gpu-noise's SIMD (on instruction set `isa`) and f64 backends, and
/// fastnoise-lite where it has the kind (its own hash whatever our lattice: the same points,
/// the same work).
fn cpu_runs<'a>(
    w: &Workload,
    grid: Grid,
    prep: &'a Job,
    (one_thread, isa): (&'a rayon::ThreadPool, InstructionSet),
) -> Vec<(Engine, Run<'a>)> {
    let simd = move || simd::render_window_on(isa, prep, Window::full(prep.size())).map(drop);
    let mut runs: Vec<(Engine, Run)> = vec![
        (Engine::Simd, Box::new(move || wall(simd))),
        (
            Engine::SimdOneThread,
            Box::new(move || wall(|| one_thread.install(simd))),
        ),
        (
            Engine::Cpu,
            Box::new(|| wall(|| cpu::render_f32(prep).map(drop))),
        ),
        (
            Engine::CpuOneThread,
            Box::new(|| wall(|| one_thread.install(|| cpu::render_f32(prep).map(drop)))),
        ),
    ];
    // One instance each: the closures own them (fastnoise-lite's struct is not Clone).
    if let (Some(one), Some(n)) = (w.fastnoise(), w.fastnoise()) {
        let dims = w.dims;
        runs.push((
            Engine::FastNoiseLite,
            Box::new(move || {
                wall(|| {
                    std::hint::black_box(fill(&one, dims, grid, false));
                    Ok(())
                })
            }),
        ));
        runs.push((
            Engine::FastNoiseLiteRayon,
            Box::new(move || {
                wall(|| {
                    std::hint::black_box(fill(&n, dims, grid, true));
                    Ok(())
                })
            }),
        ));
    }
    runs
}

fn wall(f: impl FnOnce() -> Result<()>) -> Result<Duration> {
    let start = Instant::now();
    f()?;
    Ok(start.elapsed())
}

/// fastnoise-lite over the grid at the same lattice points, row by row.
fn fill(n: &FastNoiseLite, dims: u32, grid: Grid, parallel: bool) -> Vec<f32> {
    let size = grid.size();
    let width = size.width as usize;
    let mut out = vec![0f32; size.texels() as usize];
    let row = |(r, texels): (usize, &mut [f32])| {
        let y = (r % size.height as usize) as f32 * FREQUENCY as f32;
        let z = (r / size.height as usize) as f32 * FREQUENCY as f32;
        for (i, t) in texels.iter_mut().enumerate() {
            let x = i as f32 * FREQUENCY as f32;
            *t = match dims {
                2 => n.get_noise_2d(x, y),
                _ => n.get_noise_3d(x, y, z),
            };
        }
    };
    if parallel {
        out.par_chunks_mut(width).enumerate().for_each(row);
    } else {
        out.chunks_mut(width).enumerate().for_each(row);
    }
    out
}

/// Where the GPU kernel writes: a storage buffer (what webgl-noise's kernels write too) when
/// the image fits one binding, else an r32float texture.
enum GpuTarget {
    Buffer(wgpu::Buffer),
    Texture(wgpu::Texture),
}

impl GpuTarget {
    fn new(gpu: &BenchGpu, grid: Grid) -> Self {
        let device = gpu.renderer.device();
        let size = grid.size();
        let bytes = size.texels() * 4;
        if bytes <= device.limits().max_storage_buffer_binding_size {
            return GpuTarget::Buffer(super::frame_buffer(device, bytes));
        }
        GpuTarget::Texture(device.create_texture(&wgpu::TextureDescriptor {
            label: Some("bench target"),
            size: wgpu::Extent3d {
                width: size.width,
                height: size.height,
                depth_or_array_layers: size.depth,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: if size.depth > 1 {
                wgpu::TextureDimension::D3
            } else {
                wgpu::TextureDimension::D2
            },
            format: wgpu::TextureFormat::R32Float,
            usage: wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        }))
    }

    fn record(
        &self,
        r: &mut gpu_noise::Renderer,
        encoder: &mut wgpu::CommandEncoder,
        prep: &Job,
    ) -> Result<()> {
        match self {
            GpuTarget::Buffer(buffer) => {
                r.record(encoder, prep, Target::Buffer { buffer, offset: 0 })
            }
            GpuTarget::Texture(texture) => {
                let output = TextureOutput::default();
                r.record(
                    encoder,
                    prep,
                    Target::Texture {
                        texture,
                        output: &output,
                    },
                )
            }
        }
    }
}
