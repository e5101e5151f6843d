//! Shared test helpers: one Renderer on the crate's own device, one device of the test's own
//! (for the caller-owned paths), and small specs.
//!
//! GPU tests need an adapter and fail, never skip, without one. With the explicit opt-out
//! `GPU_NOISE_SKIP_GPU_TESTS=1` at build time they are compiled as `#[ignore]`d and show as
//! ignored (build.rs), never as passed.

use std::cell::Cell;
use std::sync::{Mutex, MutexGuard, OnceLock};

use gpu_noise::{
    Job, Kind, NoiseSpec, Renderer, Size, Window, gpu::AdapterChoice, gpu::RendererOptions,
};

pub const OPT_OUT: &str = "GPU_NOISE_SKIP_GPU_TESTS";

fn no_adapter(e: impl std::fmt::Display) -> ! {
    panic!(
        "GPU tests need an adapter and none could be opened: {e}\n\
         (build with {OPT_OUT}=1 to mark them ignored explicitly; CI never does)"
    )
}

/// The shared renderer on a device the crate opened. Without an adapter this panics with
/// instructions, so the test fails rather than skips. Asking for it again on a thread that
/// still holds it panics too, naming the mistake, where the lock would hang the suite.
pub fn renderer() -> SharedRenderer {
    static RENDERER: OnceLock<Mutex<Renderer>> = OnceLock::new();
    let cell = RENDERER.get_or_init(|| {
        let choice = AdapterChoice::from_env().unwrap_or_else(|e| no_adapter(e));
        match pollster::block_on(Renderer::open(&choice, RendererOptions::default())) {
            Ok(r) => Mutex::new(r),
            Err(e) => no_adapter(e),
        }
    });
    if HOLDS_RENDERER.get() {
        panic!(
            "renderer() called while this thread still holds the shared renderer: drop the \
             first guard (end its statement or scope) before calling a helper that takes it"
        );
    }
    let guard = cell.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    HOLDS_RENDERER.set(true);
    SharedRenderer(guard)
}

thread_local! {
    /// Whether this thread holds the shared renderer's guard.
    static HOLDS_RENDERER: Cell<bool> = const { Cell::new(false) };
}

/// The shared renderer's guard; dropping it lets this thread ask again.
pub struct SharedRenderer(MutexGuard<'static, Renderer>);

impl Drop for SharedRenderer {
    fn drop(&mut self) {
        HOLDS_RENDERER.set(false);
    }
}

impl std::ops::Deref for SharedRenderer {
    type Target = Renderer;
    fn deref(&self) -> &Renderer {
        &self.0
    }
}

impl std::ops::DerefMut for SharedRenderer {
    fn deref_mut(&mut self) -> &mut Renderer {
        &mut self.0
    }
}

/// A device and queue the test creates itself, as a game or tool would, with the adapter's
/// limits and (if it has it) TEXTURE_FORMAT_16BIT_NORM.
pub fn caller_device() -> (wgpu::Device, wgpu::Queue, wgpu::Features) {
    caller_device_with(None)
}

/// A device of the test's own, with `limits` (default: the adapter's own).
pub fn caller_device_with(
    limits: Option<wgpu::Limits>,
) -> (wgpu::Device, wgpu::Queue, wgpu::Features) {
    let choice = AdapterChoice::from_env().unwrap_or_else(|e| no_adapter(e));
    let instance = gpu_noise::low_level::gpu::new_instance(&choice);
    let Some((adapter, summary)) =
        pollster::block_on(gpu_noise::low_level::gpu::best_adapter(&instance, &choice))
    else {
        no_adapter("no adapter with compute shaders");
    };
    let features = summary.features & wgpu::Features::TEXTURE_FORMAT_16BIT_NORM;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("the test's own device"),
        required_features: features,
        required_limits: limits.unwrap_or_else(|| summary.limits.clone()),
        ..Default::default()
    }))
    .unwrap_or_else(|e| no_adapter(e));
    (device, queue, features)
}

/// A spec on the permutation-table lattice (`lattice = table`): what Ken Perlin's and Stefan
/// Gustavson's published code hash with, so their values are this lattice's references.
pub fn on_the_table(kind: Kind, dims: u32) -> NoiseSpec {
    let mut s = NoiseSpec::new(kind, dims);
    s.lattice = gpu_noise::spec::LatticeKind::Table;
    s
}

pub fn spec(kind: Kind, dims: u32, w: u32, h: u32) -> NoiseSpec {
    let mut s = NoiseSpec::new(kind, dims);
    s.size = Size::new(w, h, 1);
    s
}

/// Reads `bytes` of `buffer` back through a staging buffer, as a caller would.
pub fn read_buffer(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    bytes: u64,
) -> Vec<u8> {
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("test staging"),
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, bytes);
    queue.submit([encoder.finish()]);
    map_read(device, &staging, bytes)
}

/// Maps a MAP_READ buffer and copies its first `bytes` out.
pub fn map_read(device: &wgpu::Device, staging: &wgpu::Buffer, bytes: u64) -> Vec<u8> {
    staging
        .slice(..bytes)
        .map_async(wgpu::MapMode::Read, |r| r.expect("map"));
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    let out = staging
        .slice(..bytes)
        .get_mapped_range()
        .expect("mapped")
        .to_vec();
    staging.unmap();
    out
}

/// Writes a GPU and a CPU image side by side under target/ so a person can look at a failure.
pub fn dump_failure(name: &str, spec: &NoiseSpec, gpu: &[f32], cpu: &[f64]) -> String {
    use gpu_noise::export::{ExportOptions, Format, write_image};
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gpu-vs-cpu-failures");
    let _ = std::fs::create_dir_all(&dir);
    let cpu32: Vec<f32> = cpu.iter().map(|&v| v as f32).collect();
    let size = Size::new(spec.size.width, spec.size.height * spec.size.depth, 1);
    let options = ExportOptions::for_spec(spec);
    for (suffix, data) in [("gpu", gpu), ("cpu", &cpu32[..])] {
        let path = dir.join(format!("{name}-{suffix}.png"));
        let finite: Vec<f32> = data
            .iter()
            .map(|v| if v.is_finite() { *v } else { 0.0 })
            .collect();
        let _ = write_image(&path, &finite, size, Format::Png, &options);
    }
    dir.display().to_string()
}

/// Renders `job` whole and one row down and holds every row but the first equal bit for bit in
/// both: the value kernels compute texel rows in pairs, so each row is the first texel of its
/// invocation in one render and the second in the other (a last row of an odd height is alone).
pub fn assert_rows_agree_one_row_down(r: &mut Renderer, job: &Job, what: &str) {
    let size = job.size();
    let [w, h, d] = [size.width, size.height, size.depth].map(|n| n as usize);
    let whole = r.read(job, Window::full(size)).unwrap();
    let down = Window::new(
        [0, 1, 0],
        Size::new(size.width, size.height - 1, size.depth),
    );
    let shifted = r.read(job, down).unwrap();
    for k in 0..d {
        for j in 1..h {
            for i in 0..w {
                let a = whole[(k * h + j) * w + i];
                let b = shifted[(k * (h - 1) + j - 1) * w + i];
                assert_eq!(a.to_bits(), b.to_bits(), "{what}: texel ({i}, {j}, {k})");
            }
        }
    }
}

/// The power spectrum of square images (2D FFT through rustfft), summed over the images:
/// `|F(kx, ky)|^2` at `ky * side + kx`.
pub fn power_spectrum<T: Copy + Into<f64>>(images: &[Vec<T>], side: usize) -> Vec<f64> {
    use rustfft::{FftPlanner, num_complex::Complex};
    let fft = FftPlanner::<f64>::new().plan_fft_forward(side);
    let mut power = vec![0.0; side * side];
    for image in images {
        let mut data: Vec<Complex<f64>> =
            image.iter().map(|&v| Complex::new(v.into(), 0.0)).collect();
        for row in data.chunks_mut(side) {
            fft.process(row);
        }
        let mut column = vec![Complex::new(0.0, 0.0); side];
        for x in 0..side {
            for y in 0..side {
                column[y] = data[y * side + x];
            }
            fft.process(&mut column);
            for y in 0..side {
                power[y * side + x] += column[y].norm_sqr();
            }
        }
    }
    power
}
