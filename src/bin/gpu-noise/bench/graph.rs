//! `gpu-noise bench --graph FILE.json`: one graph on a square grid on every engine, interleaved
//! round by round: the GPU's fused kernel (one dispatch), the same steps one dispatch each
//! through a register buffer (the gain from fusing, CONVENTIONS §13), the SIMD lanes, the
//! flat SIMD kernels sampling the same kinds as often (the executor's yardstick) and the f64
//! twin, each on all threads and on one.

use std::time::{Duration, Instant};

use gpu_noise::low_level::gpu::{LowLevelRenderer, unfused_bytes};
use gpu_noise::{Error, Result, Size, Window};

use super::BenchGpu;
use super::clock::{Burst, Clock};

/// Prints the fusion table for the graph at `path` on a `side` x `side` grid.
pub fn fusion_table(
    path: &std::path::Path,
    side: u32,
    repeat: u32,
    gpu_only: bool,
    gpu: &mut BenchGpu,
) -> Result<()> {
    let graph = crate::graph::read_graph(path)?;
    // One slice: 3D graphs are timed on a square of their x-y plane.
    let prepared = graph.prepare(Size::new(side, side, 1), [0.0; 4])?;
    let window = Window::full(prepared.size());
    let texels = window.texels();
    let device = gpu.renderer.device().clone();
    let buffer = |label: &str, size: u64| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        })
    };
    let out = buffer("bench graph output", texels * 4);
    // The node-by-node baseline keeps every step's values in one buffer; past one binding's
    // size it cannot run, and its row says so.
    let register_bytes = unfused_bytes(&prepared);
    let binding = device.limits().max_storage_buffer_binding_size;
    let registers =
        (register_bytes <= binding).then(|| buffer("bench graph registers", register_bytes));
    let steps = prepared.steps();
    outln!(
        "graph {}: {} nodes, {steps} steps, {} noise evaluations per texel, {side}x{side}; {}",
        path.display(),
        graph.nodes().len(),
        prepared.noise_evaluations(),
        gpu.clock.describe()
    )?;
    // The flat kernels sampling the same kinds as often: the yardstick for the SIMD executor.
    let flat: Vec<gpu_noise::Job> = (prepared.flat_equivalents().iter())
        .map(|spec| spec.validate())
        .collect::<Result<_>>()?;
    let rounds = Rounds {
        prepared: &prepared,
        flat: &flat,
        out: &out,
        registers: registers.as_ref(),
        gpu_only,
    };
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| Error::Unsupported(format!("a one-thread pool: {e}")))?;
    let mut times = rounds.time(gpu, &one_thread, repeat)?;
    let median = |list: &mut Vec<Duration>| {
        list.sort();
        list[list.len() / 2]
    };
    let rates: Vec<f64> = times
        .iter_mut()
        .map(|list| texels as f64 / median(list).as_secs_f64() / 1e6)
        .collect();
    let skipped = |row: usize| (row == 1 && registers.is_none()) || (gpu_only && row >= GPU_ROWS);
    if (0..rates.len()).any(|row| !skipped(row) && !rates[row].is_finite()) {
        return Err(Error::Unsupported("a timing came back zero".into()));
    }
    outln!("{:<44} {:>12} {:>10}", "engine", "Mtexels/s", "vs fused")?;
    let threads = gpu_noise::cpu::threads();
    let names = [
        "GPU fused (1 dispatch)".to_string(),
        format!("GPU node by node ({steps} dispatches)"),
        format!("GPU flat kernels, same samples ({} dispatches)", flat.len()),
        format!("SIMD lanes, f32 ({threads} threads)"),
        "SIMD lanes, f32 (1 thread)".to_string(),
        format!("SIMD flat kernels, same samples ({threads} threads)"),
        "SIMD flat kernels, same samples (1 thread)".to_string(),
        format!("CPU twin, f64 ({threads} threads)"),
        "CPU twin, f64 (1 thread)".to_string(),
    ];
    for (row, (name, rate)) in names.iter().zip(&rates).enumerate() {
        if gpu_only && row >= GPU_ROWS {
            continue;
        }
        if skipped(row) {
            outln!(
                "{name:<44} {:>12} {:>10}  (its registers, {register_bytes} bytes, pass one \
                 binding's {binding}; a smaller --side runs it)",
                "-",
                "-"
            )?;
            continue;
        }
        outln!("{name:<44} {rate:>12.2} {:>10.3}", rate / rates[0])?;
    }
    let samples = prepared.noise_evaluations() as f64;
    outln!(
        "GPU fused kernel / flat kernels on the same samples: {:.2}; {:.0} Msamples/s fused",
        rates[0] / rates[2],
        rates[0] * samples,
    )?;
    if gpu_only {
        return Ok(());
    }
    outln!(
        "SIMD graph executor / flat kernels on the same samples: {:.2} ({threads} threads), \
         {:.2} (1 thread); {:.0} Msamples/s (1 thread)",
        rates[3] / rates[5],
        rates[4] / rates[6],
        rates[4] * samples,
    )?;
    Ok(())
}

/// The GPU's rows of the table (fused, node by node, flat kernels); the CPU's follow.
const GPU_ROWS: usize = 3;
/// Every row: the GPU's, then the SIMD lanes, the flat SIMD kernels and the twin, each on all
/// threads and on one.
const ROWS: usize = GPU_ROWS + 6;

/// What each round renders: the graph, its window, and the two GPU targets.
struct Rounds<'a> {
    prepared: &'a gpu_noise::Job,
    /// Flat jobs sampling the graph's kinds as often (`Job::flat_equivalents`).
    flat: &'a [gpu_noise::Job],
    out: &'a wgpu::Buffer,
    registers: Option<&'a wgpu::Buffer>,
    /// The GPU kernels alone: the CPU engines' times stay zero.
    gpu_only: bool,
}

impl Rounds<'_> {
    /// Times of `repeat` rounds, each on every engine in turn (a first round compiles the
    /// pipelines and is not counted).
    fn time(
        &self,
        gpu: &mut BenchGpu,
        one_thread: &rayon::ThreadPool,
        repeat: u32,
    ) -> Result<[Vec<Duration>; ROWS]> {
        let mut times: [Vec<Duration>; ROWS] = Default::default();
        let bursts: [Burst; GPU_ROWS] = Default::default();
        for round in 0..=repeat {
            let on_gpu = self.time_gpu(gpu, &bursts)?;
            let on_cpu = if self.gpu_only {
                Default::default()
            } else {
                self.time_cpu(one_thread)?
            };
            if round > 0 {
                let all = on_gpu.into_iter().chain(on_cpu);
                for (list, t) in times.iter_mut().zip(all) {
                    list.push(t);
                }
            }
        }
        Ok(times)
    }

    /// One round on the GPU: the fused kernel, the steps one dispatch each (zero where their
    /// registers pass a binding) and the flat kernels on the same samples, each in bursts.
    fn time_gpu(
        &self,
        gpu: &mut BenchGpu,
        bursts: &[Burst; GPU_ROWS],
    ) -> Result<[Duration; GPU_ROWS]> {
        let renderer = &mut gpu.renderer;
        let (device, queue) = (renderer.device().clone(), renderer.queue().clone());
        let clock: &Clock = &gpu.clock;
        let out = gpu_noise::gpu::Target::Buffer {
            buffer: self.out,
            offset: 0,
        };
        let fused = clock.time_burst(&device, &queue, &bursts[0], |e| {
            renderer.record(e, self.prepared, out)
        })?;
        let unfused = match self.registers {
            Some(registers) => clock.time_burst(&device, &queue, &bursts[1], |e| {
                (renderer)
                    .record_unfused(e, self.prepared, registers)
                    .map(|_| ())
            })?,
            None => Duration::ZERO,
        };
        let flat = clock.time_burst(&device, &queue, &bursts[2], |e| {
            (self.flat.iter()).try_for_each(|job| renderer.record(e, job, out))
        })?;
        Ok([fused, unfused, flat])
    }

    /// One round on the CPU: the SIMD lanes, the flat SIMD kernels on the same samples and
    /// the twin, each on all threads and on one.
    fn time_cpu(&self, one_thread: &rayon::ThreadPool) -> Result<[Duration; ROWS - GPU_ROWS]> {
        let wall = |f: &dyn Fn() -> Result<()>| -> Result<Duration> {
            let start = Instant::now();
            f()?;
            Ok(start.elapsed())
        };
        let job = self.prepared;
        let flat =
            || (self.flat.iter()).try_for_each(|job| gpu_noise::simd::render_f32(job).map(drop));
        Ok([
            wall(&|| gpu_noise::simd::render_f32(job).map(drop))?,
            wall(&|| one_thread.install(|| gpu_noise::simd::render_f32(job).map(drop)))?,
            wall(&flat)?,
            wall(&|| one_thread.install(flat))?,
            wall(&|| gpu_noise::cpu::render_f64(job).map(drop))?,
            wall(&|| one_thread.install(|| gpu_noise::cpu::render_f64(job).map(drop)))?,
        ])
    }
}
