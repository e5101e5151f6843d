//! Derivative targets (CONVENTIONS §12): each texel's value with its partial derivatives into
//! the caller's buffer, and tangent-space normal maps into the caller's texture.

use super::pipelines::Entry;
use super::readback::PendingReadback;
use super::record::{bind_group, buffer_entry};
use super::renderer::{Renderer, TargetKey};
use super::scratch::Growable;
use super::targets::{TextureKind, check_buffer, check_texture};
use crate::error::{Error, Result};
use crate::spec::Prepared;
use crate::window::Window;

/// f32 per texel of a gradient target: value, d/dx, d/dy, d/dz.
pub const GRADIENT_CHANNELS: u64 = 4;

impl Renderer {
    /// Records each texel's value and partial derivatives along the texel axes into `buffer`
    /// at `offset`: `[value, d/dx, d/dy, d/dz]` as 4 f32 per texel, texels in memory order
    /// (CONVENTIONS §12), `texels * 16` bytes; `STORAGE` usage. Perlin, gradient, value (not
    /// `nearest`) and simplex have derivatives; other specs are an error naming the field.
    pub fn render_gradient_to_buffer(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        prep: &Prepared,
        buffer: &wgpu::Buffer,
        offset: u64,
    ) -> Result<()> {
        self.record_gradient(
            encoder,
            prep,
            Window::full(prep.spec().size),
            buffer,
            offset,
        )
    }

    fn record_gradient(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        prep: &Prepared,
        window: Window,
        buffer: &wgpu::Buffer,
        offset: u64,
    ) -> Result<()> {
        prep.spec().check_derivatives()?;
        window.check_inside(prep.spec().size)?;
        let floats = window.texels() * GRADIENT_CHANNELS;
        check_buffer(buffer, offset, floats, &self.device.limits())?;
        let key = self.pipeline_key(Entry::Gradient, prep)?;
        self.library.update(encoder, prep);
        let size = floats * 4;
        let target = self.target_group(
            TargetKey::Buffer(Entry::Gradient, buffer.clone(), offset, size),
            |device, layout| bind_group(device, layout, &[buffer_entry(0, buffer, offset, size)]),
        )?;
        self.dispatch_window(encoder, Entry::Gradient, key, window, &target)?;
        self.belt.finish_and_recall_on_submit(encoder);
        Ok(())
    }

    /// Records a tangent-space normal map of the spec's 2D image into `texture` (`Rgba8Unorm`,
    /// 2D, the spec's size, `STORAGE_BINDING`): heights are the noise value times `strength`
    /// texels, `n = normalize(-s d/dx, s d/dy, 1)` stored as `n / 2 + 1/2` (OpenGL's +Y up, as
    /// Blender, Unity and Godot read normal maps; flip green for DirectX).
    pub fn render_normal_to_texture(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        prep: &Prepared,
        texture: &wgpu::Texture,
        strength: f32,
    ) -> Result<()> {
        let spec = prep.spec();
        spec.check_derivatives()?;
        if !(strength.is_finite() && strength > 0.0) {
            return Err(Error::invalid(
                "normal_strength",
                format!("must be a finite number > 0, got {strength}"),
            ));
        }
        if check_texture(texture, spec.size, self.device.features())? != TextureKind::Rgba8 {
            return Err(Error::target(
                "texture",
                format!(
                    "a normal map needs an Rgba8Unorm 2D texture, got {:?}",
                    texture.format()
                ),
            ));
        }
        let key = self.pipeline_key(Entry::Normal, prep)?;
        self.library.update(encoder, prep);
        let target = self.target_group(
            TargetKey::Texture(Entry::Normal, texture.clone()),
            |device, layout| {
                let view = texture.create_view(&Default::default());
                let entry = wgpu::BindGroupEntry {
                    binding: 4,
                    resource: wgpu::BindingResource::TextureView(&view),
                };
                bind_group(device, layout, &[entry])
            },
        )?;
        let window = Window::full(spec.size);
        let mut params = super::params::RenderParams::new(window);
        params.normal_strength = strength;
        self.dispatch_tiles(encoder, Entry::Normal, key, params, &target)?;
        self.belt.finish_and_recall_on_submit(encoder);
        Ok(())
    }

    /// Renders `window`'s values and partial derivatives and reads them back (blocking):
    /// `[value, d/dx, d/dy, d/dz]` per texel; at most a quarter of
    /// [`chunk_texels`](Self::chunk_texels) texels at once.
    pub fn render_gradient_window(
        &mut self,
        prep: &Prepared,
        window: Window,
    ) -> Result<Vec<[f32; 4]>> {
        Ok(by_texel(self.submit_gradient(prep, window)?.wait()?))
    }

    /// As [`render_gradient_window`](Self::render_gradient_window), without blocking the
    /// thread (on the web, the browser maps the results).
    pub async fn render_gradient_async(
        &mut self,
        prep: &Prepared,
        window: Window,
    ) -> Result<Vec<[f32; 4]>> {
        let values = self.submit_gradient(prep, window)?.await?;
        self.check_health()?;
        Ok(by_texel(values))
    }

    fn submit_gradient(&mut self, prep: &Prepared, window: Window) -> Result<PendingReadback> {
        let bytes = window.texels() * GRADIENT_CHANNELS * 4;
        // The same growable scratch buffer as value readbacks: bands reuse it.
        let (buffer, created) = self.scratch.ensure(&self.device, Growable::Values, bytes);
        self.stats.buffers_created += u64::from(created);
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.record_gradient(&mut encoder, prep, window, &buffer, 0)?;
        let staging = self.staging_buffer(bytes);
        encoder.copy_buffer_to_buffer(&buffer, 0, &staging, 0, bytes);
        let pending = PendingReadback::on_submit(
            &self.device,
            &encoder,
            staging,
            bytes,
            self.staging.clone(),
        );
        self.submit(encoder)?;
        Ok(pending)
    }
}

/// Four floats a texel as `[value, d/dx, d/dy, d/dz]`.
fn by_texel(floats: Vec<f32>) -> Vec<[f32; 4]> {
    floats
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect()
}
