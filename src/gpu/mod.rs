//! The GPU path: adapter choice, the composed WGSL module, and the reusable [`Renderer`].

pub mod adapter;
pub(crate) mod buffers;
pub mod pipelines;
mod readback;
pub mod renderer;
pub mod shader;

pub use adapter::{AdapterChoice, AdapterSummary, best_adapter, is_software, list_adapters};
pub use renderer::{Renderer, RendererOptions};
