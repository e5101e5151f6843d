//! The twin's executor of a plan with a running error bound (CONVENTIONS §13, "Running
//! bounds"): at each texel, every step's value as `plan.rs` computes it and a bound on how far
//! a correct f32 backend's value of that step may lie from it there. The rules are the static
//! ones of `graph::bound` with this texel's values in place of nominal magnitudes, a modifier's
//! slope over the values the step can take here in place of its steepest, a ridged
//! multifractal's weights that saturate here carrying no error, and, where a warp moves a
//! noise's point, the noise's own gradient at the point (plus its curvature times the move) in
//! place of its Lipschitz constant. Each step keeps the smaller of this and its static bound.

use super::plan::{Position, instance_point, step_value};
use crate::cpu::points::instance_lattice;
use crate::graph::bound::{FRACTION, ROUNDING, row_norm};
use crate::graph::plan::Step;
use crate::job::Job;
use crate::kinds::noise_octave_dual;
use crate::spec::Fractal;
use crate::tolerance::arithmetic_bound;

/// One step's register (a value in lane 0, or a displacement) and its error bound per lane.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bounded {
    pub value: [f64; 4],
    pub error: [f64; 4],
}

impl Bounded {
    fn v(&self) -> f64 {
        self.value[0]
    }

    fn e(&self) -> f64 {
        self.error[0]
    }
}

/// The job's value at `at` and its running bound; `limits` are the plan's static step bounds
/// ([`Job::step_error_bounds`]), `scratch` holds one register per step.
pub(crate) fn bound_at(
    job: &Job,
    at: Position,
    limits: &[f64],
    scratch: &mut Vec<Bounded>,
    values: &mut Vec<[f64; 4]>,
) -> (f64, f64) {
    let plan = job.plan();
    scratch.resize(plan.steps.len(), Bounded::default());
    values.resize(plan.steps.len(), [0.0; 4]);
    for (i, step) in plan.steps.iter().enumerate() {
        let value = step_value(job, step, at, values);
        values[i] = value;
        let mut error = step_error(job, step, at, scratch);
        for (e, v) in error.iter_mut().zip(value) {
            // The step's own f32 rounding, as the static rule allows it, on what the f32
            // value can be here.
            *e = (*e + (v.abs() + *e) * ROUNDING).min(limits[i]);
        }
        scratch[i] = Bounded { value, error };
    }
    let out = scratch[plan.output];
    (out.v(), out.e())
}

/// A step's error before its own rounding.
fn step_error(job: &Job, step: &Step, at: Position, r: &[Bounded]) -> [f64; 4] {
    let value = match step {
        Step::Noise { instance, delta } => noise_error(job, *instance, at, delta.map(|d| &r[d])),
        // Affine in the texel: their static bounds are already their own.
        Step::Coordinate { .. } | Step::Constant(_) => f64::INFINITY,
        Step::Fractal { fractal, terms } => fractal_error(*fractal, terms, r),
        Step::RidgedMulti {
            values,
            weights,
            offset,
            gain,
        } => ridged_multi_error(values, weights, *offset, *gain, r),
        Step::Modify { input, modifier } => modifier.error(r[*input].v(), r[*input].e()),
        Step::Combine { combiner, inputs } => {
            combiner.error(inputs.iter().map(|&i| (r[i].v(), r[i].e())))
        }
        Step::Blend { a, b, control } => blend_error(r[*a], r[*b], r[*control]),
        Step::Select {
            a,
            b,
            control,
            threshold,
            falloff,
        } => select_error(r[*a], r[*b], r[*control], *threshold, *falloff),
        Step::Linear { input, m } => return linear_error(m, &r[*input]),
        Step::Displace {
            base,
            by,
            amplitude,
        } => {
            let mut e = base.map_or([0.0; 4], |b| r[b].error);
            for (a, &i) in by.iter().enumerate() {
                e[a] += amplitude * (r[i].e() + (r[i].v().abs() + r[i].e()) * ROUNDING);
            }
            return e;
        }
    };
    [value, 0.0, 0.0, 0.0]
}

/// A displacement mapped by `m`: each component's error by its row, and the row's products and
/// sums past the first rounding (which the step's own rounding counts); zeros are exact.
fn linear_error(m: &[[f64; 4]; 4], x: &Bounded) -> [f64; 4] {
    std::array::from_fn(|a| {
        let terms = m[a].iter().filter(|&&c| c != 0.0).count() as f64;
        let (carried, size) = (0..4).fold((0.0, 0.0), |(e, s), b| {
            let k = m[a][b].abs();
            (e + k * x.error[b], s + k * (x.value[b].abs() + x.error[b]))
        });
        carried + (2.0 * terms - 2.0).max(0.0) * ROUNDING * size
    })
}

/// A noise's own f32 arithmetic (as the static rule) plus what moves its point: the GPU's
/// 24-bit fraction and its displacement's error, weighed by the noise's gradient at the twin's
/// point with the curvature's allowance for the gradient a move away, or by its Lipschitz
/// constant where it has no curvature bound (CONVENTIONS §13).
fn noise_error(job: &Job, instance: usize, at: Position, delta: Option<&Bounded>) -> f64 {
    let plan = job.plan();
    let inst = &plan.instances[instance];
    let info = inst.kind.info();
    let dims = plan.dims as u32;
    let lipschitz = (info.lipschitz)(&inst.fields, dims);
    let arithmetic = arithmetic_bound(inst.kind, dims, inst.interp, &inst.fields);
    let errors = delta.map_or([0.0; 4], |d| d.error);
    let widest = errors.iter().fold(0.0f64, |m, &e| m.max(e));
    let by_lipschitz = lipschitz * (FRACTION + row_norm(&inst.delta_map) * widest);
    let by_gradient = (|| {
        let curvature = (info.curvature)(dims, inst.interp)?;
        let point = instance_point(job, instance, at, delta.map(|d| d.value))?;
        let lattice = instance_lattice(job, instance);
        let (_, g) = noise_octave_dual(&lattice, inst.kind, plan.dims, &point)?;
        // Simplex's fraction is skewed: unskewed, its error grows by 1 + dims G < 2.
        let fraction = if info.skew.is_some() { 2.0 } else { 1.0 } * FRACTION;
        // The move along the kind's unskewed axes, per axis (CONVENTIONS §13, "Derivatives").
        let cells = errors.map(|e| fraction + inst.frequency.abs() * e);
        let widest = cells[..plan.dims].iter().fold(0.0f64, |m, &c| m.max(c));
        let slope: f64 = (0..plan.dims).map(|a| g[a].abs() * cells[a]).sum();
        Some(slope + curvature * widest * widest)
    })();
    arithmetic + by_gradient.map_or(by_lipschitz, |g| g.min(by_lipschitz))
}

/// A fractal sum: each term's error by its slope over the values it can take here, and the
/// sum's roundings.
fn fractal_error(fractal: Fractal, terms: &[(usize, f64)], r: &[Bounded]) -> f64 {
    let mut e = 0.0;
    for &(i, w) in terms {
        let (n, en) = (r[i].v(), r[i].e());
        let slope = match fractal {
            // |(1 - |x|)^2 - (1 - |y|)^2| <= |x - y| (2 |1 - |x|| + |x - y|).
            Fractal::Ridged => 2.0 * (1.0 - n.abs()).abs() + en,
            Fractal::Billow => 2.0,
            _ => 1.0,
        };
        // The term's product and the running sum each round once.
        e += w * (slope * en + 2.0 * ROUNDING * (n.abs() + en + 1.0));
    }
    if fractal == Fractal::Ridged {
        2.0 * e
    } else {
        e
    }
}

/// Musgrave's ridged multifractal (`ops::ridged_multi_octave`) with each octave's error: the
/// ridge's, carried through `s = ridge^2 g`, and the weight's, which is none where `s gain`
/// lies beyond the clamp for every value within the error.
fn ridged_multi_error(
    values: &[usize],
    weights: &[f64],
    offset: f64,
    gain: f64,
    r: &[Bounded],
) -> f64 {
    let (mut sum_error, mut total, mut g, mut eg) = (0.0, 0.0, 1.0f64, 0.0f64);
    for (&i, &w) in values.iter().zip(weights) {
        let ridge = offset - r[i].v().abs();
        let er = r[i].e() + (offset.abs() + r[i].v().abs()) * ROUNDING;
        let s = ridge * ridge * g;
        let es = (2.0 * ridge.abs() + er) * er * (g + eg)
            + ridge * ridge * eg
            + 2.0 * (s.abs() + ridge * ridge) * ROUNDING;
        sum_error += w * es + 2.0 * ROUNDING * w * (s.abs() + es);
        total += w;
        let next = s * gain;
        let spread = es * gain.abs() + next.abs() * ROUNDING;
        let saturated = next - spread >= 1.0 || next + spread <= 0.0;
        eg = if saturated { 0.0 } else { spread.min(1.0) };
        g = next.clamp(0.0, 1.0);
    }
    2.0 * sum_error / total
}

/// `a + t (b - a)` with `t = (control + 1) / 2`: each input's error by its weight here (a weight
/// off by the control's error), the control's by `|b - a| / 2`, and the lerp's roundings.
fn blend_error(a: Bounded, b: Bounded, control: Bounded) -> f64 {
    let t = (control.v() + 1.0) / 2.0;
    let et = control.e() / 2.0 + (control.v().abs() + control.e() + 1.0) * ROUNDING;
    let spread = (b.v() - a.v()).abs();
    ((1.0 - t).abs() + et) * a.e()
        + (t.abs() + et) * b.e()
        + et * spread
        + 3.0 * ROUNDING * (a.v().abs() + b.v().abs() + a.e() + b.e() + spread)
}

/// libnoise's select: within the ramp `lerp(a, b, s(u))`, s Lipschitz `1.5 / (2 falloff)` in the
/// control, so the control's error moves the result by that times `|b - a|`; without a ramp a
/// control within its error of the threshold may take either side.
fn select_error(a: Bounded, b: Bounded, control: Bounded, threshold: f64, falloff: f64) -> f64 {
    let (c, ec) = (control.v(), control.e());
    let sides = a.e().max(b.e());
    let jump = (b.v() - a.v()).abs() + a.e() + b.e();
    if falloff > 0.0 {
        sides + (0.75 * ec / falloff).min(1.0) * jump + 4.0 * ROUNDING * jump
    } else if (c - threshold).abs() > ec {
        if c < threshold { a.e() } else { b.e() }
    } else {
        sides + jump
    }
}
