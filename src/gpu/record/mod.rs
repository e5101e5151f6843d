//! The recording sequence, once for every job and target: a job bound to its program
//! ([`Program`]: group 1), the target checked and bound (group 2), the parameters written
//! (group 0) and the kernel dispatched over the image in tiles the device allows. Nothing is
//! submitted here.

use std::collections::HashMap;

use wgpu::util::StagingBelt;

mod dispatch;
mod textures;

use super::params::RenderParams;
use super::pipelines::Entry;
use super::program::{Program, Programs};
use super::readback::{PendingReadback, StagingPool};
use super::scratch::{Growable, Scratch};
use super::stats::RenderStats;
use super::targets::{Target, check_buffer};
use crate::error::{Error, Result};
use crate::job::Job;
use crate::window::Window;
pub(crate) use dispatch::TargetKey;

/// Bytes per row of a texture copy must be a multiple of this (wgpu's
/// `COPY_BYTES_PER_ROW_ALIGNMENT`).
const ROW_ALIGNMENT: u32 = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;

/// The renderer's targets and parameters: its uniform, the cached target bind groups, its own
/// buffers and the staging pool.
pub(crate) struct Targets {
    params: wgpu::Buffer,
    params_group: wgpu::BindGroup,
    params_written: Option<RenderParams>,
    groups: HashMap<TargetKey, wgpu::BindGroup>,
    pub(crate) scratch: Scratch,
    pub(crate) staging: StagingPool,
}

impl Targets {
    /// The parameter uniform and its group, the scratch buffers and an empty pool.
    pub(crate) fn new(device: &wgpu::Device, programs: &Programs) -> (Self, RenderStats) {
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("gpu-noise params"),
            size: std::mem::size_of::<RenderParams>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let params_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gpu-noise params"),
            layout: programs.params_layout(),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: params.as_entire_binding(),
            }],
        });
        let scratch = Scratch::new(device);
        let stats = RenderStats {
            bind_groups_created: 1,
            buffers_created: 1 + scratch.buffers_created(),
            ..Default::default()
        };
        let targets = Self {
            params,
            params_group,
            params_written: None,
            groups: HashMap::new(),
            scratch,
            staging: Default::default(),
        };
        (targets, stats)
    }

    /// A MAP_READ staging buffer of at least `bytes` from the pool, or a new one.
    pub(crate) fn staging_buffer(
        &mut self,
        device: &wgpu::Device,
        bytes: u64,
        stats: &mut RenderStats,
    ) -> wgpu::Buffer {
        if let Ok(mut pool) = self.staging.lock()
            && let Some(i) = pool.iter().position(|b| b.size() >= bytes)
        {
            return pool.swap_remove(i);
        }
        stats.buffers_created += 1;
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("gpu-noise staging"),
            size: bytes.max(16).next_multiple_of(256),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }
}

/// One recording: the renderer's parts it uses, the job and its bound program.
pub(crate) struct Recorder<'a> {
    pub device: &'a wgpu::Device,
    pub programs: &'a mut Programs,
    pub targets: &'a mut Targets,
    pub belt: &'a mut StagingBelt,
    pub stats: &'a mut RenderStats,
    pub job: &'a Job,
    pub program: Program,
    /// Texels per band of host readback and of textures filled by copy.
    pub band_texels: u32,
}

pub(crate) fn buffer_entry(
    binding: u32,
    buffer: &wgpu::Buffer,
    offset: u64,
    size: u64,
) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer,
            offset,
            size: wgpu::BufferSize::new(size),
        }),
    }
}

fn bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    entries: &[wgpu::BindGroupEntry<'_>],
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("gpu-noise target"),
        layout,
        entries,
    })
}

fn texture_entry(binding: u32, view: &wgpu::TextureView) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: wgpu::BindingResource::TextureView(view),
    }
}

impl Recorder<'_> {
    /// Records the job's whole image into `target`.
    pub(crate) fn record(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: Target,
    ) -> Result<()> {
        match target {
            Target::Buffer { buffer, offset } => self.record_buffer(encoder, buffer, offset),
            Target::Texture { texture, output } => self.record_texture(encoder, texture, output),
        }
    }

    /// Values (one f32 a texel) or values with gradients (four) into a caller's buffer.
    fn record_buffer(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        buffer: &wgpu::Buffer,
        offset: u64,
    ) -> Result<()> {
        let window = Window::full(self.job.size());
        let (entry, per_texel) = self.buffer_entry();
        let floats = window.texels() * per_texel;
        check_buffer(buffer, offset, floats, &self.device.limits())?;
        let size = floats * 4;
        let target = self.target_group(
            TargetKey::Buffer(entry, buffer.clone(), offset, size),
            |d, l| bind_group(d, l, &[buffer_entry(0, buffer, offset, size)]),
        )?;
        self.dispatch_tiles(encoder, entry, RenderParams::new(window), &target)
    }

    /// The buffer kernel of the job's channels and its f32 per texel.
    fn buffer_entry(&self) -> (Entry, u64) {
        if self.job.has_gradient() {
            (Entry::Gradient, 4)
        } else {
            (Entry::Buffer, 1)
        }
    }

    /// Records rendering `window` (inside the image, at most one band) into the renderer's
    /// values buffer and a copy to the host: one f32 a texel, four with gradients.
    pub(crate) fn record_read(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        window: Window,
    ) -> Result<PendingReadback> {
        window.check_inside(self.job.size())?;
        let (entry, per_texel) = self.buffer_entry();
        if window.texels() * per_texel > u64::from(self.band_texels) {
            return Err(Error::invalid(
                "window",
                format!(
                    "{} texels is more than one readback band holds here ({}); Renderer::read \
                     splits larger windows",
                    window.texels(),
                    u64::from(self.band_texels) / per_texel
                ),
            ));
        }
        let bytes = window.texels() * per_texel * 4;
        let values = self.scratch(Growable::Values, bytes);
        let size = values.size();
        let key = TargetKey::Buffer(entry, values.clone(), 0, size);
        let target = self.target_group(key, |d, l| {
            bind_group(d, l, &[buffer_entry(0, &values, 0, size)])
        })?;
        self.dispatch_tiles(encoder, entry, RenderParams::new(window), &target)?;
        Ok(self.copy_out(encoder, &values, bytes))
    }

    /// Records a copy of `bytes` of `source` into a staging buffer to read on the host.
    pub(crate) fn copy_out(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        source: &wgpu::Buffer,
        bytes: u64,
    ) -> PendingReadback {
        let staging = self.staging_buffer(bytes);
        encoder.copy_buffer_to_buffer(source, 0, &staging, 0, bytes);
        let pool = self.targets.staging.clone();
        PendingReadback::on_submit(self.device, encoder, staging, bytes, pool)
    }

    /// A growable scratch buffer of at least `bytes`.
    pub(crate) fn scratch(&mut self, kind: Growable, bytes: u64) -> wgpu::Buffer {
        let (buffer, created) = self.targets.scratch.ensure(self.device, kind, bytes);
        self.stats.buffers_created += u64::from(created);
        buffer
    }

    fn staging_buffer(&mut self, bytes: u64) -> wgpu::Buffer {
        self.targets.staging_buffer(self.device, bytes, self.stats)
    }
}
