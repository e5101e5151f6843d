//! `render --channels gradient|normal`: the analytic derivatives (CONVENTIONS §12) streamed in
//! bands from the GPU or the CPU twin into a `.npy` (value, then the partials along each image
//! axis) or an RGB normal-map PNG.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use gpu_noise::export::{create_gradient_writer, create_normal_writer};
use gpu_noise::low_level::export::image_axes;
use gpu_noise::low_level::levels::tangent_normal;
use gpu_noise::{Prepared, Result, Window, cpu};

use crate::args::{Channels, RenderArgs};
use crate::backend::Engine;
use gpu_noise::spec_file::SpecFile;

/// Texels per band: the GPU reads back 16 bytes a texel.
const BAND_TEXELS: u64 = 1 << 20;

/// One band's `[value, d/dx, d/dy, d/dz]` per texel, from the engine.
fn band_gradients(engine: &mut Engine, prep: &Prepared, band: Window) -> Result<Vec<[f32; 4]>> {
    match engine {
        Engine::Gpu(r) => r.render_gradient_window(prep, band),
        // Derivatives come from the f64 reference where no GPU renders them.
        Engine::Cpu | Engine::Simd => Ok(cpu::render_gradient_window(prep, band)?
            .iter()
            .map(|d| d.map(|v| v as f32))
            .collect()),
    }
}

pub fn run(
    args: &RenderArgs,
    layer: &SpecFile,
    prepared: &Prepared,
    output: &Path,
    channels: Channels,
) -> Result<ExitCode> {
    let spec = prepared.spec();
    spec.check_derivatives()?;
    let strength = layer.strength()?;
    let axes = image_axes(spec.size, spec.dims);
    let mut writer = match channels {
        Channels::Normal => create_normal_writer(output, spec.size)?,
        _ => create_gradient_writer(output, spec.size, spec.dims)?,
    };
    let (mut engine, notice) = Engine::open(layer.backend.unwrap_or_default(), spec)?;
    if let Some(notice) = notice {
        eprintln!("gpu-noise: {notice}");
    }
    let start = Instant::now();
    let bar = crate::progress::texel_bar(
        spec.size.texels(),
        spec.size.texels(),
        args.quiet,
        "rendering",
    );
    for band in Window::full(spec.size).bands(BAND_TEXELS) {
        let d = band_gradients(&mut engine, prepared, band)?;
        let values: Vec<f32> = match channels {
            Channels::Normal => d
                .iter()
                .flat_map(|d| tangent_normal(*d, strength))
                .collect(),
            _ => d.iter().flat_map(|d| d[..=axes].to_vec()).collect(),
        };
        writer.write_rows(&values)?;
        bar.inc(band.texels());
    }
    writer.finish()?;
    bar.finish_and_clear();
    eprintln!(
        "gpu-noise: wrote {} ({channels} of {}x{} {} {}D) in {:.3} s",
        output.display(),
        spec.size.width,
        spec.size.height,
        spec.kind,
        spec.dims,
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
