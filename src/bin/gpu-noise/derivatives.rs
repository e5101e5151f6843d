//! `render --channels gradient|normal`: the analytic derivatives (CONVENTIONS §12) of any job,
//! flat spec or graph, streamed in bands from the chosen engine into a `.npy` (value, then the
//! partials along each image axis) or an RGB normal-map PNG.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use gpu_noise::export::{create_gradient_writer, create_normal_writer};
use gpu_noise::low_level::export::image_axes;
use gpu_noise::low_level::levels::tangent_normal;
use gpu_noise::{Result, Window};

use crate::args::{Channels, RenderArgs};
use crate::backend::Engine;
use crate::world::World;
use gpu_noise::low_level::spec_file::SpecFile;

/// Texels per band: the GPU reads back 16 bytes a texel.
const BAND_TEXELS: u64 = 1 << 20;

pub fn run(
    args: &RenderArgs,
    layer: &SpecFile,
    world: &World,
    output: &Path,
    channels: Channels,
) -> Result<ExitCode> {
    let job = world.job.with_gradient()?;
    let spec = &world.spec;
    let strength = layer.strength()?;
    let axes = image_axes(spec.size, spec.dims);
    let mut writer = match channels {
        Channels::Normal => create_normal_writer(output, spec.size)?,
        _ => create_gradient_writer(output, spec.size, spec.dims)?,
    };
    let mut engine = Engine::open(layer.backend.unwrap_or_default(), &job)?;
    let start = Instant::now();
    let texels = spec.size.texels();
    let bar = crate::progress::texel_bar(texels, texels, args.quiet, "rendering");
    for band in Window::full(spec.size).bands(BAND_TEXELS) {
        let d = engine.render_band(&job, band)?;
        let values: Vec<f32> = match channels {
            Channels::Normal => (d.chunks_exact(4))
                .flat_map(|c| tangent_normal([c[0], c[1], c[2], c[3]], strength))
                .collect(),
            // The value and the image's axes of each texel, with no allocation per texel.
            _ => (d.chunks_exact(4))
                .flat_map(|c| c[..=axes].iter().copied())
                .collect(),
        };
        writer.write_rows(&values)?;
        bar.inc(band.texels());
    }
    writer.finish()?;
    bar.finish_and_clear();
    let s = spec.size;
    let depth = if s.depth > 1 {
        format!("x{}", s.depth)
    } else {
        String::new()
    };
    status!(
        "gpu-noise: wrote {} ({channels} of {}x{}{depth}, {}) in {:.3} s on {}",
        output.display(),
        s.width,
        s.height,
        world.describe(),
        start.elapsed().as_secs_f64(),
        engine.name()
    );
    Ok(ExitCode::SUCCESS)
}
