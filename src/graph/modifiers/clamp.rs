//! `clamp`: `v` limited to `min..=max`.

use super::{ModifierFn, ModifierType, ParamSink};
use crate::error::Result;
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{Category, NodeType, of_source};
use crate::graph::step_bounds::Bounds;
use crate::kinds::lattice::real::Real;
use crate::kinds::param::{LIMIT, number};

/// `v` limited to `min..=max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clamp<R = f64> {
    /// Lower bound.
    pub min: R,
    /// Upper bound.
    pub max: R,
}

impl<R: Real> ModifierFn<R> for Clamp<R> {
    #[inline(always)]
    fn value(&self, v: R) -> R {
        v.max(self.min).min(self.max)
    }

    /// 1 strictly between the limits, 0 at and beyond them (the clamped side).
    #[inline(always)]
    fn slope(&self, v: R) -> R {
        if v > self.min && v < self.max {
            R::one()
        } else {
            R::zero()
        }
    }
}

impl ModifierType for Clamp {
    type Lanes = Clamp<f32>;
    const ROW: NodeType = of_source(
        "clamp",
        Category::Modifier,
        &[
            number("min", -1.0, -LIMIT, LIMIT, "lower bound"),
            number("max", 1.0, -LIMIT, LIMIT, "upper bound, at least min"),
        ],
        "v limited to min..=max",
    );
    const WGSL: Option<&'static str> =
        Some(include_str!("../../../shaders/graph/modifiers/clamp.wgsl"));

    fn read(node: &NodeReader) -> Result<Self> {
        let (min, max) = (node.number("min")?, node.number("max")?);
        if min > max {
            return Err(node.err("max", format!("must be at least min ({min}), got {max}")));
        }
        Ok(Clamp { min, max })
    }

    fn to_f32(&self) -> Clamp<f32> {
        Clamp {
            min: self.min as f32,
            max: self.max as f32,
        }
    }

    fn bounds(&self, input: Bounds) -> Bounds {
        let (lo, hi) = input.interval();
        Bounds::within(
            lo.clamp(self.min, self.max),
            hi.clamp(self.min, self.max),
            input.e,
        )
    }

    fn error(&self, v: f64, e: f64) -> f64 {
        if v + e < self.min || v - e > self.max {
            0.0
        } else {
            e
        }
    }

    fn wgsl(&self, params: &mut dyn ParamSink, v: &str, d: &str) -> String {
        let p = params.push([self.min, self.max, 0.0, 0.0]);
        format!("clamp{d}({v}, {p}.x, {p}.y)")
    }
}
