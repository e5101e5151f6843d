//! `--backend auto|gpu|simd|cpu`: which engine renders, and why.

use gpu_noise::low_level::gpu::new_instance;
use gpu_noise::low_level::gpu::{Entry, LowLevelRenderer, best_adapter, open_on_adapter};
use gpu_noise::{
    Job, Renderer, Result, Window, cpu, gpu::AdapterChoice, gpu::RendererOptions, simd,
};

pub use gpu_noise::low_level::spec_file::BackendChoice;

/// What `auto` found.
pub enum HardwareGpu {
    /// A hardware adapter, opened, and its name and backend.
    Found(Engine, String),
    /// Only a software adapter (llvmpipe, lavapipe), by name.
    SoftwareOnly(String),
    /// No adapter at all.
    None,
}

/// The engine a command will use.
pub enum Engine {
    Gpu(Box<Renderer>),
    Simd,
    Cpu,
}

impl Engine {
    /// Resolves the choice for `job`, saying on stderr why when `auto` had to decide (a
    /// status line: `--quiet` hides it).
    pub fn open(choice: BackendChoice, job: &Job) -> Result<Engine> {
        let (engine, notice) = Self::choose(choice, job)?;
        if let Some(notice) = notice {
            status!("gpu-noise: {notice}");
        }
        Ok(engine)
    }

    fn choose(choice: BackendChoice, job: &Job) -> Result<(Engine, Option<String>)> {
        let adapters = AdapterChoice::from_env()?;
        match choice {
            BackendChoice::Cpu => Ok((Engine::Cpu, None)),
            BackendChoice::Simd => {
                job.check_gpu_precision()?;
                Ok((Engine::Simd, None))
            }
            BackendChoice::Gpu => {
                job.check_gpu_precision()?;
                job.check_gpu_kernel()?;
                Ok((Self::any_gpu(&adapters)?, None))
            }
            BackendChoice::Auto => Self::auto(&adapters, job),
        }
    }

    /// Compiles the GPU's pipelines for `job` before anything is timed: how long that took,
    /// when anything was compiled (a cold pipeline cache can take seconds on a software
    /// adapter), so that a summary reports the build and the render apart.
    pub fn prepare(&mut self, job: &Job) -> Result<Option<std::time::Duration>> {
        let Engine::Gpu(renderer) = self else {
            return Ok(None);
        };
        let start = std::time::Instant::now();
        let spinner = crate::progress::spinner("building the GPU pipeline");
        // The one kernel `render_band` dispatches: a large graph's program takes seconds a
        // kernel to compile on a software adapter, and every other kernel would be unused.
        let entry = if job.has_gradient() {
            Entry::Gradient
        } else {
            Entry::Buffer
        };
        let built = renderer.prepare_entries(job, &[entry]).and_then(|built| {
            // Mesa's software drivers compile at the first dispatch, not at pipeline creation:
            // one texel renders under the spinner, so the build shows as the build (a nested
            // fractal graph's 5 s on lavapipe sat under an empty progress bar).
            if built > 0 {
                renderer.read(job, Window::new([0; 3], gpu_noise::Size::new(1, 1, 1)))?;
            }
            Ok(built)
        });
        spinner.finish_and_clear();
        Ok((built? > 0).then(|| start.elapsed()))
    }

    /// `band` of `job`'s image: one f32 a texel, four with gradients.
    pub fn render_band(&mut self, job: &Job, band: Window) -> Result<Vec<f32>> {
        match self {
            Engine::Gpu(renderer) => renderer.read(job, band),
            Engine::Simd => simd::render_window_f32(job, band),
            Engine::Cpu => cpu::render_window_f32(job, band),
        }
    }

    /// [`render_band`](Self::render_band) into `out`, in the memory it holds. The SIMD lanes
    /// write every value, so a buffer handed back by the band's writer is not zeroed again:
    /// a new 16 MiB one was, each band (after the first is freed the allocator serves that
    /// size from its heap, and calloc then clears it: 5% of a one-thread render in perf).
    pub fn render_band_into(&mut self, job: &Job, band: Window, out: &mut Vec<f32>) -> Result<()> {
        match self {
            Engine::Simd => {
                band.check_in_memory()?;
                out.resize(band.texels() as usize * cpu::channels(job), 0.0);
                simd::render_window_into(job, band, out, &|_, _| {})
            }
            _ => {
                *out = self.render_band(job, band)?;
                Ok(())
            }
        }
    }

    /// The best adapter, software ones included.
    pub fn any_gpu(adapters: &AdapterChoice) -> Result<Engine> {
        let renderer = pollster::block_on(Renderer::open(adapters, RendererOptions::default()))?;
        Ok(Engine::Gpu(Box::new(renderer)))
    }

    /// A hardware GPU, if there is one (for `auto`).
    pub fn hardware_gpu(adapters: &AdapterChoice) -> Result<HardwareGpu> {
        let instance = new_instance(adapters);
        match pollster::block_on(best_adapter(&instance, adapters)) {
            Some((adapter, summary)) if !summary.software => {
                let name = format!("{}, {:?}", summary.info.name, summary.info.backend);
                let renderer = pollster::block_on(open_on_adapter(
                    adapter,
                    summary,
                    RendererOptions::default(),
                ))?;
                Ok(HardwareGpu::Found(Engine::Gpu(Box::new(renderer)), name))
            }
            Some((_, summary)) => Ok(HardwareGpu::SoftwareOnly(summary.info.name)),
            None => Ok(HardwareGpu::None),
        }
    }

    fn auto(adapters: &AdapterChoice, job: &Job) -> Result<(Engine, Option<String>)> {
        if let Err(e) = job.check_gpu_precision() {
            let why = format!(
                "backend auto: CPU, because the GPU's f32 cannot render this spec \
                               meaningfully ({e})"
            );
            return Ok((Engine::Cpu, Some(why)));
        }
        let isa = simd::InstructionSet::detect().name();
        if let Err(e) = job.check_gpu_kernel() {
            let why = format!("backend auto: SIMD CPU ({isa}), because {e}");
            return Ok((Engine::Simd, Some(why)));
        }
        Ok(match Self::hardware_gpu(adapters)? {
            HardwareGpu::Found(engine, name) => {
                (engine, Some(format!("backend auto: GPU ({name})")))
            }
            HardwareGpu::SoftwareOnly(name) => (
                Engine::Simd,
                Some(format!(
                    "backend auto: SIMD CPU ({isa}), because the only GPU adapter is software \
                     ({name}), slower than native code here; --backend gpu uses it anyway"
                )),
            ),
            HardwareGpu::None => (
                Engine::Simd,
                Some(format!(
                    "backend auto: SIMD CPU ({isa}), because no GPU adapter was found \
                     (`gpu-noise info` lists adapters)"
                )),
            ),
        })
    }

    pub fn name(&self) -> String {
        match self {
            Engine::Gpu(r) => format!("GPU ({})", r.adapter_name()),
            Engine::Simd => format!(
                "SIMD CPU ({}, {} threads)",
                simd::InstructionSet::detect().name(),
                gpu_noise::cpu::threads()
            ),
            Engine::Cpu => format!("CPU ({} threads)", gpu_noise::cpu::threads()),
        }
    }
}
