//! The steps of a graph's value function as WGSL (CONVENTIONS §13): one statement a step, each
//! number a `graph_state.params` entry ([`Generator::param`]), every name of the WGSL that
//! `graph.wgsl`, `graph_d.wgsl` and the modifiers' files declare. `codegen` assembles the
//! kernel around it; `codegen_d` emits the same steps with gradients.

use crate::graph::combiners::CodeSink;
use crate::graph::modifiers::ParamSink;
use crate::graph::plan::{Plan, Step};

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

impl CodeSink for Generator<'_> {
    fn fold_calls(&mut self, f: &str, v: &[String]) -> String {
        Generator::fold_calls(self, f, v)
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

    pub(super) fn step(&mut self, i: usize, step: &Step) {
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
                combiner.wgsl(self, &inputs.iter().map(r).collect::<Vec<_>>(), "")
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
