//! `--backend auto|gpu|cpu`: which engine renders, and why.

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::gpu::{AdapterChoice, Renderer, RendererOptions, adapter::new_instance, best_adapter};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum BackendChoice {
    /// A hardware GPU when there is one, otherwise the CPU backend.
    #[default]
    Auto,
    /// Any adapter, software ones (llvmpipe, lavapipe) included; an error if there is none.
    Gpu,
    /// The multi-threaded f64 CPU reference.
    Cpu,
}

/// The engine a command will use, with a one-line reason for `auto`.
pub enum Engine {
    Gpu(Box<Renderer>),
    Cpu,
}

impl Engine {
    /// Resolves the choice; `notice` is set when `auto` had to decide.
    pub fn open(
        choice: BackendChoice,
        adapters: &AdapterChoice,
    ) -> Result<(Engine, Option<String>)> {
        match choice {
            BackendChoice::Cpu => Ok((Engine::Cpu, None)),
            BackendChoice::Gpu => {
                let renderer = Renderer::with_options(adapters, RendererOptions::default())?;
                Ok((Engine::Gpu(Box::new(renderer)), None))
            }
            BackendChoice::Auto => {
                let instance = new_instance(adapters);
                match best_adapter(&instance, adapters) {
                    Some((adapter, summary)) if !summary.software => {
                        let backend = summary.info.backend;
                        let renderer =
                            Renderer::from_adapter(adapter, summary, RendererOptions::default())?;
                        let name = renderer.adapter().info.name.clone();
                        Ok((
                            Engine::Gpu(Box::new(renderer)),
                            Some(format!("backend auto: GPU ({name}, {backend:?})")),
                        ))
                    }
                    Some((_, summary)) => Ok((Engine::Cpu, Some(format!(
                        "backend auto: CPU, because the only GPU adapter is software ({}), slower \
                         than native code here; --backend gpu uses it anyway",
                        summary.info.name
                    )))),
                    None => Ok((Engine::Cpu, Some(
                        "backend auto: CPU, because no GPU adapter was found (`gpu-noise info` \
                         lists adapters)"
                            .to_string(),
                    ))),
                }
            }
        }
    }

    pub fn name(&self) -> String {
        match self {
            Engine::Gpu(r) => format!(
                "GPU ({}, {:?})",
                r.adapter().info.name,
                r.adapter().info.backend
            ),
            Engine::Cpu => format!("CPU ({} threads)", rayon::current_num_threads()),
        }
    }
}
