//! Recording into the caller's encoder: buffers, textures, heightmaps, the min/max of
//! `Range::Auto`, and readbacks. Every target is checked first; nothing is submitted here.

use super::params::RenderParams;
use super::pipelines::{Entry, NoiseKey};
use super::readback::PendingReadback;
use super::renderer::{Renderer, TargetKey};
use super::scratch::Growable;
use super::targets::{Range, TextureKind, TextureOutput, check_buffer, check_texture};
use crate::error::{Error, Result};
use crate::spec::Prepared;
use crate::tolerance::check_gpu_precision;
use crate::window::Window;

/// Bytes per row of a texture copy must be a multiple of this (wgpu's
/// `COPY_BYTES_PER_ROW_ALIGNMENT`).
const ROW_ALIGNMENT: u32 = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;

pub(super) fn buffer_entry(
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

pub(super) fn bind_group(
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

impl Renderer {
    /// Records the spec's whole image into `buffer` at byte `offset`: f32 per texel, row-major,
    /// x fastest, then y, then z (CONVENTIONS §1), `texels * 4` bytes. The buffer needs
    /// `BufferUsages::STORAGE`, and `offset` must be a multiple of the device's
    /// `min_storage_buffer_offset_alignment` (256 on most devices).
    pub fn render_to_buffer(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        prep: &Prepared,
        buffer: &wgpu::Buffer,
        offset: u64,
    ) -> Result<()> {
        let spec = prep.spec();
        let texels = spec.size.texels();
        check_buffer(buffer, offset, texels, &self.device.limits())?;
        check_gpu_precision(spec)?;
        let key = self.pipeline_key(Entry::Buffer, prep)?;
        self.library.update(encoder, prep);
        let size = texels * 4;
        let target = self.target_group(
            TargetKey::Buffer(Entry::Buffer, buffer.clone(), offset, size),
            |device, layout| bind_group(device, layout, &[buffer_entry(0, buffer, offset, size)]),
        )?;
        self.dispatch_window(
            encoder,
            Entry::Buffer,
            key,
            Window::full(spec.size),
            &target,
        )?;
        self.belt.finish_and_recall_on_submit(encoder);
        Ok(())
    }

    /// Records the spec's image into `texture`, whose size must equal the spec's:
    /// - `R32Float` (2D, 2D array with one layer per z, 3D): raw values; needs `STORAGE_BINDING`,
    ///   and for 3D `COPY_DST` too, on every backend: wgpu's GL backend binds a 3D storage image
    ///   one slice at a time, so there the volume is rendered into a buffer and copied, and a
    ///   program written on Vulkan must run on GL as well.
    /// - `Rgba8Unorm` (2D): values through `output.range` and `output.colormap`; needs
    ///   `STORAGE_BINDING`.
    /// - `R16Unorm` (2D, 2D array, 3D): levels through `output.range`, packed into a buffer and
    ///   copied, as terrain engines take heightmaps; needs `COPY_DST` and the device feature
    ///   `TEXTURE_FORMAT_16BIT_NORM`.
    pub fn render_to_texture(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        prep: &Prepared,
        texture: &wgpu::Texture,
        output: &TextureOutput,
    ) -> Result<()> {
        let spec = prep.spec();
        let kind = check_texture(texture, spec.size, self.device.features())?;
        if kind == TextureKind::R32(Entry::R32Texture3d)
            && self.fills_3d_by_copy(Entry::R32Texture3d)
            && !texture.usage().contains(wgpu::TextureUsages::COPY_DST)
        {
            return Err(Error::InvalidTarget {
                target: "texture",
                reason: "on the GL backend a 3D R32Float target is filled by a copy (wgpu binds \
                         3D storage images one slice at a time there): add \
                         TextureUsages::COPY_DST"
                    .into(),
            });
        }
        output.range.check()?;
        check_gpu_precision(spec)?;
        self.library.update(encoder, prep);
        match kind {
            TextureKind::R32(entry) => self.record_r32(encoder, prep, texture, entry)?,
            TextureKind::Rgba8 => self.record_rgba8(encoder, prep, texture, output)?,
            TextureKind::R16 => {
                self.record_by_copy(encoder, prep, texture, Entry::PackR16, 2, output.range)?
            }
        }
        self.belt.finish_and_recall_on_submit(encoder);
        Ok(())
    }

    fn record_r32(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        prep: &Prepared,
        texture: &wgpu::Texture,
        entry: Entry,
    ) -> Result<()> {
        if self.fills_3d_by_copy(entry) {
            return self.record_by_copy(encoder, prep, texture, Entry::Buffer, 4, Range::Nominal);
        }
        let key = self.pipeline_key(entry, prep)?;
        let view_dimension = match entry {
            Entry::R32Texture2dArray => wgpu::TextureViewDimension::D2Array,
            Entry::R32Texture3d => wgpu::TextureViewDimension::D3,
            _ => wgpu::TextureViewDimension::D2,
        };
        let binding = match entry {
            Entry::R32Texture2dArray => 2,
            Entry::R32Texture3d => 3,
            _ => 1,
        };
        let target = self.target_group(
            TargetKey::Texture(entry, texture.clone()),
            |device, layout| {
                let view = texture.create_view(&wgpu::TextureViewDescriptor {
                    dimension: Some(view_dimension),
                    ..Default::default()
                });
                bind_group(
                    device,
                    layout,
                    &[wgpu::BindGroupEntry {
                        binding,
                        resource: wgpu::BindingResource::TextureView(&view),
                    }],
                )
            },
        )?;
        let window = Window::full(prep.spec().size);
        self.dispatch_window(encoder, entry, key, window, &target)
    }

    fn record_rgba8(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        prep: &Prepared,
        texture: &wgpu::Texture,
        output: &TextureOutput,
    ) -> Result<()> {
        let spec = prep.spec();
        let key = self.pipeline_key(Entry::Rgba8Texture, prep)?;
        // With Range::Auto the table spans the stops' own range (named maps ignore the range).
        let table_range = output
            .range
            .fixed(spec)
            .or(output.colormap.stops_range())
            .unwrap_or((0.0, 1.0));
        self.write_colormap(encoder, output.colormap.packed_table(table_range));
        let auto = self.record_auto_range_if(encoder, prep, output.range)?;
        let (colormap, range) = (self.scratch.colormap.clone(), self.scratch.range.clone());
        let target = self.target_group(
            TargetKey::Texture(Entry::Rgba8Texture, texture.clone()),
            |device, layout| {
                let view = texture.create_view(&Default::default());
                bind_group(
                    device,
                    layout,
                    &[
                        wgpu::BindGroupEntry {
                            binding: 4,
                            resource: wgpu::BindingResource::TextureView(&view),
                        },
                        buffer_entry(5, &colormap, 0, colormap.size()),
                        buffer_entry(6, &range, 0, 8),
                    ],
                )
            },
        )?;
        let mut params = RenderParams::new(Window::full(spec.size));
        params.auto_range = u32::from(auto);
        params.range = range_of(output.range, prep);
        // z = 1: the colormap buffer holds stops, interpolated at each value.
        params.range[2] = if output.colormap.is_exact() { 1.0 } else { 0.0 };
        self.dispatch_tiles(encoder, Entry::Rgba8Texture, key, params, &target)
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
        prep: &Prepared,
        texture: &wgpu::Texture,
        entry: Entry,
        texel_bytes: u32,
        range: Range,
    ) -> Result<()> {
        let spec = prep.spec();
        let key = self.pipeline_key(entry, prep)?;
        let auto = self.record_auto_range_if(encoder, prep, range)?;
        let row_bytes = (spec.size.width * texel_bytes).next_multiple_of(ROW_ALIGNMENT);
        let words_per_row = row_bytes / 4;
        let max_words = u64::from(self.chunk_texels());
        let band_rows = (max_words / u64::from(words_per_row)).max(1);
        let bands = Window::full(spec.size).bands(band_rows * u64::from(spec.size.width));
        let largest = bands.iter().map(|b| b.size.rows()).max().unwrap_or(1);
        let (growable, binding) = match entry {
            Entry::PackR16 => (Growable::Words, 7),
            _ => (Growable::Values, 0),
        };
        let (scratch, created) =
            self.scratch
                .ensure(&self.device, growable, largest * u64::from(row_bytes));
        self.stats.buffers_created += u64::from(created);
        let range_buffer = self.scratch.range.clone();
        let target = self.target_group(
            TargetKey::Buffer(entry, scratch.clone(), 0, scratch.size()),
            |device, layout| {
                let mut entries = vec![buffer_entry(binding, &scratch, 0, scratch.size())];
                if entry == Entry::PackR16 {
                    entries.push(buffer_entry(6, &range_buffer, 0, 8));
                }
                bind_group(device, layout, &entries)
            },
        )?;
        for band in bands {
            let mut params = RenderParams::new(band);
            params.auto_range = u32::from(auto);
            params.range = range_of(range, prep);
            params.words_per_row = words_per_row;
            if entry.is_texel_kernel() {
                self.dispatch_tiles(encoder, entry, key, params, &target)?;
            } else {
                let items = band.size.rows() * u64::from(words_per_row);
                let (groups, pitch) = self.grid(items);
                params.item_count = items as u32;
                params.row_pitch = pitch;
                self.dispatch(encoder, entry, key, params, groups, &target)?;
            }
            copy_band_to_texture(encoder, &scratch, row_bytes, band, texture);
        }
        Ok(())
    }

    /// Records the two min/max passes when `range` is `Auto`; returns whether it did.
    fn record_auto_range_if(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        prep: &Prepared,
        range: Range,
    ) -> Result<bool> {
        if range != Range::Auto {
            return Ok(false);
        }
        let spec = prep.spec();
        let key = self.pipeline_key(Entry::RangePartial, prep)?;
        self.pipeline_key(Entry::RangeFinal, prep)?;
        let (partials, found) = (
            self.scratch.partial_ranges.clone(),
            self.scratch.range.clone(),
        );
        let partial_group =
            self.target_group(TargetKey::Range(Entry::RangePartial), |device, layout| {
                bind_group(
                    device,
                    layout,
                    &[buffer_entry(9, &partials, 0, partials.size())],
                )
            })?;
        let final_group =
            self.target_group(TargetKey::Range(Entry::RangeFinal), |device, layout| {
                bind_group(
                    device,
                    layout,
                    &[
                        buffer_entry(9, &partials, 0, partials.size()),
                        buffer_entry(10, &found, 0, 8),
                    ],
                )
            })?;
        let mut params = RenderParams::new(Window::full(spec.size));
        params.item_count = spec.size.texels() as u32;
        let groups = [crate::wgsl::sources::REDUCE_GROUPS, 1, 1];
        self.dispatch(
            encoder,
            Entry::RangePartial,
            key,
            params,
            groups,
            &partial_group,
        )?;
        self.dispatch(
            encoder,
            Entry::RangeFinal,
            key,
            params,
            [1, 1, 1],
            &final_group,
        )?;
        Ok(true)
    }

    /// Records a copy of the last `Range::Auto` min and max into a readback: `[lo, hi]`.
    pub fn read_auto_range(&mut self, encoder: &mut wgpu::CommandEncoder) -> PendingReadback {
        let staging = self.staging_buffer(8);
        encoder.copy_buffer_to_buffer(&self.scratch.range, 0, &staging, 0, 8);
        PendingReadback::on_submit(&self.device, encoder, staging, 8, self.staging.clone())
    }

    /// Records rendering `window` (inside the spec's image, at most
    /// [`chunk_texels`](Self::chunk_texels) texels) and a copy of its values to the host; the
    /// values arrive once the caller has submitted `encoder` (see [`PendingReadback`]).
    pub fn record_readback(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        prep: &Prepared,
        window: Window,
    ) -> Result<PendingReadback> {
        window.check_inside(prep.spec().size)?;
        if window.texels() > u64::from(self.chunk_texels()) {
            return Err(Error::invalid(
                "window",
                format!(
                    "{} texels is more than one readback band holds here ({}); use \
                     render_window, which splits it",
                    window.texels(),
                    self.chunk_texels()
                ),
            ));
        }
        check_gpu_precision(prep.spec())?;
        let key = self.pipeline_key(Entry::Buffer, prep)?;
        self.library.update(encoder, prep);
        let bytes = window.texels() * 4;
        let (values, created) = self.scratch.ensure(&self.device, Growable::Values, bytes);
        self.stats.buffers_created += u64::from(created);
        let size = values.size();
        let target = self.target_group(
            TargetKey::Buffer(Entry::Buffer, values.clone(), 0, size),
            |device, layout| bind_group(device, layout, &[buffer_entry(0, &values, 0, size)]),
        )?;
        self.dispatch_window(encoder, Entry::Buffer, key, window, &target)?;
        let staging = self.staging_buffer(bytes);
        encoder.copy_buffer_to_buffer(&values, 0, &staging, 0, bytes);
        self.belt.finish_and_recall_on_submit(encoder);
        Ok(PendingReadback::on_submit(
            &self.device,
            encoder,
            staging,
            bytes,
            self.staging.clone(),
        ))
    }

    /// One dispatch over every texel of `window`.
    pub(crate) fn dispatch_window(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        entry: Entry,
        key: NoiseKey,
        window: Window,
        target: &wgpu::BindGroup,
    ) -> Result<()> {
        self.dispatch_tiles(encoder, entry, key, RenderParams::new(window), target)
    }

    fn write_colormap(&mut self, encoder: &mut wgpu::CommandEncoder, table: [u32; 256]) {
        if self.scratch.colormap_written == Some(table) {
            return;
        }
        if let Some(size) = wgpu::BufferSize::new(1024) {
            self.belt
                .write_buffer(encoder, &self.scratch.colormap, 0, size)
                .copy_from_slice(bytemuck::cast_slice(&table));
        }
        self.scratch.colormap_written = Some(table);
        self.stats.colormap_uploads += 1;
    }

    /// A MAP_READ staging buffer of at least `bytes` from the pool, or a new one.
    pub(crate) fn staging_buffer(&mut self, bytes: u64) -> wgpu::Buffer {
        if let Ok(mut pool) = self.staging.lock() {
            if let Some(i) = pool.iter().position(|b| b.size() >= bytes) {
                return pool.swap_remove(i);
            }
        }
        self.stats.buffers_created += 1;
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("gpu-noise staging"),
            size: bytes.max(16).next_multiple_of(256),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }
}

/// The fixed range as the kernel's `range` field (unused for `Auto`).
fn range_of(range: Range, prep: &Prepared) -> [f32; 4] {
    let (lo, hi) = range.fixed(prep.spec()).unwrap_or((0.0, 1.0));
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
