//! Caller-given points on the GPU (`sample --backend gpu`): a flat job's noise at points in
//! noise space, each split exactly on the host per octave (CONVENTIONS §1) and evaluated by the
//! `sample_points` kernel.

use super::params::RenderParams;
use super::pipelines::Entry;
use super::readback::PendingReadback;
use super::record::{Recorder, TargetKey};
use super::scratch::Growable;
use crate::error::{Error, Result};
use crate::job::Job;
use crate::spec::frames::sample_point;
use crate::wgsl::host::words;
use crate::window::Window;

/// Records `points` (at most one binding of them) into the recorder's values buffer and a copy
/// to the host; the points go in through `queue`, so the caller submits right after.
pub(super) fn record(
    rec: &mut Recorder<'_>,
    encoder: &mut wgpu::CommandEncoder,
    queue: &wgpu::Queue,
    points: &[[f64; 4]],
) -> Result<PendingReadback> {
    let Some(spec) = rec.job.spec() else {
        return Err(Error::Unsupported(
            "caller-given points in noise space are a flat spec's; sample a graph on the CPU \
             (root points in texel units)"
                .into(),
        ));
    };
    spec.check_points(points)?;
    let split = split_points(rec.job, points)?;
    let count = points.len() as u64;
    let values = rec.scratch(Growable::Values, count * 4);
    let inputs = rec.scratch(Growable::Points, split.len() as u64 * 16);
    queue.write_buffer(&inputs, 0, bytemuck::cast_slice(&split));
    let target = rec.target_group(TargetKey::Sample(values.clone(), inputs.clone()), |d, l| {
        d.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gpu-noise points"),
            layout: l,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: values.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 8,
                    resource: inputs.as_entire_binding(),
                },
            ],
        })
    })?;
    let mut params = RenderParams::new(Window::full(rec.job.size()));
    let (groups, pitch) = rec.grid(count);
    params.item_count = count as u32;
    params.row_pitch = pitch;
    rec.dispatch(encoder, Entry::Sample, params, groups, &target)?;
    Ok(rec.copy_out(encoder, &values, count * 4))
}

/// Each point on each octave's lattice, split exactly on the host (CONVENTIONS §1): per point
/// and octave, the cells modulo 2^32 and the fractions' top 32 bits (`points` in render.wgsl).
fn split_points(job: &Job, points: &[[f64; 4]]) -> Result<Vec<[u32; 4]>> {
    let Some(flat) = job.flat() else {
        return Ok(Vec::new());
    };
    let spec = &flat.spec;
    let skew = spec.kind.skew(spec.dims);
    let mut split = Vec::with_capacity(points.len() * flat.octaves() * 2);
    for (n, p) in points.iter().enumerate() {
        for k in 0..flat.octaves() {
            let l = sample_point(*p, flat.scales[k], skew, spec.dims as usize, job.period(k))
                .ok_or_else(|| {
                    Error::invalid(
                        "points",
                        format!("point {}: its lattice coordinates pass 2^62 cells", n + 1),
                    )
                })?;
            let w = l.map(words);
            split.push(w.map(|[cell, _, _]| cell));
            split.push(w.map(|[_, word, _]| word));
        }
    }
    Ok(split)
}
