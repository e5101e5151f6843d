//! The crate's WGSL sources and how they are composed: the library's files, the kernels, the
//! graph files, and the namespacing step (the front, `wgsl::noise_module`, is built here too).

use super::tables::TableSpace;
use super::{constants, namespace};

/// The noise library's shared files (`shaders/noise/`); the kinds' own files come from their
/// table rows (`noise_files`). WGSL lets module-scope declarations come in any order.
pub const LIBRARY_FILES: [(&str, &str); 5] = [
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
        "noise/derivative.wgsl",
        include_str!("../../shaders/noise/derivative.wgsl"),
    ),
    (
        "noise/fractal.wgsl",
        include_str!("../../shaders/noise/fractal.wgsl"),
    ),
];

/// Every file of the noise library: the shared ones, then each kind's (`src/kinds/<family>/`),
/// named by kind.
pub fn noise_files() -> Vec<(&'static str, &'static str)> {
    let mut files = LIBRARY_FILES.to_vec();
    for (kind, info) in crate::kinds::Kind::ALL.iter().zip(crate::kinds::KINDS) {
        if !info.wgsl.is_empty() {
            files.push((kind.name(), info.wgsl));
        }
    }
    files
}

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
pub use super::constants::{REDUCE_GROUPS, TILE_SIZE, WORKGROUP_SIZE};

/// How a module binds the tables: their space and, in uniform space, its slots.
pub type Tables = (TableSpace, u32);

/// Read-only storage: what a caller's own shader binds.
pub const STORAGE_TABLES: Tables = (TableSpace::Storage, 0);

/// `const NOISE_GROUP`, the generated constants, the tables' bindings and accessors, the
/// library's files (without the single-kind accessors of `noise/access.wgsl` for graphs) and
/// the kinds' dispatch generated from their table, unprefixed.
pub(crate) fn library_source(group: u32, with_access: bool, (space, slots): Tables) -> String {
    library_declaring(group, with_access, &space.declarations(slots))
}

/// [`library_source`] with `tables`, the tables' bindings and accessors, written out.
fn library_declaring(group: u32, with_access: bool, tables: &str) -> String {
    let mut source = format!("const NOISE_GROUP: u32 = {group}u;\n");
    source.push_str(&constants::library_constants());
    source.push_str(&crate::kinds::kind_state_wgsl());
    source.push_str(tables);
    for (name, text) in noise_files() {
        if with_access || name != "noise/access.wgsl" {
            source.push_str(text);
            source.push('\n');
        }
    }
    if with_access {
        source.push_str(&crate::kinds::kind_accessors_wgsl("noise_state.kind"));
    }
    source.push_str(&super::dispatch::kind_dispatch());
    source.push_str(&super::dispatch::skew_functions());
    source
}

/// `library + tail` with every name `library` declares prefixed; `tail` (the crate's kernels)
/// uses the library's names as written and keeps its own.
pub(crate) fn namespaced(library: &str, tail: &str) -> String {
    let names = namespace::declared_names(library);
    namespace::rename(&format!("{library}{tail}"), &names)
}

/// The fixed parts of graphs (CONVENTIONS §13): the accessors that replace
/// `noise/access.wgsl` (each noise node reads its own lattice mode, interpolation and kind
/// state) and the functions the generated code calls.
pub const GRAPH_FILES: [(&str, &str); 3] = [
    (
        "graph/access.wgsl",
        include_str!("../../shaders/graph/access.wgsl"),
    ),
    (
        "graph/graph.wgsl",
        include_str!("../../shaders/graph/graph.wgsl"),
    ),
    (
        "graph/graph_d.wgsl",
        include_str!("../../shaders/graph/graph_d.wgsl"),
    ),
];

/// The noise library (without its single-kind accessors) at `group` with `tables`, the graph
/// files, and `generated` (from `graph::codegen`), unprefixed.
fn graph_library_with(group: u32, generated: &str, (space, slots): Tables) -> String {
    graph_library_declaring(group, generated, &space.declarations(slots))
}

/// [`graph_library_with`] with `tables`, the tables' bindings and accessors, written out.
pub(crate) fn graph_library_declaring(group: u32, generated: &str, tables: &str) -> String {
    let mut source = library_declaring(group, false, tables);
    for (_, text) in GRAPH_FILES {
        source.push_str(text);
        source.push('\n');
    }
    source.push_str(&crate::kinds::kind_accessors_wgsl(
        "graph_state.kinds[lat.kind]",
    ));
    // The modifier and combiner nodes' own functions (shaders/graph/modifiers/ and
    // combiners/, graph::modifiers and graph::combiners).
    for text in crate::graph::modifiers::WGSL
        .iter()
        .chain(crate::graph::combiners::WGSL)
    {
        source.push_str(text);
        source.push('\n');
    }
    source.push_str(generated);
    source
}

/// The crate's kernels for a graph, tables in storage: the library at group 1, the graph and
/// its state, and every kernel of [`KERNEL_FILES`] with the graph's program.
pub fn graph_source(generated: &str) -> String {
    graph_source_with(generated, STORAGE_TABLES)
}

/// [`graph_source`] with the tables bound as `tables` says.
pub fn graph_source_with(generated: &str, tables: Tables) -> String {
    let library = graph_library_with(KERNEL_NOISE_GROUP, generated, tables);
    namespaced(&library, &kernels_tail(GRAPH_PROGRAM, GRAPH_PROGRAM_ROWS))
}

/// A graph as a module for a caller's shader, bindings at `group`, every name prefixed
/// (`gn_graph_value(t)`, CONVENTIONS §13).
pub fn graph_module(group: u32, generated: &str) -> String {
    namespaced(&graph_library_with(group, generated, STORAGE_TABLES), "")
}

/// The composed source of the crate's kernels for flat specs, tables in storage: the prefixed
/// library, then the kernels' generated constants, the flat program and the kernel files.
pub fn kernel_source() -> String {
    kernel_source_with(STORAGE_TABLES)
}

/// [`kernel_source`] with the tables bound as `tables` says.
pub fn kernel_source_with(tables: Tables) -> String {
    namespaced(
        &library_source(KERNEL_NOISE_GROUP, true, tables),
        &kernels_tail(FLAT_PROGRAM, FLAT_PROGRAM_ROWS),
    )
}

/// What a texel's value is in the kernels: a flat spec's fractal sum.
pub const FLAT_PROGRAM: &str = include_str!("../../shaders/kernels/flat.wgsl");
/// What a texel's value is in the kernels: a graph's generated code.
pub const GRAPH_PROGRAM: &str = include_str!("../../shaders/kernels/graph.wgsl");

/// Texel rows one invocation of a value kernel computes (`PROGRAM_ROWS` in the WGSL) with a
/// flat spec's program: a pair, whose second texel takes the first's exact coordinate plus
/// one row step (`fractal_noise_texel_pair`). On lavapipe, 2048^2, one octave on the prime
/// lattice, pairs took simplex 2D from 0.87x webgl-noise to 1.32x, simplex 3D 0.83x to 1.18x,
/// Perlin 3D 0.94x to 1.63x; four rows were slower for 3D kinds (README, Benchmarks).
pub const FLAT_PROGRAM_ROWS: u32 = 2;
/// The same with a graph's program: a pair too, each texel the graph's code on its own (a warp
/// moves each texel's points), written out twice: a loop made graphs slower on lavapipe, which
/// keeps a loop's values in memory. Written out, with the stores' guard (`texel_values` in
/// render.wgsl), a graph's noise samples ran 1.2-1.9x as fast on lavapipe (README, fusing).
pub const GRAPH_PROGRAM_ROWS: u32 = 2;

/// The kernels' tail for a graph's program (what [`graph_source`] appends to the library).
pub(crate) fn graph_kernels_tail() -> String {
    kernels_tail(GRAPH_PROGRAM, GRAPH_PROGRAM_ROWS)
}

/// The kernels' generated constants, `program` and the kernel files.
fn kernels_tail(program: &str, rows: u32) -> String {
    let mut tail = constants::kernel_constants();
    tail.push_str(&format!("const PROGRAM_ROWS: u32 = {rows}u;\n"));
    tail.push_str(program);
    tail.push('\n');
    for (_, text) in KERNEL_FILES {
        tail.push_str(text);
        tail.push('\n');
    }
    tail
}

/// naga's module of a WGSL source, parsed and validated, or every error with its span.
pub fn parse_module(source: &str) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(source)
        .map_err(|e| e.emit_to_string_with_path(source, "wgsl"))?;
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    );
    validator
        .validate(&module)
        .map_err(|e| e.emit_to_string_with_path(source, "wgsl"))?;
    super::finite::check_finite_constants(&module)?;
    Ok(module)
}

/// The kernels, parsed and validated.
pub fn validate_kernels() -> Result<naga::Module, String> {
    parse_module(&kernel_source())
}
