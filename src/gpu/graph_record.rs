//! Recording graphs (CONVENTIONS §13): the fused kernel over a window into a buffer, the same
//! steps one dispatch each (the fusion measurement's baseline), and host readback.

use std::num::NonZeroU64;

use super::graph::{GraphResources, GraphWindow};
use super::renderer::Renderer;
use super::scratch::Growable;
use crate::error::{Error, Result};
use crate::graph::PreparedGraph;
use crate::window::Window;

impl Renderer {
    /// Records `prepared`'s texels in `window` (inside its image) into `buffer` from byte
    /// `offset`: one f32 per texel, x fastest, then y, then z. `buffer` needs STORAGE usage and
    /// room for the window; nothing is submitted.
    pub fn render_graph_to_buffer(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        prepared: &PreparedGraph,
        window: Window,
        buffer: &wgpu::Buffer,
        offset: u64,
    ) -> Result<()> {
        window.check_inside(prepared.size())?;
        let bytes = window.texels() * 4;
        let limits = self.device.limits();
        if !buffer.usage().contains(wgpu::BufferUsages::STORAGE)
            || !offset.is_multiple_of(u64::from(limits.min_storage_buffer_offset_alignment))
            || offset + bytes > buffer.size()
            || bytes > limits.max_storage_buffer_binding_size
        {
            return Err(Error::InvalidTarget {
                target: "buffer",
                reason: format!(
                    "needs STORAGE usage, {bytes} bytes from offset {offset} (aligned to {}) \
                     within its {} bytes and one binding ({} bytes at most)",
                    limits.min_storage_buffer_offset_alignment,
                    buffer.size(),
                    limits.max_storage_buffer_binding_size
                ),
            });
        }
        let pipeline = self.graph_pipeline(&prepared.kernel().source)?;
        let bindings = self.graph_bindings(encoder, prepared)?;
        let target = wgpu::BufferBinding {
            buffer,
            offset,
            size: NonZeroU64::new(bytes),
        };
        self.dispatch_graph(
            encoder,
            &pipeline,
            &bindings,
            window,
            target,
            window.size.width,
        )?;
        // The state was written through the belt: close it so the encoder can be submitted.
        self.belt.finish_and_recall_on_submit(encoder);
        Ok(())
    }

    /// Records `prepared`'s whole image into `texture`: `R32Float`, 2D (depth 1), 2D array
    /// (one layer per slice) or 3D, of the image's size, with `COPY_DST` usage. The kernel writes
    /// rows padded to 256 bytes into a scratch buffer the renderer keeps, and a copy fills the
    /// texture; nothing is submitted.
    pub fn render_graph_to_texture(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        prepared: &PreparedGraph,
        texture: &wgpu::Texture,
    ) -> Result<()> {
        let size = prepared.size();
        let extent = texture.size();
        let fits = [extent.width, extent.height, extent.depth_or_array_layers]
            == [size.width, size.height, size.depth];
        if texture.format() != wgpu::TextureFormat::R32Float
            || !fits
            || !texture.usage().contains(wgpu::TextureUsages::COPY_DST)
            || texture.dimension() == wgpu::TextureDimension::D1
        {
            return Err(Error::InvalidTarget {
                target: "texture",
                reason: format!(
                    "a graph fills an R32Float 2D, 2D-array or 3D texture of {}x{}x{} with \
                     COPY_DST usage; got {:?} {}x{}x{} with usage {}",
                    size.width,
                    size.height,
                    size.depth,
                    texture.format(),
                    extent.width,
                    extent.height,
                    extent.depth_or_array_layers,
                    super::targets::flag_names(texture.usage().iter_names())
                ),
            });
        }
        let row_bytes = (u64::from(size.width) * 4).next_multiple_of(256);
        let bytes = row_bytes * u64::from(size.height) * u64::from(size.depth);
        let limit = self.device.limits().max_storage_buffer_binding_size;
        if bytes > limit {
            return Err(Error::InvalidTarget {
                target: "texture",
                reason: format!("{bytes} bytes of padded rows pass one binding's {limit}"),
            });
        }
        let scratch = self.graph_scratch(bytes);
        let pipeline = self.graph_pipeline(&prepared.kernel().source)?;
        let bindings = self.graph_bindings(encoder, prepared)?;
        let target = wgpu::BufferBinding {
            buffer: &scratch,
            offset: 0,
            size: NonZeroU64::new(bytes),
        };
        let window = Window::full(size);
        self.dispatch_graph(
            encoder,
            &pipeline,
            &bindings,
            window,
            target,
            (row_bytes / 4) as u32,
        )?;
        encoder.copy_buffer_to_texture(
            wgpu::TexelCopyBufferInfo {
                buffer: &scratch,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row_bytes as u32),
                    rows_per_image: Some(size.height),
                },
            },
            texture.as_image_copy(),
            extent,
        );
        self.belt.finish_and_recall_on_submit(encoder);
        Ok(())
    }

    /// The scratch buffer of texture renders, grown to `bytes` where needed.
    fn graph_scratch(&mut self, bytes: u64) -> wgpu::Buffer {
        if let Some(buffer) = &self.graphs.scratch
            && buffer.size() >= bytes
        {
            return buffer.clone();
        }
        self.stats.buffers_created += 1;
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("gpu-noise graph texture rows"),
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        self.graphs.scratch = Some(buffer.clone());
        buffer
    }

    /// Dispatches `pipeline` over `window` in 8 x 8 x 1 workgroups (several dispatches where
    /// the window reaches past the device's workgroups per dimension).
    fn dispatch_graph(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        pipeline: &wgpu::ComputePipeline,
        bindings: &GraphResources,
        window: Window,
        target: wgpu::BufferBinding<'_>,
        words_per_row: u32,
    ) -> Result<()> {
        let max = self
            .device
            .limits()
            .max_compute_workgroups_per_dimension
            .max(1);
        let [w, h, d] = [window.size.width, window.size.height, window.size.depth];
        let reach = max.saturating_mul(8);
        for y in (0..h).step_by(reach as usize) {
            for x in (0..w).step_by(reach as usize) {
                let params = GraphWindow {
                    origin: [window.origin[0], window.origin[1], window.origin[2], 0],
                    extent: [w, h, d, words_per_row],
                    base: [x, y, 0, 0],
                };
                let group = self.graph_group(bindings, params, &target);
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("gpu-noise graph"),
                    timestamp_writes: None,
                });
                pass.set_pipeline(pipeline);
                pass.set_bind_group(0, &group, &[]);
                pass.set_bind_group(1, &bindings.tables, &[]);
                pass.dispatch_workgroups(
                    (w - x).min(reach).div_ceil(8),
                    (h - y).min(reach).div_ceil(8),
                    d,
                );
                self.stats.dispatches += 1;
            }
        }
        Ok(())
    }

    /// Bytes of the register buffer [`render_graph_node_by_node_to_buffer`] needs for `window`.
    ///
    /// [`render_graph_node_by_node_to_buffer`]: Renderer::render_graph_node_by_node_to_buffer
    pub fn graph_registers_bytes(prepared: &PreparedGraph, window: Window) -> u64 {
        prepared.kernel().node_by_node.regions * window.texels() * 4
    }

    /// Records `prepared`'s `window` one expanded step per dispatch, each step's values kept in
    /// `registers` (STORAGE, [`graph_registers_bytes`](Renderer::graph_registers_bytes) long)
    /// for the steps that read them: the unfused baseline that fusing is measured against
    /// (`gpu-noise bench --graph`). Returns the byte offset of the output values in `registers`.
    pub fn render_graph_node_by_node_to_buffer(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        prepared: &PreparedGraph,
        window: Window,
        registers: &wgpu::Buffer,
    ) -> Result<u64> {
        window.check_inside(prepared.size())?;
        let bytes = Self::graph_registers_bytes(prepared, window);
        let limit = self.device.limits().max_storage_buffer_binding_size;
        let storage = registers.usage().contains(wgpu::BufferUsages::STORAGE);
        if !storage || registers.size() < bytes || bytes > limit {
            return Err(Error::InvalidTarget {
                target: "buffer",
                reason: format!(
                    "the register buffer needs STORAGE usage and {bytes} bytes (one binding: \
                     {limit} at most), has {} bytes",
                    registers.size()
                ),
            });
        }
        let bindings = self.graph_bindings(encoder, prepared)?;
        let target = wgpu::BufferBinding {
            buffer: registers,
            offset: 0,
            size: NonZeroU64::new(bytes),
        };
        let steps = &prepared.kernel().node_by_node;
        for source in &steps.sources {
            let pipeline = self.graph_pipeline(source)?;
            self.dispatch_graph(
                encoder,
                &pipeline,
                &bindings,
                window,
                target.clone(),
                window.size.width,
            )?;
        }
        self.belt.finish_and_recall_on_submit(encoder);
        Ok(steps.output * window.texels() * 4)
    }

    /// The whole image node by node, on the host (to check it equals the fused kernel's).
    pub fn render_graph_node_by_node(&mut self, prepared: &PreparedGraph) -> Result<Vec<f32>> {
        let window = Window::full(prepared.size());
        let registers = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("graph registers"),
            size: Self::graph_registers_bytes(prepared, window),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        let at =
            self.render_graph_node_by_node_to_buffer(&mut encoder, prepared, window, &registers)?;
        self.submit_and_read(encoder, &registers, at, window.texels() * 4)
    }

    /// Copies `bytes` of `source` from byte `at` to a staging buffer, submits `encoder` and
    /// waits for the values.
    fn submit_and_read(
        &mut self,
        encoder: wgpu::CommandEncoder,
        source: &wgpu::Buffer,
        at: u64,
        bytes: u64,
    ) -> Result<Vec<f32>> {
        self.submit_for_reading(encoder, source, at, bytes)?.wait()
    }

    /// Copies `bytes` of `source` from byte `at` to a staging buffer and submits `encoder`;
    /// the values follow.
    fn submit_for_reading(
        &mut self,
        mut encoder: wgpu::CommandEncoder,
        source: &wgpu::Buffer,
        at: u64,
        bytes: u64,
    ) -> Result<super::readback::PendingReadback> {
        let staging = self.staging_buffer(bytes);
        encoder.copy_buffer_to_buffer(source, at, &staging, 0, bytes);
        let pending = super::readback::PendingReadback::on_submit(
            &self.device,
            &encoder,
            staging,
            bytes,
            self.staging.clone(),
        );
        self.submit(encoder)?;
        Ok(pending)
    }

    /// `prepared`'s texels in `window` on the host, band by band within the device's limits.
    pub fn render_graph_window(
        &mut self,
        prepared: &PreparedGraph,
        window: Window,
    ) -> Result<Vec<f32>> {
        window.check_inside(prepared.size())?;
        window.check_in_memory()?;
        let mut out = Vec::with_capacity(window.texels() as usize);
        for band in window.bands(u64::from(self.chunk_texels())) {
            out.extend(self.submit_graph_band(prepared, band)?.wait()?);
        }
        Ok(out)
    }

    /// Every texel of `prepared`'s image on the host.
    pub fn render_graph(&mut self, prepared: &PreparedGraph) -> Result<Vec<f32>> {
        self.render_graph_window(prepared, Window::full(prepared.size()))
    }

    /// As [`render_graph`](Self::render_graph), without blocking the thread: each band is
    /// awaited (on the web, the browser maps it).
    pub async fn render_graph_async(&mut self, prepared: &PreparedGraph) -> Result<Vec<f32>> {
        let window = Window::full(prepared.size());
        window.check_in_memory()?;
        let mut out = Vec::with_capacity(window.texels() as usize);
        for band in window.bands(u64::from(self.chunk_texels())) {
            out.extend(self.submit_graph_band(prepared, band)?.await?);
        }
        self.check_health()?;
        Ok(out)
    }

    /// Renders one band into the renderer's own readback buffer (kept between bands and calls,
    /// as single kinds use it, so its bind group is made once) and submits its readback.
    fn submit_graph_band(
        &mut self,
        prepared: &PreparedGraph,
        band: Window,
    ) -> Result<super::readback::PendingReadback> {
        let bytes = band.texels() * 4;
        let (target, created) = self.scratch.ensure(&self.device, Growable::Values, bytes);
        self.stats.buffers_created += u64::from(created);
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.render_graph_to_buffer(&mut encoder, prepared, band, &target, 0)?;
        self.submit_for_reading(encoder, &target, 0, bytes)
    }
}
