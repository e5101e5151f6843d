//! A job's plan one expanded step per dispatch (the fusion measurement's baseline, `gpu-noise
//! bench --graph`): each step's generated kernel reads its inputs from a register buffer and
//! stores its result there (region 0 is the scratch the entry point writes; then one region of
//! n values per value step and 4n per displacement step, n the image's texels).

use std::sync::Arc;

use super::params::RenderParams;
use super::pipelines::{Entry, GraphKey};
use super::program::ProgramKey;
use super::record::{Recorder, TargetKey, buffer_entry};
use crate::error::{Error, Result};
use crate::job::Job;
use crate::window::Window;

/// Bytes of the register buffer of `job`'s image.
pub(super) fn registers_bytes(job: &Job) -> u64 {
    job.kernel().node_by_node.regions * job.size().texels() * 4
}

/// Records every step into `registers`; returns the byte offset of the output values.
pub(super) fn record(
    rec: &mut Recorder<'_>,
    encoder: &mut wgpu::CommandEncoder,
    registers: &wgpu::Buffer,
) -> Result<u64> {
    let bytes = registers_bytes(rec.job);
    let limit = rec.device.limits().max_storage_buffer_binding_size;
    let storage = registers.usage().contains(wgpu::BufferUsages::STORAGE);
    if !storage || registers.size() < bytes || bytes > limit {
        return Err(Error::target(
            "buffer",
            format!(
                "the register buffer needs STORAGE usage and {bytes} bytes (one binding: {limit} \
                 at most), has {} bytes",
                registers.size()
            ),
        ));
    }
    let key = TargetKey::Buffer(Entry::Buffer, registers.clone(), 0, bytes);
    let target = rec.target_group(key, |d, l| {
        d.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gpu-noise registers"),
            layout: l,
            entries: &[buffer_entry(0, registers, 0, bytes)],
        })
    })?;
    let steps = &rec.job.kernel().node_by_node;
    let key = GraphKey::of(rec.job);
    let space = rec.job.kernel().state_space;
    // The tables as the job's fused program binds them (its group is the one bound).
    let tables = match &rec.program.key {
        ProgramKey::Graph(.., tables) => *tables,
        ProgramKey::Flat(_) => crate::wgsl::sources::STORAGE_TABLES,
    };
    for source in &steps.sources {
        rec.program.key = ProgramKey::Graph(Arc::from(source.as_str()), key, space, tables);
        let params = RenderParams::new(Window::full(rec.job.size()));
        rec.dispatch_tiles(encoder, Entry::Buffer, params, &target)?;
    }
    Ok(steps.output * rec.job.size().texels() * 4)
}
