//! Shared test helpers: one Renderer for all GPU tests, and small specs.

use std::sync::{Mutex, MutexGuard, OnceLock};

use gpu_noise::{AdapterChoice, Kind, NoiseSpec, Renderer, Size};

pub const OPT_OUT: &str = "GPU_NOISE_SKIP_GPU_TESTS";

/// The shared renderer, or `None` only when the explicit opt-out is set.
/// Without an adapter this panics with instructions, so the test fails rather than skips.
pub fn renderer() -> Option<MutexGuard<'static, Renderer>> {
    if std::env::var(OPT_OUT).as_deref() == Ok("1") {
        eprintln!("GPU test not run: {OPT_OUT}=1 is set (CI never sets it)");
        return None;
    }
    static RENDERER: OnceLock<Mutex<Renderer>> = OnceLock::new();
    let cell = RENDERER.get_or_init(|| match Renderer::new(&AdapterChoice::from_env()) {
        Ok(r) => Mutex::new(r),
        Err(e) => panic!(
            "GPU tests need an adapter and none could be opened: {e}\n\
                 (set {OPT_OUT}=1 to opt out explicitly; CI never does)"
        ),
    });
    Some(cell.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
}

pub fn spec(kind: Kind, dims: u32, w: u32, h: u32) -> NoiseSpec {
    let mut s = NoiseSpec::new(kind, dims);
    s.size = Size::new(w, h, 1);
    s
}

/// Writes a GPU and a CPU image side by side under target/ so a person can look at a failure.
pub fn dump_failure(name: &str, spec: &NoiseSpec, gpu: &[f32], cpu: &[f64]) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gpu-vs-cpu-failures");
    let _ = std::fs::create_dir_all(&dir);
    let cpu32: Vec<f32> = cpu.iter().map(|&v| v as f32).collect();
    let range = spec.fractal.nominal_range();
    let size = gpu_noise::Size::new(spec.size.width, spec.size.height * spec.size.depth, 1);
    for (suffix, data) in [("gpu", gpu), ("cpu", &cpu32[..])] {
        let path = dir.join(format!("{name}-{suffix}.png"));
        let _ = gpu_noise::export::write_image(
            &path,
            data,
            size,
            gpu_noise::export::Format::Png { bits: 8 },
            range,
        );
    }
    dir.display().to_string()
}
