//! The functions of the modifier, combiner and fractal nodes (CONVENTIONS §13), written once
//! for the twin (f64) and the SIMD lanes (f32, the GPU's precision); the generated WGSL calls
//! functions of the same names in shaders/graph/graph.wgsl, in the same operation order.

use super::node::{Combiner, Modifier};
use crate::kinds::lattice::real::{Real, catmull_rom, lerp};

/// A modifier node's function of its source's value.
#[inline(always)]
pub fn modify<R: Real>(modifier: &Modifier<R>, v: R) -> R {
    match modifier {
        Modifier::Abs => v.abs(),
        Modifier::Negate => -v,
        Modifier::Clamp { min, max } => v.max(*min).min(*max),
        Modifier::Remap { from, to } => remap(v, *from, *to),
        Modifier::Curve { points, cubic } => curve(points, *cubic, v),
        Modifier::Terrace { points, invert } => terrace(points, *invert, v),
        Modifier::Power(e) => power(v, *e),
        Modifier::Smoothstep { edge0, edge1 } => smoothstep(*edge0, *edge1, v),
    }
}

/// `to.a + (v - from.a) (to.b - to.a) / (from.b - from.a)`.
#[inline(always)]
pub fn remap<R: Real>(v: R, from: [R; 2], to: [R; 2]) -> R {
    to[0] + (v - from[0]) * (to[1] - to[0]) / (from[1] - from[0])
}

/// `t^2 (3 - 2t)` with `t = (v - edge0) / (edge1 - edge0)` clamped to [0, 1] (WGSL's
/// built-in `smoothstep`).
#[inline(always)]
pub fn smoothstep<R: Real>(edge0: R, edge1: R, v: R) -> R {
    let t = ((v - edge0) / (edge1 - edge0)).max(R::zero()).min(R::one());
    t * t * (R::of(3.0) - R::of(2.0) * t)
}

/// `sign(v) |v|^exponent`, with WGSL's `sign` (0 at 0).
#[inline(always)]
pub fn power<R: Real>(v: R, exponent: R) -> R {
    let sign = if v > R::zero() {
        R::one()
    } else if v < R::zero() {
        -R::one()
    } else {
        R::zero()
    };
    sign * v.pow_of_abs(exponent)
}

/// The curve through `points` ([x, y], x increasing) at v: straight lines or Catmull-Rom
/// segments (the end points repeated past the ends), the end values beyond the ends.
pub fn curve<R: Real>(points: &[[R; 2]], cubic: bool, v: R) -> R {
    let n = points.len();
    if v <= points[0][0] {
        return points[0][1];
    }
    if v >= points[n - 1][0] {
        return points[n - 1][1];
    }
    // The segment [i, i + 1] holding v: the last point at or below v.
    let i = points
        .iter()
        .rposition(|p| p[0] <= v)
        .unwrap_or(0)
        .min(n - 2);
    let t = (v - points[i][0]) / (points[i + 1][0] - points[i][0]);
    if !cubic {
        return lerp(t, points[i][1], points[i + 1][1]);
    }
    let y = |k: isize| points[k.clamp(0, n as isize - 1) as usize][1];
    let k = i as isize;
    catmull_rom(t, y(k - 1), y(k), y(k + 1), y(k + 2))
}

/// The curve's Lipschitz constant: its steepest segment ([`segment_slope`]).
pub fn curve_slope(points: &[[f64; 2]], cubic: bool) -> f64 {
    curve_slope_over(points, cubic, f64::NEG_INFINITY, f64::INFINITY)
}

/// The curve's steepest slope over inputs in `[lo, hi]`: its segments that meet the interval
/// (flat beyond the ends: 0 where the interval lies wholly beyond them).
pub fn curve_slope_over(points: &[[f64; 2]], cubic: bool, lo: f64, hi: f64) -> f64 {
    (0..points.len() - 1)
        .filter(|&i| points[i][0] <= hi && points[i + 1][0] >= lo)
        .map(|i| segment_slope(points, cubic, i))
        .fold(0.0, f64::max)
}

/// Segment i's steepest slope: its chord when straight; for Catmull-Rom, the largest |dy/dt|
/// of the spline's quadratic derivative over t in [0, 1] (at the ends or the vertex) over the
/// segment's width.
fn segment_slope(points: &[[f64; 2]], cubic: bool, i: usize) -> f64 {
    let n = points.len();
    let y = |k: isize| points[k.clamp(0, n as isize - 1) as usize][1];
    let width = points[i + 1][0] - points[i][0];
    if !cubic {
        return (y(i as isize + 1) - y(i as isize)).abs() / width;
    }
    let k = i as isize;
    let (ym, y0, y1, y2) = (y(k - 1), y(k), y(k + 1), y(k + 2));
    let a = 0.5 * (-3.0 * ym + 9.0 * y0 - 9.0 * y1 + 3.0 * y2);
    let b = 0.5 * (4.0 * ym - 10.0 * y0 + 8.0 * y1 - 2.0 * y2);
    let c = 0.5 * (y1 - ym);
    let at = |t: f64| (a * t * t + b * t + c).abs();
    let vertex = if a != 0.0 {
        (-b / (2.0 * a)).clamp(0.0, 1.0)
    } else {
        0.0
    };
    at(0.0).max(at(1.0)).max(at(vertex)) / width
}

/// libnoise's Terrace: flat at each level, `lerp(lo, hi, alpha^2)` between (alpha the place of v
/// between the levels below and above it; inverted, the curve is turned over).
pub fn terrace<R: Real>(points: &[R], invert: bool, v: R) -> R {
    let n = points.len();
    let above = points.iter().position(|&p| v < p).unwrap_or(n);
    let (i0, i1) = (above.saturating_sub(1), above.min(n - 1));
    if i0 == i1 {
        return points[i1];
    }
    terrace_between(points[i0], points[i1], invert, v)
}

/// The terrace between its levels `lo` <= v < `hi`: `lerp(lo, hi, alpha^2)`, `alpha` the place
/// of v between them (inverted, the curve turned over).
#[inline(always)]
pub fn terrace_between<R: Real>(mut lo: R, mut hi: R, invert: bool, v: R) -> R {
    let mut alpha = (v - lo) / (hi - lo);
    if invert {
        alpha = R::one() - alpha;
        std::mem::swap(&mut lo, &mut hi);
    }
    lerp(alpha * alpha, lo, hi)
}

/// Quilez's polynomial smooth minimum: `min(a, b) - h^2 k / 4`, `h = max(k - |a - b|, 0) / k`.
#[inline(always)]
pub fn smooth_min<R: Real>(a: R, b: R, k: R) -> R {
    let h = (k - (a - b).abs()).max(R::zero()) / k;
    a.min(b) - h * h * k * R::of(0.25)
}

/// A combiner over its inputs' values, folded left to right ([`combine2`]).
pub fn combine<R: Real>(combiner: Combiner<R>, values: &[R]) -> R {
    values[1..]
        .iter()
        .fold(values[0], |s, &v| combine2(combiner, s, v))
}

/// One fold step of a combiner: the sum, product, least or greatest of two, or the two-input
/// combiners' value (which always have exactly two inputs).
#[inline(always)]
pub fn combine2<R: Real>(combiner: Combiner<R>, a: R, b: R) -> R {
    match combiner {
        Combiner::Add => a + b,
        Combiner::Multiply => a * b,
        Combiner::Min => a.min(b),
        Combiner::Max => a.max(b),
        Combiner::Subtract => a - b,
        Combiner::SmoothMin(k) => smooth_min(a, b, k),
        Combiner::SmoothMax(k) => -smooth_min(-a, -b, k),
    }
}

/// libnoise's Blend: `a + (b - a) (control + 1) / 2`.
#[inline(always)]
pub fn blend<R: Real>(a: R, b: R, control: R) -> R {
    lerp((control + R::one()) * R::of(0.5), a, b)
}

/// libnoise's Select with one threshold: a below `threshold - falloff`, b at and above
/// `threshold + falloff`, and between them `lerp(a, b, s(u))`, `s(u) = u^2 (3 - 2u)`
/// (WGSL: `select_between`).
#[inline(always)]
pub fn select<R: Real>(a: R, b: R, control: R, threshold: R, falloff: R) -> R {
    if falloff > R::zero() {
        let lo = threshold - falloff;
        if control < lo {
            return a;
        }
        if control < threshold + falloff {
            let u = (control - lo) / (R::of(2.0) * falloff);
            return lerp(u * u * (R::of(3.0) - R::of(2.0) * u), a, b);
        }
        return b;
    }
    if control < threshold { a } else { b }
}

/// One octave of Musgrave's ridged multifractal: `state = (sum of w s, sum of w, g)` with
/// `s = (offset - |n|)^2 g`, then `g = clamp(s gain, 0, 1)`; the state starts at (0, 0, 1).
#[inline(always)]
pub fn ridged_multi_octave<R: Real>(state: [R; 3], n: R, w: R, offset: R, gain: R) -> [R; 3] {
    let ridge = offset - n.abs();
    let s = ridge * ridge * state[2];
    [
        state[0] + w * s,
        state[1] + w,
        (s * gain).max(R::zero()).min(R::one()),
    ]
}

/// The ridged multifractal's value: `2 sum(w s) / sum(w) - 1`.
#[inline(always)]
pub fn ridged_multi_finish<R: Real>(state: [R; 3]) -> R {
    R::of(2.0) * state[0] / state[1] - R::one()
}

/// Musgrave's ridged multifractal over the octaves' values `n_k` with weights `w_k =
/// lacunarity^(-k h)`.
pub fn ridged_multi(values: &[f64], weights: &[f64], offset: f64, gain: f64) -> f64 {
    let state = (values.iter().zip(weights)).fold([0.0, 0.0, 1.0], |s, (&n, &w)| {
        ridged_multi_octave(s, n, w, offset, gain)
    });
    ridged_multi_finish(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curves_slope_over_an_interval_is_its_steepest_segment_there() {
        // Chord slopes 0.5, 4 and 0.25.
        let points = [[0.0, 0.0], [1.0, 0.5], [1.5, 2.5], [3.5, 3.0]];
        assert_eq!(curve_slope(&points, false), 4.0);
        assert_eq!(curve_slope_over(&points, false, 0.2, 0.8), 0.5);
        assert_eq!(curve_slope_over(&points, false, 0.9, 1.1), 4.0);
        assert_eq!(curve_slope_over(&points, false, 2.0, 3.0), 0.25);
        // Wholly beyond either end the curve is flat.
        assert_eq!(curve_slope_over(&points, false, -2.0, -1.0), 0.0);
        assert_eq!(curve_slope_over(&points, true, 4.0, 5.0), 0.0);
        // Catmull-Rom's slope inside a segment can pass its chord's.
        assert!(curve_slope_over(&points, true, 2.0, 3.0) > 0.25);
    }

    #[test]
    fn curves_pass_their_points_and_stay_flat_beyond_them() {
        let points = [[-1.0, 0.5], [0.0, -0.25], [0.5, 1.0], [1.0, 0.0]];
        for cubic in [false, true] {
            for p in points {
                assert_eq!(curve(&points, cubic, p[0]), p[1]);
            }
            assert_eq!(curve(&points, cubic, -7.0), 0.5);
            assert_eq!(curve(&points, cubic, 3.0), 0.0);
        }
        // Two points, straight: a remap.
        let line = [[-1.0, 2.0], [1.0, 4.0]];
        assert_eq!(
            curve(&line, false, 0.5),
            remap(0.5, [-1.0, 1.0], [2.0, 4.0])
        );
        // Catmull-Rom through collinear points is the line itself.
        let collinear: [[f64; 2]; 4] = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]];
        assert!((curve(&collinear, true, 1.25) - 1.25).abs() < 1e-15);
    }

    #[test]
    fn the_curve_slope_bounds_finite_differences_and_is_reached() {
        let points = [
            [-1.0, 1.0],
            [0.2, 0.75],
            [0.75, -0.2],
            [0.92, -0.9],
            [1.0, -1.0],
        ];
        for cubic in [false, true] {
            let bound = curve_slope(&points, cubic);
            let h = 1e-7;
            let steepest = (0..200_000)
                .map(|i| -1.0 + 2.0 * f64::from(i) / 200_000.0)
                .map(|x| (curve(&points, cubic, x + h) - curve(&points, cubic, x)).abs() / h)
                .fold(0.0, f64::max);
            assert!(
                steepest <= bound * (1.0 + 1e-6),
                "{cubic}: {steepest} > {bound}"
            );
            assert!(
                steepest >= 0.99 * bound,
                "{cubic}: {bound} is not tight ({steepest})"
            );
        }
    }

    #[test]
    fn terraces_are_flat_at_their_levels_and_rise_between() {
        let levels = [-1.0, 0.0, 0.5, 1.0];
        for &l in &levels {
            assert_eq!(terrace(&levels, false, l), l);
        }
        // Half way from 0 to 0.5: alpha 1/2, squared 1/4; inverted, the turned-over curve.
        assert_eq!(terrace(&levels, false, 0.25), 0.125);
        assert_eq!(terrace(&levels, true, 0.25), 0.375);
        let mut last = f64::NEG_INFINITY;
        for i in -120..=120 {
            let v = terrace(&levels, false, f64::from(i) / 100.0);
            assert!(v >= last);
            last = v;
        }
    }

    #[test]
    fn smooth_min_lies_within_k_over_4_below_min_and_equals_it_far_apart() {
        for (a, b, k) in [(0.3f64, 0.31, 0.1), (-1.0, 2.0, 0.5), (0.0, 0.0, 1.0)] {
            let s = smooth_min(a, b, k);
            assert!(s <= a.min(b) && s >= a.min(b) - k / 4.0);
            assert_eq!(s, smooth_min(b, a, k));
        }
        assert_eq!(smooth_min(-1.0, 2.0, 0.5), -1.0);
        assert_eq!(combine(Combiner::SmoothMax(0.5), &[-1.0, 2.0]), 2.0);
    }

    #[test]
    fn select_and_blend_meet_their_ends() {
        assert_eq!(blend(3.0, 5.0, -1.0), 3.0);
        assert_eq!(blend(3.0, 5.0, 1.0), 5.0);
        assert_eq!(select(3.0, 5.0, 0.2, 0.0, 0.1), 5.0);
        assert_eq!(select(3.0, 5.0, -0.2, 0.0, 0.1), 3.0);
        // Mid-way, s(1/2) = 1/2.
        assert_eq!(select(3.0, 5.0, 0.0, 0.0, 0.1), 4.0);
        assert_eq!(smoothstep(-1.0, 1.0, 0.0), 0.5);
    }

    #[test]
    fn ridged_multifractal_of_flat_octaves_reaches_its_bounds() {
        // |n| = 0 everywhere: every ridge is offset^2 = 1, every feedback clamps to 1: output 1.
        let w = [1.0, 0.5, 0.25];
        assert_eq!(ridged_multi(&[0.0; 3], &w, 1.0, 2.0), 1.0);
        // |n| = 1: no ridges at all: -1.
        assert_eq!(ridged_multi(&[1.0, -1.0, 1.0], &w, 1.0, 2.0), -1.0);
    }
}
