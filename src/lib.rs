//! # gpu-noise
//!
//! Procedural noise rendered by WGSL compute shaders through wgpu, with an f64 CPU twin that
//! checks every texel. The conventions (texel to point, seeds, gradients, fractal sums, tiling,
//! output levels) are in `docs/CONVENTIONS.md`.
//!
//! Three ways in:
//! - [`Renderer::new`] on your own `wgpu::Device`: record into your encoder, into your storage
//!   buffers and textures (`R32Float`, `Rgba8Unorm` through a colormap, `R16Unorm`
//!   heightmaps); nothing comes back to the host unless you ask.
//! - [`wgsl::noise_module`] + [`gpu::NoiseBindings`]: call `gn_fractal_noise(p)` from your own
//!   shaders.
//! - [`Renderer::open`] + [`Renderer::render`] (or [`simd::render_f32`], the GPU's f32 kernels
//!   in SIMD lanes on the CPU, or [`cpu::render_f32`], the twin): images on the host.
//!
//! ```
//! use gpu_noise::{Fractal, Kind, NoiseSpec};
//! let mut spec = NoiseSpec::new(Kind::Perlin, 3);
//! spec.fractal = Fractal::Fbm;
//! spec.octaves = 6;
//! let prepared = spec.validate()?; // typed errors name the field: `octaves: must be in 1..=16`
//! let reference = gpu_noise::cpu::render_f64(&prepared)?; // the f64 oracle
//! assert_eq!(reference.len(), 256 * 256);
//! assert!(reference.iter().all(|v| (-1.0..=1.0).contains(v)));
//! # Ok::<(), gpu_noise::Error>(())
//! ```
//!
//! Features: `parallel` (rayon rows on the CPU), `serde`, `export` (streaming PNG, OpenEXR,
//! TIFF, `.f32`, `.npy` writers), `cli` (the `gpu-noise` tool; the default).

#![warn(missing_docs)]

/// The README's Rust examples compile as doctests, so the front page cannot drift from the API.
#[cfg(all(doctest, feature = "export"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod colormap;
pub mod cpu;
pub mod error;
#[cfg(feature = "export")]
pub mod export;
pub mod fixed;
pub mod gpu;
pub mod graph;
pub mod simd;
pub mod spec;
pub mod tables;
pub mod tolerance;
pub mod wgsl;
pub mod window;

pub use colormap::Colormap;
pub use error::{Error, Result};
pub use gpu::{AdapterChoice, NoiseBindings, Range, Renderer, RendererOptions, TextureOutput};
pub use graph::{Graph, GraphBuilder, PreparedGraph};
pub use spec::{
    CellReturn, Chunk, Distance, Fractal, Interp, Kind, LatticeKind, NoiseSpec, Prepared, Size,
};
pub use window::Window;
