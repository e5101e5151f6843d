//! Dispatching a kernel: the target's bind group (cached), the parameters written where they
//! changed, the three groups set, and the window split into dispatches the device's
//! workgroup limits allow.

use super::Recorder;
use crate::error::{Error, Result};
use crate::gpu::params::RenderParams;
use crate::gpu::pipelines::Entry;
use crate::wgsl::sources::WORKGROUP_SIZE;

/// What a group-2 bind group binds; bind groups are cached by it and reused across frames.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TargetKey {
    /// A buffer range at binding 0 (`render_buffer`, `render_gradient`) or 7 (`pack_r16`).
    Buffer(Entry, wgpu::Buffer, u64, u64),
    /// A storage texture (`render_r32_*`, `render_rgba8`, `render_normal`).
    Texture(Entry, wgpu::Texture),
    /// Output values and points (`sample_points`).
    Sample(wgpu::Buffer, wgpu::Buffer),
    /// The min/max buffers (`range_partial`, `range_final`).
    Range(Entry),
}

/// Bind groups kept at most; the cache is cleared past it (callers that make new textures
/// every frame must not grow it without bound).
const TARGET_CACHE: usize = 64;

impl Recorder<'_> {
    /// The cached group-2 bind group for `key`, made by `make` the first time.
    pub(crate) fn target_group(
        &mut self,
        key: TargetKey,
        make: impl FnOnce(&wgpu::Device, &wgpu::BindGroupLayout) -> wgpu::BindGroup,
    ) -> Result<wgpu::BindGroup> {
        if let Some(group) = self.targets.groups.get(&key) {
            return Ok(group.clone());
        }
        if self.targets.groups.len() >= TARGET_CACHE {
            self.targets.groups.clear();
        }
        let entry = match &key {
            TargetKey::Buffer(e, ..) | TargetKey::Texture(e, _) | TargetKey::Range(e) => *e,
            TargetKey::Sample(..) => Entry::Sample,
        };
        let group = make(self.device, self.programs.target_layout(entry)?);
        self.stats.bind_groups_created += 1;
        self.targets.groups.insert(key, group.clone());
        Ok(group)
    }

    /// Records one dispatch of `entry`: the parameters (written only if they changed), the
    /// three bind groups, and `groups` workgroups.
    pub(crate) fn dispatch(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        entry: Entry,
        params: RenderParams,
        groups: [u32; 3],
        target: &wgpu::BindGroup,
    ) -> Result<()> {
        let pipeline =
            (self.programs).pipeline(self.device, entry, &self.program.key, self.stats)?;
        if self.targets.params_written != Some(params) {
            let size = wgpu::BufferSize::new(std::mem::size_of::<RenderParams>() as u64)
                .ok_or_else(|| Error::Unsupported("empty parameter block".into()))?;
            self.belt
                .write_buffer(encoder, &self.targets.params, 0, size)
                .copy_from_slice(bytemuck::bytes_of(&params));
            self.targets.params_written = Some(params);
            self.stats.uniform_writes += 1;
        }
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(entry.name()),
            timestamp_writes: None,
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &self.targets.params_group, &[]);
        pass.set_bind_group(1, &self.program.group, &[]);
        pass.set_bind_group(2, target, &[]);
        pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
        self.stats.dispatches += 1;
        Ok(())
    }

    /// Workgroups for `items` invocations of a kernel that runs 64 in a row, folded into 2D
    /// past the per-dimension limit, and the invocations per dispatch row.
    pub(crate) fn grid(&self, items: u64) -> ([u32; 3], u32) {
        let max = u64::from(self.device.limits().max_compute_workgroups_per_dimension);
        let groups = items.div_ceil(u64::from(WORKGROUP_SIZE)).max(1);
        let x = groups.min(max);
        let y = groups.div_ceil(x);
        ([x as u32, y as u32, 1], x as u32 * WORKGROUP_SIZE)
    }

    /// Dispatches a texel kernel over the window of `params` in workgroups of `entry.tile`
    /// texels: one dispatch, or several (each with its `base`) where the window reaches
    /// past the device's workgroups per dimension.
    pub(crate) fn dispatch_tiles(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        entry: Entry,
        params: RenderParams,
        target: &wgpu::BindGroup,
    ) -> Result<()> {
        let max = (self.device.limits().max_compute_workgroups_per_dimension).max(1);
        let tile = entry.tile(self.program.key.rows());
        let reach: [u32; 3] = std::array::from_fn(|a| max.saturating_mul(tile[a]));
        let [w, h, d, _] = params.extent;
        for z in (0..d).step_by(reach[2] as usize) {
            for y in (0..h).step_by(reach[1] as usize) {
                for x in (0..w).step_by(reach[0] as usize) {
                    let base = [x, y, z];
                    let groups = std::array::from_fn(|a| {
                        (params.extent[a] - base[a]).min(reach[a]).div_ceil(tile[a])
                    });
                    let part = RenderParams {
                        base: [x, y, z, 0],
                        ..params
                    };
                    self.dispatch(encoder, entry, part, groups, target)?;
                }
            }
        }
        Ok(())
    }
}
