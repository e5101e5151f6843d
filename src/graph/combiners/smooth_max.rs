//! `smooth-max`: `-smooth_min(-a, -b)`.

use super::smooth_min::{smooth_bounds, smooth_min, smooth_min_d};
use super::{CodeSink, CombinerFn, CombinerType, Inputs, chosen_error};
use crate::error::Result;
use crate::graph::dual::TexelDual;
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{A_B, NodeType, combiner};
use crate::graph::step_bounds::Bounds;
use crate::kinds::lattice::real::Real;
use crate::kinds::param::{LIMIT, positive};

/// `-smooth_min(-a, -b)` of width `k`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmoothMax<R = f64> {
    /// The width of the blend, positive.
    pub k: R,
}

impl<R: Real> CombinerFn<R> for SmoothMax<R> {
    #[inline(always)]
    fn fold(self, a: R, b: R) -> R {
        -smooth_min(-a, -b, self.k)
    }

    #[inline(always)]
    fn fold_d(self, a: TexelDual<R>, b: TexelDual<R>) -> TexelDual<R> {
        let neg = |v: TexelDual<R>| v.map(|x| -x);
        neg(smooth_min_d(neg(a), neg(b), self.k))
    }
}

impl CombinerType for SmoothMax {
    type Lanes = SmoothMax<f32>;
    const ROW: NodeType = combiner(
        "smooth-max",
        A_B,
        &[positive("k", 0.1, LIMIT, "width of the blend")],
        "-smooth-min(-a, -b)",
    );

    fn read(node: &NodeReader) -> Result<(Self, Vec<usize>)> {
        let k = node.number("k")?;
        let inputs = vec![node.input("a")?, node.input("b")?];
        Ok((SmoothMax { k }, inputs))
    }

    fn to_f32(self) -> SmoothMax<f32> {
        SmoothMax { k: self.k as f32 }
    }

    fn bounds(self, inputs: &[Bounds]) -> Bounds {
        smooth_bounds(inputs, self.k)
    }

    fn error(self, inputs: impl Inputs) -> f64 {
        chosen_error(inputs, self.k, false, |a, b| self.fold(a, b))
    }

    /// smooth-min's WGSL functions, negated.
    fn wgsl(self, code: &mut dyn CodeSink, v: &[String], d: &str) -> String {
        let p = code.push([self.k, 0.0, 0.0, 0.0]);
        format!("-smooth_min{d}(-{}, -{}, {p}.x)", v[0], v[1])
    }
}
