//! # gpu-noise
//!
//! Procedural noise rendered by WGSL compute shaders through wgpu, with an f64 CPU twin that
//! checks every texel. The conventions (texel to point, seeds, gradients, fractal sums, tiling,
//! output levels) are in `docs/CONVENTIONS.md`.
//!
//! The front is this page: what to render ([`NoiseSpec`] with [`Kind`], [`Fractal`] and
//! [`Size`], the rest of its enums in [`spec`]; or a [`Graph`]), the [`Job`] every backend runs
//! (placed in an image, a [`Window`] or a [`Chunk`]), the GPU [`Renderer`] (its options,
//! targets and bindings in [`gpu`]), the CPU twin ([`cpu`]) and its SIMD port ([`simd`]), the
//! WGSL module ([`wgsl`]), graphs ([`graph`]), exports (`export`), [`Colormap`] and the typed
//! [`Error`]. Everything else (limits, error bounds, the tool's JSON, the node table, the GPU's
//! host structs, tables, fixed-point frames, the exporters' plumbing) is in [`low_level`], as
//! vello does: reachable, but not what a user needs.
//!
//! Three ways in:
//! - [`Renderer::new`] on your own `wgpu::Device`: [`Renderer::record`] into your encoder, into
//!   your storage buffers and textures (`R32Float`, `Rgba8Unorm` through a colormap, `R16Unorm`
//!   heightmaps); nothing comes back to the host unless you ask.
//! - [`wgsl::noise_module`] + [`gpu::NoiseBindings`]: call `gn_fractal_noise(p)` from your own
//!   shaders.
//! - [`Renderer::open`] + [`Renderer::read`] (or [`simd::render_f32`], the GPU's f32 kernels
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
//! Features: `parallel` (rayon rows on the CPU), `serde` (and `low_level::spec_file`, the tool's
//! JSON), `export` (streaming PNG, OpenEXR,
//! TIFF, `.f32`, `.npy` writers), `cli` (the `gpu-noise` tool; the default).

#![warn(missing_docs)]
// On docs.rs (`--cfg docsrs`, nightly) every item gated on a feature is labelled with it.
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The Rust examples of the README and of the book's chapters (`docs/`) compile, and run unless
/// marked `no_run`, as doctests, so neither can drift from the API. A suite test
/// (`docs_layout`) checks that every chapter holding Rust is listed here.
#[cfg(all(doctest, feature = "export"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
#[cfg(all(doctest, feature = "export"))]
#[doc = include_str!("../docs/library.md")]
pub struct BookLibraryDoctests;
#[cfg(all(doctest, feature = "export"))]
#[doc = include_str!("../docs/graphs.md")]
pub struct BookGraphsDoctests;
#[cfg(all(doctest, feature = "export"))]
#[doc = include_str!("../docs/worlds.md")]
pub struct BookWorldsDoctests;

/// The tiers hold: the front does not reach the internals, which only `low_level` shows.
///
/// ```compile_fail
/// use gpu_noise::gpu::pipelines::PipelineCache;
/// ```
/// ```compile_fail
/// use gpu_noise::cpu::common::lerp;
/// ```
/// ```compile_fail
/// use gpu_noise::tables::PERM_LEN;
/// ```
/// ```compile_fail
/// let _ = gpu_noise::wgsl::kernel_source();
/// ```
/// ```compile_fail
/// let _ = gpu_noise::limits::MAX_SIDE;
/// ```
/// ```compile_fail
/// let _ = gpu_noise::spec::MAX_SIDE;
/// ```
/// ```compile_fail
/// use gpu_noise::gpu::pipelines::NoiseKey;
/// ```
/// ```
/// use gpu_noise::low_level::{gpu::RenderParams, tables::PERM_LEN, wgsl::kernel_source};
/// use gpu_noise::{gpu::Target, low_level::limits::MAX_SIDE, spec::Interp};
/// assert_eq!(MAX_SIDE, 1 << 24);
/// assert_eq!(Interp::Quintic.to_string(), "quintic");
/// let _: Option<Target<'_>> = None;
/// assert_eq!(PERM_LEN, 512);
/// assert!(kernel_source().contains("fn gn_fractal_noise("));
/// let _ = std::mem::size_of::<RenderParams>();
/// ```
#[cfg(doctest)]
pub struct ApiTiers;

mod colormap;
pub mod cpu;
mod error;
#[cfg(feature = "export")]
pub mod export;
mod fixed;
pub mod gpu;
pub mod graph;
mod job;
mod kinds;
mod layout;
mod levels;
mod limits;
pub mod low_level;
pub mod simd;
pub mod spec;
#[cfg(feature = "serde")]
mod spec_file;
mod tables;
mod text;
mod tolerance;
pub mod wgsl;
mod window;

/// The wgpu this crate is built against: its types appear in [`Renderer`]'s methods, so a
/// caller can name the same version.
pub use wgpu;

pub use colormap::Colormap;
pub use error::{Error, Result};
pub use gpu::Renderer;
pub use graph::Graph;
pub use job::{Chunk, Job};
pub use spec::{Fractal, Kind, NoiseSpec, Size};
pub use window::Window;
