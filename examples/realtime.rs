//! One renderer, many animated frames: 4D fBm whose (z, w) offset goes once around a circle, so
//! the animation returns to its first frame and loops without a seam. Prints frames per second
//! rendering into a GPU buffer (what a game does every frame) and with readback to the host,
//! then writes an animated GIF.
//!
//! ```text
//! cargo run --release --example realtime -- [--size 1024] [--frames 60] \
//!     [--gif docs/realtime.gif] [--gif-size 256] [--gif-frames 48]
//! ```

use std::time::Instant;

use gpu_noise::gpu::RenderStats;
use gpu_noise::low_level::gpu::LowLevelRenderer;
use gpu_noise::low_level::levels::level8;
use gpu_noise::{
    Colormap, Error, Fractal, Job, Kind, NoiseSpec, Renderer, Size, Window, gpu::AdapterChoice,
    gpu::RendererOptions, gpu::Target,
};

struct Args {
    size: u32,
    frames: u32,
    gif: String,
    gif_size: u32,
    gif_frames: u32,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        size: 1024,
        frames: 60,
        gif: "realtime.gif".into(),
        gif_size: 256,
        gif_frames: 48,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u32>()
                .map_err(|_| format!("{flag}: {value:?} is not a whole number"))
        };
        match flag.as_str() {
            "--size" => a.size = number()?,
            "--frames" => a.frames = number()?.max(1),
            "--gif" => a.gif = value.clone(),
            "--gif-size" => a.gif_size = number()?,
            "--gif-frames" => a.gif_frames = number()?.max(2),
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(a)
}

/// Four lattice cells across whatever the size.
fn frequency(side: u32) -> f64 {
    4.0 / f64::from(side)
}

/// 4D fBm, 6 octaves, four cells across whatever the size.
fn spec(side: u32) -> NoiseSpec {
    let mut s = NoiseSpec::new(Kind::Perlin, 4);
    s.size = Size::new(side, side, 1);
    s.frequency = frequency(side);
    s.fractal = Fractal::Fbm;
    s.octaves = 6;
    s
}

/// The offset (texel units) of frame k of n: angle 2 pi k / n on a circle of radius 1.5 cells
/// in (z, w), so frame n is frame 0 again.
fn frame_offset(frequency: f64, k: u32, n: u32) -> [f64; 4] {
    let angle = std::f64::consts::TAU * f64::from(k) / f64::from(n);
    let radius = 1.5 / frequency;
    [0.0, 0.0, radius * angle.cos(), radius * angle.sin()]
}

/// Frames per second rendering into a GPU buffer, each frame submitted and waited for, and
/// what the timed frames wrote and created (the first frame, untimed, compiles the pipeline and
/// uploads the tables).
fn render_only_fps(
    r: &mut Renderer,
    prep: &mut Job,
    frames: u32,
) -> gpu_noise::Result<(f64, RenderStats)> {
    let target = r.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("frame"),
        size: prep.size().texels() * 4,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let frequency = frequency(prep.size().width);
    let frame = |r: &mut Renderer, prep: &mut Job, k: u32| -> gpu_noise::Result<()> {
        prep.set_offset(frame_offset(frequency, k, frames))?;
        let mut encoder = r.device().create_command_encoder(&Default::default());
        let buffer = Target::Buffer {
            buffer: &target,
            offset: 0,
        };
        r.record(&mut encoder, prep, buffer)?;
        r.queue().submit([encoder.finish()]);
        r.device()
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| Error::DeviceLost(e.to_string()))
    };
    frame(r, prep, 0)?;
    let before = r.stats();
    let start = Instant::now();
    for k in 1..=frames {
        frame(r, prep, k)?;
    }
    let fps = f64::from(frames) / start.elapsed().as_secs_f64();
    Ok((fps, r.stats() - before))
}

/// Frames per second with every frame read back to the host.
fn readback_fps(r: &mut Renderer, prep: &mut Job, frames: u32) -> gpu_noise::Result<f64> {
    let frequency = frequency(prep.size().width);
    let start = Instant::now();
    for k in 0..frames {
        prep.set_offset(frame_offset(frequency, k, frames))?;
        std::hint::black_box(r.read(prep, Window::full(prep.size()))?);
    }
    Ok(f64::from(frames) / start.elapsed().as_secs_f64())
}

/// Renders the loop at `side` and writes it as a GIF through the magma colormap; returns the
/// largest difference between the frame after the last and the first (the loop's seam).
fn write_gif(r: &mut Renderer, args: &Args) -> Result<f32, Box<dyn std::error::Error>> {
    use image::codecs::gif::{GifEncoder, Repeat};
    let mut prep = spec(args.gif_size).validate()?;
    let frequency = frequency(args.gif_size);
    let table = Colormap::Magma.table((-0.7, 0.7));
    let mut encoder = GifEncoder::new_with_speed(std::fs::File::create(&args.gif)?, 10);
    encoder.set_repeat(Repeat::Infinite)?;
    let mut first = Vec::new();
    for k in 0..=args.gif_frames {
        prep.set_offset(frame_offset(frequency, k, args.gif_frames))?;
        let values = r.read(&prep, Window::full(prep.size()))?;
        if k == 0 {
            first = values.clone();
        }
        if k == args.gif_frames {
            let seam = values
                .iter()
                .zip(&first)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f32::max);
            return Ok(seam);
        }
        let rgba: Vec<u8> = values
            .iter()
            .flat_map(|&v| table[usize::from(level8(f64::from(v), (-0.7, 0.7)))])
            .collect();
        let image = image::RgbaImage::from_raw(args.gif_size, args.gif_size, rgba)
            .ok_or("frame size mismatch")?;
        let delay = image::Delay::from_numer_denom_ms(80, 1);
        encoder.encode_frame(image::Frame::from_parts(image, 0, 0, delay))?;
    }
    Ok(0.0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse_args()?;
    let choice = AdapterChoice::from_env()?;
    let mut renderer = pollster::block_on(Renderer::open(&choice, RendererOptions::default()))?;
    println!("adapter: {}", renderer.adapter_name());
    let mut prep = spec(args.size).validate()?;
    let (fps, written) = render_only_fps(&mut renderer, &mut prep, args.frames)?;
    println!(
        "{side}x{side} 4D fBm, 6 octaves: {fps:.1} fps rendering into a GPU buffer; the {frames} \
         timed frames wrote {uniforms} uniforms, {tables} tables and made {groups} bind groups",
        side = args.size,
        frames = args.frames,
        uniforms = written.uniform_writes,
        tables = written.table_uploads,
        groups = written.bind_groups_created,
    );
    let fps = readback_fps(&mut renderer, &mut prep, args.frames)?;
    println!("{0}x{0}: {fps:.1} fps with readback to the host", args.size);
    let seam = write_gif(&mut renderer, &args)?;
    println!(
        "wrote {} ({} frames of {2}x{2}); frame {1} vs frame 0 differ by at most {seam:e}",
        args.gif, args.gif_frames, args.gif_size
    );
    Ok(())
}
