//! The twin's executor of any plan (CONVENTIONS §13): each step of the expanded plan in order,
//! per texel, in f64, with the kinds' own functions at each noise instance's exact point.

use crate::cpu::points::{instance_lattice, texel_lattice_point};
use crate::graph::ops;
use crate::graph::plan::Step;
use crate::job::Job;
use crate::kinds::fractal::{fractal_finish, fractal_term};
use crate::kinds::lattice::twin::{LatticePoint, lattice_point};
use crate::kinds::{MAX_OCTAVES, noise_octave};

/// Where the plan is evaluated: an image texel (through the frames) or any root point.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Position {
    Texel([u32; 3]),
    Point([f64; 4]),
}

/// The job's value at `at`, `scratch` holding one register per step.
pub(crate) fn value_at(job: &Job, at: Position, scratch: &mut Vec<[f64; 4]>) -> f64 {
    let plan = job.plan();
    scratch.resize(plan.steps.len(), [0.0; 4]);
    for (i, step) in plan.steps.iter().enumerate() {
        let r = step_value(job, step, at, scratch);
        scratch[i] = r;
    }
    scratch[plan.output][0]
}

/// One step's register: a value in lane 0, or a displacement vector.
pub(crate) fn step_value(job: &Job, step: &Step, at: Position, r: &[[f64; 4]]) -> [f64; 4] {
    let v = |i: usize| r[i][0];
    let value = match step {
        Step::Noise { instance, delta } => noise(job, *instance, at, delta.map(|d| r[d])),
        Step::Coordinate {
            instance,
            axis,
            delta,
        } => {
            let c = &job.plan().coordinates[*instance];
            coordinate(job, *instance, *axis, at) + delta.map_or(0.0, |d| c.frequency * r[d][*axis])
        }
        Step::Constant(x) => *x,
        Step::Fractal { fractal, terms } => {
            let sum = terms
                .iter()
                .map(|&(i, w)| w * fractal_term(*fractal, v(i)))
                .sum();
            fractal_finish(*fractal, sum)
        }
        Step::RidgedMulti {
            values,
            weights,
            offset,
            gain,
        } => {
            let mut n = [0.0; MAX_OCTAVES as usize];
            for (slot, &i) in n.iter_mut().zip(values) {
                *slot = v(i);
            }
            ops::ridged_multi(&n[..values.len()], weights, *offset, *gain)
        }
        Step::Modify { input, modifier } => modifier.value(v(*input)),
        Step::Combine { combiner, inputs } => {
            let values: Vec<f64> = inputs.iter().map(|&i| v(i)).collect();
            combiner.combine(&values)
        }
        Step::Blend { a, b, control } => ops::blend(v(*a), v(*b), v(*control)),
        Step::Select {
            a,
            b,
            control,
            threshold,
            falloff,
        } => ops::select(v(*a), v(*b), v(*control), *threshold, *falloff),
        Step::Linear { input, m } => return mat_vec(m, &r[*input]),
        Step::Displace {
            base,
            by,
            amplitude,
        } => {
            let mut d = base.map_or([0.0; 4], |b| r[b]);
            for (a, &i) in by.iter().enumerate() {
                d[a] += amplitude * v(i);
            }
            return d;
        }
    };
    [value, 0.0, 0.0, 0.0]
}

/// Noise instance `instance` at `at`, its point moved by `delta` (a warp's displacement).
#[inline(always)]
fn noise(job: &Job, instance: usize, at: Position, delta: Option<[f64; 4]>) -> f64 {
    let inst = &job.plan().instances[instance];
    match instance_point(job, instance, at, delta) {
        Some(pt) => noise_octave(
            &instance_lattice(job, instance),
            inst.kind,
            job.plan().dims,
            &pt,
        ),
        None => f64::NAN,
    }
}

/// Noise instance `instance`'s lattice point at `at`, moved by its delta map times `delta`;
/// `None` past 2^62 cells. Inlined: a call per noise evaluation cost the twin a third of its
/// graph throughput.
#[inline(always)]
pub(crate) fn instance_point(
    job: &Job,
    instance: usize,
    at: Position,
    delta: Option<[f64; 4]>,
) -> Option<LatticePoint> {
    let inst = &job.plan().instances[instance];
    let pt = match at {
        Position::Texel(t) => texel_lattice_point(job.frame(instance), t),
        Position::Point(p) => lattice_point(&job.lattice_at(instance, &p)?),
    };
    Some(match delta {
        Some(d) => displaced(&pt, &mat_vec(&inst.delta_map, &d)),
        None => pt,
    })
}

/// Coordinate instance `instance`'s lattice coordinate on `axis` at `at` (before any
/// displacement); NaN past 2^62 cells.
pub(crate) fn coordinate(job: &Job, instance: usize, axis: usize, at: Position) -> f64 {
    let coordinate = match at {
        Position::Texel(t) => Some(job.coordinate_frame(instance).texel_coordinates(t)),
        Position::Point(p) => job.lattice_at(job.plan().instances.len() + instance, &p),
    };
    coordinate.map_or(f64::NAN, |l| l[axis].to_f64())
}

pub(crate) fn mat_vec(m: &crate::spec::frames::Mat, d: &[f64; 4]) -> [f64; 4] {
    let mut out = [0.0; 4];
    for a in 0..4 {
        out[a] = (0..4).map(|b| m[a][b] * d[b]).sum();
    }
    out
}

/// A lattice point moved by `d` cells per axis: the fraction plus d, split again (kept below
/// 1), and the decision key from the new fraction (as the GPU's f32 one).
pub(crate) fn displaced(pt: &LatticePoint, d: &[f64; 4]) -> LatticePoint {
    let mut out = *pt;
    for a in 0..4 {
        let f = pt.frac[a] + d[a];
        let whole = f.floor();
        out.cell[a] = pt.cell[a].wrapping_add(whole as i64);
        out.frac[a] = (f - whole).min(1.0 - f64::EPSILON / 2.0);
        out.key[a] = (out.frac[a] * 16_777_216.0) as u32;
    }
    out
}
