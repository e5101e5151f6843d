//! The `backend` field of a spec file: which engine the `gpu-noise` tool renders with.

use serde::{Deserialize, Serialize};

/// `auto`, `gpu`, `simd` or `cpu` (the tool's `--backend`); the library's own renderers are
/// chosen by calling them, so only spec files and the tool read this.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum BackendChoice {
    /// A hardware GPU when there is one, else the SIMD CPU backend; the f64 CPU reference
    /// where the spec is beyond f32's precision
    #[default]
    Auto,
    /// Any adapter, software ones (llvmpipe, lavapipe) included; an error if there is none
    Gpu,
    /// The SIMD CPU backend: the GPU's f32 kernels in 16 lanes (AVX-512, AVX2 or baseline,
    /// detected), multi-threaded; `sample` and derivatives take the f64 reference
    Simd,
    /// The multi-threaded f64 CPU reference
    Cpu,
}
