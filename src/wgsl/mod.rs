//! The WGSL sources: the noise library (`shaders/noise/`), which a caller's own shader can
//! include, and the crate's kernels (`shaders/kernels/`), which include it.
//!
//! To call the noise from your own shader, prepend [`noise_module`] to it, bind a
//! [`NoiseBindings`](crate::gpu::NoiseBindings) at the group you chose, and set the pipeline's
//! override constants from [`Prepared::pipeline_constants`](crate::Prepared::pipeline_constants).
//! Every name the module declares carries the prefix `gn_` (`GN_` for names in capitals), so
//! your shader keeps its own `lerp`, `value` or `hash`. Its entry points:
//!
//! | function | what it returns |
//! | --- | --- |
//! | `gn_fractal_noise_texel(t: vec3<u32>) -> f32` | the prepared spec's noise at image texel `t`, exact at any offset (CONVENTIONS §1) |
//! | `gn_fractal_noise(p: vec4<f32>) -> f32` | the noise at `p` in lattice units (split in f32: precise near the origin only) |
//! | `gn_fractal_noise_texel_d(t: vec3<u32>) -> vec4<f32>` | the value and its gradient per texel at `t` (CONVENTIONS §12) |
//! | `gn_graph_value(t: vec3<u32>) -> f32` | a graph's output at `t` ([`graph_module`], CONVENTIONS §13) |
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

mod constants;
mod namespace;

pub use namespace::{PREFIX, prefixed};

/// The noise library's files, in dependency order (later files use earlier ones).
pub const NOISE_FILES: [(&str, &str); 11] = [
    (
        "noise/common.wgsl",
        include_str!("../../shaders/noise/common.wgsl"),
    ),
    (
        "noise/access.wgsl",
        include_str!("../../shaders/noise/access.wgsl"),
    ),
    (
        "noise/hash.wgsl",
        include_str!("../../shaders/noise/hash.wgsl"),
    ),
    (
        "noise/perlin.wgsl",
        include_str!("../../shaders/noise/perlin.wgsl"),
    ),
    (
        "noise/gradient.wgsl",
        include_str!("../../shaders/noise/gradient.wgsl"),
    ),
    (
        "noise/value.wgsl",
        include_str!("../../shaders/noise/value.wgsl"),
    ),
    (
        "noise/simplex.wgsl",
        include_str!("../../shaders/noise/simplex.wgsl"),
    ),
    (
        "noise/cellular.wgsl",
        include_str!("../../shaders/noise/cellular.wgsl"),
    ),
    (
        "noise/impulse.wgsl",
        include_str!("../../shaders/noise/impulse.wgsl"),
    ),
    (
        "noise/derivative.wgsl",
        include_str!("../../shaders/noise/derivative.wgsl"),
    ),
    (
        "noise/fractal.wgsl",
        include_str!("../../shaders/noise/fractal.wgsl"),
    ),
];

/// The crate's kernel files, appended to the library.
pub const KERNEL_FILES: [(&str, &str); 3] = [
    (
        "kernels/levels.wgsl",
        include_str!("../../shaders/kernels/levels.wgsl"),
    ),
    (
        "kernels/render.wgsl",
        include_str!("../../shaders/kernels/render.wgsl"),
    ),
    (
        "kernels/reduce.wgsl",
        include_str!("../../shaders/kernels/reduce.wgsl"),
    ),
];

/// The bind group at which the crate's kernels bind the noise library.
pub const KERNEL_NOISE_GROUP: u32 = 1;
/// Invocations per workgroup; equals `WORKGROUP_SIZE` in render.wgsl (checked through naga).
pub const WORKGROUP_SIZE: u32 = 64;
/// Texel kernels run workgroups of TILE_SIZE x TILE_SIZE x 1 over a window's x, y and z;
/// equals `TILE_SIZE` in render.wgsl.
pub const TILE_SIZE: u32 = 8;
/// Workgroups of the first min/max pass; equals `REDUCE_GROUPS` in reduce.wgsl.
pub const REDUCE_GROUPS: u32 = 256;

/// The noise library with its bindings at `@group(group)`, every name prefixed (`gn_`, see the
/// module's docs). From your code call `gn_fractal_noise_texel(t)` (t a `vec3<u32>` texel of
/// the prepared spec's image: exact at any offset, CONVENTIONS §1) or `gn_fractal_noise(p)` (p
/// a `vec4<f32>` in lattice units: split in f32, so precise near the origin only).
pub fn noise_module(group: u32) -> String {
    namespaced(&library_source(group, NOISE_FILES.iter()), "")
}

/// `const NOISE_GROUP`, the generated constants and then `files`, unprefixed.
fn library_source<'a>(group: u32, files: impl Iterator<Item = &'a (&'a str, &'a str)>) -> String {
    let mut source = format!("const NOISE_GROUP: u32 = {group}u;\n");
    source.push_str(&constants::library_constants());
    for (_, text) in files {
        source.push_str(text);
        source.push('\n');
    }
    source
}

/// `library + tail` with every name `library` declares prefixed; `tail` (the crate's kernels)
/// uses the library's names as written and keeps its own.
fn namespaced(library: &str, tail: &str) -> String {
    let names = namespace::declared_names(library);
    namespace::rename(&format!("{library}{tail}"), &names)
}

/// The fixed parts of graphs (CONVENTIONS §13): the accessors that replace
/// `noise/access.wgsl` (each noise node reads its own lattice mode, interpolation and kind
/// state) and the functions the generated code calls.
pub const GRAPH_FILES: [(&str, &str); 2] = [
    (
        "graph/access.wgsl",
        include_str!("../../shaders/graph/access.wgsl"),
    ),
    (
        "graph/graph.wgsl",
        include_str!("../../shaders/graph/graph.wgsl"),
    ),
];

/// The crate's graph kernel: bindings at group 0 and the entry point.
pub const GRAPH_KERNEL: &str = include_str!("../../shaders/graph/kernel.wgsl");
/// A graph in a caller's shader: the state's binding beside the library's.
pub const GRAPH_MODULE: &str = include_str!("../../shaders/graph/module.wgsl");

/// The noise library (without its single-kind accessors) at `group`, the graph files, and
/// `generated` (from `graph::codegen`), unprefixed.
fn graph_library(group: u32, generated: &str) -> String {
    let files = NOISE_FILES.iter().chain(&GRAPH_FILES);
    let mut source = library_source(group, files.filter(|(n, _)| *n != "noise/access.wgsl"));
    source.push_str(generated);
    source
}

/// A graph kernel of the crate: the library at group 1, the graph, and its entry point.
pub fn graph_source(generated: &str) -> String {
    namespaced(&graph_library(KERNEL_NOISE_GROUP, generated), GRAPH_KERNEL)
}

/// A graph as a module for a caller's shader, bindings at `group`, every name prefixed
/// (`gn_graph_value(t)`, CONVENTIONS §13).
pub fn graph_module(group: u32, generated: &str) -> String {
    namespaced(&(graph_library(group, generated) + GRAPH_MODULE), "")
}

/// The composed source of the crate's kernels: the prefixed library, then the kernels'
/// generated constants and files.
pub fn kernel_source() -> String {
    let mut tail = constants::kernel_constants();
    for (_, text) in KERNEL_FILES {
        tail.push_str(text);
        tail.push('\n');
    }
    namespaced(
        &library_source(KERNEL_NOISE_GROUP, NOISE_FILES.iter()),
        &tail,
    )
}

/// Parses and validates WGSL with naga, returning every error with its source span.
pub fn validate(source: &str) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(source)
        .map_err(|e| e.emit_to_string_with_path(source, "wgsl"))?;
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    );
    validator
        .validate(&module)
        .map_err(|e| e.emit_to_string_with_path(source, "wgsl"))?;
    Ok(module)
}

/// The kernels, parsed and validated.
pub fn validate_kernels() -> Result<naga::Module, String> {
    validate(&kernel_source())
}
