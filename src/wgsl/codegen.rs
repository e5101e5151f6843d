//! The graph kernel (CONVENTIONS §13): WGSL generated from a plan's structure (`graph_value`,
//! straight-line code over its steps, and `GraphState` sized for it), and the state that the
//! code reads: frames, parameters and kind states. Numbers live only in the state, so two plans
//! of the same structure share one source and one pipeline.

use std::fmt::Write;

use super::batches::{Batch, noise_batches, with_batches};
use super::host::GraphInstance;
use crate::graph::modifiers::ParamSink;
use crate::graph::node::Combiner;
use crate::graph::plan::{Plan, Step};
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

/// The lattice and point of instance `first + k` of a batch, as a kind's WGSL call takes them.
pub(super) fn batch_operands(plan: &Plan, first: usize) -> (String, String) {
    let inst = &plan.instances[first];
    let k = format!("{first}u + k");
    let lat = format!(
        "graph_lattice({k}, {}u, {}u)",
        inst.lattice as u32, inst.interp as u32
    );
    let point = point_function(plan, first);
    (lat, format!("{point}({k}, t)"))
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

pub(super) struct Generator<'a> {
    pub(super) plan: &'a Plan,
    pub(super) dims: usize,
    pub(super) code: String,
    pub(super) params: Vec<[f32; 4]>,
    /// Folds emitted so far (each names its accumulator `fold{n}`).
    pub(super) folds: usize,
}

impl ParamSink for Generator<'_> {
    fn push(&mut self, entry: [f64; 4]) -> String {
        self.param(entry)
    }

    fn next_index(&self) -> usize {
        self.params.len()
    }
}

impl Generator<'_> {
    /// Appends a parameter entry; its WGSL is `graph_state.params[k]`.
    pub(super) fn param(&mut self, v: [f64; 4]) -> String {
        self.params.push(v.map(|x| x as f32));
        format!("graph_state.params[{}]", self.params.len() - 1)
    }

    pub(super) fn line(&mut self, text: String) {
        self.code.push_str("    ");
        self.code.push_str(&text);
        self.code.push('\n');
    }

    fn step(&mut self, i: usize, step: &Step) {
        match step {
            Step::Noise { instance, delta } => self.noise(i, *instance, *delta),
            Step::Coordinate {
                instance,
                axis,
                delta,
            } => {
                let index = self.plan.instances.len() + instance;
                let point = point_of(self.plan, index, *delta);
                self.line(format!(
                    "let r{i} = graph_coordinate({index}u, {point}, {axis}u);"
                ));
            }
            Step::Fractal { .. } | Step::RidgedMulti { .. } => self.fractal(i, step, false),
            Step::Linear { .. } | Step::Displace { .. } => self.displacement(i, step),
            _ => {
                let v = self.value(step);
                self.line(format!("let r{i} = {v};"));
            }
        }
    }

    fn noise(&mut self, i: usize, instance: usize, delta: Option<usize>) {
        let inst = &self.plan.instances[instance];
        let point = point_of(self.plan, instance, delta);
        let lat = format!(
            "graph_lattice({instance}u, {}u, {}u)",
            inst.lattice as u32, inst.interp as u32
        );
        let call = (inst.kind.info().wgsl_call)(self.dims as u32, inst.interp, &lat, &point);
        self.line(format!("let r{i} = {call};"));
    }

    /// A fractal sum or ridged multifractal step, for values or (`dual`) with gradients
    /// (graph_d.wgsl's functions: the same arguments, the state and result with gradients).
    pub(super) fn fractal(&mut self, i: usize, step: &Step, dual: bool) {
        let (term, finish) = match dual {
            false => ("fractal_term", "fractal_finish"),
            true => ("fractal_term_dual", "fractal_finish_dual"),
        };
        let (start, d) = match dual {
            false => ("vec3<f32>(0.0, 0.0, 1.0)", ""),
            true => (
                "RidgedDual(vec4<f32>(0.0), 0.0, vec4<f32>(1.0, 0.0, 0.0, 0.0))",
                "_d",
            ),
        };
        match step {
            Step::Fractal { fractal, terms } => {
                let code = *fractal as u32;
                let sum: Vec<String> = terms
                    .iter()
                    .map(|(k, w)| {
                        let p = self.param([*w, 0.0, 0.0, 0.0]);
                        format!("{p}.x * {term}({code}u, r{k})")
                    })
                    .collect();
                self.line(format!(
                    "let r{i} = {finish}({code}u, {});",
                    sum.join(" + ")
                ));
            }
            Step::RidgedMulti {
                values,
                weights,
                offset,
                gain,
            } => {
                self.line(format!("var s{i} = {start};"));
                for (k, w) in values.iter().zip(weights) {
                    let p = self.param([*w, *offset, *gain, 0.0]);
                    self.line(format!(
                        "s{i} = ridged_multi_octave{d}(s{i}, r{k}, {p}.x, {p}.y, {p}.z);"
                    ));
                }
                self.line(format!("let r{i} = ridged_multi_finish{d}(s{i});"));
            }
            _ => unreachable!("only fractal steps come here"),
        }
    }

    /// The expression of a constant, modifier or combiner step.
    fn value(&mut self, step: &Step) -> String {
        let r = |k: &usize| format!("r{k}");
        match step {
            Step::Constant(v) => format!("{}.x", self.param([*v, 0.0, 0.0, 0.0])),
            Step::Modify { input, modifier } => modifier.wgsl(self, &r(input), ""),
            Step::Combine { combiner, inputs } => {
                self.combiner(*combiner, &inputs.iter().map(r).collect::<Vec<_>>(), "")
            }
            Step::Blend { a, b, control } => format!("blend(r{a}, r{b}, r{control})"),
            Step::Select {
                a,
                b,
                control,
                threshold,
                falloff,
            } => {
                let p = self.param([*threshold, *falloff, 0.0, 0.0]);
                format!("select_between(r{a}, r{b}, r{control}, {p}.x, {p}.y)")
            }
            _ => unreachable!("noise, coordinate, fractal and displacement steps go elsewhere"),
        }
    }

    fn displacement(&mut self, i: usize, step: &Step) {
        match step {
            Step::Linear { input, m } => {
                let columns: Vec<String> = (0..4)
                    .map(|c| self.param([m[0][c], m[1][c], m[2][c], m[3][c]]))
                    .collect();
                let m = columns.join(", ");
                self.line(format!("let d{i} = mat4x4<f32>({m}) * d{input};"));
            }
            Step::Displace {
                base,
                by,
                amplitude,
            } => {
                let p = self.param([*amplitude, 0.0, 0.0, 0.0]);
                let mut parts: Vec<String> = by.iter().map(|k| format!("r{k}")).collect();
                parts.resize(4, "0.0".into());
                let start = base.map_or("vec4<f32>(0.0)".to_string(), |b| format!("d{b}"));
                let by = parts.join(", ");
                self.line(format!("let d{i} = {start} + {p}.x * vec4<f32>({by});"));
            }
            _ => unreachable!("only displacement steps come here"),
        }
    }

    /// A combiner over `v`, folded left to right; `d` as for [`Self::modifier`] (a product
    /// with gradients is `multiply_d`).
    pub(super) fn combiner(&mut self, combiner: Combiner, v: &[String], d: &str) -> String {
        let fold = |f: &dyn Fn(String, &String) -> String| v[1..].iter().fold(v[0].clone(), f);
        match combiner {
            Combiner::Add => fold(&|a, b| format!("{a} + {b}")),
            Combiner::Multiply if d.is_empty() => fold(&|a, b| format!("{a} * {b}")),
            Combiner::Multiply => self.fold_calls(&format!("multiply{d}"), v),
            Combiner::Min => self.fold_calls(&format!("min{d}"), v),
            Combiner::Max => self.fold_calls(&format!("max{d}"), v),
            Combiner::Subtract => format!("{} - {}", v[0], v[1]),
            Combiner::SmoothMin(k) => {
                let p = self.param([k, 0.0, 0.0, 0.0]);
                format!("smooth_min{d}({}, {}, {p}.x)", v[0], v[1])
            }
            Combiner::SmoothMax(k) => {
                let p = self.param([k, 0.0, 0.0, 0.0]);
                format!("-smooth_min{d}(-{}, -{}, {p}.x)", v[0], v[1])
            }
        }
    }
}

impl Generator<'_> {
    /// `f` folded over `v` left to right: one call for two inputs, else a chain of
    /// assignments to one variable (the same operations in the same order; nested calls of a
    /// few hundred inputs pass naga's parser recursion limit).
    fn fold_calls(&mut self, f: &str, v: &[String]) -> String {
        match v {
            [] => "0.0".into(),
            [a] => a.clone(),
            [a, b] => format!("{f}({a}, {b})"),
            [a, b, rest @ ..] => {
                let name = format!("fold{}", self.folds);
                self.folds += 1;
                self.line(format!("var {name} = {f}({a}, {b});"));
                for c in rest {
                    self.line(format!("{name} = {f}({name}, {c});"));
                }
                name
            }
        }
    }
}

/// The point of instance `instance` (noise instances first, then coordinates), displaced by
/// register `d{delta}` where there is one.
pub(super) fn point_of(plan: &Plan, instance: usize, delta: Option<usize>) -> String {
    let point = format!("{}({instance}u, t)", point_function(plan, instance));
    match delta {
        None => point,
        Some(d) => format!("graph_point_moved({instance}u, {point}, d{d})"),
    }
}

/// The function that places instance `instance`: `graph_point_axes` where its map keeps to the
/// axes (one wide product per axis), else `graph_point`.
fn point_function(plan: &Plan, instance: usize) -> &'static str {
    match plan.instances.get(instance) {
        Some(inst) if inst.axis_aligned => "graph_point_axes",
        _ => "graph_point",
    }
}
