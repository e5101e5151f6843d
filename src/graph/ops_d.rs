//! The graph's steps with their gradients (the modifiers' and combiners' slopes and folds are
//! theirs; the fractal, blend and select nodes' functions are here) (CONVENTIONS §13,
//! "Derivatives"), forward mode: every value travels as a [`TexelDual`], `[value, d/dx, d/dy,
//! d/dz]` along the world's texel axes. The value is always the value function's own result
//! (`ops`), so a render with gradients has the same values as one without; the gradient is the
//! chain rule through it. Where a node is not differentiable (a terrace level, a curve point,
//! a hard select edge, a clamp edge) the gradient is the one-sided one of the branch the value
//! takes. shaders/graph/graph_d.wgsl has the same functions under the same names.

pub use super::dual::{TexelDual, chain, constant_d, with_gradient};
use super::node::Modifier;
use super::ops;
use super::step::Step;
use crate::kinds::Fractal;
use crate::kinds::lattice::real::Real;

/// `sign(v)` with sign(0) = +1, the side |v|'s gradient takes at 0 (CONVENTIONS §12).
#[inline(always)]
fn sign_d<R: Real>(v: R) -> R {
    if v < R::zero() { -R::one() } else { R::one() }
}

/// A modifier node with its gradient: its value, and its slope by the chain rule.
#[inline(always)]
pub fn modify_d<R: Real>(modifier: &Modifier<R>, v: TexelDual<R>) -> TexelDual<R> {
    chain(v, modifier.value(v[0]), modifier.slope(v[0]))
}

/// `ops::blend`: `a + t (b - a)` with `t = (control + 1) / 2`, by the product rule.
#[inline(always)]
pub fn blend_d<R: Real>(a: TexelDual<R>, b: TexelDual<R>, control: TexelDual<R>) -> TexelDual<R> {
    let value = ops::blend(a[0], b[0], control[0]);
    let half = R::of(0.5);
    let t = (control[0] + R::one()) * half;
    with_gradient(value, |c| {
        a[c] + t * (b[c] - a[c]) + half * (b[0] - a[0]) * control[c]
    })
}

/// `ops::select` with its gradient: the chosen input's outside the falloff (and on either side
/// of a hard edge: the edge itself is a jump, CONVENTIONS §13), inside it `a + s (b - a)` by
/// the product rule with `s' = 6 u (1 - u) / (2 falloff)`.
#[inline(always)]
pub fn select_between_d<R: Real>(
    a: TexelDual<R>,
    b: TexelDual<R>,
    control: TexelDual<R>,
    threshold: R,
    falloff: R,
) -> TexelDual<R> {
    let c = control[0];
    let value = ops::select(a[0], b[0], c, threshold, falloff);
    let inside = falloff > R::zero() && c >= threshold - falloff && c < threshold + falloff;
    if !inside {
        let chosen = if c < threshold { a } else { b };
        return [value, chosen[1], chosen[2], chosen[3]];
    }
    let two = R::of(2.0);
    let u = (c - (threshold - falloff)) / (two * falloff);
    let s = u * u * (R::of(3.0) - two * u);
    let ds = R::of(6.0) * u * (R::one() - u) / (two * falloff);
    with_gradient(value, |k| {
        a[k] + s * (b[k] - a[k]) + (b[0] - a[0]) * ds * control[k]
    })
}

/// `fractal_term` with its gradient (CONVENTIONS §12's rules, on texel duals).
#[inline(always)]
pub fn fractal_term_dual<R: Real>(fractal: Fractal, n: TexelDual<R>) -> TexelDual<R> {
    let s = sign_d(n[0]);
    let value = crate::kinds::fractal::fractal_term(fractal, n[0]);
    let slope = match fractal {
        Fractal::None | Fractal::Fbm => R::one(),
        Fractal::Turbulence => s,
        Fractal::Ridged => R::of(-2.0) * (R::one() - n[0].abs()) * s,
        Fractal::Billow => R::of(2.0) * s,
    };
    chain(n, value, slope)
}

/// `fractal_finish` with its gradient: ridged doubles it.
#[inline(always)]
pub fn fractal_finish_dual<R: Real>(fractal: Fractal, sum: TexelDual<R>) -> TexelDual<R> {
    let slope = R::of(if fractal == Fractal::Ridged { 2.0 } else { 1.0 });
    chain(
        sum,
        crate::kinds::fractal::fractal_finish(fractal, sum[0]),
        slope,
    )
}

/// The ridged multifractal's running state with gradients: the weighted sum of ridges, the sum
/// of weights (a number) and the feedback g.
#[derive(Clone, Copy, Debug)]
pub struct RidgedDual<R = f64> {
    pub sum: TexelDual<R>,
    pub weight: R,
    pub g: TexelDual<R>,
}

impl<R: Real> RidgedDual<R> {
    /// The state before the first octave: (0, 0, 1).
    pub fn start() -> Self {
        RidgedDual {
            sum: [R::zero(); 4],
            weight: R::zero(),
            g: constant_d(R::one()),
        }
    }
}

/// `ops::ridged_multi_octave` with gradients: `s = ridge^2 g` by the product rule (ridge =
/// offset - |n|), the feedback's `gain s'` where it is not clamped (0 where it is).
#[inline(always)]
pub fn ridged_multi_octave_d<R: Real>(
    state: RidgedDual<R>,
    n: TexelDual<R>,
    w: R,
    offset: R,
    gain: R,
) -> RidgedDual<R> {
    let [sum, weight, g] = ops::ridged_multi_octave(
        [state.sum[0], state.weight, state.g[0]],
        n[0],
        w,
        offset,
        gain,
    );
    let ridge = offset - n[0].abs();
    let ridge_slope = -sign_d(n[0]);
    let s = ridge * ridge * state.g[0];
    let two = R::of(2.0);
    let ds = |c: usize| two * ridge * ridge_slope * n[c] * state.g[0] + ridge * ridge * state.g[c];
    let feedback = if s * gain > R::zero() && s * gain < R::one() {
        gain
    } else {
        R::zero()
    };
    RidgedDual {
        sum: with_gradient(sum, |c| state.sum[c] + w * ds(c)),
        weight,
        g: with_gradient(g, |c| feedback * ds(c)),
    }
}

/// `ops::ridged_multi_finish` with its gradient: `2 sum' / weight`.
#[inline(always)]
pub fn ridged_multi_finish_d<R: Real>(state: RidgedDual<R>) -> TexelDual<R> {
    let value = ops::ridged_multi_finish([state.sum[0], state.weight, state.g[0]]);
    chain(state.sum, value, R::of(2.0) / state.weight)
}

/// A value step with its gradient, its inputs' duals from `v(register)`: constants, fractal
/// sums, the ridged multifractal, modifiers, combiners, blends and selects. The twin's plan
/// (`cpu::plan_d`, f64) and the SIMD lanes (f32) both run it; noise, coordinate and
/// displacement steps are theirs.
#[inline(always)]
pub(crate) fn value_step_d<R: Real>(
    step: &Step<R>,
    v: impl Fn(usize) -> TexelDual<R>,
) -> TexelDual<R> {
    match step {
        Step::Constant(x) => constant_d(*x),
        Step::Fractal { fractal, terms } => {
            let mut sum = [R::zero(); 4];
            for &(i, w) in terms {
                let term = fractal_term_dual(*fractal, v(i));
                for c in 0..4 {
                    sum[c] = sum[c] + w * term[c];
                }
            }
            fractal_finish_dual(*fractal, sum)
        }
        Step::RidgedMulti {
            values,
            weights,
            offset,
            gain,
        } => {
            let state = (values.iter().zip(weights)).fold(RidgedDual::start(), |s, (&i, &w)| {
                ridged_multi_octave_d(s, v(i), w, *offset, *gain)
            });
            ridged_multi_finish_d(state)
        }
        Step::Modify { input, modifier } => modify_d(modifier, v(*input)),
        Step::Combine { combiner, inputs } => {
            (inputs[1..].iter()).fold(v(inputs[0]), |s, &i| combiner.fold_d(s, v(i)))
        }
        Step::Blend { a, b, control } => blend_d(v(*a), v(*b), v(*control)),
        Step::Select {
            a,
            b,
            control,
            threshold,
            falloff,
        } => select_between_d(v(*a), v(*b), v(*control), *threshold, *falloff),
        Step::Noise { .. }
        | Step::Coordinate { .. }
        | Step::Linear { .. }
        | Step::Displace { .. } => unreachable!("points and displacements are the backends'"),
    }
}
