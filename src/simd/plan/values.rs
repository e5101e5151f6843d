//! The plan's value steps over a segment's runs: fractal sums, modifiers, combiners, blends
//! and selects, lane by lane with `graph::ops` (the twin's functions in f32), in loops that
//! vectorize.

use super::Registers;
use crate::graph::ops;
use crate::graph::plan::Step;
use crate::kinds::Fractal;
use crate::kinds::fractal::{fractal_finish, fractal_term};
use crate::kinds::lattice::lanes::{LANES, load_block};

/// A step whose value is a function of earlier values, lane by lane with `graph::ops`.
#[inline(always)]
pub(super) fn value_step(step: &Step<f32>, regs: &Registers, out: &mut [f32]) {
    match step {
        Step::Constant(v) => out.fill(*v),
        Step::Fractal { fractal, terms } => fractal_sum(*fractal, terms, regs, out),
        Step::RidgedMulti {
            values,
            weights,
            offset,
            gain,
        } => ridged_multi_run(values, weights, [*offset, *gain], regs, out),
        Step::Modify { input, modifier } => modifier.run(regs.value(*input), out),
        Step::Combine { combiner, inputs } => {
            out.copy_from_slice(regs.value(inputs[0]));
            for &k in &inputs[1..] {
                combiner.run(regs.value(k), out);
            }
        }
        Step::Blend { a, b, control } => mix_run(regs, [*a, *b, *control], out, ops::blend),
        Step::Select {
            a,
            b,
            control,
            threshold,
            falloff,
        } => mix_run(regs, [*a, *b, *control], out, |a, b, c| {
            ops::select(a, b, c, *threshold, *falloff)
        }),
        Step::Noise { .. }
        | Step::Coordinate { .. }
        | Step::Linear { .. }
        | Step::Displace { .. } => unreachable!("points and displacements are stepped above"),
    }
}

/// `fractal_finish(sum of w_k fractal_term(n_k))`, summed in the terms' order (the generated
/// code's expression).
#[inline(always)]
fn fractal_sum(fractal: Fractal, terms: &[(usize, f32)], regs: &Registers, out: &mut [f32]) {
    // One copy per sum, each with its fractal a constant, so the lane loops vectorize.
    #[inline(always)]
    fn sum(fractal: Fractal, terms: &[(usize, f32)], regs: &Registers, out: &mut [f32]) {
        out.fill(0.0);
        for &(k, w) in terms {
            for (o, &v) in out.iter_mut().zip(regs.value(k)) {
                *o += w * fractal_term(fractal, v);
            }
        }
        for o in out.iter_mut() {
            *o = fractal_finish(fractal, *o);
        }
    }
    match fractal {
        Fractal::None | Fractal::Fbm => sum(Fractal::Fbm, terms, regs, out),
        Fractal::Turbulence => sum(Fractal::Turbulence, terms, regs, out),
        Fractal::Ridged => sum(Fractal::Ridged, terms, regs, out),
        Fractal::Billow => sum(Fractal::Billow, terms, regs, out),
    }
}

/// `out = f(a, b, control)` over a run (blend and select), zipped so the loop vectorizes.
#[inline(always)]
fn mix_run(
    regs: &Registers,
    [a, b, c]: [usize; 3],
    out: &mut [f32],
    f: impl Fn(f32, f32, f32) -> f32,
) {
    let abc = regs.value(a).iter().zip(regs.value(b)).zip(regs.value(c));
    for (o, ((&a, &b), &c)) in out.iter_mut().zip(abc) {
        *o = f(a, b, c);
    }
}

/// `ops::ridged_multi_octave` over a run, a block of lanes at a time through every octave (the
/// state in registers; a fold per lane kept a bounds check per read and did not vectorize).
/// The sum of the weights is the same in every lane, summed in the same order.
#[inline(always)]
fn ridged_multi_run(
    values: &[usize],
    weights: &[f32],
    [offset, gain]: [f32; 2],
    regs: &Registers,
    out: &mut [f32],
) {
    for (b, o) in out.chunks_mut(LANES).enumerate() {
        let mut sum = [0.0f32; LANES];
        let mut g = [1.0f32; LANES];
        let mut total = 0.0f32;
        for (&k, &w) in values.iter().zip(weights) {
            let mut n = [0.0f32; LANES];
            load_block(&regs.value(k)[b * LANES..], &mut n);
            for l in 0..LANES {
                let state = ops::ridged_multi_octave([sum[l], total, g[l]], n[l], w, offset, gain);
                (sum[l], g[l]) = (state[0], state[2]);
            }
            total += w;
        }
        for (l, v) in o.iter_mut().enumerate() {
            *v = ops::ridged_multi_finish([sum[l], total, g[l]]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ridged multifractal's blocks compute each lane's fold of `ops::ridged_multi_octave`
    /// bit for bit, over a run that ends in a short block, with weights clamped at 0 and 1.
    #[test]
    fn ridged_multi_runs_equal_the_fold_per_lane() {
        let n = 37;
        let octaves = 4;
        let segment = 48;
        let mut done = vec![0.0f32; octaves * segment];
        for (i, v) in done.iter_mut().enumerate() {
            *v = ((i as f32) * 0.618_034).fract() * 2.4 - 1.2;
        }
        let runs: Vec<usize> = (0..octaves).collect();
        let regs = Registers {
            done: &done,
            runs: &runs,
            segment,
            n,
        };
        let values: Vec<usize> = (0..octaves).collect();
        let weights = [1.0f32, 0.57, 0.33, 0.19];
        let (offset, gain) = (1.0f32, 2.0f32);
        let mut out = vec![0.0f32; n];
        ridged_multi_run(&values, &weights, [offset, gain], &regs, &mut out);
        for (l, &got) in out.iter().enumerate() {
            let state = (values.iter().zip(&weights)).fold([0.0, 0.0, 1.0], |s, (&k, &w)| {
                ops::ridged_multi_octave(s, regs.value(k)[l], w, offset, gain)
            });
            let want = ops::ridged_multi_finish(state);
            assert_eq!(got.to_bits(), want.to_bits(), "lane {l}: {got} vs {want}");
        }
    }
}
