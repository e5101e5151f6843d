//! Programs: what a texel's value is on the GPU. A flat job runs the noise library's kernels
//! specialized by override constants ([`NoiseKey`]: kind, dims, fractal, octaves, ...) with its
//! uniform and tables at group 1 (the library's [`NoiseBindings`]); any other job runs the same
//! kernels composed with its generated code (CONVENTIONS §13), its state and tables at group 1.
//! Every kernel (entry point) and target serves both, so every job reaches every target.

use std::collections::HashMap;
use std::num::NonZeroU64;
use std::sync::Arc;

use wgpu::util::{DeviceExt, StagingBelt};

use super::bindings::NoiseBindings;
use super::graph_bindings::STATE_USAGE;
use super::layouts::{GraphLayouts, Group1, graph_layouts, params_layout, pipeline_layouts};
use super::pipelines::{Entry, GraphKey, NoiseKey};
use super::stats::RenderStats;
use crate::error::{Error, Result};
use crate::job::Job;
use crate::wgsl::codegen::StateSpace;
use crate::wgsl::sources::Tables;
use crate::wgsl::tables::TableSpace;
use crate::wgsl::tables::table_bytes;

/// Which program a pipeline runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ProgramKey {
    /// The library's fractal sum, specialized by its override constants.
    Flat(NoiseKey),
    /// A plan's generated code (its source), its overrides, where its state is bound and how
    /// its tables are.
    Graph(Arc<str>, GraphKey, StateSpace, Tables),
}

impl ProgramKey {
    fn group1(&self) -> Group1 {
        match self {
            ProgramKey::Flat(_) => Group1::Library,
            ProgramKey::Graph(_, _, state, (tables, _)) => Group1::Graph(*state, *tables),
        }
    }
}

impl ProgramKey {
    /// Texel rows an invocation of a value kernel computes with this program.
    pub(crate) fn rows(&self) -> u32 {
        use crate::wgsl::sources::{FLAT_PROGRAM_ROWS, GRAPH_PROGRAM_ROWS};
        match self {
            ProgramKey::Flat(_) => FLAT_PROGRAM_ROWS,
            ProgramKey::Graph(..) => GRAPH_PROGRAM_ROWS,
        }
    }
}

/// A job bound for recording: its program and its group-1 bind group.
pub(crate) struct Program {
    pub key: ProgramKey,
    pub group: wgpu::BindGroup,
}

/// The tables of a (dims, seeds) bound as `Tables` on the device: permutation windows,
/// gradients, values.
type TableBuffers = ((u32, Vec<u64>, Tables), [wgpu::Buffer; 3]);

/// A graph's tables and state on the device, reused while they fit and hold the same seeds.
struct GraphData {
    /// The group's layout with the state and the tables in each space.
    layouts: GraphLayouts,
    /// The (dims, seeds) the tables hold, and their buffers.
    tables: Option<TableBuffers>,
    /// The state buffer and the bytes last written to it.
    state: Option<(wgpu::Buffer, Vec<u8>)>,
    /// The bind group of the current tables and state buffer: its state's space and bound
    /// bytes, and the group (the tables' space is the current tables').
    group: Option<(StateSpace, u64, wgpu::BindGroup)>,
}

/// The modules, layouts and pipelines of every program so far, and the flat library's and the
/// graphs' group-1 data.
pub(crate) struct Programs {
    library: NoiseBindings,
    flat_module: wgpu::ShaderModule,
    /// Where this renderer binds tables where they fit (`TableSpace::preferred`).
    tables: TableSpace,
    /// Where the flat library's are.
    flat_tables: TableSpace,
    graph: GraphData,
    graph_modules: HashMap<(Arc<str>, Tables), wgpu::ShaderModule>,
    params_layout: wgpu::BindGroupLayout,
    target_layouts: HashMap<Entry, wgpu::BindGroupLayout>,
    /// Per entry, for flat programs (false) and graphs (true).
    layouts: HashMap<(Entry, Group1), wgpu::PipelineLayout>,
    pipelines: HashMap<(Entry, ProgramKey), wgpu::ComputePipeline>,
    limits: wgpu::Limits,
}

/// Graph modules kept at most; the cache is cleared past it (a caller changing a graph's
/// structure every frame must not grow it without bound).
const GRAPH_MODULES: usize = 64;

impl GraphData {
    /// The tables of `job`'s (dims, seeds) bound as `tables`, uploaded where the last ones
    /// differ.
    fn tables(
        &mut self,
        device: &wgpu::Device,
        job: &Job,
        tables: Tables,
        stats: &mut RenderStats,
    ) -> [wgpu::Buffer; 3] {
        let plan = job.plan();
        let key = (plan.dims as u32, plan.table_seeds.clone(), tables);
        if let Some((k, buffers)) = &self.tables
            && *k == key
        {
            return buffers.clone();
        }
        let usage = match tables.0 {
            TableSpace::Storage => wgpu::BufferUsages::STORAGE,
            TableSpace::Uniform => wgpu::BufferUsages::UNIFORM,
        };
        let buffers = table_bytes(&plan.tables, tables).map(|b| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("gpu-noise graph tables"),
                contents: &b,
                usage,
            })
        });
        stats.buffers_created += 3;
        stats.table_uploads += plan.tables.len() as u64;
        self.tables = Some((key, buffers.clone()));
        self.group = None;
        buffers
    }

    /// The state buffer holding `bytes`: the last one where it is large enough (written only
    /// where the bytes changed), else a new one.
    fn state(
        &mut self,
        device: &wgpu::Device,
        belt: &mut StagingBelt,
        encoder: &mut wgpu::CommandEncoder,
        bytes: Vec<u8>,
        stats: &mut RenderStats,
    ) -> wgpu::Buffer {
        let len = bytes.len() as u64;
        let buffer = match &self.state {
            Some((buffer, _)) if buffer.size() >= len => buffer.clone(),
            _ => {
                let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("gpu-noise graph state"),
                    size: len.next_multiple_of(256),
                    usage: STATE_USAGE,
                    mapped_at_creation: false,
                });
                stats.buffers_created += 1;
                self.state = Some((buffer.clone(), Vec::new()));
                self.group = None;
                buffer
            }
        };
        if let Some((_, written)) = &mut self.state
            && *written != bytes
            && let Some(size) = NonZeroU64::new(len)
        {
            belt.write_buffer(encoder, &buffer, 0, size)
                .copy_from_slice(&bytes);
            stats.uniform_writes += 1;
            *written = bytes;
        }
        buffer
    }

    /// The bind group of `tables` (in `table_space`) and `state`, the state bound in `space` at
    /// its own length (a uniform binding may not pass 16 KiB, and the buffer may have grown for
    /// a larger graph before); the last one where those match (new tables reset it).
    fn group(
        &mut self,
        device: &wgpu::Device,
        (tables, table_space): (&[wgpu::Buffer; 3], TableSpace),
        state: &wgpu::Buffer,
        (space, bound): (StateSpace, u64),
        stats: &mut RenderStats,
    ) -> wgpu::BindGroup {
        if let Some((s, b, group)) = &self.group
            && (*s, *b) == (space, bound)
        {
            return group.clone();
        }
        let [perm, gradients, values] = [1, 2, 3].map(|b| wgpu::BindGroupEntry {
            binding: b,
            resource: tables[b as usize - 1].as_entire_binding(),
        });
        let state_entry = wgpu::BindGroupEntry {
            binding: 4,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: state,
                offset: 0,
                size: NonZeroU64::new(bound),
            }),
        };
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gpu-noise graph"),
            layout: &self.layouts[&(space, table_space)],
            entries: &[perm, gradients, values, state_entry],
        });
        stats.bind_groups_created += 1;
        self.group = Some((space, bound, group.clone()));
        group
    }
}

impl Programs {
    /// The flat module, the library's bindings and every layout this device can use, the
    /// tables in `tables` where they fit.
    pub(crate) fn new(device: &wgpu::Device, tables: TableSpace) -> Result<Self> {
        use super::bindings::UNIFORM_TABLE_SLOTS;
        let limits = device.limits();
        let flat_tables = tables.or_storage(&limits, UNIFORM_TABLE_SLOTS as u32);
        let library = NoiseBindings::in_space(device, flat_tables)?;
        let scope = super::validation_scope(device);
        let source =
            crate::wgsl::sources::kernel_source_with((flat_tables, UNIFORM_TABLE_SLOTS as u32));
        let flat_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("gpu-noise kernels"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let params_layout = params_layout(device);
        let graph_layouts = graph_layouts(device, tables);
        let (target_layouts, layouts) = pipeline_layouts(
            device,
            &limits,
            [&params_layout, library.layout()],
            &graph_layouts,
        );
        if let Some(source) = super::scope_error(scope) {
            return Err(Error::Gpu {
                context: "compiling the kernel module".into(),
                source,
            });
        }
        Ok(Self {
            library,
            flat_module,
            tables,
            flat_tables,
            graph: GraphData {
                layouts: graph_layouts,
                tables: None,
                state: None,
                group: None,
            },
            graph_modules: HashMap::new(),
            params_layout,
            target_layouts,
            layouts,
            pipelines: HashMap::new(),
            limits,
        })
    }

    /// The layout of group 0 (the kernels' parameters).
    pub(crate) fn params_layout(&self) -> &wgpu::BindGroupLayout {
        &self.params_layout
    }

    /// The layout of group 2 for `entry`, or why the device cannot run it.
    pub(crate) fn target_layout(&self, entry: Entry) -> Result<&wgpu::BindGroupLayout> {
        match self.target_layouts.get(&entry) {
            Some(layout) => Ok(layout),
            None => {
                entry.fits(&self.limits)?;
                Err(Error::Unsupported(format!(
                    "no layout for {}",
                    entry.name()
                )))
            }
        }
    }

    /// How the flat library binds its tables.
    pub(crate) fn table_space(&self) -> TableSpace {
        self.flat_tables
    }

    /// The flat programs' library bindings.
    pub(crate) fn library(&self) -> &NoiseBindings {
        &self.library
    }

    /// Records (into `encoder`, through `belt`) what makes group 1 describe `job`: a flat job's
    /// uniform and table slots, or a graph's state and tables; returns its program.
    pub(crate) fn bind(
        &mut self,
        device: &wgpu::Device,
        belt: &mut StagingBelt,
        encoder: &mut wgpu::CommandEncoder,
        job: &Job,
        stats: &mut RenderStats,
    ) -> Result<Program> {
        if job.flat().is_some() {
            self.library.update(encoder, job)?;
            return Ok(Program {
                key: ProgramKey::Flat(NoiseKey::of(job)),
                group: self.library.bind_group().clone(),
            });
        }
        job.check_gpu_kernel()?;
        let tables = self.graph_tables(job);
        let group = self.bind_graph(device, belt, encoder, job, tables, stats);
        let source: Arc<str> = Arc::from(job.kernel().source.as_str());
        let state = job.kernel().state_space;
        Ok(Program {
            key: ProgramKey::Graph(source, GraphKey::of(job), state, tables),
            group,
        })
    }

    /// How `job`'s graph binds its tables: in this renderer's space where its slots fit.
    fn graph_tables(&self, job: &Job) -> Tables {
        let slots = job.plan().tables.len().max(1) as u32;
        (self.tables.or_storage(&self.limits, slots), slots)
    }

    fn bind_graph(
        &mut self,
        device: &wgpu::Device,
        belt: &mut StagingBelt,
        encoder: &mut wgpu::CommandEncoder,
        job: &Job,
        tables: Tables,
        stats: &mut RenderStats,
    ) -> wgpu::BindGroup {
        let data = &mut self.graph;
        let buffers = data.tables(device, job, tables, stats);
        let bytes = job.kernel_state();
        let bound = bytes.len() as u64;
        let state = data.state(device, belt, encoder, bytes, stats);
        data.group(
            device,
            (&buffers, tables.0),
            &state,
            (job.kernel().state_space, bound),
            stats,
        )
    }

    /// The pipeline of `entry` for `key`, compiled (inside a validation error scope) the first
    /// time; `stats` counts the compilations.
    pub(crate) fn pipeline(
        &mut self,
        device: &wgpu::Device,
        entry: Entry,
        key: &ProgramKey,
        stats: &mut RenderStats,
    ) -> Result<wgpu::ComputePipeline> {
        if let Some(p) = self.pipelines.get(&(entry, key.clone())) {
            return Ok(p.clone());
        }
        entry.fits(&device.limits())?;
        let group1 = key.group1();
        if group1 != Group1::Library && entry == Entry::Sample {
            return Err(Error::Unsupported(
                "caller-given points in noise space are a flat spec's; sample a graph on the \
                 CPU (root points in texel units)"
                    .into(),
            ));
        }
        let scope = super::validation_scope(device);
        let (module, constants) = self.module(device, key);
        let Some(layout) = self.layouts.get(&(entry, group1)) else {
            entry.fits_beside(&device.limits(), u32::from(group1 != Group1::Library))?;
            return Err(Error::Unsupported(format!(
                "no layout for {}",
                entry.name()
            )));
        };
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry.name()),
            layout: Some(layout),
            module: &module,
            entry_point: Some(entry.name()),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants,
                ..Default::default()
            },
            cache: None,
        });
        if let Some(source) = super::scope_error(scope) {
            return Err(Error::Gpu {
                context: format!("building the {} pipeline", entry.name()),
                source,
            });
        }
        stats.pipelines_compiled += 1;
        self.pipelines
            .insert((entry, key.clone()), pipeline.clone());
        Ok(pipeline)
    }

    /// The module of a program and its override constants.
    fn module(
        &mut self,
        device: &wgpu::Device,
        key: &ProgramKey,
    ) -> (wgpu::ShaderModule, Vec<(&'static str, f64)>) {
        match key {
            ProgramKey::Flat(noise) => (self.flat_module.clone(), noise.constants().to_vec()),
            ProgramKey::Graph(source, graph_key, _, tables) => {
                if self.graph_modules.len() >= GRAPH_MODULES {
                    self.graph_modules.clear();
                }
                let module = self
                    .graph_modules
                    .entry((Arc::clone(source), *tables))
                    .or_insert_with(|| {
                        device.create_shader_module(wgpu::ShaderModuleDescriptor {
                            label: Some("gpu-noise graph kernels"),
                            source: wgpu::ShaderSource::Wgsl(
                                crate::wgsl::sources::graph_source_with(source, *tables).into(),
                            ),
                        })
                    });
                (module.clone(), graph_key.constants())
            }
        }
    }
}
