//! The recording sequence, once for every job and target: a job bound to its program
//! ([`Program`]: group 1), the target checked and bound (group 2), the parameters written
//! (group 0) and the kernel dispatched over the image in tiles the device allows. Nothing is
//! submitted here.

use std::collections::HashMap;

use wgpu::util::StagingBelt;

use super::params::RenderParams;
use super::pipelines::Entry;
use super::program::{Program, Programs};
use super::readback::{PendingReadback, StagingPool};
use super::scratch::{Growable, Scratch};
use super::stats::RenderStats;
use super::targets::{Range, Target, TextureKind, TextureOutput, check_buffer, check_texture};
use crate::error::{Error, Result};
use crate::job::Job;
use crate::wgsl::sources::WORKGROUP_SIZE;
use crate::window::Window;

/// Bytes per row of a texture copy must be a multiple of this (wgpu's
/// `COPY_BYTES_PER_ROW_ALIGNMENT`).
const ROW_ALIGNMENT: u32 = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;

/// What a group-2 bind group binds; bind groups are cached by it and reused across frames.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TargetKey {
    /// A buffer range at binding 0 (`render_buffer`, `render_gradient`) or 7 (`pack_r16`).
    Buffer(Entry, wgpu::Buffer, u64, u64),
    /// A storage texture (`render_r32_*`, `render_rgba8`, `render_normal`).
    Texture(Entry, wgpu::Texture),
    /// Output values and points (`sample_points`).
    Sample(wgpu::Buffer, wgpu::Buffer),
    /// The min/max buffers (`range_partial`, `range_final`).
    Range(Entry),
}

/// Bind groups kept at most; the cache is cleared past it (callers that make new textures
/// every frame must not grow it without bound).
const TARGET_CACHE: usize = 64;

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

    fn record_texture(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
        output: &TextureOutput,
    ) -> Result<()> {
        let kind = check_texture(texture, self.job.size(), self.device.features())?;
        output.range.check()?;
        match (kind, self.job.has_gradient()) {
            (TextureKind::Rgba8, true) => self.record_normal(encoder, texture, output),
            (_, true) => Err(Error::target(
                "texture",
                "a job with gradients fills buffers (four f32 a texel) or Rgba8Unorm normal maps",
            )),
            (TextureKind::R32(entry), false) => self.record_r32(encoder, texture, entry),
            (TextureKind::Rgba8, false) => self.record_rgba8(encoder, texture, output),
            (TextureKind::R16, false) => {
                self.record_by_copy(encoder, texture, Entry::PackR16, 2, output.range)
            }
        }
    }

    fn record_r32(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
        entry: Entry,
    ) -> Result<()> {
        if self.fills_3d_by_copy(entry) {
            if !texture.usage().contains(wgpu::TextureUsages::COPY_DST) {
                return Err(Error::target(
                    "texture",
                    "on the GL backend a 3D R32Float target is filled by a copy (wgpu binds 3D \
                     storage images one slice at a time there): add TextureUsages::COPY_DST",
                ));
            }
            return self.record_by_copy(encoder, texture, Entry::Buffer, 4, Range::Nominal);
        }
        let (dimension, binding) = match entry {
            Entry::R32Texture2dArray => (wgpu::TextureViewDimension::D2Array, 2),
            Entry::R32Texture3d => (wgpu::TextureViewDimension::D3, 3),
            _ => (wgpu::TextureViewDimension::D2, 1),
        };
        let target = self.target_group(TargetKey::Texture(entry, texture.clone()), |d, l| {
            let view = texture.create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(dimension),
                ..Default::default()
            });
            bind_group(d, l, &[texture_entry(binding, &view)])
        })?;
        let window = Window::full(self.job.size());
        self.dispatch_tiles(encoder, entry, RenderParams::new(window), &target)
    }

    fn record_rgba8(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
        output: &TextureOutput,
    ) -> Result<()> {
        // With Range::Auto the table spans the stops' own range (named maps ignore the range).
        let nominal = self.job.nominal_range();
        let table_range = (output.range.fixed(nominal))
            .or(output.colormap.stops_range())
            .unwrap_or((0.0, 1.0));
        self.write_colormap(encoder, output.colormap.packed_table(table_range));
        let auto = self.record_auto_range_if(encoder, output.range)?;
        let scratch = &self.targets.scratch;
        let (colormap, range) = (scratch.colormap.clone(), scratch.range.clone());
        let key = TargetKey::Texture(Entry::Rgba8Texture, texture.clone());
        let target = self.target_group(key, |d, l| {
            let view = texture.create_view(&Default::default());
            let entries = [
                texture_entry(4, &view),
                buffer_entry(5, &colormap, 0, colormap.size()),
                buffer_entry(6, &range, 0, 8),
            ];
            bind_group(d, l, &entries)
        })?;
        let mut params = RenderParams::new(Window::full(self.job.size()));
        params.auto_range = u32::from(auto);
        params.range = range_of(output.range, nominal);
        // z = 1: the colormap buffer holds stops, interpolated at each value.
        params.range[2] = if output.colormap.is_exact() { 1.0 } else { 0.0 };
        self.dispatch_tiles(encoder, Entry::Rgba8Texture, params, &target)
    }

    /// A tangent-space normal map of a job with gradients (CONVENTIONS §12).
    fn record_normal(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
        output: &TextureOutput,
    ) -> Result<()> {
        let strength = output.normal_strength;
        if !(strength.is_finite() && strength > 0.0) {
            return Err(Error::output(
                "normal_strength",
                format!("must be a finite number > 0, got {strength}"),
            ));
        }
        let key = TargetKey::Texture(Entry::Normal, texture.clone());
        let target = self.target_group(key, |d, l| {
            let view = texture.create_view(&Default::default());
            bind_group(d, l, &[texture_entry(4, &view)])
        })?;
        let mut params = RenderParams::new(Window::full(self.job.size()));
        params.normal_strength = strength;
        self.dispatch_tiles(encoder, Entry::Normal, params, &target)
    }

    /// wgpu's GL backend binds a 3D storage image unlayered (slice 0 only), so there 3D
    /// targets are rendered into a buffer and copied instead.
    fn fills_3d_by_copy(&self, entry: Entry) -> bool {
        entry == Entry::R32Texture3d && self.device.adapter_info().backend == wgpu::Backend::Gl
    }

    /// Renders into a scratch buffer of padded rows, band by band (each band fits one
    /// binding), each band copied into its rows of the texture: 16-bit levels (`pack_r16`, two
    /// texels per word) or raw f32 (`render_buffer`).
    fn record_by_copy(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
        entry: Entry,
        texel_bytes: u32,
        range: Range,
    ) -> Result<()> {
        let size = self.job.size();
        let auto = self.record_auto_range_if(encoder, range)?;
        let row_bytes = (size.width * texel_bytes).next_multiple_of(ROW_ALIGNMENT);
        let words_per_row = row_bytes / 4;
        let band_rows = (u64::from(self.band_texels) / u64::from(words_per_row)).max(1);
        let bands = Window::full(size).bands(band_rows * u64::from(size.width));
        let largest = bands.iter().map(|b| b.size.rows()).max().unwrap_or(1);
        let (growable, binding) = match entry {
            Entry::PackR16 => (Growable::Words, 7),
            _ => (Growable::Values, 0),
        };
        let scratch = self.scratch(growable, largest * u64::from(row_bytes));
        let range_buffer = self.targets.scratch.range.clone();
        let key = TargetKey::Buffer(entry, scratch.clone(), 0, scratch.size());
        let target = self.target_group(key, |d, l| {
            let mut entries = vec![buffer_entry(binding, &scratch, 0, scratch.size())];
            if entry == Entry::PackR16 {
                entries.push(buffer_entry(6, &range_buffer, 0, 8));
            }
            bind_group(d, l, &entries)
        })?;
        let nominal = self.job.nominal_range();
        for band in bands {
            let mut params = RenderParams::new(band);
            params.auto_range = u32::from(auto);
            params.range = range_of(range, nominal);
            params.words_per_row = words_per_row;
            if entry.is_texel_kernel() {
                self.dispatch_tiles(encoder, entry, params, &target)?;
            } else {
                let items = band.size.rows() * u64::from(words_per_row);
                let (groups, pitch) = self.grid(items);
                params.item_count = items as u32;
                params.row_pitch = pitch;
                self.dispatch(encoder, entry, params, groups, &target)?;
            }
            copy_band_to_texture(encoder, &scratch, row_bytes, band, texture);
        }
        Ok(())
    }

    /// Records the two min/max passes when `range` is `Auto`; returns whether it did.
    fn record_auto_range_if(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        range: Range,
    ) -> Result<bool> {
        if range != Range::Auto {
            return Ok(false);
        }
        let scratch = &self.targets.scratch;
        let (partials, found) = (scratch.partial_ranges.clone(), scratch.range.clone());
        let partial_group = self.target_group(TargetKey::Range(Entry::RangePartial), |d, l| {
            bind_group(d, l, &[buffer_entry(9, &partials, 0, partials.size())])
        })?;
        let final_group = self.target_group(TargetKey::Range(Entry::RangeFinal), |d, l| {
            let entries = [
                buffer_entry(9, &partials, 0, partials.size()),
                buffer_entry(10, &found, 0, 8),
            ];
            bind_group(d, l, &entries)
        })?;
        let mut params = RenderParams::new(Window::full(self.job.size()));
        params.item_count = self.job.size().texels() as u32;
        let groups = [crate::wgsl::sources::REDUCE_GROUPS, 1, 1];
        self.dispatch(encoder, Entry::RangePartial, params, groups, &partial_group)?;
        self.dispatch(encoder, Entry::RangeFinal, params, [1, 1, 1], &final_group)?;
        Ok(true)
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

    fn write_colormap(&mut self, encoder: &mut wgpu::CommandEncoder, table: [u32; 256]) {
        let scratch = &mut self.targets.scratch;
        if scratch.colormap_written == Some(table) {
            return;
        }
        if let Some(size) = wgpu::BufferSize::new(1024) {
            self.belt
                .write_buffer(encoder, &scratch.colormap, 0, size)
                .copy_from_slice(bytemuck::cast_slice(&table));
        }
        scratch.colormap_written = Some(table);
        self.stats.colormap_uploads += 1;
    }

    /// The cached group-2 bind group for `key`, made by `make` the first time.
    pub(crate) fn target_group(
        &mut self,
        key: TargetKey,
        make: impl FnOnce(&wgpu::Device, &wgpu::BindGroupLayout) -> wgpu::BindGroup,
    ) -> Result<wgpu::BindGroup> {
        if let Some(group) = self.targets.groups.get(&key) {
            return Ok(group.clone());
        }
        if self.targets.groups.len() >= TARGET_CACHE {
            self.targets.groups.clear();
        }
        let entry = match &key {
            TargetKey::Buffer(e, ..) | TargetKey::Texture(e, _) | TargetKey::Range(e) => *e,
            TargetKey::Sample(..) => Entry::Sample,
        };
        let group = make(self.device, self.programs.target_layout(entry)?);
        self.stats.bind_groups_created += 1;
        self.targets.groups.insert(key, group.clone());
        Ok(group)
    }

    /// Records one dispatch of `entry`: the parameters (written only if they changed), the
    /// three bind groups, and `groups` workgroups.
    pub(crate) fn dispatch(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        entry: Entry,
        params: RenderParams,
        groups: [u32; 3],
        target: &wgpu::BindGroup,
    ) -> Result<()> {
        let pipeline =
            (self.programs).pipeline(self.device, entry, &self.program.key, self.stats)?;
        if self.targets.params_written != Some(params) {
            let size = wgpu::BufferSize::new(std::mem::size_of::<RenderParams>() as u64)
                .ok_or_else(|| Error::Unsupported("empty parameter block".into()))?;
            self.belt
                .write_buffer(encoder, &self.targets.params, 0, size)
                .copy_from_slice(bytemuck::bytes_of(&params));
            self.targets.params_written = Some(params);
            self.stats.uniform_writes += 1;
        }
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(entry.name()),
            timestamp_writes: None,
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &self.targets.params_group, &[]);
        pass.set_bind_group(1, &self.program.group, &[]);
        pass.set_bind_group(2, target, &[]);
        pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
        self.stats.dispatches += 1;
        Ok(())
    }

    /// Workgroups for `items` invocations of a kernel that runs 64 in a row, folded into 2D
    /// past the per-dimension limit, and the invocations per dispatch row.
    pub(crate) fn grid(&self, items: u64) -> ([u32; 3], u32) {
        let max = u64::from(self.device.limits().max_compute_workgroups_per_dimension);
        let groups = items.div_ceil(u64::from(WORKGROUP_SIZE)).max(1);
        let x = groups.min(max);
        let y = groups.div_ceil(x);
        ([x as u32, y as u32, 1], x as u32 * WORKGROUP_SIZE)
    }

    /// Dispatches a texel kernel over the window of `params` in workgroups of `entry.tile`
    /// texels: one dispatch, or several (each with its `base`) where the window reaches
    /// past the device's workgroups per dimension.
    pub(crate) fn dispatch_tiles(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        entry: Entry,
        params: RenderParams,
        target: &wgpu::BindGroup,
    ) -> Result<()> {
        let max = (self.device.limits().max_compute_workgroups_per_dimension).max(1);
        let tile = entry.tile(self.program.key.rows());
        let reach: [u32; 3] = std::array::from_fn(|a| max.saturating_mul(tile[a]));
        let [w, h, d, _] = params.extent;
        for z in (0..d).step_by(reach[2] as usize) {
            for y in (0..h).step_by(reach[1] as usize) {
                for x in (0..w).step_by(reach[0] as usize) {
                    let base = [x, y, z];
                    let groups = std::array::from_fn(|a| {
                        (params.extent[a] - base[a]).min(reach[a]).div_ceil(tile[a])
                    });
                    let part = RenderParams {
                        base: [x, y, z, 0],
                        ..params
                    };
                    self.dispatch(encoder, entry, part, groups, target)?;
                }
            }
        }
        Ok(())
    }
}

/// The fixed range as the kernel's `range` field (unused for `Auto`).
fn range_of(range: Range, nominal: (f64, f64)) -> [f32; 4] {
    let (lo, hi) = range.fixed(nominal).unwrap_or((0.0, 1.0));
    [lo as f32, hi as f32, 0.0, 0.0]
}

/// Copies a band's packed rows into the same rows of the texture (a band is whole slices or
/// rows of one slice, so one copy region).
fn copy_band_to_texture(
    encoder: &mut wgpu::CommandEncoder,
    words: &wgpu::Buffer,
    row_bytes: u32,
    band: Window,
    texture: &wgpu::Texture,
) {
    let [x, y, z] = band.origin;
    encoder.copy_buffer_to_texture(
        wgpu::TexelCopyBufferInfo {
            buffer: words,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(row_bytes),
                rows_per_image: Some(band.size.height),
            },
        },
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d { x, y, z },
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::Extent3d {
            width: band.size.width,
            height: band.size.height,
            depth_or_array_layers: band.size.depth,
        },
    );
}
