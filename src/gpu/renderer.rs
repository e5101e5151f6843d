//! [`Renderer`]: a device, its two compute pipelines and buffers, built once and reused for
//! every render (real-time use). Images larger than one storage binding or one dispatch are
//! rendered in chunks of texels, transparently.

use std::sync::{Arc, Mutex};

use wgpu::util::DeviceExt;

use super::adapter::{AdapterChoice, AdapterSummary, best_adapter, new_instance};
use super::pipelines::{PipelineCache, PipelineKey};
use super::readback::{read_f32s, wait};
use super::shader::{WORKGROUP_SIZE, shader_source};
use crate::error::{Error, Result};
use crate::params::Params;
use crate::spec::{MAX_OCTAVES, Prepared};
use crate::tables::{PERM_LEN, TABLE_SIZE};

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
    params: wgpu::Buffer,
    perm: wgpu::Buffer,
    gradients: wgpu::Buffer,
    values: wgpu::Buffer,
    points: wgpu::Buffer,
    output: wgpu::Buffer,
    staging: wgpu::Buffer,
    /// Largest buffer one binding may hold; output chunks (4 B a texel) and point chunks
    /// (16 B a point) are sized to fit it.
    max_binding_bytes: u64,
    chunk_texels: u32,
    lost: Arc<Mutex<Option<String>>>,
}

fn storage(
    device: &wgpu::Device,
    label: &str,
    bytes: u64,
    extra: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes.max(16),
        usage: wgpu::BufferUsages::STORAGE | extra,
        mapped_at_creation: false,
    })
}

fn layout_entry(binding: u32, ty: wgpu::BufferBindingType, min: u64) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(min),
        },
        count: None,
    }
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
        use wgpu::BufferBindingType::{Storage, Uniform};
        let params_size = std::mem::size_of::<Params>() as u64;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("gpu-noise bindings"),
            entries: &[
                layout_entry(0, Uniform, params_size),
                layout_entry(1, Storage { read_only: true }, 4),
                layout_entry(2, Storage { read_only: true }, 16),
                layout_entry(3, Storage { read_only: true }, 4),
                layout_entry(4, Storage { read_only: true }, 16),
                layout_entry(5, Storage { read_only: false }, 4),
            ],
        });
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
        let copy = wgpu::BufferUsages::COPY_DST;
        let max_oct = u64::from(MAX_OCTAVES);
        let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("params"),
            contents: bytemuck::bytes_of(&Params::default()),
            usage: wgpu::BufferUsages::UNIFORM | copy,
        });
        let perm = storage(&device, "perm", max_oct * PERM_LEN as u64 * 4, copy);
        let gradients = storage(&device, "gradients", max_oct * TABLE_SIZE as u64 * 16, copy);
        let values = storage(&device, "values", max_oct * TABLE_SIZE as u64 * 4, copy);
        let points = storage(&device, "points", 16, copy);
        let output = storage(&device, "output", 16, wgpu::BufferUsages::COPY_SRC);
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("staging"),
            size: 16,
            usage: wgpu::BufferUsages::MAP_READ | copy,
            mapped_at_creation: false,
        });
        Ok(Self {
            device,
            queue,
            adapter,
            layout,
            pipelines,
            params,
            perm,
            gradients,
            values,
            points,
            output,
            staging,
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
        self.run_chunks(prep, total, false, |this, count, submission| {
            read_f32s(
                &this.device,
                &this.staging,
                u64::from(count) * 4,
                submission,
                &mut out,
            )?;
            progress(out.len() as u64, total);
            Ok(())
        })?;
        Ok(out)
    }

    /// Renders every chunk and waits for the GPU, without reading back (kernel-only timing).
    pub fn render_on_device(&mut self, prep: &Prepared) -> Result<()> {
        let total = prep.spec.size.texels();
        self.run_chunks(prep, total, false, |this, _, submission| {
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
                this.ensure_buffer(BufferKind::Points, chunk.len() as u64 * 16);
                this.queue
                    .write_buffer(&this.points, 0, bytemuck::cast_slice(chunk));
                Ok(())
            },
            &mut |this, count, submission| {
                read_f32s(
                    &this.device,
                    &this.staging,
                    u64::from(count) * 4,
                    submission,
                    &mut out,
                )
            },
        )?;
        Ok(out)
    }

    fn run_chunks(
        &mut self,
        prep: &Prepared,
        total: u64,
        points: bool,
        mut after: impl FnMut(&mut Self, u32, wgpu::SubmissionIndex) -> Result<()>,
    ) -> Result<()> {
        self.run_chunks_with(prep, total, points, &mut |_, _, _| Ok(()), &mut after)
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
        self.upload_tables(prep);
        let mut params = Params::from_prepared(prep);
        let per_item = if points { 16 } else { 4 };
        let chunk = u64::from(self.chunk_len(per_item)).min(total.max(1));
        self.ensure_buffer(BufferKind::Output, chunk * 4);
        self.ensure_buffer(BufferKind::Staging, chunk * 4);
        if points {
            self.ensure_buffer(BufferKind::Points, chunk * 16);
        }
        // Made after every buffer has its final size: a bind group keeps the buffers it saw.
        let bind_group = self.bind_group();
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
            self.queue
                .write_buffer(&self.params, 0, bytemuck::bytes_of(&params));

            let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
            let mut encoder = self.device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(self.pipelines.get(&self.device, key)?);
                pass.set_bind_group(0, &bind_group, &[]);
                pass.dispatch_workgroups(groups_x, groups_y, 1);
            }
            encoder.copy_buffer_to_buffer(&self.output, 0, &self.staging, 0, u64::from(count) * 4);
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

    fn upload_tables(&self, prep: &Prepared) {
        let perm: Vec<u32> = prep.tables.iter().flat_map(|t| t.perm).collect();
        let gradients: Vec<[f32; 4]> = prep.tables.iter().flat_map(|t| t.gradients).collect();
        let values: Vec<f32> = prep
            .tables
            .iter()
            .flat_map(|t| t.values.map(|v| v as f32))
            .collect();
        self.queue
            .write_buffer(&self.perm, 0, bytemuck::cast_slice(&perm));
        self.queue
            .write_buffer(&self.gradients, 0, bytemuck::cast_slice(&gradients));
        self.queue
            .write_buffer(&self.values, 0, bytemuck::cast_slice(&values));
    }

    fn ensure_buffer(&mut self, kind: BufferKind, bytes: u64) {
        let (slot, label, usage) = match kind {
            BufferKind::Output => (
                &mut self.output,
                "output",
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            ),
            BufferKind::Staging => (
                &mut self.staging,
                "staging",
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            ),
            BufferKind::Points => (
                &mut self.points,
                "points",
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            ),
        };
        if slot.size() < bytes {
            *slot = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes,
                usage,
                mapped_at_creation: false,
            });
        }
    }

    fn bind_group(&self) -> wgpu::BindGroup {
        let buffers = [
            &self.params,
            &self.perm,
            &self.gradients,
            &self.values,
            &self.points,
            &self.output,
        ];
        let entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gpu-noise"),
            layout: &self.layout,
            entries: &entries,
        })
    }

    fn check_lost(&self) -> Result<()> {
        match self.lost.lock().map(|slot| slot.clone()) {
            Ok(Some(reason)) => Err(Error::DeviceLost(reason)),
            Ok(None) => Ok(()),
            Err(_) => Err(Error::DeviceLost("device-lost state poisoned".into())),
        }
    }
}

#[derive(Clone, Copy)]
enum BufferKind {
    Output,
    Staging,
    Points,
}
