//! The GPU path: the reusable [`Renderer`], which renders a [`Job`](crate::Job) into the
//! caller's buffers and textures ([`Target`]) or to the host, its options ([`RendererOptions`],
//! [`AdapterChoice`]), what it reports ([`RenderStats`], [`PendingReadback`]), and the bindings
//! a caller's own shader takes ([`NoiseBindings`], [`GraphBindings`]). The host structs,
//! pipelines and adapter listing are in [`low_level::gpu`](crate::low_level::gpu).

pub(crate) mod adapter;
pub(crate) mod bindings;
mod graph_bindings;
mod layouts;
mod limits;
pub(crate) mod params;
pub(crate) mod pipelines;
mod program;
pub(crate) mod readback;
mod record;
pub(crate) mod renderer;
mod sample;
mod scratch;
pub mod shader_export;
pub(crate) mod stats;
pub(crate) mod targets;
mod unfused;

pub use crate::wgsl::tables::TableSpace;
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
/// executor (the web's do not: [`validation_scope`]).
/// An error scope for validation errors where its answer comes at once (native wgpu); `None`
/// on the web, where a scope answers only later: an error there goes to the device's
/// uncaptured-error handler (the renderer's `Health`), which the next render reports with the
/// browser's own message (a scope popped too early would swallow it, and the render would say
/// only that the pipeline is invalid "due to a previous error").
pub(crate) fn validation_scope(device: &wgpu::Device) -> Option<wgpu::ErrorScopeGuard> {
    if cfg!(target_arch = "wasm32") {
        return None;
    }
    Some(device.push_error_scope(wgpu::ErrorFilter::Validation))
}

/// The validation error a [`validation_scope`] caught, if any.
pub(crate) fn scope_error(scope: Option<wgpu::ErrorScopeGuard>) -> Option<wgpu::Error> {
    scope.and_then(|s| ready_now(s.pop())).flatten()
}

pub(crate) fn ready_now<F: std::future::Future>(future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(v) => Some(v),
        std::task::Poll::Pending => None,
    }
}
