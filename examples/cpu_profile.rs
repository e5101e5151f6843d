//! Renders a 2048x2048 perlin image on the CPU backend; for profilers (`perf record`).
//! Usage: cargo run --release --example cpu_profile -- [dims] [octaves]
fn main() {
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.parse::<u32>().unwrap_or(2));
    let dims = args.next().unwrap_or(2);
    let octaves = args.next().unwrap_or(6);
    let mut spec = gpu_noise::NoiseSpec::new(gpu_noise::Kind::Perlin, dims);
    spec.size = gpu_noise::Size::new(2048, 2048, 1);
    if octaves > 1 {
        spec.fractal = gpu_noise::Fractal::Fbm;
        spec.octaves = octaves;
    }
    let prep = match spec.validate() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let start = std::time::Instant::now();
    let image = gpu_noise::cpu::render_f32(&prep);
    let secs = start.elapsed().as_secs_f64();
    let samples = f64::from(2048 * 2048 * octaves);
    println!(
        "{:.1} Msamples/s ({} texels, checksum {})",
        samples / secs / 1e6,
        image.len(),
        image.iter().map(|&v| f64::from(v)).sum::<f64>()
    );
}
