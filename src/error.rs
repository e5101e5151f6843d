//! The crate's typed error. Messages name what to change (a flag, an environment variable).

use thiserror::Error;

/// Everything that can go wrong in `gpu_noise`, from a bad spec to a lost device.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum Error {
    /// A spec field is out of range. `field` is the CLI flag (`--octaves`) that sets it.
    #[error("{field}: {reason}")]
    InvalidSpec { field: &'static str, reason: String },
    /// No adapter that can run compute shaders was found.
    #[error("no GPU adapter found{detail}. {HOW_TO_GET_AN_ADAPTER}")]
    NoAdapter { detail: String },
    /// The adapter refused to create a device.
    #[error("could not create a device on {adapter}: {reason}")]
    DeviceRequest { adapter: String, reason: String },
    /// The device was lost (driver reset, out of memory, ...).
    #[error("the GPU device was lost: {0}")]
    DeviceLost(String),
    /// wgpu reported a validation or out-of-memory error for our commands.
    #[error("GPU error: {0}")]
    Gpu(String),
    /// Mapping the staging buffer for readback failed.
    #[error("reading results back from the GPU failed: {0}")]
    Readback(String),
    /// Reading or writing a file failed.
    #[error("{path}: {reason}")]
    Io { path: String, reason: String },
}

/// What to tell a user who has no adapter (shown by [`Error::NoAdapter`]).
pub const HOW_TO_GET_AN_ADAPTER: &str = "To get one without a GPU: Mesa's llvmpipe through GL \
(package libegl-mesa0, WGPU_BACKEND=gl) or lavapipe through Vulkan (`apt-get install -y \
mesa-vulkan-drivers`). Check WGPU_BACKEND and WGPU_ADAPTER_NAME, and run `gpu-noise info` to \
list what is found; `--backend cpu` renders without a GPU.";

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub(crate) fn invalid(field: &'static str, reason: impl Into<String>) -> Self {
        Error::InvalidSpec {
            field,
            reason: reason.into(),
        }
    }

    pub(crate) fn io(path: &std::path::Path, err: impl std::fmt::Display) -> Self {
        Error::Io {
            path: path.display().to_string(),
            reason: err.to_string(),
        }
    }
}
