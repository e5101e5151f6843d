//! `curve`: `v` through control points, straight or Catmull-Rom between them, flat beyond the
//! ends.

use super::{ModifierFn, ModifierType, ParamSink};
use crate::error::Result;
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{Category, NodeType, of_source};
use crate::graph::step_bounds::{Bounds, ROUNDING};
use crate::kinds::lattice::real::{Real, catmull_rom, catmull_rom_derivative, lerp};
use crate::kinds::param::{Param, ParamType, choice};

/// A curve through control points, flat beyond the ends.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve<R = f64> {
    /// `[x, y]`, x strictly increasing.
    pub points: Vec<[R; 2]>,
    /// Catmull-Rom between points (else straight lines).
    pub cubic: bool,
}

impl<R: Real> Curve<R> {
    /// The segment `[i, i + 1]` holding an inner `v`: the last point at or below it.
    #[inline(always)]
    fn segment(&self, v: R) -> usize {
        let n = self.points.len();
        (self.points.iter())
            .rposition(|p| p[0] <= v)
            .unwrap_or(0)
            .min(n - 2)
    }

    /// The y of point k, the end points repeated past the ends.
    #[inline(always)]
    fn y(&self, k: isize) -> R {
        self.points[k.clamp(0, self.points.len() as isize - 1) as usize][1]
    }
}

impl<R: Real> ModifierFn<R> for Curve<R> {
    /// Straight lines or Catmull-Rom segments, the end values beyond the ends.
    fn value(&self, v: R) -> R {
        let (points, n) = (&self.points, self.points.len());
        if v <= points[0][0] {
            return points[0][1];
        }
        if v >= points[n - 1][0] {
            return points[n - 1][1];
        }
        let i = self.segment(v);
        let t = (v - points[i][0]) / (points[i + 1][0] - points[i][0]);
        if !self.cubic {
            return lerp(t, points[i][1], points[i + 1][1]);
        }
        let k = i as isize;
        catmull_rom(t, self.y(k - 1), self.y(k), self.y(k + 1), self.y(k + 2))
    }

    /// Its segment's line or spline derivative over the segment's width, 0 at and beyond the
    /// end points; at an inner point, the segment that starts there (the one `value` takes).
    fn slope(&self, v: R) -> R {
        let (points, n) = (&self.points, self.points.len());
        if v <= points[0][0] || v >= points[n - 1][0] {
            return R::zero();
        }
        let i = self.segment(v);
        let width = points[i + 1][0] - points[i][0];
        if !self.cubic {
            return (points[i + 1][1] - points[i][1]) / width;
        }
        let t = (v - points[i][0]) / width;
        let k = i as isize;
        catmull_rom_derivative(t, self.y(k - 1), self.y(k), self.y(k + 1), self.y(k + 2)) / width
    }
}

impl Curve {
    /// The steepest slope over inputs in `[lo, hi]`: its segments that meet the interval (flat
    /// beyond the ends: 0 where the interval lies wholly beyond them).
    pub fn steepest_over(&self, lo: f64, hi: f64) -> f64 {
        let points = &self.points;
        (0..points.len() - 1)
            .filter(|&i| points[i][0] <= hi && points[i + 1][0] >= lo)
            .map(|i| self.segment_slope(i))
            .fold(0.0, f64::max)
    }

    /// Segment i's steepest slope: its chord when straight; for Catmull-Rom, the largest
    /// |dy/dt| of the spline's quadratic derivative over t in [0, 1] (at the ends or the
    /// vertex) over the segment's width.
    fn segment_slope(&self, i: usize) -> f64 {
        let width = self.points[i + 1][0] - self.points[i][0];
        let k = i as isize;
        if !self.cubic {
            return (self.y(k + 1) - self.y(k)).abs() / width;
        }
        let (ym, y0, y1, y2) = (self.y(k - 1), self.y(k), self.y(k + 1), self.y(k + 2));
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

    /// The largest |y| of a control point.
    fn height(&self) -> f64 {
        self.points.iter().map(|p| p[1].abs()).fold(0.0, f64::max)
    }
}

impl ModifierType for Curve {
    type Lanes = Curve<f32>;
    const ROW: NodeType = of_source(
        "curve",
        Category::Modifier,
        &[
            Param {
                name: "points",
                ty: ParamType::Points {
                    pairs: true,
                    min: 2,
                    default: &[],
                },
                doc: "control points [x, y], x increasing",
            },
            choice(
                "interp",
                "cubic",
                &["linear", "cubic"],
                "between control points",
            ),
        ],
        "v through a curve that passes every control point, flat beyond the ends",
    );
    const WGSL: Option<&'static str> =
        Some(include_str!("../../../shaders/graph/modifiers/curve.wgsl"));

    fn read(node: &NodeReader) -> Result<Self> {
        Ok(Curve {
            points: node.points("points")?,
            cubic: node.text_choice("interp")? == "cubic",
        })
    }

    fn to_f32(&self) -> Curve<f32> {
        Curve {
            points: self.points.iter().map(|p| p.map(|x| x as f32)).collect(),
            cubic: self.cubic,
        }
    }

    /// Catmull-Rom weights sum to 1 in absolute value plus at most 0.3: below 2x the top.
    fn bounds(&self, input: Bounds) -> Bounds {
        let slope = self.steepest_over(f64::NEG_INFINITY, f64::INFINITY);
        Bounds::scaled(input, slope, 2.0 * self.height())
    }

    fn error(&self, v: f64, e: f64) -> f64 {
        self.steepest_over(v - e, v + e) * e + 8.0 * ROUNDING * self.height()
    }

    fn wgsl(&self, params: &mut dyn ParamSink, v: &str, d: &str) -> String {
        let first = params.next_index();
        for p in &self.points {
            params.push([p[0], p[1], 0.0, 0.0]);
        }
        let (n, cubic) = (self.points.len(), self.cubic);
        format!("curve{d}({v}, {first}u, {n}u, {cubic})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::modifiers::Remap;

    fn curve(points: &[[f64; 2]], cubic: bool) -> Curve {
        Curve {
            points: points.to_vec(),
            cubic,
        }
    }

    #[test]
    fn a_curves_slope_over_an_interval_is_its_steepest_segment_there() {
        // Chord slopes 0.5, 4 and 0.25.
        let points = [[0.0, 0.0], [1.0, 0.5], [1.5, 2.5], [3.5, 3.0]];
        assert_eq!(
            curve(&points, false).steepest_over(f64::NEG_INFINITY, f64::INFINITY),
            4.0
        );
        assert_eq!(curve(&points, false).steepest_over(0.2, 0.8), 0.5);
        assert_eq!(curve(&points, false).steepest_over(0.9, 1.1), 4.0);
        assert_eq!(curve(&points, false).steepest_over(2.0, 3.0), 0.25);
        // Wholly beyond either end the curve is flat.
        assert_eq!(curve(&points, false).steepest_over(-2.0, -1.0), 0.0);
        assert_eq!(curve(&points, true).steepest_over(4.0, 5.0), 0.0);
        // Catmull-Rom's slope inside a segment can pass its chord's.
        assert!(curve(&points, true).steepest_over(2.0, 3.0) > 0.25);
    }

    #[test]
    fn curves_pass_their_points_and_stay_flat_beyond_them() {
        let points = [[-1.0, 0.5], [0.0, -0.25], [0.5, 1.0], [1.0, 0.0]];
        for cubic in [false, true] {
            for p in points {
                assert_eq!(curve(&points, cubic).value(p[0]), p[1]);
            }
            assert_eq!(curve(&points, cubic).value(-7.0), 0.5);
            assert_eq!(curve(&points, cubic).value(3.0), 0.0);
        }
        // Two points, straight: a remap.
        let line = [[-1.0, 2.0], [1.0, 4.0]];
        assert_eq!(
            curve(&line, false).value(0.5),
            Remap {
                from: [-1.0, 1.0],
                to: [2.0, 4.0]
            }
            .value(0.5)
        );
        // Catmull-Rom through collinear points is the line itself.
        let collinear: [[f64; 2]; 4] = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]];
        assert!((curve(&collinear, true).value(1.25) - 1.25).abs() < 1e-15);
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
            let bound = curve(&points, cubic).steepest_over(f64::NEG_INFINITY, f64::INFINITY);
            let h = 1e-7;
            let steepest = (0..200_000)
                .map(|i| -1.0 + 2.0 * f64::from(i) / 200_000.0)
                .map(|x| {
                    (curve(&points, cubic).value(x + h) - curve(&points, cubic).value(x)).abs() / h
                })
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
}
