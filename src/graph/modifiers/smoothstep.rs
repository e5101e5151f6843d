//! `smoothstep`: the smooth step from `edge0` to `edge1`.

use super::{ModifierFn, ModifierType, ParamSink};
use crate::error::Result;
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{Category, NodeType, of_source};
use crate::graph::step_bounds::{Bounds, ROUNDING};
use crate::kinds::lattice::real::Real;
use crate::kinds::param::{LIMIT, number};

/// The smooth step from `edge0` to `edge1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Smoothstep<R = f64> {
    /// Output 0 at and below.
    pub edge0: R,
    /// Output 1 at and above.
    pub edge1: R,
}

impl<R: Real> ModifierFn<R> for Smoothstep<R> {
    /// `t^2 (3 - 2t)` with `t = (v - edge0) / (edge1 - edge0)` clamped to [0, 1] (WGSL's
    /// built-in `smoothstep`).
    #[inline(always)]
    fn value(&self, v: R) -> R {
        let t = ((v - self.edge0) / (self.edge1 - self.edge0))
            .max(R::zero())
            .min(R::one());
        t * t * (R::of(3.0) - R::of(2.0) * t)
    }

    /// `6 t (1 - t) / (edge1 - edge0)` strictly inside the edges, 0 outside.
    #[inline(always)]
    fn slope(&self, v: R) -> R {
        let (edge0, edge1) = (self.edge0, self.edge1);
        let t = (v - edge0) / (edge1 - edge0);
        if t > R::zero() && t < R::one() {
            R::of(6.0) * t * (R::one() - t) / (edge1 - edge0)
        } else {
            R::zero()
        }
    }
}

impl ModifierType for Smoothstep {
    type Lanes = Smoothstep<f32>;
    const ROW: NodeType = of_source(
        "smoothstep",
        Category::Modifier,
        &[
            number("edge0", -1.0, -LIMIT, LIMIT, "where the output leaves 0"),
            number(
                "edge1",
                1.0,
                -LIMIT,
                LIMIT,
                "where it reaches 1; differs from edge0",
            ),
        ],
        "t^2 (3 - 2t) for t = (v - edge0) / (edge1 - edge0) clamped to [0, 1]",
    );
    const WGSL: Option<&'static str> = Some(include_str!(
        "../../../shaders/graph/modifiers/smoothstep.wgsl"
    ));

    fn read(node: &NodeReader) -> Result<Self> {
        let (edge0, edge1) = (node.number("edge0")?, node.number("edge1")?);
        if edge0 as f32 == edge1 as f32 {
            return Err(node.err("edge1", "must differ from edge0 (in f32 too)"));
        }
        // The GPU divides by edge1 - edge0 in f32.
        if !(edge1 as f32 - edge0 as f32).is_finite() {
            return Err(node.err(
                "edge1",
                format!(
                    "edge1 - edge0 must stay within f32's range (3.4e38), got {:e}",
                    edge1 - edge0
                ),
            ));
        }
        Ok(Smoothstep { edge0, edge1 })
    }

    fn to_f32(&self) -> Smoothstep<f32> {
        Smoothstep {
            edge0: self.edge0 as f32,
            edge1: self.edge1 as f32,
        }
    }

    fn bounds(&self, input: Bounds) -> Bounds {
        let width = (self.edge1 - self.edge0).abs();
        Bounds::within(0.0, 1.0, 1.5 / width * input.e)
    }

    fn error(&self, v: f64, e: f64) -> f64 {
        let (edge0, width) = (self.edge0, self.edge1 - self.edge0);
        let t = |x: f64| ((x - edge0) / width).clamp(0.0, 1.0);
        let (lo, hi) = (v - e, v + e);
        let (a, b) = (t(lo).min(t(hi)), t(lo).max(t(hi)));
        // 6 t (1 - t) peaks at t = 1/2.
        let u = 0.5f64.clamp(a, b);
        6.0 * u * (1.0 - u) / width.abs() * e + 6.0 * ROUNDING * (v.abs() + e + 1.0)
    }

    fn wgsl(&self, params: &mut dyn ParamSink, v: &str, d: &str) -> String {
        let p = params.push([self.edge0, self.edge1, 0.0, 0.0]);
        format!("smoothstep{d}({p}.x, {p}.y, {v})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0 and 1 at and beyond the edges, 1/2 half way, and the slope a finite difference gives.
    #[test]
    fn smoothstep_meets_its_edges_and_its_slope_is_the_derivative() {
        let s = Smoothstep {
            edge0: -1.0,
            edge1: 1.0,
        };
        assert_eq!(s.value(0.0), 0.5);
        assert_eq!(s.value(-1.0), 0.0);
        assert_eq!(s.value(-3.0), 0.0);
        assert_eq!(s.value(1.0), 1.0);
        assert_eq!(s.value(4.0), 1.0);
        let h = 1e-6;
        for x in [-0.9f64, -0.3, 0.0, 0.4, 0.8] {
            let difference = (s.value(x + h) - s.value(x - h)) / (2.0 * h);
            assert!((s.slope(x) - difference).abs() < 1e-8, "{x}");
        }
    }
}
