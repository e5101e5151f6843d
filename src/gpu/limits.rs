//! The device limits gpu-noise needs, checked before anything is created on the device, so a
//! device with smaller ones gets [`Error::Unsupported`] naming the limit (never a wgpu
//! validation error, which wgpu's default handler turns into a panic). README "Device limits"
//! lists them; `Limits::downlevel_defaults()` is enough for buffer targets.

use crate::error::{Error, Result};

/// Storage buffers the noise library binds (permutations, gradients, values).
pub const LIBRARY_STORAGE_BUFFERS: u32 = 3;

/// One limit: its name in `wgpu::Limits`, what the device has and what is needed.
struct Need {
    name: &'static str,
    have: u64,
    needed: u64,
}

fn check(needs: &[Need], what: &str) -> Result<()> {
    match needs.iter().find(|n| n.have < n.needed) {
        Some(n) => Err(Error::Unsupported(format!(
            "{what} needs wgpu::Limits::{} >= {}, and this device has {} (request the adapter's \
             own limits, `adapter.limits()`, when creating the device)",
            n.name, n.needed, n.have
        ))),
        None => Ok(()),
    }
}

/// What [`NoiseBindings`](super::NoiseBindings) binds: three storage tables of `table_bytes`
/// at most each and a uniform state block of `state_bytes`.
pub(crate) fn check_library(
    limits: &wgpu::Limits,
    table_bytes: u64,
    state_bytes: u64,
) -> Result<()> {
    check(
        &[
            Need {
                name: "max_storage_buffers_per_shader_stage",
                have: limits.max_storage_buffers_per_shader_stage.into(),
                needed: LIBRARY_STORAGE_BUFFERS.into(),
            },
            Need {
                name: "max_storage_buffer_binding_size",
                have: limits.max_storage_buffer_binding_size,
                needed: table_bytes,
            },
            Need {
                name: "max_uniform_buffer_binding_size",
                have: limits.max_uniform_buffer_binding_size,
                needed: state_bytes,
            },
        ],
        "the noise library's bindings",
    )
}

/// What the renderer's kernels need besides the library: three bind groups and workgroups of
/// `invocations` (64).
pub(crate) fn check_renderer(limits: &wgpu::Limits, invocations: u32) -> Result<()> {
    check(
        &[
            Need {
                name: "max_bind_groups",
                have: limits.max_bind_groups.into(),
                needed: 3,
            },
            Need {
                name: "max_compute_invocations_per_workgroup",
                have: limits.max_compute_invocations_per_workgroup.into(),
                needed: invocations.into(),
            },
            Need {
                name: "max_compute_workgroup_size_x",
                have: limits.max_compute_workgroup_size_x.into(),
                needed: invocations.into(),
            },
        ],
        "the renderer",
    )
}

/// Whether a kernel binding `target_buffers` storage buffers of its own (besides the library's)
/// fits; else the error naming the limit and the target.
pub(crate) fn check_target(limits: &wgpu::Limits, target: &str, target_buffers: u32) -> Result<()> {
    check(
        &[Need {
            name: "max_storage_buffers_per_shader_stage",
            have: limits.max_storage_buffers_per_shader_stage.into(),
            needed: (LIBRARY_STORAGE_BUFFERS + target_buffers).into(),
        }],
        &format!("rendering to {target}"),
    )
}
