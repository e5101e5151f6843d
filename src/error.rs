//! The crate's typed error. Variants name the library's own fields (`octaves`, `offset`); the
//! command-line tool maps them to its flags. Underlying wgpu and I/O errors are kept as sources.

use std::path::PathBuf;

use thiserror::Error;

use crate::text::{label, quoted};

/// Everything that can go wrong in `gpu_noise`, from a bad spec to a lost device.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// A [`NoiseSpec`](crate::NoiseSpec) field is out of range. `field` is the field's name
    /// (`octaves`, `size`, ...).
    #[error("{field}: {reason}")]
    InvalidSpec {
        /// The spec field at fault.
        field: &'static str,
        /// What is wrong and what is allowed.
        reason: String,
    },
    /// An output setting is unfit: `field` names the `export::ExportOptions` or
    /// [`TextureOutput`](crate::gpu::TextureOutput) field (`bits`, `range`, `colormap`), or `output`
    /// for the path, its format or its place.
    #[error("{field}: {reason}")]
    InvalidOutput {
        /// The output setting at fault.
        field: &'static str,
        /// What is wrong and what is allowed.
        reason: String,
    },
    /// A [`Chunk`](crate::Chunk) does not fit its world: `field` names the chunk's field
    /// (`size`, `lod`, `volume`, `coords`), `reason` the allowed range.
    #[error("chunk {field}: {reason}")]
    InvalidChunk {
        /// The chunk field at fault.
        field: &'static str,
        /// What is wrong and what is allowed.
        reason: String,
    },
    /// A noise graph is invalid (docs/CONVENTIONS.md §13): `node` names the node at fault
    /// (empty for the graph's own fields), `field` its parameter or input (empty for the node
    /// as a whole).
    #[error("{}", graph_message(node, field, reason))]
    InvalidGraph {
        /// The node's name.
        node: String,
        /// The parameter or input.
        field: String,
        /// What is wrong and what is allowed.
        reason: String,
    },
    /// The GPU's f32 arithmetic cannot render this spec to a meaningful accuracy: the stated
    /// error bound would exceed 1e-3 of the output range (far from the origin, say). The CPU
    /// twin (f64) renders it; `field` names what to change.
    #[error("{field}: {reason}")]
    Precision {
        /// The spec field that moves the points too far (`offset`, `frequency`, ...).
        field: &'static str,
        /// The bound, the limit, and what to do.
        reason: String,
    },
    /// A render target (buffer or texture) does not fit the render: usage, format, size or
    /// alignment. Reported before anything is recorded.
    #[error("{target}: {reason}")]
    InvalidTarget {
        /// Which target (`buffer`, `texture`).
        target: &'static str,
        /// What is wrong and what is required.
        reason: String,
    },
    /// naga refused a WGSL source (`wgsl::validate`): every error, with its source span.
    #[error("the WGSL does not validate:\n{0}")]
    Shader(String),
    /// The device lacks a feature or limit that this render needs.
    #[error("this device cannot do it: {0}")]
    Unsupported(String),
    /// No adapter that can run compute shaders was found.
    #[error("no GPU adapter found{detail}. {HOW_TO_GET_AN_ADAPTER}")]
    NoAdapter {
        /// Which backends and names were searched.
        detail: String,
    },
    /// `WGPU_BACKEND` names no backend.
    #[error(
        "WGPU_BACKEND={value:?} names no backend; use vulkan, metal, dx12 or gl (or a comma \
         list of them), or leave it unset for all"
    )]
    BadBackendVariable {
        /// The variable's value as found.
        value: String,
    },
    /// The adapter refused to create a device.
    #[error("could not create a device on {adapter}")]
    DeviceRequest {
        /// The adapter's name.
        adapter: String,
        /// wgpu's reason.
        #[source]
        source: wgpu::RequestDeviceError,
    },
    /// The device was lost (driver reset, out of memory, ...).
    #[error("the GPU device was lost: {0}")]
    DeviceLost(String),
    /// wgpu reported a validation or out-of-memory error for work this crate did.
    #[error("GPU error while {context}")]
    Gpu {
        /// What the crate was doing.
        context: String,
        /// wgpu's error.
        #[source]
        source: wgpu::Error,
    },
    /// Mapping a buffer for readback failed.
    #[error("reading results back from the GPU failed")]
    Readback(#[from] wgpu::BufferAsyncError),
    /// Reading or writing a file failed.
    #[error("{}", crate::text::shown_path(path))]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// An image encoder failed (PNG, OpenEXR, TIFF, plot).
    #[error("encoding {format}: {reason}")]
    Encode {
        /// The format being written.
        format: &'static str,
        /// The encoder's message.
        reason: String,
    },
}

/// What to tell a user who has no adapter (shown by [`Error::NoAdapter`]).
pub const HOW_TO_GET_AN_ADAPTER: &str = "To get one without a GPU: Mesa's llvmpipe through GL \
(package libegl-mesa0, WGPU_BACKEND=gl) or lavapipe through Vulkan (`apt-get install -y \
mesa-vulkan-drivers`). Check WGPU_BACKEND and WGPU_ADAPTER_NAME; the CPU twin (gpu_noise::cpu) \
renders without a GPU.";

/// The node quoted and the field labelled as every message shows a user's string
/// ([`crate::text`]): a graph file's keys and names can hold escape sequences, or a megabyte.
fn graph_message(node: &str, field: &str, reason: &str) -> String {
    match (node.is_empty(), field.is_empty()) {
        (true, true) => format!("graph: {reason}"),
        (true, false) => format!("graph: {}: {reason}", label(field)),
        (false, true) => format!("graph node {}: {reason}", quoted(node)),
        (false, false) => format!("graph node {}, {}: {reason}", quoted(node), label(field)),
    }
}

/// `Result` with this crate's [`Error`](enum@Error).
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub(crate) fn invalid(field: &'static str, reason: impl Into<String>) -> Self {
        Error::InvalidSpec {
            field,
            reason: reason.into(),
        }
    }

    /// An output setting's error (`bits`, `range`, `colormap`, `output`).
    pub fn output(field: &'static str, reason: impl Into<String>) -> Self {
        Error::InvalidOutput {
            field,
            reason: reason.into(),
        }
    }

    pub(crate) fn target(target: &'static str, reason: impl Into<String>) -> Self {
        Error::InvalidTarget {
            target,
            reason: reason.into(),
        }
    }

    /// An I/O error on `path`, keeping the OS error as the source.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// True for errors caused by what the caller asked for (a spec, a target, a precision
    /// limit), as opposed to failures of the device or the file system.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            Error::InvalidSpec { .. }
                | Error::InvalidOutput { .. }
                | Error::InvalidGraph { .. }
                | Error::InvalidChunk { .. }
                | Error::Precision { .. }
                | Error::InvalidTarget { .. }
                | Error::BadBackendVariable { .. }
        )
    }
}
