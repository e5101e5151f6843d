//! The layers under the front (as vello's `low_level`): what the crate's own tool, tests and
//! benchmarks use, and what a caller who builds their own kernels or exporters may want. The
//! front (the crate root, [`cpu`](crate::cpu), [`simd`](crate::simd), [`wgsl`](crate::wgsl),
//! [`graph`](crate::graph), `export`) is what a game or tool needs; these items change more
//! freely between releases.

pub use crate::error::HOW_TO_GET_AN_ADAPTER;

/// The GPU's host structs (mirrors of the WGSL structs, CONVENTIONS §15), the kernels' entry
/// points, adapter discovery, and the renderer's methods for tools, benchmarks and tests
/// ([`LowLevelRenderer`](gpu::LowLevelRenderer)).
pub mod gpu {
    pub use crate::gpu::adapter::{
        AdapterSummary, best_adapter, is_software, list_adapters, new_instance, parse_backends,
    };
    pub use crate::gpu::bindings::TABLE_SLOTS;
    pub use crate::gpu::params::RenderParams;
    pub use crate::gpu::pipelines::{ENTRIES, Entry, GraphKey, NoiseKey, OVERRIDE_NAMES};
    #[cfg(not(target_arch = "wasm32"))]
    pub use crate::gpu::renderer::shared_renderer;
    pub use crate::gpu::renderer::{LowLevelRenderer, open_on_adapter, unfused_bytes};
    pub use crate::kinds::KindState;
    pub use crate::kinds::own_derived::*;
    pub use crate::layout::HostLayout;
    pub use crate::wgsl::host::{FrameState, GraphInstance, NoiseState, OctaveState, words};
}

/// The seeded tables and fixed gradient sets (CONVENTIONS §2).
pub mod tables {
    pub use crate::tables::*;
}

/// Q64.64 fixed-point coordinates (CONVENTIONS §1).
pub mod fixed {
    pub use crate::fixed::*;
}

/// Exact octave frames and what a spec derives for its kinds.
pub mod spec {
    pub use crate::kinds::{
        KindParams, gabor_kernel_energy, poisson_thresholds, sparse_kernel_energy,
    };
    pub use crate::spec::frames::*;
    pub use crate::spec::weights::octave_weights;
}

/// Every limit the library enforces, in one place (each is also stated where it is checked,
/// and in docs/CONVENTIONS.md).
pub mod limits {
    pub use crate::limits::*;
}

/// The tool's JSON files: specs and tile sets as the CLI and the previewer read and write them.
#[cfg(feature = "serde")]
pub mod spec_file {
    pub use crate::spec_file::*;
}

/// The GPU's stated error bound and comparisons against the twin (CONVENTIONS §7).
pub mod tolerance {
    pub use crate::tolerance::*;
}

/// Output levels: how a value becomes an 8- or 16-bit level (CONVENTIONS §6).
pub mod levels {
    pub use crate::levels::*;
}

/// The hash lattice's xxHash32 steps (CONVENTIONS §2).
pub mod hash {
    pub use crate::kinds::lattice::hash::*;
}

/// The colormap table's length on the GPU.
pub mod colormap {
    pub use crate::colormap::COLORMAP_LEN;
}

/// The parts of the WGSL: the library's and kernels' files, the composed kernels, and naga's
/// view of a source.
pub mod wgsl {
    pub use crate::wgsl::sources::{
        GRAPH_FILES, KERNEL_FILES, KERNEL_NOISE_GROUP, LIBRARY_FILES, REDUCE_GROUPS,
        STORAGE_TABLES, TILE_SIZE, Tables, WORKGROUP_SIZE, graph_source, graph_source_with,
        kernel_source, kernel_source_with, parse_module, validate_kernels,
    };

    /// The crate's kernels that run `job` with its tables bound as `tables` says: the flat
    /// kernels for a flat spec, else the graph's (`Job::wgsl` is the same in storage).
    pub fn job_kernels_with(job: &crate::Job, tables: Tables) -> String {
        match job.flat() {
            Some(_) => kernel_source_with(tables),
            None => graph_source_with(&job.kernel().source, tables),
        }
    }
}

/// The node table's rows for the kinds' own parameters, and the graph's f64 operations.
pub mod graph {
    pub use crate::graph::kind_fields::*;
    /// The combiner node types, each its own type (`graph/combiners/`).
    pub mod combiners {
        pub use crate::graph::combiners::*;
    }

    /// The modifier node types, each its own type (`graph/modifiers/`).
    pub mod modifiers {
        pub use crate::graph::modifiers::*;
    }
    pub use crate::graph::node::{Combiner, Modifier, Node, Op, Warp};
    pub use crate::graph::ops::*;

    /// The node table (CONVENTIONS §13) as data: each node type's fields, ranges and docs, for
    /// editors and generated documentation.
    pub mod meta {
        pub use crate::graph::meta::*;
    }
}

/// The exporters' plumbing: atomic files and their registry of temporaries, tile checks,
/// slice patterns, headers and the plot font.
#[cfg(feature = "export")]
pub mod export {
    pub use crate::export::atomic::{
        CommitGroup, OutputFile, Sink, TEMPORARY_PREFIX, remove_all_temporaries,
    };
    pub use crate::export::check_space;
    pub use crate::export::derivatives::image_axes;
    pub use crate::export::profile::register_plot_font;
    pub use crate::export::raw::npy_header;
    pub use crate::export::slices::{is_slice_pattern, slice_path};
    pub use crate::export::whole::is_whole;
}

/// User strings in messages: escaped, quoted and cut short (the tool, the Python package and
/// the previewer show them the same way).
pub mod text {
    pub use crate::text::*;
}
