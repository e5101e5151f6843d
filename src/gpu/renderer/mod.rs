//! [`Renderer`]: the kernels, their pipelines, the programs' bindings and a few scratch buffers
//! on one device, built once and reused for every render. The device is the caller's
//! ([`Renderer::new`], vello's shape) or one the crate opens ([`Renderer::open`]). Two verbs
//! serve every job and target: [`Renderer::record`] into the caller's encoder and
//! [`Renderer::read`] to the host (with [`Renderer::read_into`], [`Renderer::read_async`] and
//! the streaming [`Renderer::for_each_band`]). The tool's, the benchmarks' and the tests' own
//! methods are [`LowLevelRenderer`]'s (`low_level::gpu`), so that the front stays what a game
//! or plugin calls.

mod health;
mod low_level;

use std::collections::VecDeque;

use wgpu::util::StagingBelt;

use self::health::Health;
#[cfg(not(target_arch = "wasm32"))]
pub use self::low_level::shared_renderer;
pub use self::low_level::{LowLevelRenderer, open_on_adapter, unfused_bytes};
use super::adapter::{AdapterChoice, AdapterSummary, best_adapter, new_instance};
use super::pipelines::{ENTRIES, Entry};
use super::program::{Program, Programs};
use super::readback::PendingReadback;
use super::record::{Recorder, Targets};
use super::stats::RenderStats;
use super::targets::Target;
use crate::error::{Error, Result};
use crate::job::Job;
use crate::wgsl::sources::WORKGROUP_SIZE;
use crate::wgsl::tables::TableSpace;
use crate::window::Window;

/// Knobs for tests and tuning; the defaults follow the device's limits.
#[derive(Clone, Copy, Debug, Default)]
pub struct RendererOptions {
    /// Read back at most this many texels per band (the device's limits cap it anyway).
    pub max_chunk_texels: Option<u32>,
    /// Device features to ask for where the adapter has them, beyond the crate's own (for
    /// example timestamp queries for a profiler); used by [`Renderer::open`] and
    /// [`open_on_adapter`].
    pub features: wgpu::Features,
    /// How the kernels bind the noise tables (`wgsl::tables`): `None` picks uniform buffers on
    /// a CPU adapter (llvmpipe, lavapipe) and storage elsewhere; uniform falls back to storage
    /// where the tables pass the device's uniform limits. The values are the same either way.
    pub tables: Option<TableSpace>,
}

const BELT_CHUNK: u64 = 16 * 1024;
/// Bands in flight at once while reading: one rendering while the previous one is read.
const IN_FLIGHT: usize = 2;

/// Renders jobs on a device: into the caller's buffers and textures (recorded into the
/// caller's encoder, never submitted on the caller's behalf), or to the host.
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    adapter: Option<AdapterSummary>,
    health: Option<Health>,
    programs: Programs,
    targets: Targets,
    belt: StagingBelt,
    options: RendererOptions,
    stats: RenderStats,
}

impl Renderer {
    /// A renderer on the caller's device and queue. Nothing is submitted here or later except by
    /// the host-readback methods; [`record`](Self::record) takes the caller's encoder.
    ///
    /// ```no_run
    /// # async fn run(device: wgpu::Device, queue: wgpu::Queue) -> gpu_noise::Result<()> {
    /// use gpu_noise::gpu::{RendererOptions, Target};
    /// use gpu_noise::{Kind, NoiseSpec, Renderer};
    /// let mut renderer = Renderer::new(&device, &queue, RendererOptions::default())?;
    /// let job = NoiseSpec::new(Kind::Perlin, 2).validate()?; // 256x256
    /// let heights = device.create_buffer(&wgpu::BufferDescriptor {
    ///     label: Some("heights"),
    ///     size: 256 * 256 * 4,
    ///     usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    ///     mapped_at_creation: false,
    /// });
    /// let mut encoder = device.create_command_encoder(&Default::default());
    /// renderer.record(&mut encoder, &job, Target::Buffer { buffer: &heights, offset: 0 })?;
    /// queue.submit([encoder.finish()]); // the caller submits
    /// # Ok(()) }
    /// ```
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        options: RendererOptions,
    ) -> Result<Self> {
        Self::build(device.clone(), queue.clone(), None, None, options)
    }

    /// Opens the best adapter allowed by `choice` (see [`AdapterChoice::from_env`]) and a device
    /// of the crate's own on it, with the adapter's full limits.
    pub async fn open(choice: &AdapterChoice, options: RendererOptions) -> Result<Self> {
        let instance = new_instance(choice);
        let (adapter, summary) =
            best_adapter(&instance, choice)
                .await
                .ok_or_else(|| Error::NoAdapter {
                    detail: format!(" that can run compute shaders ({})", choice.describe()),
                })?;
        open_on_adapter(adapter, summary, options).await
    }

    fn build(
        device: wgpu::Device,
        queue: wgpu::Queue,
        adapter: Option<AdapterSummary>,
        health: Option<Health>,
        options: RendererOptions,
    ) -> Result<Self> {
        super::limits::check_renderer(&device.limits(), WORKGROUP_SIZE)?;
        let tables = (options.tables)
            .unwrap_or_else(|| TableSpace::preferred(device.adapter_info().device_type));
        let programs = Programs::new(&device, tables)?;
        let (targets, stats) = Targets::new(&device, &programs);
        Ok(Self {
            belt: StagingBelt::new(device.clone(), BELT_CHUNK),
            device,
            queue,
            adapter,
            health,
            programs,
            targets,
            options,
            stats,
        })
    }

    /// The device.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// Compiles every kernel this device can run for `job`'s program that is not compiled yet
    /// (the buffer, R32Float, colormapped Rgba8, 16-bit heightmap and auto-range kernels), so
    /// that the first frame of a new kind or graph does not wait for the driver's compiler.
    /// Returns how many pipelines it compiled (0 when all were ready). The derivative and point
    /// kernels compile on first use.
    pub fn prepare(&mut self, job: &Job) -> Result<u32> {
        let warmed = ENTRIES
            .into_iter()
            .filter(|e| !matches!(e, Entry::Gradient | Entry::Normal | Entry::Sample));
        self.prepare_entries(job, &warmed.collect::<Vec<_>>())
    }

    /// Records `job`'s whole image into `target` ([`Target`]): a buffer, or a texture of the
    /// image's size. Every target is checked first (a wrong usage, format or size is
    /// [`Error::InvalidTarget`], never a wgpu validation error); nothing is submitted.
    pub fn record(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        job: &Job,
        target: Target,
    ) -> Result<()> {
        let program = self.bind(encoder, job)?;
        self.recorder(job, program).record(encoder, target)?;
        self.belt.finish_and_recall_on_submit(encoder);
        Ok(())
    }

    /// Renders `window` of `job`'s image and reads it back (blocking): f32, x fastest, then y,
    /// then z, four a texel with gradients.
    ///
    /// ```no_run
    /// use gpu_noise::gpu::{AdapterChoice, RendererOptions};
    /// use gpu_noise::{Kind, NoiseSpec, Renderer, Window};
    /// # fn main() -> gpu_noise::Result<()> {
    /// let choice = AdapterChoice::from_env()?;
    /// let mut renderer = pollster::block_on(Renderer::open(&choice, RendererOptions::default()))?;
    /// let job = NoiseSpec::new(Kind::Perlin, 2).validate()?;
    /// let image = renderer.read(&job, Window::full(job.size()))?;
    /// assert_eq!(image.len(), 256 * 256);
    /// # Ok(()) }
    /// ```
    pub fn read(&mut self, job: &Job, window: Window) -> Result<Vec<f32>> {
        window.check_in_memory()?;
        let mut out = Vec::new();
        self.for_each_band(job, window, u64::from(self.chunk_texels()), &mut |_, v| {
            // One band (the whole image, on a device whose binding holds it) is the result as
            // it is; more are copied into one allocation made once. A fresh 256 MiB Vec costs
            // 65,536 page faults, and copying each band again doubled an 8192^2 read's host time.
            if out.is_empty() {
                let total = window.texels() as usize * values_per_texel(job) as usize;
                if v.len() == total {
                    out = v;
                    return Ok(());
                }
                out.reserve_exact(total);
            }
            out.extend_from_slice(&v);
            Ok(())
        })?;
        Ok(out)
    }

    /// As [`read`](Self::read), into `out`, which must hold the window's values exactly
    /// (`window.texels()`, four a texel with gradients): each band is copied from its staging
    /// buffer straight to its place. A caller reading frame after frame into one buffer spares
    /// the fresh allocation `read` makes, whose page faults were most of an 8192^2 read's host
    /// time on an H100. A wrong length is an error naming `out`, before anything renders.
    pub fn read_into(&mut self, job: &Job, window: Window, out: &mut [f32]) -> Result<()> {
        window.check_inside(job.size())?;
        let per_texel = values_per_texel(job);
        let total = window.texels() * per_texel;
        if out.len() as u64 != total {
            return Err(Error::InvalidTarget {
                target: "out",
                reason: format!(
                    "holds {} values; the window needs {total} ({} texels x {per_texel})",
                    out.len(),
                    window.texels()
                ),
            });
        }
        let mut start = 0usize;
        self.each_band(
            job,
            window,
            u64::from(self.chunk_texels()),
            &mut |band, pending| {
                let end = start + (band.texels() * per_texel) as usize;
                pending.wait_into(&mut out[start..end])?;
                start = end;
                Ok(())
            },
        )
    }

    /// As [`read`](Self::read), without blocking the thread: each band is awaited (the
    /// future polls the device; on the web, the browser maps it).
    pub async fn read_async(&mut self, job: &Job, window: Window) -> Result<Vec<f32>> {
        window.check_inside(job.size())?;
        window.check_in_memory()?;
        let mut out = Vec::new();
        for band in window.bands(self.band_texels(job)) {
            let mut encoder = self.device.create_command_encoder(&Default::default());
            let pending = self.record_read(&mut encoder, job, band)?;
            self.submit(encoder)?;
            out.extend_from_slice(&pending.await?);
        }
        self.check_health()?;
        Ok(out)
    }

    /// Renders `window` in bands of at most `band_texels` texels, in memory order, and hands
    /// each band's values to `consume` while the next band renders (blocking).
    pub fn for_each_band(
        &mut self,
        job: &Job,
        window: Window,
        band_texels: u64,
        consume: &mut dyn FnMut(Window, Vec<f32>) -> Result<()>,
    ) -> Result<()> {
        self.each_band(job, window, band_texels, &mut |band, pending| {
            consume(band, pending.wait()?)
        })
    }

    /// Renders `window` in bands of at most `band_texels` texels, in memory order, and hands
    /// each band's pending readback to `consume` while the next band renders.
    fn each_band(
        &mut self,
        job: &Job,
        window: Window,
        band_texels: u64,
        consume: &mut dyn FnMut(Window, PendingReadback) -> Result<()>,
    ) -> Result<()> {
        window.check_inside(job.size())?;
        let limit = band_texels.clamp(1, self.band_texels(job));
        let mut in_flight: VecDeque<(Window, PendingReadback)> = VecDeque::new();
        for band in window.bands(limit) {
            let mut encoder = self.device.create_command_encoder(&Default::default());
            let pending = self.record_read(&mut encoder, job, band)?;
            self.submit(encoder)?;
            in_flight.push_back((band, pending));
            if in_flight.len() == IN_FLIGHT
                && let Some((done, pending)) = in_flight.pop_front()
            {
                consume(done, pending)?;
                self.check_health()?;
            }
        }
        while let Some((done, pending)) = in_flight.pop_front() {
            consume(done, pending)?;
        }
        self.check_health()
    }

    /// Binds `job` (its program's group 1), after refusing jobs whose error bound would say
    /// nothing (CONVENTIONS §7).
    fn bind(&mut self, encoder: &mut wgpu::CommandEncoder, job: &Job) -> Result<Program> {
        job.check_gpu_precision()?;
        (self.programs).bind(&self.device, &mut self.belt, encoder, job, &mut self.stats)
    }

    fn recorder<'a>(&'a mut self, job: &'a Job, program: Program) -> Recorder<'a> {
        let band_texels = self.chunk_texels();
        Recorder {
            device: &self.device,
            programs: &mut self.programs,
            targets: &mut self.targets,
            belt: &mut self.belt,
            stats: &mut self.stats,
            job,
            program,
            band_texels,
        }
    }

    /// Texels per readback band of `job` (a quarter with gradients: four f32 a texel).
    fn band_texels(&self, job: &Job) -> u64 {
        u64::from(self.chunk_texels()) / values_per_texel(job)
    }

    /// Submits an encoder of the renderer's own and reports any error its device raised.
    fn submit(&mut self, encoder: wgpu::CommandEncoder) -> Result<()> {
        self.belt.finish_and_recall_on_submit(&encoder);
        self.queue.submit([encoder.finish()]);
        self.check_health()
    }

    /// A lost device or an uncaptured error of the crate's own device, as an error.
    fn check_health(&self) -> Result<()> {
        self.health.as_ref().map_or(Ok(()), Health::check)
    }
}

/// f32 values a texel of `job` reads back: one, or four with gradients (`[value, d/dx, d/dy,
/// d/dz]`).
fn values_per_texel(job: &Job) -> u64 {
    if job.has_gradient() { 4 } else { 1 }
}
