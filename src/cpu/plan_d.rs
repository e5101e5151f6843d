//! The twin's executor of a plan with gradients (CONVENTIONS §13, "Derivatives"): forward
//! mode, each step's value with its partial derivatives along the world's texel axes, and each
//! displacement with its Jacobian. A noise instance's lattice gradient is chained through its
//! map: `d n / d x_b = sum_a g_a (U[a][b] + f dD_a/dx_b)`, U its root-to-lattice map (frequency
//! times the transforms above it, before simplex's skew, along whose unskewed axes the kinds'
//! gradients are), f its frequency and D the displacement in its context. The GPU's
//! `graph_value_d` is generated from the same steps (src/wgsl/codegen_d.rs).

use super::plan::{Position, coordinate, instance_point, mat_vec};
use crate::cpu::points::instance_lattice;
use crate::graph::ops_d::{TexelDual, value_step_d, with_gradient};
use crate::graph::plan::Step;
use crate::job::Job;
use crate::kinds::noise_octave_dual;
use crate::spec::frames::Mat;

/// One register with gradients: a value's `[v, d/dx, d/dy, d/dz]`, or a displacement and its
/// Jacobian (`jacobian[a][b] = dD_a / dx_b`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DualRegister {
    pub value: TexelDual,
    pub jacobian: Mat,
}

/// The job's value and gradient at `at`, `scratch` holding one register per step; NaN
/// everywhere past 2^62 cells or where a kind has no derivatives (the job refuses those
/// first: `Job::with_gradient`).
pub(crate) fn dual_at(job: &Job, at: Position, scratch: &mut Vec<DualRegister>) -> TexelDual {
    let plan = job.plan();
    scratch.resize(plan.steps.len(), DualRegister::default());
    for (i, step) in plan.steps.iter().enumerate() {
        let r = step_dual(job, step, at, scratch);
        scratch[i] = r;
    }
    scratch[plan.output].value
}

fn value(v: TexelDual) -> DualRegister {
    DualRegister {
        value: v,
        jacobian: [[0.0; 4]; 4],
    }
}

fn step_dual(job: &Job, step: &Step, at: Position, r: &[DualRegister]) -> DualRegister {
    let v = |i: usize| r[i].value;
    value(match step {
        Step::Noise { instance, delta } => noise_d(job, *instance, at, delta.map(|d| &r[d])),
        Step::Coordinate {
            instance,
            axis,
            delta,
        } => coordinate_d(job, *instance, *axis, at, delta.map(|d| &r[d])),
        Step::Linear { input, m } => return linear_d(m, &r[*input]),
        Step::Displace {
            base,
            by,
            amplitude,
        } => return displace_d(base.map(|b| &r[b]), by, *amplitude, r),
        step => value_step_d(step, v),
    })
}

/// A noise instance's value and gradient at `at`, moved by the displacement `delta`.
fn noise_d(job: &Job, instance: usize, at: Position, delta: Option<&DualRegister>) -> TexelDual {
    let inst = &job.plan().instances[instance];
    let lat = instance_lattice(job, instance);
    let dual = instance_point(job, instance, at, delta.map(|d| d.value))
        .and_then(|pt| noise_octave_dual(&lat, inst.kind, job.plan().dims, &pt));
    let Some((n, g)) = dual else {
        return [f64::NAN; 4];
    };
    let chained = chain_map(&inst.points.map, inst.frequency, delta);
    with_gradient(n, |b| (0..4).map(|a| g[a] * chained[a][b - 1]).sum())
}

/// A coordinate's value and gradient: its map's row on `axis` plus its frequency times the
/// displacement's.
fn coordinate_d(
    job: &Job,
    instance: usize,
    axis: usize,
    at: Position,
    delta: Option<&DualRegister>,
) -> TexelDual {
    let c = &job.plan().coordinates[instance];
    let x =
        coordinate(job, instance, axis, at) + delta.map_or(0.0, |d| c.frequency * d.value[axis]);
    let chained = chain_map(&c.points.map, c.frequency, delta);
    with_gradient(x, |b| chained[axis][b - 1])
}

/// `U + f J`: lattice (unskewed) cells per world texel, through the displacement's Jacobian J.
fn chain_map(map: &Mat, frequency: f64, delta: Option<&DualRegister>) -> Mat {
    let mut m = *map;
    if let Some(d) = delta {
        for a in 0..4 {
            for b in 0..4 {
                m[a][b] += frequency * d.jacobian[a][b];
            }
        }
    }
    m
}

/// A displacement mapped by `m`, its Jacobian with it.
fn linear_d(m: &Mat, input: &DualRegister) -> DualRegister {
    let mut jacobian = [[0.0; 4]; 4];
    for a in 0..4 {
        for b in 0..4 {
            jacobian[a][b] = (0..4).map(|k| m[a][k] * input.jacobian[k][b]).sum();
        }
    }
    DualRegister {
        value: mat_vec(m, &input.value),
        jacobian,
    }
}

/// `base + amplitude (by_0, by_1, ...)`: row a of the Jacobian is amplitude times by_a's
/// gradient, plus the base's.
fn displace_d(
    base: Option<&DualRegister>,
    by: &[usize],
    amplitude: f64,
    r: &[DualRegister],
) -> DualRegister {
    let mut out = base.copied().unwrap_or_default();
    for (a, &i) in by.iter().enumerate() {
        let v = r[i].value;
        out.value[a] += amplitude * v[0];
        for b in 0..3 {
            out.jacobian[a][b] += amplitude * v[b + 1];
        }
    }
    out
}
