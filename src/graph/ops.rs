//! The f64 functions of the modifier, combiner and fractal nodes (CONVENTIONS §13). The GPU's
//! generated kernel calls WGSL functions of the same names.

use super::node::{Combiner, Modifier};
use crate::kinds::lattice::twin::lerp;
use crate::kinds::value::twin::catmull_rom;

/// A modifier node's function of its source's value.
pub fn modify(modifier: &Modifier, v: f64) -> f64 {
    match modifier {
        Modifier::Abs => v.abs(),
        Modifier::Negate => -v,
        Modifier::Clamp { min, max } => v.clamp(*min, *max),
        Modifier::Remap { from, to } => remap(v, *from, *to),
        Modifier::Curve { points, cubic } => curve(points, *cubic, v),
        Modifier::Terrace { points, invert } => terrace(points, *invert, v),
        Modifier::Power(e) => v.signum() * v.abs().powf(*e),
        Modifier::Smoothstep { edge0, edge1 } => smoothstep(*edge0, *edge1, v),
    }
}

/// `to.a + (v - from.a) (to.b - to.a) / (from.b - from.a)`.
pub fn remap(v: f64, from: [f64; 2], to: [f64; 2]) -> f64 {
    to[0] + (v - from[0]) * (to[1] - to[0]) / (from[1] - from[0])
}

/// `t^2 (3 - 2t)` with `t = (v - edge0) / (edge1 - edge0)` clamped to [0, 1].
pub fn smoothstep(edge0: f64, edge1: f64, v: f64) -> f64 {
    let t = ((v - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The curve through `points` ([x, y], x increasing) at v: straight lines or Catmull-Rom
/// segments (the end points repeated past the ends), the end values beyond the ends.
pub fn curve(points: &[[f64; 2]], cubic: bool, v: f64) -> f64 {
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

/// The curve's Lipschitz constant: its steepest chord when straight; for Catmull-Rom, per
/// segment the largest |dy/dt| of the spline's quadratic derivative over t in [0, 1] (at the
/// ends or the vertex) over the segment's width.
pub fn curve_slope(points: &[[f64; 2]], cubic: bool) -> f64 {
    let n = points.len();
    let y = |k: isize| points[k.clamp(0, n as isize - 1) as usize][1];
    (0..n - 1)
        .map(|i| {
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
        })
        .fold(0.0, f64::max)
}

/// libnoise's Terrace: flat at each level, `lerp(lo, hi, alpha^2)` between (alpha the place of v
/// between the levels below and above it; inverted, the curve is turned over).
pub fn terrace(points: &[f64], invert: bool, v: f64) -> f64 {
    let n = points.len();
    let above = points.iter().position(|&p| v < p).unwrap_or(n);
    let (i0, i1) = (above.saturating_sub(1), above.min(n - 1));
    if i0 == i1 {
        return points[i1];
    }
    let (mut lo, mut hi) = (points[i0], points[i1]);
    let mut alpha = (v - lo) / (hi - lo);
    if invert {
        alpha = 1.0 - alpha;
        std::mem::swap(&mut lo, &mut hi);
    }
    lerp(alpha * alpha, lo, hi)
}

/// Quilez's polynomial smooth minimum: `min(a, b) - h^2 k / 4`, `h = max(k - |a - b|, 0) / k`.
pub fn smooth_min(a: f64, b: f64, k: f64) -> f64 {
    let h = (k - (a - b).abs()).max(0.0) / k;
    a.min(b) - h * h * k * 0.25
}

/// A combiner over its inputs' values, in order.
pub fn combine(combiner: Combiner, values: &[f64]) -> f64 {
    let rest = &values[1..];
    let first = values[0];
    match combiner {
        Combiner::Add => rest.iter().fold(first, |s, v| s + v),
        Combiner::Multiply => rest.iter().fold(first, |s, v| s * v),
        Combiner::Min => rest.iter().fold(first, |s, &v| s.min(v)),
        Combiner::Max => rest.iter().fold(first, |s, &v| s.max(v)),
        Combiner::Subtract => first - values[1],
        Combiner::SmoothMin(k) => smooth_min(first, values[1], k),
        Combiner::SmoothMax(k) => -smooth_min(-first, -values[1], k),
    }
}

/// libnoise's Blend: `a + (b - a) (control + 1) / 2`.
pub fn blend(a: f64, b: f64, control: f64) -> f64 {
    lerp((control + 1.0) * 0.5, a, b)
}

/// libnoise's Select with one threshold: a below `threshold - falloff`, b at and above
/// `threshold + falloff`, and between them `lerp(a, b, s(u))`, `s(u) = u^2 (3 - 2u)`.
pub fn select(a: f64, b: f64, control: f64, threshold: f64, falloff: f64) -> f64 {
    if falloff > 0.0 {
        let lo = threshold - falloff;
        if control < lo {
            return a;
        }
        if control < threshold + falloff {
            let u = (control - lo) / (2.0 * falloff);
            return lerp(u * u * (3.0 - 2.0 * u), a, b);
        }
        return b;
    }
    if control < threshold { a } else { b }
}

/// Musgrave's ridged multifractal over the octaves' values `n_k` with weights `w_k =
/// lacunarity^(-k h)`: `s_k = (offset - |n_k|)^2 g_k`, `g_0 = 1`, `g_(k+1) = clamp(s_k gain, 0,
/// 1)`, normalized as `2 sum(w_k s_k) / sum(w_k) - 1`.
pub fn ridged_multi(values: &[f64], weights: &[f64], offset: f64, gain: f64) -> f64 {
    let (mut sum, mut total, mut g) = (0.0, 0.0, 1.0);
    for (&n, &w) in values.iter().zip(weights) {
        let ridge = offset - n.abs();
        let s = ridge * ridge * g;
        g = (s * gain).clamp(0.0, 1.0);
        sum += w * s;
        total += w;
    }
    2.0 * sum / total - 1.0
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let collinear = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]];
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
        for (a, b, k) in [(0.3, 0.31, 0.1), (-1.0, 2.0, 0.5), (0.0, 0.0, 1.0)] {
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
