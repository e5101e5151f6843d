//! Noise graphs on the GPU (CONVENTIONS §13): one dispatch evaluates the whole graph per texel
//! with the kernel generated from its structure (`graph::codegen`), no intermediate buffers.
//! Pipelines are cached by the generated source, so graphs that differ only in numbers share
//! one; the numbers travel in the state buffer.

use std::collections::HashMap;
use std::num::NonZeroU64;

use bytemuck::{Pod, Zeroable};

use crate::layout::host_struct;
use wgpu::util::DeviceExt;

use super::renderer::Renderer;
use super::state::words;
use crate::error::{Error, Result};
use crate::graph::PreparedGraph;
use crate::spec::frames::OctaveFrame;

host_struct! {
    /// One noise or coordinate evaluation; mirrors `struct GraphInstance` in
    /// shaders/graph/graph.wgsl (checked through naga by tests/suite/layout.rs).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
    pub struct GraphInstance as "GraphInstance" {
        /// Texel (0, 0, 0)'s cell per lattice axis (modulo 2^32).
        pub cell: [u32; 4],
        /// Its fraction's top 32 bits.
        pub word: [u32; 4],
        /// Whole cells per texel along image axis b, per lattice axis.
        pub step_cell: [[u32; 4]; 3],
        /// The steps' 2^-32 words.
        pub step_word: [[u32; 4]; 3],
        /// Lattice cells per unit of displacement, column by column.
        pub delta_map: [[f32; 4]; 4],
        /// Table slot, impulse salt, hash seed, kind-state index.
        pub lattice: [u32; 4],
    }
}

impl GraphInstance {
    /// The instance of a frame, a displacement map (rows = lattice axes) and lattice words.
    pub(crate) fn new(frame: &OctaveFrame, delta_map: &[[f64; 4]; 4], lattice: [u32; 4]) -> Self {
        let mut g = GraphInstance {
            lattice,
            ..Default::default()
        };
        for a in 0..4 {
            (g.cell[a], g.word[a]) = words(frame.origin[a]);
            for b in 0..3 {
                (g.step_cell[b][a], g.step_word[b][a]) = words(frame.step[b][a]);
            }
            for (c, column) in g.delta_map.iter_mut().enumerate() {
                column[a] = delta_map[a][c] as f32;
            }
        }
        g
    }
}

host_struct! {
    /// The window a graph dispatch covers; mirrors `struct GraphWindow` in
    /// shaders/graph/graph.wgsl.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Pod, Zeroable)]
    pub struct GraphWindow as "GraphWindow" {
        /// Image texel of the window's first texel.
        pub origin: [u32; 4],
        /// The window's extent (x, y, z), and f32 words per output row.
        pub extent: [u32; 4],
        /// This dispatch's first texel within the window.
        pub base: [u32; 4],
    }
}

/// What every dispatch of one graph binds: the layout of group 0, the tables (group 1) and the
/// state buffer.
pub(super) struct GraphResources {
    pub(super) layout: wgpu::BindGroupLayout,
    pub(super) tables: wgpu::BindGroup,
    pub(super) state: wgpu::Buffer,
}

/// What the renderer keeps for graphs between renders: pipelines by generated source, the two
/// bind group layouts, the tables of the last seeds, one state buffer, and window uniforms and
/// bind groups, so that a new frame of the same graph with new numbers writes the state and
/// creates nothing.
pub(crate) struct GraphPipelines {
    pipelines: HashMap<String, wgpu::ComputePipeline>,
    layouts: Option<[wgpu::BindGroupLayout; 2]>,
    /// The tables' bind group and the (dims, seeds) it holds.
    tables: Option<((u32, Vec<u64>), wgpu::BindGroup)>,
    /// The state buffer and the bytes last written to it.
    state: Option<(wgpu::Buffer, Vec<u8>)>,
    windows: HashMap<GraphWindow, wgpu::Buffer>,
    groups: HashMap<GroupKey, wgpu::BindGroup>,
    /// Padded rows of texture renders.
    pub(super) scratch: Option<wgpu::Buffer>,
}

/// A group-0 bind group: its window, and the target range.
type GroupKey = (GraphWindow, wgpu::Buffer, u64, Option<NonZeroU64>);

/// Cached windows and bind groups at most; the caches are cleared past it.
const GRAPH_CACHE: usize = 64;

impl GraphPipelines {
    pub(crate) fn new() -> Self {
        Self {
            pipelines: HashMap::new(),
            layouts: None,
            tables: None,
            state: None,
            windows: HashMap::new(),
            groups: HashMap::new(),
            scratch: None,
        }
    }
}

/// The graph's tables as the library reads them, slot after slot: permutation windows (u32),
/// gradients (vec4<f32>), values (f32); one zero entry each for a graph without noise (bindings
/// cannot be empty).
pub(crate) fn table_bytes(prepared: &PreparedGraph) -> [Vec<u8>; 3] {
    let (mut perm, mut gradients, mut values) = (Vec::new(), Vec::new(), Vec::new());
    for t in prepared.tables() {
        perm.extend(crate::tables::perm_windows(&t.perm));
        gradients.extend_from_slice(&t.gradients);
        values.extend(t.values.iter().map(|&v| v as f32));
    }
    if perm.is_empty() {
        (perm, gradients, values) = (vec![0], vec![[0.0; 4]], vec![0.0]);
    }
    [
        bytemuck::cast_slice(&perm).to_vec(),
        bytemuck::cast_slice(&gradients).to_vec(),
        bytemuck::cast_slice(&values).to_vec(),
    ]
}

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

fn layouts(device: &wgpu::Device) -> [wgpu::BindGroupLayout; 2] {
    let window = wgpu::BindGroupLayoutEntry {
        binding: 0,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: NonZeroU64::new(std::mem::size_of::<GraphWindow>() as u64),
        },
        count: None,
    };
    let graph = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("gpu-noise graph"),
        entries: &[window, storage_entry(1, true), storage_entry(2, false)],
    });
    let tables = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("gpu-noise graph tables"),
        entries: &[
            storage_entry(1, true),
            storage_entry(2, true),
            storage_entry(3, true),
        ],
    });
    [graph, tables]
}

impl Renderer {
    /// The graph pipeline of a generated source, compiled on first use.
    pub(super) fn graph_pipeline(&mut self, source: &str) -> Result<wgpu::ComputePipeline> {
        if let Some(p) = self.graphs.pipelines.get(source) {
            return Ok(p.clone());
        }
        let device = self.device.clone();
        let [graph, tables] = self
            .graphs
            .layouts
            .get_or_insert_with(|| layouts(&device))
            .clone();
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("gpu-noise graph"),
            source: wgpu::ShaderSource::Wgsl(crate::wgsl::sources::graph_source(source).into()),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("gpu-noise graph"),
            bind_group_layouts: &[Some(&graph), Some(&tables)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("gpu-noise graph"),
            layout: Some(&layout),
            module: &module,
            entry_point: Some("graph_render_buffer"),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(Some(source)) = super::ready_now(scope.pop()) {
            return Err(Error::Gpu {
                context: "building a graph pipeline".into(),
                source,
            });
        }
        self.stats.pipelines_compiled += 1;
        self.graphs
            .pipelines
            .insert(source.to_string(), pipeline.clone());
        Ok(pipeline)
    }

    fn graph_buffer(
        &mut self,
        label: &str,
        bytes: &[u8],
        usage: wgpu::BufferUsages,
    ) -> wgpu::Buffer {
        self.stats.buffers_created += 1;
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytes,
                usage,
            })
    }

    /// The bind group of the graph's tables (permutation windows, gradients, values per slot).
    fn graph_tables(
        &mut self,
        prepared: &PreparedGraph,
        layout: &wgpu::BindGroupLayout,
    ) -> wgpu::BindGroup {
        let bytes = table_bytes(prepared);
        let labels = ["graph perm", "graph gradients", "graph values"];
        let storage = wgpu::BufferUsages::STORAGE;
        let buffers = [0, 1, 2].map(|k| self.graph_buffer(labels[k], &bytes[k], storage));
        self.stats.bind_groups_created += 1;
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gpu-noise graph tables"),
            layout,
            entries: &[1, 2, 3].map(|b| wgpu::BindGroupEntry {
                binding: b,
                resource: buffers[b as usize - 1].as_entire_binding(),
            }),
        })
    }

    /// The tables' bind group and the state buffer of `prepared`, reused where they hold the
    /// same seeds and fit; the state is written (in `encoder`'s order) only when it changed.
    pub(super) fn graph_bindings(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        prepared: &PreparedGraph,
    ) -> Result<GraphResources> {
        let Some([graph_layout, tables_layout]) = self.graphs.layouts.clone() else {
            return Err(Error::Unsupported("graph layouts were not built".into()));
        };
        let key = (prepared.graph().dims(), prepared.table_seeds().to_vec());
        let tables = match &self.graphs.tables {
            Some((k, group)) if *k == key => group.clone(),
            _ => {
                let group = self.graph_tables(prepared, &tables_layout);
                self.stats.table_uploads += prepared.tables().len() as u64;
                self.graphs.tables = Some((key, group.clone()));
                group
            }
        };
        let bytes = prepared.kernel().state_bytes();
        let state = self.graph_state_buffer(bytes.len() as u64);
        if self
            .graphs
            .state
            .as_ref()
            .is_some_and(|(_, written)| *written != bytes)
        {
            if let Some(size) = NonZeroU64::new(bytes.len() as u64) {
                self.belt
                    .write_buffer(encoder, &state, 0, size)
                    .copy_from_slice(&bytes);
                self.stats.uniform_writes += 1;
            }
            self.graphs.state = Some((state.clone(), bytes));
        }
        Ok(GraphResources {
            layout: graph_layout,
            tables,
            state,
        })
    }

    /// The state buffer, replaced by a larger one where `bytes` do not fit.
    fn graph_state_buffer(&mut self, bytes: u64) -> wgpu::Buffer {
        if let Some((buffer, _)) = &self.graphs.state
            && buffer.size() >= bytes
        {
            return buffer.clone();
        }
        self.stats.buffers_created += 1;
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("gpu-noise graph state"),
            size: bytes.next_multiple_of(256),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        // Bind groups of the old buffer must not serve the new one.
        self.graphs.groups.clear();
        self.graphs.state = Some((buffer.clone(), Vec::new()));
        buffer
    }

    /// The group-0 bind group of one dispatch: its window's uniform and the target range,
    /// both cached.
    pub(super) fn graph_group(
        &mut self,
        bindings: &GraphResources,
        params: GraphWindow,
        target: &wgpu::BufferBinding<'_>,
    ) -> wgpu::BindGroup {
        let key = (params, target.buffer.clone(), target.offset, target.size);
        if let Some(group) = self.graphs.groups.get(&key) {
            return group.clone();
        }
        if self.graphs.groups.len() >= GRAPH_CACHE || self.graphs.windows.len() >= GRAPH_CACHE {
            self.graphs.groups.clear();
            self.graphs.windows.clear();
        }
        let uniform = match self.graphs.windows.get(&params) {
            Some(buffer) => buffer.clone(),
            None => {
                let buffer = self.graph_buffer(
                    "graph window",
                    bytemuck::bytes_of(&params),
                    wgpu::BufferUsages::UNIFORM,
                );
                self.graphs.windows.insert(params, buffer.clone());
                buffer
            }
        };
        self.stats.bind_groups_created += 1;
        let group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gpu-noise graph"),
            layout: &bindings.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: bindings.state.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Buffer(target.clone()),
                },
            ],
        });
        self.graphs.groups.insert(key, group.clone());
        group
    }
}
