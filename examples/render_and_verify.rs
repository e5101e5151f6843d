//! Render on the GPU, check against the f64 reference, write a 16-bit PNG.
//! `cargo run --release --example render_and_verify` (the README's library example).

use gpu_noise::export::{ExportOptions, Format, write_image};
use gpu_noise::low_level::tolerance::{compare, gpu_error_bound};
use gpu_noise::{
    Fractal, Kind, NoiseSpec, Renderer, Size, Window, gpu::AdapterChoice, gpu::RendererOptions,
};

fn main() -> Result<(), gpu_noise::Error> {
    let mut spec = NoiseSpec::new(Kind::Perlin, 3);
    spec.size = Size::new(1024, 1024, 1);
    spec.fractal = Fractal::Fbm;
    spec.octaves = 6;
    let prepared = spec.validate()?; // a typed error naming the bad field
    let choice = AdapterChoice::from_env()?; // WGPU_BACKEND, WGPU_ADAPTER_NAME
    // Once; reuse it every frame. Renderer::new(&device, &queue, ..) uses a device of yours.
    let mut renderer = pollster::block_on(Renderer::open(&choice, RendererOptions::default()))?;
    // Any window of the image; here all of it. f32, x fastest, then y, then z.
    let image: Vec<f32> = renderer.read(&prepared, Window::full(prepared.size()))?;
    let reference: Vec<f64> = gpu_noise::cpu::render_f64(&prepared)?;
    let cmp = compare(&image, &reference);
    let bound = gpu_error_bound(&spec);
    println!(
        "max_abs_err {:e}, rmse {:e}, bound {:e}",
        cmp.max_abs_err, cmp.rmse, bound.value
    );
    let mut options = ExportOptions::for_spec(&spec);
    options.bits = 16;
    write_image(
        "perlin-fbm.png".as_ref(),
        &image,
        spec.size,
        Format::Png,
        &options,
    )?;
    Ok(())
}
