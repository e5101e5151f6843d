//! The WGSL sources: the noise library (`shaders/noise/`), which a caller's own shader can
//! include, and the crate's kernels (`shaders/kernels/`), which include it.
//!
//! To call the noise from your own shader, prepend [`noise_module`] to it, bind a
//! [`NoiseBindings`](crate::gpu::NoiseBindings) at the group you chose, and set the pipeline's
//! override constants from [`Job::pipeline_constants`](crate::Job::pipeline_constants).
//! Every name the module declares carries the prefix `gn_` (`GN_` for names in capitals), so
//! your shader keeps its own `lerp`, `value` or `hash`. Its entry points:
//!
//! | function | what it returns |
//! | --- | --- |
//! | `gn_fractal_noise_texel(t: vec3<u32>) -> f32` | the prepared spec's noise at image texel `t`, exact at any offset (CONVENTIONS §1) |
//! | `gn_fractal_noise(p: vec4<f32>) -> f32` | the noise at `p` in lattice units (split in f32: precise near the origin only) |
//! | `gn_fractal_noise_texel_d(t: vec3<u32>) -> vec4<f32>` | the value and its gradient per texel at `t` (CONVENTIONS §12) |
//! | `gn_graph_value(t: vec3<u32>) -> f32` | a graph's output at `t` (`PreparedGraph::wgsl_module`, CONVENTIONS §13) |
//!
//! ```
//! let source = gpu_noise::wgsl::noise_module(1) + r#"
//!     @group(0) @binding(0) var<storage, read_write> heights: array<f32>;
//!     @compute @workgroup_size(64)
//!     fn main(@builtin(global_invocation_id) id: vec3<u32>) {
//!         let p = vec4<f32>(f32(id.x) / 32.0, 0.5, 0.0, 0.0);
//!         heights[id.x] = gn_fractal_noise(p);
//!     }
//!     fn lerp(a: f32, b: f32) -> f32 { // the host's own: the module's is gn_lerp
//!         return a + b;
//!     }
//! "#;
//! gpu_noise::wgsl::validate(&source).expect("valid WGSL");
//! ```

pub(crate) mod batches;
pub(crate) mod codegen;
mod codegen_d;
mod constants;
mod dispatch;
mod emit;
mod finite;
pub(crate) mod host;
mod namespace;
pub(crate) mod sources;
pub mod tables;

pub use namespace::{PREFIX, prefixed};

/// The noise library with its bindings at `@group(group)`, every name prefixed (`gn_`, see the
/// module's docs). From your code call `gn_fractal_noise_texel(t)` (t a `vec3<u32>` texel of
/// the prepared spec's image: exact at any offset, CONVENTIONS §1) or `gn_fractal_noise(p)` (p
/// a `vec4<f32>` in lattice units: split in f32, so precise near the origin only).
pub fn noise_module(group: u32) -> String {
    sources::namespaced(
        &sources::library_source(group, true, sources::STORAGE_TABLES),
        "",
    )
}

/// Checks WGSL with naga, as wgpu will (your shader with [`noise_module`] prepended, say):
/// [`Error::Shader`](crate::Error::Shader) holds every error with its source span.
pub fn validate(source: &str) -> crate::Result<()> {
    sources::parse_module(source)
        .map(drop)
        .map_err(crate::Error::Shader)
}
