//! The GPU path: the reusable [`Renderer`], which renders a [`Job`](crate::Job) into the
//! caller's buffers and textures ([`Target`]) or to the host, its options ([`RendererOptions`],
//! [`AdapterChoice`]), what it reports ([`RenderStats`], [`PendingReadback`]), and the bindings
//! a caller's own shader takes ([`NoiseBindings`], [`GraphBindings`]). The host structs,
//! pipelines and adapter listing are in [`low_level::gpu`](crate::low_level::gpu).

pub(crate) mod adapter;
pub(crate) mod bindings;
mod graph_bindings;
mod limits;
pub(crate) mod params;
pub(crate) mod pipelines;
mod program;
pub(crate) mod readback;
mod record;
pub(crate) mod renderer;
mod sample;
mod scratch;
pub(crate) mod stats;
pub(crate) mod targets;
mod unfused;

pub use adapter::AdapterChoice;
pub use bindings::NoiseBindings;
pub use graph_bindings::GraphBindings;
pub use readback::PendingReadback;
pub use renderer::{Renderer, RendererOptions};
pub(crate) use scratch::PARTIAL_RANGE_BYTES;
pub use stats::RenderStats;
pub use targets::{Range, Target, TextureOutput};

/// The output of a future that is already complete, polled once without blocking; `None` if it
/// is still pending. wgpu's native error scopes resolve at once, so this reads them without an
/// executor; on the web a pending scope's error goes to the device's uncaptured-error handler.
pub(crate) fn ready_now<F: std::future::Future>(future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(v) => Some(v),
        std::task::Poll::Pending => None,
    }
}
