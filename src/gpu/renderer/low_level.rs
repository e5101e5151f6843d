//! The renderer's methods for the crate's own tool, benchmarks and tests, and for a caller who
//! builds their own pipeline around it: shown as `low_level::gpu`, not on the front, so that
//! [`Renderer`]'s own methods stay the ten a game or plugin calls.

#[cfg(not(target_arch = "wasm32"))]
use std::sync::{Mutex, MutexGuard};

use super::{Health, Renderer, RendererOptions};
use crate::error::{Error, Result};
#[cfg(not(target_arch = "wasm32"))]
use crate::gpu::AdapterChoice;
use crate::gpu::adapter::AdapterSummary;
use crate::gpu::pipelines::Entry;
use crate::gpu::readback::PendingReadback;
use crate::gpu::stats::RenderStats;
use crate::job::Job;
use crate::wgsl::sources::WORKGROUP_SIZE;
use crate::wgsl::tables::TableSpace;
use crate::window::Window;

/// Opens a device of the crate's own on an adapter already chosen (`Renderer::open` picks
/// one from an `AdapterChoice`): the adapter's full limits, its 16-bit norm textures where it
/// has them, and `options.features`.
pub async fn open_on_adapter(
    adapter: wgpu::Adapter,
    summary: AdapterSummary,
    options: RendererOptions,
) -> Result<Renderer> {
    let wanted = wgpu::Features::TEXTURE_FORMAT_16BIT_NORM;
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor {
            label: Some("gpu-noise"),
            required_features: summary.features & (wanted | options.features),
            required_limits: summary.limits.clone(),
            ..Default::default()
        })
        .await
        .map_err(|source| Error::DeviceRequest {
            adapter: summary.info.name.clone(),
            source,
        })?;
    let health = Health::watch(&device);
    Renderer::build(device, queue, Some(summary), Some(health), options)
}

/// The process's one renderer, on the adapter [`AdapterChoice::from_env`] allows, opened by
/// `open` on first use (the C API and the Python package block on it with their own
/// executor): opening a device takes longer than most renders, so later calls reuse it. A
/// failed open is returned and tried again at the next call.
///
/// [`AdapterChoice::from_env`]: crate::gpu::AdapterChoice::from_env
///
/// Native only: on the web a device is not `Send`, and a page keeps its own renderer.
#[cfg(not(target_arch = "wasm32"))]
pub fn shared_renderer(
    open: impl FnOnce(&AdapterChoice) -> Result<Renderer>,
) -> Result<MutexGuard<'static, Option<Renderer>>> {
    static RENDERER: Mutex<Option<Renderer>> = Mutex::new(None);
    // A panic elsewhere while the lock was held leaves the renderer as it was: still usable.
    let mut guard = RENDERER.lock().unwrap_or_else(|p| p.into_inner());
    if guard.is_none() {
        *guard = Some(open(&AdapterChoice::from_env()?)?);
    }
    Ok(guard)
}

/// Bytes of the register buffer [`LowLevelRenderer::record_unfused`] needs for `job`.
pub fn unfused_bytes(job: &Job) -> u64 {
    crate::gpu::unfused::registers_bytes(job)
}

/// [`Renderer`]'s methods for tools, benchmarks and tests (`use
/// gpu_noise::low_level::gpu::LowLevelRenderer`).
pub trait LowLevelRenderer {
    /// How this renderer binds a flat job's tables (`RendererOptions::tables`); a graph's
    /// take the same space where its slots fit it.
    fn table_space(&self) -> TableSpace;

    /// The adapter, when the renderer opened its own device.
    fn adapter(&self) -> Option<&AdapterSummary>;

    /// "name (backend)" of the adapter, or "caller's device".
    fn adapter_name(&self) -> String;

    /// What the renderer has written and created so far: a new frame of the same job with a
    /// new offset adds one uniform write and nothing else.
    fn stats(&self) -> RenderStats;

    /// Texels per band of host readback: what one storage binding holds, or
    /// `RendererOptions::max_chunk_texels`.
    fn chunk_texels(&self) -> u32;

    /// [`Renderer::prepare`] for these kernels only (those this device can run); how many it
    /// compiled. A tool that writes one kind of output compiles one kernel: a large graph
    /// takes seconds a kernel on a software adapter.
    fn prepare_entries(&mut self, job: &Job, entries: &[Entry]) -> Result<u32>;

    /// Records rendering `window` of `job`'s image (at most one band,
    /// [`chunk_texels`](Self::chunk_texels) f32) and a copy to the host; the values arrive once
    /// the caller has submitted `encoder` ([`PendingReadback`]): one f32 a texel, four
    /// (`[value, d/dx, d/dy, d/dz]`) for a job with gradients.
    fn record_read(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        job: &Job,
        window: Window,
    ) -> Result<PendingReadback>;

    /// A flat job's noise at `points` already in noise space (no frequency applied), blocking
    /// (`gpu-noise sample --backend gpu`).
    fn sample(&mut self, job: &Job, points: &[[f64; 4]]) -> Result<Vec<f32>>;

    /// Records a copy of the last `Range::Auto` min and max into a readback: `[lo, hi]`.
    fn read_auto_range(&mut self, encoder: &mut wgpu::CommandEncoder) -> PendingReadback;

    /// Records `job`'s image one expanded step per dispatch, each step's values kept in
    /// `registers` (STORAGE, [`unfused_bytes`] long): the unfused baseline that the fused
    /// kernel is measured against (`gpu-noise bench --graph`). Returns the byte offset of the
    /// output values in `registers`.
    fn record_unfused(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        job: &Job,
        registers: &wgpu::Buffer,
    ) -> Result<u64>;
}

impl LowLevelRenderer for Renderer {
    fn table_space(&self) -> TableSpace {
        self.programs.table_space()
    }

    fn adapter(&self) -> Option<&AdapterSummary> {
        self.adapter.as_ref()
    }

    fn adapter_name(&self) -> String {
        match &self.adapter {
            Some(a) => format!("{} ({:?})", a.info.name, a.info.backend),
            None => "caller's device".into(),
        }
    }

    fn stats(&self) -> RenderStats {
        self.stats + self.programs.library().stats()
    }

    fn chunk_texels(&self) -> u32 {
        let limits = self.device.limits();
        let max = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let fits = (max / 4).min(u64::from(u32::MAX)) as u32;
        fits.min(self.options.max_chunk_texels.unwrap_or(u32::MAX))
            .max(WORKGROUP_SIZE)
    }

    fn prepare_entries(&mut self, job: &Job, entries: &[Entry]) -> Result<u32> {
        let before = self.stats.pipelines_compiled;
        let limits = self.device.limits();
        let mut encoder = self.device.create_command_encoder(&Default::default());
        let program = self.bind(&mut encoder, job)?;
        for &entry in entries {
            if entry.fits(&limits).is_ok() {
                (self.programs).pipeline(&self.device, entry, &program.key, &mut self.stats)?;
            }
        }
        // The encoder holds the program's uploads: submit them, in order with later work.
        self.submit(encoder)?;
        Ok((self.stats.pipelines_compiled - before) as u32)
    }

    fn record_read(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        job: &Job,
        window: Window,
    ) -> Result<PendingReadback> {
        let program = self.bind(encoder, job)?;
        let pending = self.recorder(job, program).record_read(encoder, window)?;
        self.belt.finish_and_recall_on_submit(encoder);
        Ok(pending)
    }

    fn sample(&mut self, job: &Job, points: &[[f64; 4]]) -> Result<Vec<f32>> {
        let mut out = Vec::with_capacity(points.len());
        for part in points.chunks(points_per_band(self.chunk_texels(), job)) {
            let mut encoder = self.device.create_command_encoder(&Default::default());
            let program = self.bind(&mut encoder, job)?;
            let queue = self.queue.clone();
            let mut recorder = self.recorder(job, program);
            let pending = crate::gpu::sample::record(&mut recorder, &mut encoder, &queue, part)?;
            self.belt.finish_and_recall_on_submit(&encoder);
            self.submit(encoder)?;
            out.extend_from_slice(&pending.wait()?);
        }
        Ok(out)
    }

    fn read_auto_range(&mut self, encoder: &mut wgpu::CommandEncoder) -> PendingReadback {
        let range = self.targets.scratch.range.clone();
        let staging = (self.targets).staging_buffer(&self.device, 8, &mut self.stats);
        encoder.copy_buffer_to_buffer(&range, 0, &staging, 0, 8);
        PendingReadback::on_submit(
            &self.device,
            encoder,
            staging,
            8,
            self.targets.staging.clone(),
        )
    }

    fn record_unfused(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        job: &Job,
        registers: &wgpu::Buffer,
    ) -> Result<u64> {
        let program = self.bind(encoder, job)?;
        let at = crate::gpu::unfused::record(&mut self.recorder(job, program), encoder, registers)?;
        self.belt.finish_and_recall_on_submit(encoder);
        Ok(at)
    }
}

/// Points a submission of `sample` takes: what one binding of split points holds (16 bytes
/// per octave).
fn points_per_band(chunk_texels: u32, job: &Job) -> usize {
    let octaves = job.noise_evaluations().max(1) as u64;
    (u64::from(chunk_texels) / (8 * octaves)).max(1) as usize
}
