//! The layouts a renderer makes once at start: group 0 (the kernels' parameters), each graph
//! group 1 (tables and state, the state in either space), each entry's target group 2, and
//! the pipeline layouts of every entry beside the library's or a graph's group 1.

use std::collections::HashMap;
use std::num::NonZeroU64;

use super::graph_bindings::graph_layout_entries;
use super::params::RenderParams;
use super::pipelines::{ENTRIES, Entry};
use crate::wgsl::codegen::StateSpace;
use crate::wgsl::tables::TableSpace;

/// What group 1 of a pipeline binds: the library's single-kind state and tables, or a graph's
/// tables (in their space) and state (in its).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Group1 {
    Library,
    Graph(StateSpace, TableSpace),
}

/// A graph group's layouts by (state space, table space).
pub(super) type GraphLayouts = HashMap<(StateSpace, TableSpace), wgpu::BindGroupLayout>;

/// Group 0's layout: the kernels' parameters, one uniform block.
pub(super) fn params_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("gpu-noise params"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: NonZeroU64::new(std::mem::size_of::<RenderParams>() as u64),
            },
            count: None,
        }],
    })
}

/// A graph's group-1 layout with its state in each space and its tables in storage and, where
/// the renderer prefers it, in uniform buffers.
pub(super) fn graph_layouts(device: &wgpu::Device, tables: TableSpace) -> GraphLayouts {
    let table_spaces = [TableSpace::Storage, tables];
    let mut layouts = HashMap::new();
    for state in [StateSpace::Uniform, StateSpace::Storage] {
        for table in table_spaces {
            let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("gpu-noise graph"),
                entries: &graph_layout_entries(state, table),
            });
            layouts.insert((state, table), layout);
        }
    }
    layouts
}

pub(super) type TargetLayouts = HashMap<Entry, wgpu::BindGroupLayout>;
pub(super) type PipelineLayouts = HashMap<(Entry, Group1), wgpu::PipelineLayout>;

/// Each entry's target layout (group 2) and its pipeline layouts beside the library's group 1
/// and each graph group 1. A kernel whose bindings pass the device's limits gets none
/// (creating it would be a validation error); asking for it is `Error::Unsupported` (`fits`).
pub(super) fn pipeline_layouts(
    device: &wgpu::Device,
    limits: &wgpu::Limits,
    [params, library]: [&wgpu::BindGroupLayout; 2],
    graph_layouts: &GraphLayouts,
) -> (TargetLayouts, PipelineLayouts) {
    let mut target_layouts = HashMap::new();
    let mut layouts = HashMap::new();
    for entry in ENTRIES.into_iter().filter(|e| e.fits(limits).is_ok()) {
        let target = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(entry.name()),
            entries: &entry.target_layout_entries(),
        });
        let groups = [(Group1::Library, library)].into_iter().chain(
            (graph_layouts.iter())
                .map(|(&(state, tables), layout)| (Group1::Graph(state, tables), layout)),
        );
        for (group1, layout1) in groups {
            // A graph binds its state beside the three tables: one buffer more (counted as
            // storage, the stricter limit).
            if group1 != Group1::Library && entry.fits_beside(limits, 1).is_err() {
                continue;
            }
            let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(entry.name()),
                bind_group_layouts: &[Some(params), Some(layout1), Some(&target)],
                immediate_size: 0,
            });
            layouts.insert((entry, group1), layout);
        }
        target_layouts.insert(entry, target);
    }
    (target_layouts, layouts)
}
