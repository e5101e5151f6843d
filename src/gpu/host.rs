//! Results on the host: blocking ([`Renderer::render`]) and async ([`Renderer::render_async`])
//! readback of whole images or windows, band by band with the next band rendering while the
//! previous one is read, and evaluation of caller-given points.

use std::collections::VecDeque;

use super::pipelines::Entry;
use super::readback::PendingReadback;
use super::renderer::{Renderer, TargetKey};
use super::scratch::Growable;
use super::state::words;
use crate::error::{Error, Result};
use crate::spec::Prepared;
use crate::spec::frames::sample_point;
use crate::window::Window;

/// Bands in flight at once: one rendering while the previous one is read.
const IN_FLIGHT: usize = 2;

impl Renderer {
    /// Renders the whole image and reads it back (blocking): f32, x fastest, then y, then z.
    ///
    /// ```no_run
    /// use gpu_noise::{AdapterChoice, Kind, NoiseSpec, Renderer, RendererOptions};
    /// # fn main() -> gpu_noise::Result<()> {
    /// let choice = AdapterChoice::from_env()?;
    /// let mut renderer = pollster::block_on(Renderer::open(&choice, RendererOptions::default()))?;
    /// let image = renderer.render(&NoiseSpec::new(Kind::Perlin, 2).validate()?)?;
    /// assert_eq!(image.len(), 256 * 256);
    /// # Ok(()) }
    /// ```
    pub fn render(&mut self, prep: &Prepared) -> Result<Vec<f32>> {
        self.render_window(prep, Window::full(prep.spec().size))
    }

    /// Renders `window` of the image and reads it back (blocking).
    pub fn render_window(&mut self, prep: &Prepared, window: Window) -> Result<Vec<f32>> {
        window.check_in_memory()?;
        let mut out = Vec::with_capacity(window.texels() as usize);
        self.for_each_band(
            prep,
            window,
            u64::from(self.chunk_texels()),
            &mut |_, values| {
                out.extend_from_slice(&values);
                Ok(())
            },
        )?;
        Ok(out)
    }

    /// Renders `window` in bands of at most `band_texels` texels, in memory order, and hands
    /// each band's values to `consume` while the next band renders on the GPU (blocking).
    pub fn for_each_band(
        &mut self,
        prep: &Prepared,
        window: Window,
        band_texels: u64,
        consume: &mut dyn FnMut(Window, Vec<f32>) -> Result<()>,
    ) -> Result<()> {
        window.check_inside(prep.spec().size)?;
        let limit = band_texels.clamp(1, u64::from(self.chunk_texels()));
        let mut in_flight: VecDeque<(Window, PendingReadback)> = VecDeque::new();
        for band in window.bands(limit) {
            let mut encoder = self.device.create_command_encoder(&Default::default());
            let pending = self.record_readback(&mut encoder, prep, band)?;
            self.submit(encoder)?;
            in_flight.push_back((band, pending));
            if in_flight.len() == IN_FLIGHT {
                if let Some((done, pending)) = in_flight.pop_front() {
                    consume(done, pending.wait()?)?;
                    self.check_health()?;
                }
            }
        }
        while let Some((done, pending)) = in_flight.pop_front() {
            consume(done, pending.wait()?)?;
        }
        self.check_health()
    }

    /// Renders the whole image and reads it back without blocking the thread: each band is
    /// awaited (the future polls the device).
    pub async fn render_async(&mut self, prep: &Prepared) -> Result<Vec<f32>> {
        let window = Window::full(prep.spec().size);
        window.check_in_memory()?;
        let mut out = Vec::with_capacity(window.texels() as usize);
        for band in window.bands(u64::from(self.chunk_texels())) {
            let mut encoder = self.device.create_command_encoder(&Default::default());
            let pending = self.record_readback(&mut encoder, prep, band)?;
            self.submit(encoder)?;
            out.extend_from_slice(&pending.await?);
        }
        self.check_health()?;
        Ok(out)
    }

    /// The spec's noise at `points` already in noise space (no frequency applied), blocking.
    pub fn sample(&mut self, prep: &Prepared, points: &[[f64; 4]]) -> Result<Vec<f32>> {
        wait_all(self.sample_pending(prep, points)?)
    }

    /// As [`sample`](Self::sample), without blocking the thread.
    pub async fn sample_async(&mut self, prep: &Prepared, points: &[[f64; 4]]) -> Result<Vec<f32>> {
        let mut out = Vec::with_capacity(points.len());
        for pending in self.sample_pending(prep, points)? {
            out.extend_from_slice(&pending.await?);
        }
        Ok(out)
    }

    /// Submits the points in chunks that fit one binding (16 bytes a point); one readback each.
    fn sample_pending(
        &mut self,
        prep: &Prepared,
        points: &[[f64; 4]],
    ) -> Result<Vec<PendingReadback>> {
        prep.spec().check_points(points)?;
        let key = self.pipeline_key(Entry::Sample, prep)?;
        let octaves = prep.octaves().len() as u64;
        let chunk = (u64::from(self.chunk_texels()) / (8 * octaves)).max(1) as usize;
        let mut pending = Vec::new();
        for part in points.chunks(chunk) {
            let split = split_points(prep, part)?;
            let count = part.len() as u64;
            let (values, made_v) = self
                .scratch
                .ensure(&self.device, Growable::Values, count * 4);
            let (inputs, made_p) =
                self.scratch
                    .ensure(&self.device, Growable::Points, count * octaves * 32);
            self.stats.buffers_created += u64::from(made_v) + u64::from(made_p);
            // The points go in through the queue; the encoder below is submitted right after.
            self.queue
                .write_buffer(&inputs, 0, bytemuck::cast_slice(&split));
            let target = self.target_group(
                TargetKey::Sample(values.clone(), inputs.clone()),
                |device, layout| {
                    device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some("gpu-noise points"),
                        layout,
                        entries: &[
                            wgpu::BindGroupEntry {
                                binding: 0,
                                resource: values.as_entire_binding(),
                            },
                            wgpu::BindGroupEntry {
                                binding: 8,
                                resource: inputs.as_entire_binding(),
                            },
                        ],
                    })
                },
            )?;
            let mut encoder = self.device.create_command_encoder(&Default::default());
            self.library.update(&mut encoder, prep);
            let mut params = super::params::RenderParams::new(Window::full(prep.spec().size));
            let (groups, pitch) = self.grid(count);
            params.item_count = count as u32;
            params.row_pitch = pitch;
            self.dispatch(&mut encoder, Entry::Sample, key, params, groups, &target)?;
            let staging = self.staging_buffer(count * 4);
            encoder.copy_buffer_to_buffer(&values, 0, &staging, 0, count * 4);
            let readback = PendingReadback::on_submit(
                &self.device,
                &encoder,
                staging,
                count * 4,
                self.staging.clone(),
            );
            // The next chunk's points and values reuse these buffers; the queue orders its
            // point upload and dispatch after this submission's copy.
            self.submit(encoder)?;
            pending.push(readback);
        }
        Ok(pending)
    }
}

/// Each point on each octave's lattice, split exactly on the host (CONVENTIONS §1): per point
/// and octave, the cells modulo 2^32 and the fractions' top 32 bits (`points` in render.wgsl).
fn split_points(prep: &Prepared, points: &[[f64; 4]]) -> Result<Vec<[u32; 4]>> {
    let spec = prep.spec();
    let mut split = Vec::with_capacity(points.len() * prep.octaves().len() * 2);
    for (n, p) in points.iter().enumerate() {
        for octave in prep.octaves() {
            let l = sample_point(spec, *p, octave.scale(), octave.period()).ok_or_else(|| {
                Error::invalid(
                    "points",
                    format!("point {}: its lattice coordinates pass 2^62 cells", n + 1),
                )
            })?;
            let w = l.map(words);
            split.push(w.map(|(cell, _)| cell));
            split.push(w.map(|(_, word)| word));
        }
    }
    Ok(split)
}

/// Waits for every readback in order and concatenates the values.
fn wait_all(pending: Vec<PendingReadback>) -> Result<Vec<f32>> {
    let mut out = Vec::new();
    for p in pending {
        out.extend_from_slice(&p.wait()?);
    }
    Ok(out)
}
