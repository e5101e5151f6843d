//! The graph kernel's gradient entry `graph_value_d(t)` (CONVENTIONS §13, "Derivatives"):
//! the plan's steps again, forward mode, over shaders/graph/graph_d.wgsl; mirrors
//! src/cpu/plan_d.rs step by step. Values are `vec4 r{i}` (value, d/dx, d/dy, d/dz),
//! displacements `vec4 d{i}` with their Jacobians `mat4x4 j{i}` (column b: d/dx_b). Noise and
//! coordinate maps are numbers of the state, as every other number.

use super::batches::{Batch, with_batches};
use super::emit::{Generator, batch_operands, point_of};
use crate::graph::plan::Step;
use crate::spec::frames::Mat;

impl Generator<'_> {
    /// The body of `graph_value_d`: every step with its gradient, then the output.
    pub(super) fn gradient_function(&mut self, batches: &[Batch]) -> String {
        let mut step_code = Vec::with_capacity(self.plan.steps.len());
        for (i, step) in self.plan.steps.iter().enumerate() {
            let start = self.code.len();
            self.step_d(i, step);
            step_code.push(self.code.split_off(start));
        }
        // Batches of one kind with derivatives: one loop, each instance's map from a block of
        // four parameter columns per instance.
        let plan = self.plan;
        let (batches, calls): (Vec<_>, Vec<_>) = (batches.iter())
            .filter_map(|b| {
                Some((
                    b.clone(),
                    plan.instances[b.first].kind.info().wgsl_dual_call?,
                ))
            })
            .unzip();
        let bases: Vec<usize> = (batches.iter())
            .map(|b| {
                let base = self.params.len();
                for inst in &plan.instances[b.first..b.first + b.steps.len()] {
                    self.matrix(&inst.points.map);
                }
                base
            })
            .collect();
        let dims = self.dims as u32;
        let body = with_batches(&step_code, &batches, "vec4<f32>", |r, first| {
            let column = |c: usize| format!("graph_state.params[{}u + 4u * k + {c}u]", bases[r]);
            let m = format!(
                "mat4x4<f32>({}, {}, {}, {})",
                column(0),
                column(1),
                column(2),
                column(3)
            );
            let (lat, point) = batch_operands(plan, first);
            let call = calls[r](dims, plan.instances[first].interp, &lat, &point);
            format!("noise_texel_d({call}, {m})")
        });
        format!(
            "fn graph_value_d(t: vec3<u32>) -> vec4<f32> {{\n{body}    return r{};\n}}\n",
            self.plan.output
        )
    }

    /// A 4x4 matrix as four parameter columns: `mat4x4<f32>(...)`.
    fn matrix(&mut self, m: &Mat) -> String {
        let columns: Vec<String> = (0..4)
            .map(|c| self.param([m[0][c], m[1][c], m[2][c], m[3][c]]))
            .collect();
        format!("mat4x4<f32>({})", columns.join(", "))
    }

    /// `U + f j{delta}`: an instance's lattice (unskewed) cells per world texel.
    fn chained_map(&mut self, map: &Mat, frequency: f64, delta: Option<usize>) -> String {
        let u = self.matrix(map);
        match delta {
            None => u,
            Some(d) => {
                let f = self.param([frequency, 0.0, 0.0, 0.0]);
                format!("({u} + {f}.x * j{d})")
            }
        }
    }

    fn step_d(&mut self, i: usize, step: &Step) {
        match step {
            Step::Noise { instance, delta } => {
                let inst = &self.plan.instances[*instance];
                let point = point_of(self.plan, *instance, *delta);
                let lat = format!(
                    "graph_lattice({instance}u, {}u, {}u)",
                    inst.lattice as u32, inst.interp as u32
                );
                let dual = inst.kind.info().wgsl_dual_call;
                // A kind without derivatives gives NaN, as the twin does (jobs refuse them first;
                // graph_d.wgsl's no_dual says why it is made at run time).
                let call = dual.map_or("no_dual()".to_string(), |f| {
                    f(self.dims as u32, inst.interp, &lat, &point)
                });
                let (map, frequency) = (inst.points.map, inst.frequency);
                let m = self.chained_map(&map, frequency, *delta);
                self.line(format!("let r{i} = noise_texel_d({call}, {m});"));
            }
            Step::Coordinate {
                instance,
                axis,
                delta,
            } => {
                let c = &self.plan.coordinates[*instance];
                let (map, frequency) = (c.points.map, c.frequency);
                let index = self.plan.instances.len() + instance;
                let point = point_of(self.plan, index, *delta);
                let m = self.chained_map(&map, frequency, *delta);
                self.line(format!(
                    "let r{i} = vec4<f32>(graph_coordinate({index}u, {point}, {axis}u), transpose({m})[{axis}].xyz);"
                ));
            }
            Step::Fractal { .. } | Step::RidgedMulti { .. } => self.fractal(i, step, true),
            Step::Linear { input, m } => {
                let m = self.matrix(m);
                self.line(format!("let m{i} = {m};"));
                self.line(format!("let d{i} = m{i} * d{input};"));
                self.line(format!("let j{i} = m{i} * j{input};"));
            }
            Step::Displace {
                base,
                by,
                amplitude,
            } => self.displace_d(i, *base, by, *amplitude),
            _ => {
                let v = self.value_d(step);
                self.line(format!("let r{i} = {v};"));
            }
        }
    }

    /// `base + amplitude (by_0, ...)`: the Jacobian's row a is amplitude times by_a's gradient.
    fn displace_d(&mut self, i: usize, base: Option<usize>, by: &[usize], amplitude: f64) {
        let p = self.param([amplitude, 0.0, 0.0, 0.0]);
        let mut values: Vec<String> = by.iter().map(|k| format!("r{k}.x")).collect();
        let mut gradients: Vec<String> = by.iter().map(|k| format!("gradient_of(r{k})")).collect();
        values.resize(4, "0.0".into());
        gradients.resize(4, "vec4<f32>(0.0)".into());
        let (d0, j0) = match base {
            Some(b) => (format!("d{b}"), format!("j{b}")),
            None => ("vec4<f32>(0.0)".into(), "mat4x4<f32>()".into()),
        };
        self.line(format!(
            "let d{i} = {d0} + {p}.x * vec4<f32>({});",
            values.join(", ")
        ));
        // Rows of by's gradients, transposed to columns per texel axis.
        self.line(format!(
            "let j{i} = {j0} + {p}.x * transpose(mat4x4<f32>({}));",
            gradients.join(", ")
        ));
    }

    /// The expression of a constant, modifier or combiner step with its gradient.
    fn value_d(&mut self, step: &Step) -> String {
        let r = |k: &usize| format!("r{k}");
        match step {
            Step::Constant(v) => {
                let p = self.param([*v, 0.0, 0.0, 0.0]);
                format!("vec4<f32>({p}.x, 0.0, 0.0, 0.0)")
            }
            Step::Modify { input, modifier } => modifier.wgsl(self, &r(input), "_d"),
            Step::Combine { combiner, inputs } => {
                combiner.wgsl(self, &inputs.iter().map(r).collect::<Vec<_>>(), "_d")
            }
            Step::Blend { a, b, control } => format!("blend_d(r{a}, r{b}, r{control})"),
            Step::Select {
                a,
                b,
                control,
                threshold,
                falloff,
            } => {
                let p = self.param([*threshold, *falloff, 0.0, 0.0]);
                format!("select_between_d(r{a}, r{b}, r{control}, {p}.x, {p}.y)")
            }
            _ => unreachable!("noise, coordinate, fractal and displacement steps go elsewhere"),
        }
    }
}
