//! How far the GPU's f32 graph may lie from the f64 twin (CONVENTIONS §13, after §7): each step's
//! error bound and magnitude bound, propagated through the expanded plan by each node's
//! Lipschitz constant, plus an f32 rounding allowance per step.

use super::plan::{Plan, Step};
pub(crate) use super::step_bounds::{Bounds, FRACTION, ROUNDING};
use crate::spec::Fractal;
use crate::spec::validate::MIN_OCTAVE_FREQUENCY;
use crate::tolerance::{Bound, arithmetic_bound};

/// The graph's bound, and what in it is discontinuous (where f32 and f64 can decide a
/// comparison differently and a texel may jump).
pub(crate) fn gpu_error_bound(plan: &Plan, corners: &dyn Fn(usize, usize) -> f64) -> (Bound, f64) {
    let mut jumps: Vec<&str> = Vec::new();
    let b = propagate(plan, corners, &mut jumps);
    let out = b[plan.output];
    let mut reason = format!(
        "8 f32 roundings of its magnitude per lattice corner per noise evaluation and L x 2^-24 \
         for the GPU's 24-bit \
         fractions (§7), carried through every node by its Lipschitz constant with an f32 \
         rounding per step (§13); magnitude bound {:.3}",
        out.m
    );
    jumps.sort_unstable();
    jumps.dedup();
    if !jumps.is_empty() {
        reason.push_str(&format!(
            "; {} are discontinuous, so a texel near a jump may differ by more",
            jumps.join(", ")
        ));
    }
    let bound = Bound {
        value: out.e,
        reason,
    };
    (bound, out.m)
}

/// Whether anything in the plan is discontinuous (a kind's jumps, a select without falloff).
pub(crate) fn has_jumps(plan: &Plan, corners: &dyn Fn(usize, usize) -> f64) -> bool {
    let mut jumps = Vec::new();
    propagate(plan, corners, &mut jumps);
    !jumps.is_empty()
}

/// Every step's static error bound in order (for a displacement, per component): the running
/// bound (`cpu::plan_bound`) takes the smaller of it and its own at each texel.
pub(crate) fn step_errors(plan: &Plan, corners: &dyn Fn(usize, usize) -> f64) -> Vec<f64> {
    let b = propagate(plan, corners, &mut Vec::new());
    b.iter().map(|b| b.e).collect()
}

/// Every step's bounds, in order.
fn propagate(
    plan: &Plan,
    corners: &dyn Fn(usize, usize) -> f64,
    jumps: &mut Vec<&'static str>,
) -> Vec<Bounds> {
    let mut b: Vec<Bounds> = Vec::with_capacity(plan.steps.len());
    for step in &plan.steps {
        let next = step_bounds(plan, step, &b, corners, jumps);
        b.push(Bounds {
            e: next.e + next.m * ROUNDING,
            ..next
        });
    }
    b
}

/// The largest displacement of a lattice point in cells: past it the GPU's f32 displacement
/// (and the twin's split of it) means nothing.
pub const MAX_DISPLACEMENT_CELLS: f64 = 16_777_216.0; // 2^24

/// Refuses graphs whose values can leave f32's range, whose warps can move a point by more
/// than [`MAX_DISPLACEMENT_CELLS`] or whose noises step less than 2^-40 cells per texel,
/// naming the step's node, from the nominal magnitudes.
pub(crate) fn check_ranges(
    plan: &Plan,
    corners: &dyn Fn(usize, usize) -> f64,
) -> Result<(), (usize, String)> {
    let b = propagate(plan, corners, &mut Vec::new());
    for (i, step) in plan.steps.iter().enumerate() {
        let node = plan.step_nodes[i];
        if !b[i].m.le(&f64::from(f32::MAX)) {
            let what = if step.is_vector() {
                "displacements"
            } else {
                "values"
            };
            return Err((
                node,
                format!("its {what} can reach {:e}, past f32's 3.4e38", b[i].m),
            ));
        }
        if let Step::Noise { instance, .. } = step {
            let map = &plan.instances[*instance].points.map;
            let reach = map.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()));
            if reach < MIN_OCTAVE_FREQUENCY {
                return Err((
                    node,
                    format!(
                        "moves {reach:e} lattice cells per texel; at least 2^-40 = \
                         {MIN_OCTAVE_FREQUENCY:e} (steps are exact to 2^-64 cells and keep 24 \
                         significant bits; CONVENTIONS §1)"
                    ),
                ));
            }
        }
        if let Step::Noise {
            instance,
            delta: Some(d),
        } = step
        {
            let cells = row_norm(&plan.instances[*instance].delta_map) * b[*d].m;
            if !cells.le(&MAX_DISPLACEMENT_CELLS) {
                return Err((
                    node,
                    format!(
                        "is displaced by up to {cells:e} lattice cells; at most 2^24 (smaller \
                         warp amplitudes)"
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn step_bounds(
    plan: &Plan,
    step: &Step,
    b: &[Bounds],
    corners: &dyn Fn(usize, usize) -> f64,
    jumps: &mut Vec<&'static str>,
) -> Bounds {
    match step {
        Step::Noise { instance, delta } => {
            let inst = &plan.instances[*instance];
            let lipschitz = (inst.kind.info().lipschitz)(&inst.fields, plan.dims as u32);
            let map = row_norm(&inst.delta_map);
            let moved = delta.map_or(0.0, |d| lipschitz * map * b[d].e);
            if let Some(jump) = (inst.kind.info().discontinuity)(&inst.fields) {
                jumps.push(jump);
            }
            Bounds {
                range: None,
                m: inst.kind.info().magnitude,
                e: arithmetic_bound(inst.kind, plan.dims as u32, inst.interp, &inst.fields)
                    + lipschitz * FRACTION
                    + moved,
            }
        }
        Step::Coordinate {
            instance,
            axis,
            delta,
        } => {
            let f = plan.coordinates[*instance].frequency;
            let reach = corners(*instance, *axis) + delta.map_or(0.0, |d| f * b[d].m);
            Bounds {
                range: None,
                m: reach,
                e: reach * ROUNDING + delta.map_or(0.0, |d| f * b[d].e),
            }
        }
        Step::Constant(v) => Bounds {
            range: None,
            m: v.abs(),
            e: v.abs() * FRACTION,
        },
        Step::Fractal { .. } | Step::RidgedMulti { .. } => fractal_bounds(step, b),
        Step::Modify { input, modifier } => modifier.bounds(b[*input]),
        Step::Combine { combiner, inputs } => {
            combiner.bounds(&inputs.iter().map(|&i| b[i]).collect::<Vec<_>>())
        }
        Step::Blend { .. } | Step::Select { .. } => mix_bounds(step, b, jumps),
        Step::Linear { .. } | Step::Displace { .. } => displacement_bounds(step, b),
    }
}

/// Fractal sums carry each octave's error by the slope of its term.
fn fractal_bounds(step: &Step, b: &[Bounds]) -> Bounds {
    match step {
        Step::Fractal { fractal, terms } => {
            let (mut m, mut e) = (0.0, 0.0);
            for &(i, w) in terms {
                // |1 - |n|| <= max(1, m - 1): the ridge term's size and half its slope; billow's
                // 2 |n| - 1 lies in [-1, 2 m - 1].
                let ridge = (b[i].m - 1.0).max(1.0);
                let (tm, slope) = match fractal {
                    Fractal::Ridged => (ridge * ridge, 2.0 * ridge),
                    Fractal::Billow => ((2.0 * b[i].m - 1.0).max(1.0), 2.0),
                    _ => (b[i].m, 1.0),
                };
                m += w * tm;
                e += w * slope * b[i].e;
            }
            // The sums' intervals: turbulence's terms are >= 0, billow's >= -1, ridged's
            // (1 - |n|)^2 >= 0 under its finish 2 sum - 1.
            match fractal {
                Fractal::Ridged => Bounds::within(-1.0, 2.0 * m - 1.0, 2.0 * e),
                Fractal::Turbulence => Bounds::within(0.0, m, e),
                Fractal::Billow => Bounds::within(-1.0, m, e),
                _ => Bounds { m, e, range: None },
            }
        }
        Step::RidgedMulti {
            values,
            weights,
            offset,
            gain,
        } => {
            let (mut sum, mut total, mut previous) = (0.0, 0.0, 0.0);
            for (&i, &w) in values.iter().zip(weights) {
                // offset - |n| lies in [offset - m, offset].
                let ridge = offset.max(b[i].m - offset);
                let s = 2.0 * ridge * b[i].e + ridge * ridge * gain * previous;
                sum += w * s;
                total += w;
                previous = s;
            }
            let ridge = values
                .iter()
                .map(|&i| offset.max(b[i].m - offset))
                .fold(0.0, f64::max);
            Bounds {
                range: None,
                m: 2.0 * ridge * ridge + 1.0,
                e: 2.0 * sum / total,
            }
        }
        _ => unreachable!("only fractal steps come here"),
    }
}

/// Blend and select carry their inputs' errors by their interpolation weights.
fn mix_bounds(step: &Step, b: &[Bounds], jumps: &mut Vec<&'static str>) -> Bounds {
    match step {
        Step::Blend { a, b: bb, control } => {
            // a + t (b - a) with t = (control + 1) / 2 over the control's interval: the inputs'
            // errors weighted by |1 - t| and |t|, the control's by |b - a| / 2.
            let (a, c, bv) = (b[*a], b[*control], b[*bb]);
            let (lo, hi) = c.interval();
            let (lo, hi) = ((lo + 1.0) / 2.0, (hi + 1.0) / 2.0);
            let keep = (1.0 - lo).abs().max((1.0 - hi).abs());
            let take = lo.abs().max(hi.abs());
            Bounds {
                m: keep * a.m + take * bv.m,
                e: keep * a.e + take * bv.e + (a.m + bv.m) * c.e / 2.0,
                range: None,
            }
        }
        Step::Select {
            a,
            b: bb,
            control,
            falloff,
            ..
        } => {
            let (a, c, bv) = (b[*a], b[*control], b[*bb]);
            let ramp = if *falloff > 0.0 {
                (a.m + bv.m) * 1.5 / (2.0 * falloff) * c.e
            } else {
                jumps.push("select nodes without falloff");
                0.0
            };
            Bounds {
                range: None,
                m: a.m.max(bv.m),
                e: a.e.max(bv.e) + ramp,
            }
        }
        _ => unreachable!("only blend and select come here"),
    }
}

/// A displacement's bound per component.
fn displacement_bounds(step: &Step, b: &[Bounds]) -> Bounds {
    match step {
        Step::Linear { input, m } => {
            let n = row_norm(m);
            Bounds {
                range: None,
                m: n * b[*input].m,
                e: n * b[*input].e + 4.0 * n * b[*input].m * ROUNDING,
            }
        }
        Step::Displace {
            base,
            by,
            amplitude,
        } => {
            let start = base.map_or(Bounds::default(), |i| b[i]);
            let (m, e) = by.iter().fold((0.0f64, 0.0f64), |(m, e), &i| {
                (m.max(b[i].m), e.max(b[i].e))
            });
            Bounds {
                range: None,
                m: start.m + amplitude * m,
                e: start.e + amplitude * e + amplitude * m * ROUNDING,
            }
        }
        _ => unreachable!("only displacement steps come here"),
    }
}

/// The largest |row sum| of a matrix: how much it can stretch a vector's largest component.
pub(crate) fn row_norm(m: &[[f64; 4]; 4]) -> f64 {
    m.iter()
        .map(|row| row.iter().map(|v| v.abs()).sum::<f64>())
        .fold(0.0, f64::max)
}
