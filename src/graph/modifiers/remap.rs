//! `remap`: `from` mapped linearly onto `to`, not clamped.

use super::{ModifierFn, ModifierType, ParamSink};
use crate::error::Result;
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{Category, NodeType, of_source};
use crate::graph::step_bounds::{Bounds, ROUNDING};
use crate::kinds::lattice::real::Real;
use crate::kinds::param::{Param, ParamType};

/// `from` mapped linearly onto `to`, not clamped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Remap<R = f64> {
    /// `[a, b]`, a != b.
    pub from: [R; 2],
    /// Where a and b land.
    pub to: [R; 2],
}

impl<R: Real> ModifierFn<R> for Remap<R> {
    /// `to.a + (v - from.a) (to.b - to.a) / (from.b - from.a)`.
    #[inline(always)]
    fn value(&self, v: R) -> R {
        let (from, to) = (self.from, self.to);
        to[0] + (v - from[0]) * (to[1] - to[0]) / (from[1] - from[0])
    }

    #[inline(always)]
    fn slope(&self, _: R) -> R {
        (self.to[1] - self.to[0]) / (self.from[1] - self.from[0])
    }
}

impl ModifierType for Remap {
    type Lanes = Remap<f32>;
    const ROW: NodeType = of_source(
        "remap",
        Category::Modifier,
        &[
            Param {
                name: "from",
                ty: ParamType::Pair {
                    default: [-1.0, 1.0],
                },
                doc: "the range [a, b] that maps to `to`",
            },
            Param {
                name: "to",
                ty: ParamType::Pair {
                    default: [0.0, 1.0],
                },
                doc: "where `from` lands",
            },
        ],
        "to.a + (v - from.a) (to.b - to.a) / (from.b - from.a), not clamped",
    );
    const WGSL: Option<&'static str> =
        Some(include_str!("../../../shaders/graph/modifiers/remap.wgsl"));

    fn read(node: &NodeReader) -> Result<Self> {
        Ok(Remap {
            from: node.pair("from")?,
            to: node.pair("to")?,
        })
    }

    fn to_f32(&self) -> Remap<f32> {
        Remap {
            from: self.from.map(|x| x as f32),
            to: self.to.map(|x| x as f32),
        }
    }

    /// Linear: the interval's ends map to the result's.
    fn bounds(&self, input: Bounds) -> Bounds {
        let slope = self.slope(0.0);
        let (lo, hi) = input.interval();
        let (from, to) = (self.from, self.to);
        let (a, b) = (
            to[0] + (lo - from[0]) * slope,
            to[0] + (hi - from[0]) * slope,
        );
        Bounds::within(a.min(b), a.max(b), slope.abs() * input.e)
    }

    fn error(&self, v: f64, e: f64) -> f64 {
        let slope = self.slope(0.0).abs();
        slope * e + 3.0 * ROUNDING * (v.abs() + e + self.from[0].abs()) * slope.max(1.0)
    }

    fn wgsl(&self, params: &mut dyn ParamSink, v: &str, d: &str) -> String {
        let (from, to) = (self.from, self.to);
        let p = params.push([from[0], from[1], to[0], to[1]]);
        format!("remap{d}({v}, {p}.xy, {p}.zw)")
    }
}
