//! The graph kernel (CONVENTIONS §13): WGSL generated from a plan's structure (`graph_value`,
//! straight-line code over its steps, and `GraphState` sized for it), and the state that the
//! code reads: frames, parameters and kind states. Numbers live only in the state, so two plans
//! of the same structure share one source and one pipeline.

use std::fmt::Write;

use super::batches::{Batch, noise_batches, with_batches};
use super::emit::{Generator, batch_operands};
use super::host::GraphInstance;
use crate::graph::plan::Plan;
use crate::kinds::KindState;
use crate::spec::frames::OctaveFrame;

/// The node-by-node kernels' gradient entry: they measure values only (the bench's fusion
/// figure), so no dispatch of theirs calls it, but the kernel files name it.
const NODE_BY_NODE_VALUES_ONLY: &str =
    "fn graph_value_d(t: vec3<u32>) -> vec4<f32> {\n    return vec4<f32>(graph_value(t));\n}\n";

/// Where a graph's state is bound (group NOISE_GROUP, binding 4): a uniform buffer where it
/// fits one on every device, else a read-only storage buffer. Every invocation reads the state
/// at the same addresses, which a uniform buffer serves as such; lavapipe loads a storage
/// buffer one lane at a time, and the terrain example ran 1.9x faster from a uniform one there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum StateSpace {
    Uniform,
    Storage,
}

impl StateSpace {
    /// The largest state a uniform binding takes on any device: wgpu's downlevel (and WebGL2's)
    /// `max_uniform_buffer_binding_size`.
    pub const UNIFORM_BYTES: usize = 16 << 10;

    /// The space of a state of `bytes` bytes.
    fn of(bytes: usize) -> Self {
        if bytes <= Self::UNIFORM_BYTES {
            StateSpace::Uniform
        } else {
            StateSpace::Storage
        }
    }

    /// The state's WGSL binding (after the generated `GraphState`).
    fn declaration(self) -> &'static str {
        match self {
            StateSpace::Uniform => {
                "@group(NOISE_GROUP) @binding(4) var<uniform> graph_state: GraphState;\n"
            }
            StateSpace::Storage => {
                "@group(NOISE_GROUP) @binding(4) var<storage, read> graph_state: GraphState;\n"
            }
        }
    }
}

/// A plan as the GPU takes it.
#[derive(Clone, Debug)]
pub(crate) struct GraphKernel {
    /// The generated WGSL (appended to the library and shaders/graph/).
    pub source: String,
    /// The noise evaluations computed in loops (the rest are inlined).
    pub batches: Vec<Batch>,
    /// Where the state is bound (declared in `source`).
    pub state_space: StateSpace,
    /// The same graph as one kernel per step.
    pub node_by_node: NodeByNode,
    /// Per noise instance: table slot, impulse salt, hash seed, kind-state index.
    pub lattice: Vec<[u32; 4]>,
    /// Per noise instance, then per coordinate instance: lattice cells per unit of
    /// displacement.
    pub delta_maps: Vec<[[f64; 4]; 4]>,
    /// Numbers of the steps, four to an entry.
    pub params: Vec<[f32; 4]>,
    /// Distinct kind states.
    pub kinds: Vec<KindState>,
}

/// Generates the kernel of `plan`.
pub(crate) fn generate(plan: &Plan) -> GraphKernel {
    let dims = plan.dims;
    let (lattice, delta_maps, kinds) = instances(plan);
    let mut g = Generator {
        plan,
        dims,
        code: String::new(),
        params: Vec::new(),
        folds: 0,
    };
    let mut step_code = Vec::with_capacity(plan.steps.len());
    for (i, step) in plan.steps.iter().enumerate() {
        let start = g.code.len();
        g.step(i, step);
        step_code.push(g.code[start..].to_string());
    }
    let batches = noise_batches(plan);
    g.code = with_batches(&step_code, &batches, "f32", |_, first| {
        let inst = &plan.instances[first];
        let (lat, point) = batch_operands(plan, first);
        (inst.kind.info().wgsl_call)(dims as u32, inst.interp, &lat, &point)
    });
    let _ = writeln!(g.code, "    return r{};", plan.output);
    let value_code = std::mem::take(&mut g.code);
    let gradient = g.gradient_function(&batches);
    let counts = [delta_maps.len(), g.params.len(), kinds.len()].map(|n| n.max(1));
    let state_space = StateSpace::of(state_len(counts));
    let state = format!(
        "struct GraphState {{\n    instances: array<GraphInstance, {}>,\n    params: array<vec4<f32>, \
         {}>,\n    kinds: array<KindState, {}>,\n}}\n{}",
        counts[0],
        counts[1],
        counts[2],
        state_space.declaration(),
    );
    let source =
        format!("{state}\nfn graph_value(t: vec3<u32>) -> f32 {{\n{value_code}}}\n{gradient}");
    let node_by_node = node_by_node(plan, &state, &step_code);
    let mut params = g.params;
    if params.is_empty() {
        params.push([0.0; 4]);
    }
    GraphKernel {
        source,
        batches,
        state_space,
        node_by_node,
        lattice,
        delta_maps,
        params,
        kinds: if kinds.is_empty() {
            vec![KindState::default()]
        } else {
            kinds
        },
    }
}

/// Bytes of a `GraphState` of (instances, parameter entries, kind states).
fn state_len([instances, params, kinds]: [usize; 3]) -> usize {
    instances * std::mem::size_of::<GraphInstance>()
        + params * std::mem::size_of::<[f32; 4]>()
        + kinds * std::mem::size_of::<KindState>()
}

/// The noise instances' lattice words (with their kind-state indices), every instance's
/// displacement map (noise, then coordinates), and the distinct kind states.
type Instances = (Vec<[u32; 4]>, Vec<[[f64; 4]; 4]>, Vec<KindState>);

fn instances(plan: &Plan) -> Instances {
    let (mut lattice, mut maps, mut kinds) = (Vec::new(), Vec::new(), Vec::<KindState>::new());
    for inst in &plan.instances {
        let state = KindState::new(&inst.params);
        let k = kinds.iter().position(|s| *s == state).unwrap_or_else(|| {
            kinds.push(state);
            kinds.len() - 1
        });
        let tables = &plan.tables[inst.tables];
        lattice.push([
            inst.tables as u32,
            tables.impulse_salt,
            tables.hash_seed,
            k as u32,
        ]);
        maps.push(inst.delta_map);
    }
    for c in &plan.coordinates {
        let mut m = [[0.0; 4]; 4];
        for (a, row) in m.iter_mut().enumerate() {
            row[a] = c.frequency;
        }
        maps.push(m);
    }
    (lattice, maps, kinds)
}

/// One kernel per step for the unfused measurement: each reads its inputs from the register
/// buffer (`out_values`, region 0 a scratch the entry point writes, then one region of n values
/// or 4n for vectors per step, n the window's texels), computes the step as the fused kernel
/// does, and stores its result.
fn node_by_node(plan: &Plan, state: &str, step_code: &[String]) -> NodeByNode {
    let mut offsets = Vec::with_capacity(plan.steps.len());
    let mut next = 1;
    for step in &plan.steps {
        offsets.push(next);
        next += if step.is_vector() { 4 } else { 1 };
    }
    let load = |k: usize, vector: bool| {
        let at = format!(
            "({}u * n + {}idx)",
            offsets[k],
            if vector { "4u * " } else { "" }
        );
        if vector {
            format!(
                "    let d{k} = vec4<f32>(out_values[{at}], out_values[{at} + 1u], out_values[{at} + 2u], \
                 out_values[{at} + 3u]);\n"
            )
        } else {
            format!("    let r{k} = out_values[{at}];\n")
        }
    };
    let sources = plan
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let (values, vectors) = step.inputs();
            let mut body = String::from(
                "    let e = params.extent.xyz;\n    let n = e.x * e.y * e.z;\n    let l = t - \
                 params.origin.xyz;\n    let idx = (l.z * e.y + l.y) * e.x + l.x;\n",
            );
            let mut seen = std::collections::BTreeSet::new();
            for k in values {
                if seen.insert((k, false)) {
                    body.push_str(&load(k, false));
                }
            }
            for k in vectors {
                if seen.insert((k, true)) {
                    body.push_str(&load(k, true));
                }
            }
            body.push_str(&step_code[i]);
            let at = offsets[i];
            if step.is_vector() {
                for c in 0..4 {
                    let _ = writeln!(
                        body,
                        "    out_values[{at}u * n + 4u * idx + {c}u] = d{i}[{c}];"
                    );
                }
            } else {
                let _ = writeln!(body, "    out_values[{at}u * n + idx] = r{i};");
            }
            format!(
                "{state}\nfn graph_value(t: vec3<u32>) -> f32 {{\n{body}    return 0.0;\n}}\n{}",
                NODE_BY_NODE_VALUES_ONLY
            )
        })
        .collect();
    NodeByNode {
        sources,
        regions: next as u64,
        output: offsets[plan.output] as u64,
    }
}

/// The graph evaluated one step per dispatch through a register buffer (the fusion
/// measurement's baseline).
#[derive(Clone, Debug)]
pub(crate) struct NodeByNode {
    /// One generated part per step, in order.
    pub sources: Vec<String>,
    /// Regions of the register buffer, each one value per texel.
    pub regions: u64,
    /// The region holding the output values.
    pub output: u64,
}

impl GraphKernel {
    /// The state buffer's bytes of a placement (each instance's frame: noise instances, then
    /// coordinates), laid out as the generated `GraphState`.
    pub(crate) fn state_bytes(&self, frames: &[OctaveFrame], periods: &[[i64; 4]]) -> Vec<u8> {
        let mut instances: Vec<GraphInstance> = (frames.iter().zip(&self.delta_maps))
            .enumerate()
            .map(|(i, (frame, map))| {
                let lattice = self.lattice.get(i).copied().unwrap_or_default();
                let period = periods.get(i).copied().unwrap_or_default();
                GraphInstance::new(frame, map, lattice, period)
            })
            .collect();
        // WGSL arrays hold at least one element.
        if instances.is_empty() {
            instances.push(bytemuck::Zeroable::zeroed());
        }
        let mut bytes = Vec::new();
        bytes.extend_from_slice(bytemuck::cast_slice(&instances));
        bytes.extend_from_slice(bytemuck::cast_slice(&self.params));
        bytes.extend_from_slice(bytemuck::cast_slice(&self.kinds));
        bytes
    }
}
