//! [`GraphBindings`]: what a caller's own shader binds to call a job's plan
//! ([`Job::wgsl_module`]): its tables at bindings 1-3 and its state at 4 of one bind group, the
//! group the module was made for.

use wgpu::util::DeviceExt;

use crate::error::{Error, Result};
use crate::job::Job;
use crate::wgsl::codegen::StateSpace;
use crate::wgsl::tables::{TableSpace, storage_table_bytes};

/// A read-only (or writable) storage buffer at `binding`, compute stage.
pub(crate) fn storage_entry(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

/// The buffers and bind group behind `gn_graph_value(t)` in a caller's shader. A new frame of the
/// same graph with new numbers is [`GraphBindings::update`]: one state write.
pub struct GraphBindings {
    layout: wgpu::BindGroupLayout,
    group: wgpu::BindGroup,
    state: wgpu::Buffer,
    /// The structure (generated source) the module and the state were made for.
    source: String,
    /// The tables' (dims, seeds).
    seeds: (u32, Vec<u64>),
}

/// The graph state's layout entry (binding 4) in `space`.
pub(crate) fn state_entry(space: StateSpace) -> wgpu::BindGroupLayoutEntry {
    match space {
        StateSpace::Storage => storage_entry(4, true),
        StateSpace::Uniform => uniform_entry(4),
    }
}

/// A uniform buffer at `binding`, compute stage, of any size.
fn uniform_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

/// The entries of a graph's group: the tables at 1-3 in `tables`, the state at 4 in `space`.
pub(crate) fn graph_layout_entries(
    space: StateSpace,
    tables: TableSpace,
) -> [wgpu::BindGroupLayoutEntry; 4] {
    let [perm, gradients, values] = [1, 2, 3].map(|b| match tables {
        TableSpace::Storage => storage_entry(b, true),
        TableSpace::Uniform => uniform_entry(b),
    });
    [perm, gradients, values, state_entry(space)]
}

/// The state buffer's usages: either binding (a renderer keeps one buffer for every graph).
pub(crate) const STATE_USAGE: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE
    .union(wgpu::BufferUsages::UNIFORM)
    .union(wgpu::BufferUsages::COPY_DST);

impl GraphBindings {
    /// The layout's entries for `job`'s module: the library's tables at 1-3 (binding 0, the
    /// single-kind state, is unused by graphs), read-only storage, and the graph's state at 4,
    /// a uniform buffer where it takes at most 16 KiB, else read-only storage (CONVENTIONS §13);
    /// compute stage.
    pub fn layout_entries(job: &Job) -> [wgpu::BindGroupLayoutEntry; 4] {
        graph_layout_entries(job.kernel().state_space, TableSpace::Storage)
    }

    /// Buffers and a bind group holding `job`'s tables and state.
    pub fn new(device: &wgpu::Device, job: &Job) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("gpu-noise graph module"),
            entries: &Self::layout_entries(job),
        });
        let state = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("gpu-noise graph module state"),
            contents: &job.kernel_state(),
            usage: STATE_USAGE,
        });
        let group = Self::group(device, &layout, job, &state);
        Self {
            layout,
            group,
            state,
            source: job.kernel().source.clone(),
            seeds: seeds(job),
        }
    }

    fn group(
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        job: &Job,
        state: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let tables = storage_table_bytes(&job.plan().tables).map(|bytes| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("gpu-noise graph module tables"),
                contents: &bytes,
                usage: wgpu::BufferUsages::STORAGE,
            })
        });
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gpu-noise graph module"),
            layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: tables[0].as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: tables[1].as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: tables[2].as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: state.as_entire_binding(),
                },
            ],
        })
    }

    /// The layout, for the caller's pipeline layout.
    pub fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// The bind group, for the caller's pass.
    pub fn bind_group(&self) -> &wgpu::BindGroup {
        &self.group
    }

    /// Takes a new frame of the same graph: writes its state (queued before the next submit),
    /// and rebuilds the bind group only where its seeds changed. A graph of another structure
    /// needs a new module: that is an error naming it.
    pub fn update(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, job: &Job) -> Result<()> {
        if job.kernel().source != self.source {
            return Err(Error::InvalidTarget {
                target: "bindings",
                reason: "the graph's structure changed (nodes, octaves, kinds, interpolation): \
                         build a new module (Job::wgsl_module) and GraphBindings"
                    .into(),
            });
        }
        queue.write_buffer(&self.state, 0, &job.kernel_state());
        let seeds = seeds(job);
        if seeds != self.seeds {
            self.group = Self::group(device, &self.layout, job, &self.state);
            self.seeds = seeds;
        }
        Ok(())
    }
}

fn seeds(job: &Job) -> (u32, Vec<u64>) {
    (job.dims(), job.plan().table_seeds.clone())
}
