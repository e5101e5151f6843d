//! `--backend auto|gpu|cpu`: which engine renders, and why.

use gpu_noise::gpu::adapter::new_instance;
use gpu_noise::gpu::best_adapter;
use gpu_noise::tolerance::check_gpu_precision;
use gpu_noise::{AdapterChoice, NoiseSpec, Renderer, RendererOptions, Result};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum BackendChoice {
    /// A hardware GPU when there is one and the spec is within its precision, else the CPU
    #[default]
    Auto,
    /// Any adapter, software ones (llvmpipe, lavapipe) included; an error if there is none
    Gpu,
    /// The multi-threaded f64 CPU reference
    Cpu,
}

/// The engine a command will use.
pub enum Engine {
    Gpu(Box<Renderer>),
    Cpu,
}

impl Engine {
    /// Resolves the choice for `spec`; the notice says why when `auto` had to decide.
    pub fn open(choice: BackendChoice, spec: &NoiseSpec) -> Result<(Engine, Option<String>)> {
        let adapters = AdapterChoice::from_env()?;
        match choice {
            BackendChoice::Cpu => Ok((Engine::Cpu, None)),
            BackendChoice::Gpu => {
                check_gpu_precision(spec)?;
                let renderer =
                    pollster::block_on(Renderer::open(&adapters, RendererOptions::default()))?;
                Ok((Engine::Gpu(Box::new(renderer)), None))
            }
            BackendChoice::Auto => Self::auto(&adapters, spec),
        }
    }

    fn auto(adapters: &AdapterChoice, spec: &NoiseSpec) -> Result<(Engine, Option<String>)> {
        if let Err(e) = check_gpu_precision(spec) {
            let why = format!(
                "backend auto: CPU, because the GPU's f32 cannot render this spec \
                               meaningfully ({e})"
            );
            return Ok((Engine::Cpu, Some(why)));
        }
        let instance = new_instance(adapters);
        match pollster::block_on(best_adapter(&instance, adapters)) {
            Some((adapter, summary)) if !summary.software => {
                let backend = summary.info.backend;
                let name = summary.info.name.clone();
                let renderer = pollster::block_on(Renderer::from_adapter(
                    adapter,
                    summary,
                    RendererOptions::default(),
                ))?;
                Ok((
                    Engine::Gpu(Box::new(renderer)),
                    Some(format!("backend auto: GPU ({name}, {backend:?})")),
                ))
            }
            Some((_, summary)) => Ok((
                Engine::Cpu,
                Some(format!(
                    "backend auto: CPU, because the only GPU adapter is software ({}), slower \
                     than native code here; --backend gpu uses it anyway",
                    summary.info.name
                )),
            )),
            None => Ok((
                Engine::Cpu,
                Some(
                    "backend auto: CPU, because no GPU adapter was found (`gpu-noise info` \
                     lists adapters)"
                        .to_string(),
                ),
            )),
        }
    }

    pub fn name(&self) -> String {
        match self {
            Engine::Gpu(r) => format!("GPU ({})", r.adapter_name()),
            Engine::Cpu => format!("CPU ({} threads)", gpu_noise::cpu::threads()),
        }
    }
}
