//! Which backend renders a Python call, and the render itself in bands so that Python can
//! interrupt it (Ctrl-C) between bands while the GIL is released during each.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{MutexGuard, OnceLock};

use gpu_noise::gpu::{AdapterChoice, RendererOptions};
use gpu_noise::low_level::gpu::{best_adapter, new_instance, shared_renderer};
use gpu_noise::low_level::text::quoted;
use gpu_noise::{Error, Job, Renderer, Result, Window, cpu, simd};

/// `backend=`: the tool's `--backend` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The f64 twin, rounded to f32.
    Cpu,
    /// The SIMD lanes (the GPU's f32 arithmetic on the CPU), gradients included.
    Simd,
    /// The best GPU adapter, software ones included.
    Gpu,
}

impl Backend {
    /// `auto` resolves as the tool's does: a hardware GPU when there is one, else SIMD (the
    /// twin where the GPU's f32 cannot render the spec meaningfully).
    pub fn choose(name: &str, job: &Job) -> Result<Backend> {
        let backend = match name {
            "cpu" => return Ok(Backend::Cpu),
            "simd" => Backend::Simd,
            "gpu" => Backend::Gpu,
            "auto" => {
                if job.check_gpu_precision().is_err() {
                    return Ok(Backend::Cpu);
                }
                if job.check_gpu_kernel().is_err() {
                    return Ok(Backend::Simd);
                }
                if hardware_gpu()? {
                    Backend::Gpu
                } else {
                    Backend::Simd
                }
            }
            other => {
                return Err(Error::InvalidSpec {
                    field: "backend",
                    reason: format!("must be auto, gpu, simd or cpu, got {}", quoted(other)),
                });
            }
        };
        job.check_gpu_precision()?;
        if backend == Backend::Gpu {
            job.check_gpu_kernel()?;
        }
        Ok(backend)
    }

    /// `window` of `job`'s image into `out`: one f32 a texel, four with gradients.
    pub fn render_into(self, job: &Job, window: Window, out: &mut [f32]) -> Result<()> {
        match self {
            Backend::Cpu => cpu::render_window_into(job, window, out, |v| v as f32, &|_, _| {}),
            Backend::Simd => simd::render_window_into(job, window, out, &|_, _| {}),
            Backend::Gpu => {
                let mut renderer = renderer()?;
                let Some(renderer) = renderer.as_mut() else {
                    return Err(Error::InvalidSpec {
                        field: "backend",
                        reason: "the GPU renderer is gone".into(),
                    });
                };
                // Straight from each band's staging buffer into the numpy array's memory.
                renderer.read_into(job, window, out)
            }
        }
    }
}

/// Whether the best adapter is hardware (llvmpipe and lavapipe are slower than the SIMD lanes).
/// Asked once a process: the probe opens every backend's instance (55-59 ms and Mesa's notices
/// on stderr), which every `render` of a Dask graph's blocks paid again.
fn hardware_gpu() -> Result<bool> {
    static FOUND: OnceLock<bool> = OnceLock::new();
    if let Some(&found) = FOUND.get() {
        return Ok(found);
    }
    let choice = AdapterChoice::from_env()?;
    let instance = new_instance(&choice);
    PROBES.fetch_add(1, Ordering::Relaxed);
    let found =
        pollster::block_on(best_adapter(&instance, &choice)).is_some_and(|(_, s)| !s.software);
    Ok(*FOUND.get_or_init(|| found))
}

/// Adapter probes this process made for `auto` (`_adapter_probes()`, for the test that it is
/// one however many renders ask).
pub static PROBES: AtomicUsize = AtomicUsize::new(0);

/// One renderer per process: opening an adapter and building pipelines costs far more than a
/// small render.
fn renderer() -> Result<MutexGuard<'static, Option<Renderer>>> {
    shared_renderer(|choice| pollster::block_on(Renderer::open(choice, RendererOptions::default())))
}

/// About a million texels a band: a fraction of a second on any backend, so an interrupt is
/// felt at once, and large enough that the bands cost nothing against the render.
pub const BAND_TEXELS: u64 = 1 << 20;
