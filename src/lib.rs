//! # gpu-noise
//!
//! Procedural noise rendered by WGSL compute shaders through wgpu, with an f64 CPU twin that
//! checks every texel. See the README for the conventions (REFERENCE) and the CLI.
//!
//! ```no_run
//! use gpu_noise::{Kind, NoiseSpec, Fractal, Renderer};
//! let mut spec = NoiseSpec::new(Kind::Perlin, 2);
//! spec.fractal = Fractal::Fbm;
//! spec.octaves = 6;
//! let prepared = spec.validate()?;
//! let reference = gpu_noise::cpu::render_f64(&prepared); // the f64 oracle
//! let mut renderer = Renderer::new(&gpu_noise::gpu::AdapterChoice::from_env())?;
//! let image = renderer.render(&prepared)?; // Vec<f32>, x fastest
//! # Ok::<(), gpu_noise::Error>(())
//! ```

pub mod backend;
pub mod cpu;
pub mod error;
pub mod export;
pub mod spec;
pub mod spec_file;
pub mod tables;
pub mod tolerance;

pub use error::{Error, Result};
pub use spec::{Fractal, Interp, Kind, NoiseSpec, Prepared, Size};
pub mod gpu;
pub mod params;

pub use gpu::{AdapterChoice, Renderer};
