//! [`GraphBindings`]: what a caller's own shader binds to call a graph
//! ([`PreparedGraph::wgsl_module`]): the graph's tables at bindings 1-3 and its state at 4 of
//! one bind group, the group the module was made for.

use wgpu::util::DeviceExt;

use super::graph::{storage_entry, table_bytes};
use crate::error::{Error, Result};
use crate::graph::PreparedGraph;

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

impl GraphBindings {
    /// The layout's entries: the library's tables at 1-3 (binding 0, the single-kind state, is
    /// unused by graphs) and the graph's state at 4, all read-only storage, compute stage.
    pub fn layout_entries() -> [wgpu::BindGroupLayoutEntry; 4] {
        [1, 2, 3, 4].map(|b| storage_entry(b, true))
    }

    /// Buffers and a bind group holding `prepared`'s tables and state.
    pub fn new(device: &wgpu::Device, prepared: &PreparedGraph) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("gpu-noise graph module"),
            entries: &Self::layout_entries(),
        });
        let state = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("gpu-noise graph module state"),
            contents: &prepared.kernel().state_bytes(),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        });
        let group = Self::group(device, &layout, prepared, &state);
        Self {
            layout,
            group,
            state,
            source: prepared.kernel().source.clone(),
            seeds: seeds(prepared),
        }
    }

    fn group(
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        prepared: &PreparedGraph,
        state: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let tables = table_bytes(prepared).map(|bytes| {
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
    pub fn update(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        prepared: &PreparedGraph,
    ) -> Result<()> {
        if prepared.kernel().source != self.source {
            return Err(Error::InvalidTarget {
                target: "bindings",
                reason: "the graph's structure changed (nodes, octaves, kinds, interpolation): \
                         build a new module (PreparedGraph::wgsl_module) and GraphBindings"
                    .into(),
            });
        }
        queue.write_buffer(&self.state, 0, &prepared.kernel().state_bytes());
        let seeds = seeds(prepared);
        if seeds != self.seeds {
            self.group = Self::group(device, &self.layout, prepared, &self.state);
            self.seeds = seeds;
        }
        Ok(())
    }
}

fn seeds(prepared: &PreparedGraph) -> (u32, Vec<u64>) {
    (prepared.graph().dims(), prepared.table_seeds().to_vec())
}
