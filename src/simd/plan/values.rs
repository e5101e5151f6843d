//! The plan's value steps over a segment's runs: fractal sums, modifiers, combiners, blends
//! and selects, lane by lane with `graph::ops` (the twin's functions in f32), in loops that
//! vectorize.

use super::Registers;
use crate::graph::node::{Combiner, Modifier};
use crate::graph::ops;
use crate::graph::plan::Step;
use crate::kinds::Fractal;
use crate::kinds::fractal::{fractal_finish, fractal_term};
use crate::kinds::lattice::lanes::{LANES, load_block, store_block};

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
        Step::Modify { input, modifier } => modify_run(modifier, regs.value(*input), out),
        Step::Combine { combiner, inputs } => {
            out.copy_from_slice(regs.value(inputs[0]));
            for &k in &inputs[1..] {
                combine_run(*combiner, regs.value(k), out);
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

/// `ops::modify` over a run, one loop per modifier calling its function (`ops::modify`'s arms):
/// with the function known in each loop, the arithmetic ones vectorize. (Calling
/// `ops::modify` with a constant modifier in each arm was measured to fold back into one loop
/// with a jump table per lane.)
#[inline(always)]
fn modify_run(modifier: &Modifier<f32>, input: &[f32], out: &mut [f32]) {
    #[inline(always)]
    fn each(input: &[f32], out: &mut [f32], f: impl Fn(f32) -> f32) {
        for (o, &v) in out.iter_mut().zip(input) {
            *o = f(v);
        }
    }
    match *modifier {
        Modifier::Abs => each(input, out, f32::abs),
        Modifier::Negate => each(input, out, |v| -v),
        Modifier::Clamp { min, max } => each(input, out, |v| v.max(min).min(max)),
        Modifier::Remap { from, to } => each(input, out, |v| ops::remap(v, from, to)),
        Modifier::Power(e) => each(input, out, |v| ops::power(v, e)),
        Modifier::Smoothstep { edge0, edge1 } => {
            each(input, out, |v| ops::smoothstep(edge0, edge1, v))
        }
        Modifier::Curve { ref points, cubic } => each(input, out, |v| ops::curve(points, cubic, v)),
        Modifier::Terrace { ref points, invert } => terrace_run(points, invert, input, out),
    }
}

/// `ops::terrace` over a run without a search per lane: a block's lanes go through the levels
/// together, each keeping the highest level at or below its value and the lowest above it
/// (selects that vectorize), then `ops::terrace_between`; the same levels and arithmetic as
/// the search, so the same bits.
#[inline(always)]
fn terrace_run(points: &[f32], invert: bool, input: &[f32], out: &mut [f32]) {
    let (first, last) = (points[0], points[points.len() - 1]);
    let levels = points.len() as u32;
    for (o, v) in out.chunks_mut(LANES).zip(input.chunks(LANES)) {
        // A short block (a row's end) is padded so every loop runs over whole registers;
        // whole blocks are fixed-size copies (a copy of `len` values was a memmove call per
        // block, 3% of the terrain example).
        let mut value = [0.0f32; LANES];
        load_block(v, &mut value);
        let mut lo = [first; LANES];
        let mut hi = [last; LANES];
        let mut at_or_below = [0u32; LANES];
        for &p in points {
            for l in 0..LANES {
                // `ops::terrace`'s test (`v < p`), so a NaN counts as at or above every level.
                let above = value[l] < p;
                lo[l] = if above { lo[l] } else { p };
                at_or_below[l] += u32::from(!above);
            }
        }
        for &p in points.iter().rev() {
            for l in 0..LANES {
                hi[l] = if value[l] < p { p } else { hi[l] };
            }
        }
        let mut result = [0.0f32; LANES];
        for l in 0..LANES {
            let between = ops::terrace_between(lo[l], hi[l], invert, value[l]);
            let edge = if at_or_below[l] == 0 { first } else { last };
            let inside = at_or_below[l] != 0 && at_or_below[l] != levels;
            result[l] = if inside { between } else { edge };
        }
        store_block(o, &result);
    }
}

/// `out = ops::combine2(combiner, out, input)` over a run, one loop per combiner (as
/// `modify_run`).
#[inline(always)]
fn combine_run(combiner: Combiner<f32>, input: &[f32], out: &mut [f32]) {
    #[inline(always)]
    fn each(combiner: Combiner<f32>, input: &[f32], out: &mut [f32]) {
        for (o, &v) in out.iter_mut().zip(input) {
            *o = ops::combine2(combiner, *o, v);
        }
    }
    match combiner {
        Combiner::Add => each(Combiner::Add, input, out),
        Combiner::Subtract => each(Combiner::Subtract, input, out),
        Combiner::Multiply => each(Combiner::Multiply, input, out),
        Combiner::Min => each(Combiner::Min, input, out),
        Combiner::Max => each(Combiner::Max, input, out),
        Combiner::SmoothMin(k) => each(Combiner::SmoothMin(k), input, out),
        Combiner::SmoothMax(k) => each(Combiner::SmoothMax(k), input, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values around and on every level, beyond the ends, signed zeros, infinities and NaN, in a
    /// run whose length is not a multiple of LANES.
    fn probes(points: &[f32]) -> Vec<f32> {
        let mut v = vec![
            -0.0,
            0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -7.0,
            7.0,
        ];
        for &p in points {
            v.extend([p, p.next_down(), p.next_up(), p + 0.03, p - 0.03]);
        }
        v.extend((0..61).map(|i| -1.5 + 0.05 * i as f32));
        v
    }

    /// The lane loops compute what `ops::modify` computes, bit for bit (NaN for NaN), for every
    /// modifier: they are its arms, unswitched.
    #[test]
    fn modifier_runs_equal_ops_modify_bit_for_bit() {
        let levels = vec![-1.0f32, -0.2, 0.1, 0.3, 0.5, 1.0];
        let modifiers = [
            Modifier::Abs,
            Modifier::Negate,
            Modifier::Clamp {
                min: -0.25,
                max: 0.5,
            },
            Modifier::Remap {
                from: [-1.0, 1.0],
                to: [0.0, 3.0],
            },
            Modifier::Power(1.7),
            Modifier::Smoothstep {
                edge0: -0.3,
                edge1: 0.6,
            },
            Modifier::Curve {
                points: vec![[-1.0, 0.0], [0.0, 0.8], [1.0, -0.5]],
                cubic: true,
            },
            Modifier::Terrace {
                points: levels.clone(),
                invert: false,
            },
            Modifier::Terrace {
                points: levels.clone(),
                invert: true,
            },
            Modifier::Terrace {
                points: vec![0.25],
                invert: false,
            },
        ];
        let input = probes(&levels);
        for modifier in &modifiers {
            let mut out = vec![0.0f32; input.len()];
            modify_run(modifier, &input, &mut out);
            for (&v, &got) in input.iter().zip(&out) {
                let want = ops::modify(modifier, v);
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{modifier:?} at {v}: lanes {got}, ops {want}"
                );
            }
        }
    }

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
