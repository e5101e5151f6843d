//! [`Renderer`]: a device, its pipeline cache and buffers, built once and reused for
//! every render (real-time use). Images larger than one storage binding or one dispatch are
//! rendered in chunks of texels, transparently.

use std::sync::{Arc, Mutex};

use super::adapter::{AdapterChoice, AdapterSummary, best_adapter, new_instance};
use super::buffers::{Buffers, Growable};
use super::pipelines::{PipelineCache, PipelineKey};
use super::readback::{read_f32s, wait};
use super::shader::{WORKGROUP_SIZE, shader_source};
use crate::error::{Error, Result};
use crate::params::Params;
use crate::spec::Prepared;

/// Knobs for tests and tuning; the defaults follow the device's limits.
#[derive(Clone, Copy, Debug, Default)]
pub struct RendererOptions {
    /// Render at most this many texels per dispatch (the device's limits cap it anyway).
    pub max_chunk_texels: Option<u32>,
}

/// Owns the device, pipelines and buffers; create once, render many times. Pipelines are
/// specialized per kind, dims, interpolation and fractal and compiled on first use.
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    adapter: AdapterSummary,
    layout: wgpu::BindGroupLayout,
    pipelines: PipelineCache,
    buffers: Buffers,
    /// Largest buffer one binding may hold; output chunks (4 B a texel) and point chunks
    /// (16 B a point) are sized to fit it.
    max_binding_bytes: u64,
    chunk_texels: u32,
    lost: Arc<Mutex<Option<String>>>,
}

impl Renderer {
    /// Opens the best adapter allowed by `choice` (see [`AdapterChoice::from_env`]).
    pub fn new(choice: &AdapterChoice) -> Result<Self> {
        Self::with_options(choice, RendererOptions::default())
    }

    pub fn with_options(choice: &AdapterChoice, options: RendererOptions) -> Result<Self> {
        let instance = new_instance(choice);
        let (adapter, summary) =
            best_adapter(&instance, choice).ok_or_else(|| Error::NoAdapter {
                detail: format!(" that can run compute shaders ({})", choice.describe()),
            })?;
        Self::from_adapter(adapter, summary, options)
    }

    /// Opens a device on an adapter already chosen (see [`super::list_adapters`]).
    pub fn from_adapter(
        adapter: wgpu::Adapter,
        summary: AdapterSummary,
        options: RendererOptions,
    ) -> Result<Self> {
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("gpu-noise"),
            required_limits: summary.limits.clone(),
            ..Default::default()
        }))
        .map_err(|e| Error::DeviceRequest {
            adapter: summary.info.name.clone(),
            reason: e.to_string(),
        })?;
        let lost = Arc::new(Mutex::new(None));
        let lost_writer = Arc::clone(&lost);
        device.set_device_lost_callback(move |reason, message| {
            if let Ok(mut slot) = lost_writer.lock() {
                *slot = Some(format!("{reason:?}: {message}"));
            }
        });
        Self::build(device, queue, summary, options, lost)
    }

    fn build(
        device: wgpu::Device,
        queue: wgpu::Queue,
        adapter: AdapterSummary,
        options: RendererOptions,
        lost: Arc<Mutex<Option<String>>>,
    ) -> Result<Self> {
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("gpu-noise shaders"),
            source: wgpu::ShaderSource::Wgsl(shader_source().into()),
        });
        let layout = Buffers::layout(&device);
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("gpu-noise"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        if let Some(err) = pollster::block_on(scope.pop()) {
            return Err(Error::Gpu(format!("compiling the shader module: {err}")));
        }
        let pipelines = PipelineCache::new(module, pipeline_layout);

        let limits = &adapter.limits;
        let max_binding_bytes = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let chunk_texels = options
            .max_chunk_texels
            .unwrap_or(u32::MAX)
            .max(WORKGROUP_SIZE);
        let buffers = Buffers::new(&device);
        Ok(Self {
            device,
            queue,
            adapter,
            layout,
            pipelines,
            buffers,
            max_binding_bytes,
            chunk_texels,
            lost,
        })
    }

    /// The adapter this renderer runs on.
    pub fn adapter(&self) -> &AdapterSummary {
        &self.adapter
    }

    /// Pipelines compiled so far (one per kind, dims, interpolation, fractal and entry point).
    pub fn pipelines_compiled(&self) -> usize {
        self.pipelines.len()
    }

    /// The device, for callers that add their own work.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// Texels per dispatch: what one storage binding holds, or the option, whichever is less.
    pub fn chunk_texels(&self) -> u32 {
        self.chunk_len(4)
    }

    fn chunk_len(&self, bytes_per_item: u64) -> u32 {
        let fits = (self.max_binding_bytes / bytes_per_item).min(u64::from(u32::MAX)) as u32;
        fits.min(self.chunk_texels)
    }

    /// Renders the whole image and reads it back: f32, x fastest, then y, then z.
    pub fn render(&mut self, prep: &Prepared) -> Result<Vec<f32>> {
        self.render_with_progress(prep, &mut |_, _| {})
    }

    /// As [`render`](Self::render), calling `progress(texels_done, texels_total)` after each chunk.
    pub fn render_with_progress(
        &mut self,
        prep: &Prepared,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<Vec<f32>> {
        let total = prep.spec.size.texels();
        let mut out = Vec::with_capacity(total as usize);
        self.run_chunks(prep, total, |this, count, submission| {
            this.read_chunk(count, submission, &mut out)?;
            progress(out.len() as u64, total);
            Ok(())
        })?;
        Ok(out)
    }

    /// Renders every chunk and waits for the GPU, without reading back (kernel-only timing).
    pub fn render_on_device(&mut self, prep: &Prepared) -> Result<()> {
        let total = prep.spec.size.texels();
        self.run_chunks(prep, total, |this, _, submission| {
            wait(&this.device, Some(submission))
        })
    }

    /// The spec's noise at `points` already in noise space (no frequency applied).
    pub fn sample(&mut self, prep: &Prepared, points: &[[f64; 4]]) -> Result<Vec<f32>> {
        let as_f32: Vec<[f32; 4]> = points.iter().map(|p| p.map(|v| v as f32)).collect();
        let mut out = Vec::with_capacity(points.len());
        self.run_chunks_with(
            prep,
            points.len() as u64,
            true,
            &mut |this, base, count| {
                let chunk = &as_f32[base as usize..(base + u64::from(count)) as usize];
                // run_chunks_with sized the points buffer for a whole chunk already.
                this.queue
                    .write_buffer(&this.buffers.points, 0, bytemuck::cast_slice(chunk));
                Ok(())
            },
            &mut |this, count, submission| this.read_chunk(count, submission, &mut out),
        )?;
        Ok(out)
    }

    /// Texel chunks of an image (no points to upload).
    fn run_chunks(
        &mut self,
        prep: &Prepared,
        total: u64,
        mut after: impl FnMut(&mut Self, u32, wgpu::SubmissionIndex) -> Result<()>,
    ) -> Result<()> {
        self.run_chunks_with(prep, total, false, &mut |_, _, _| Ok(()), &mut after)
    }

    /// Uploads the tables, then for each chunk: `before(base, count)`, dispatch, copy to
    /// staging, submit, `after(count, submission)`.
    fn run_chunks_with(
        &mut self,
        prep: &Prepared,
        total: u64,
        points: bool,
        before: &mut dyn FnMut(&mut Self, u64, u32) -> Result<()>,
        after: &mut dyn FnMut(&mut Self, u32, wgpu::SubmissionIndex) -> Result<()>,
    ) -> Result<()> {
        self.check_lost()?;
        self.buffers.upload_tables(&self.queue, prep);
        let mut params = Params::from_prepared(prep);
        let per_item = if points { 16 } else { 4 };
        let chunk = u64::from(self.chunk_len(per_item)).min(total.max(1));
        self.buffers
            .ensure(&self.device, Growable::Output, chunk * 4);
        self.buffers
            .ensure(&self.device, Growable::Staging, chunk * 4);
        if points {
            self.buffers
                .ensure(&self.device, Growable::Points, chunk * 16);
        }
        // Made after every buffer has its final size: a bind group keeps the buffers it saw.
        let bind_group = self.buffers.bind_group(&self.device, &self.layout);
        let key = PipelineKey::new(&prep.spec, points);
        self.pipelines.get(&self.device, key)?;
        let max_groups = u64::from(self.adapter.limits.max_compute_workgroups_per_dimension);
        let mut base = 0u64;
        while base < total {
            let count = (total - base).min(chunk) as u32;
            before(self, base, count)?;
            let groups = u64::from(count).div_ceil(u64::from(WORKGROUP_SIZE));
            let groups_x = groups.min(max_groups) as u32;
            let groups_y = groups.div_ceil(u64::from(groups_x)) as u32;
            params.texel_base = base as u32;
            params.texel_count = count;
            params.row_pitch = groups_x * WORKGROUP_SIZE;
            self.buffers.write_params(&self.queue, &params);

            let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
            let mut encoder = self.device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(self.pipelines.get(&self.device, key)?);
                pass.set_bind_group(0, &bind_group, &[]);
                pass.dispatch_workgroups(groups_x, groups_y, 1);
            }
            encoder.copy_buffer_to_buffer(
                &self.buffers.output,
                0,
                &self.buffers.staging,
                0,
                u64::from(count) * 4,
            );
            let submission = self.queue.submit([encoder.finish()]);
            if let Some(err) = pollster::block_on(scope.pop()) {
                return Err(Error::Gpu(err.to_string()));
            }
            after(self, count, submission)?;
            self.check_lost()?;
            base += u64::from(count);
        }
        Ok(())
    }

    /// Appends the first `count` results of the staging buffer once `submission` is done.
    fn read_chunk(
        &self,
        count: u32,
        submission: wgpu::SubmissionIndex,
        out: &mut Vec<f32>,
    ) -> Result<()> {
        read_f32s(
            &self.device,
            &self.buffers.staging,
            u64::from(count) * 4,
            submission,
            out,
        )
    }

    fn check_lost(&self) -> Result<()> {
        match self.lost.lock().map(|slot| slot.clone()) {
            Ok(Some(reason)) => Err(Error::DeviceLost(reason)),
            Ok(None) => Ok(()),
            Err(_) => Err(Error::DeviceLost("device-lost state poisoned".into())),
        }
    }
}
