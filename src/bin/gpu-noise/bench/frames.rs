//! Frames per second of a real-time loop (2D fBm, 6 octaves, the offset moving every frame),
//! rendering into a GPU buffer and with readback to the host.

use std::time::Instant;

use gpu_noise::{Job, Renderer, Result, Window, gpu::Target};

use super::clock::wait;
use super::frame_buffer;
use crate::workloads::{Grid, PERLIN_2D_FBM6};

/// The device buffer frames render into, made once per size (as a real-time caller keeps one).
#[derive(Default)]
struct FrameTarget(Option<wgpu::Buffer>);

impl FrameTarget {
    /// One frame that stays on the GPU: render into the buffer, submit, wait for it.
    fn render(&mut self, r: &mut Renderer, prep: &Job) -> Result<()> {
        let bytes = prep.size().texels() * 4;
        if self.0.as_ref().is_none_or(|b| b.size() != bytes) {
            self.0 = Some(frame_buffer(r.device(), bytes));
        }
        let Some(buffer) = &self.0 else {
            return Ok(());
        };
        let mut encoder = r.device().create_command_encoder(&Default::default());
        r.record(&mut encoder, prep, Target::Buffer { buffer, offset: 0 })?;
        r.queue().submit([encoder.finish()]);
        wait(r.device())
    }
}

/// Frames per second of a real-time loop: every frame moves the offset (the time), so only the
/// uniform changes between frames.
pub fn frame_table(r: &mut Renderer, repeat: u32) -> Result<()> {
    outln!(
        "\n| 2D fBm, 6 octaves, new offset each frame | render only fps | render + readback fps |"
    )?;
    outln!("| --- | ---: | ---: |")?;
    let mut target = FrameTarget::default();
    for side in [512, 1024] {
        let mut prep = PERLIN_2D_FBM6.spec(Grid::Square(side)).validate()?;
        let frames = (repeat * 4).max(8);
        let mut time = 0.0;
        let mut step = |prep: &mut Job| -> Result<()> {
            time += 1.0;
            prep.set_offset([time, 0.0, 0.0, 0.0])
        };
        target.render(r, &prep)?; // warm-up
        let start = Instant::now();
        for _ in 0..frames {
            step(&mut prep)?;
            target.render(r, &prep)?;
        }
        let render_only = f64::from(frames) / start.elapsed().as_secs_f64();
        let start = Instant::now();
        for _ in 0..frames {
            step(&mut prep)?;
            std::hint::black_box(r.read(&prep, Window::full(prep.size()))?);
        }
        let with_readback = f64::from(frames) / start.elapsed().as_secs_f64();
        outln!("| {side}x{side} | {render_only:.1} | {with_readback:.1} |")?;
    }
    Ok(())
}
