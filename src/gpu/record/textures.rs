//! Recording into textures: R32Float (2D, arrays, 3D by storage or by copy), colormapped
//! Rgba8 with a fixed or the GPU's own range, normal maps, and 16-bit heightmaps packed into a
//! buffer and copied band by band.

use super::{ROW_ALIGNMENT, Recorder, TargetKey, bind_group, buffer_entry, texture_entry};
use crate::error::{Error, Result};
use crate::gpu::params::RenderParams;
use crate::gpu::pipelines::Entry;
use crate::gpu::scratch::Growable;
use crate::gpu::targets::{Range, TextureKind, TextureOutput, check_texture};
use crate::window::Window;

impl Recorder<'_> {
    pub(super) fn record_texture(
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
