//! `smooth-min`: Quilez's polynomial smooth minimum of a and b.

use super::{CodeSink, CombinerFn, CombinerType, Inputs, chosen_error, largest};
use crate::error::Result;
use crate::graph::dual::{TexelDual, with_gradient};
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{A_B, NodeType, combiner};
use crate::graph::step_bounds::Bounds;
use crate::kinds::lattice::real::Real;
use crate::kinds::param::{LIMIT, positive};

/// Quilez's polynomial smooth minimum of width `k`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmoothMin<R = f64> {
    /// The width of the blend, positive.
    pub k: R,
}

/// `min(a, b) - h^2 k / 4`, `h = max(k - |a - b|, 0) / k`.
#[inline(always)]
pub(super) fn smooth_min<R: Real>(a: R, b: R, k: R) -> R {
    let h = (k - (a - b).abs()).max(R::zero()) / k;
    a.min(b) - h * h * k * R::of(0.25)
}

/// `smooth_min` with its gradient: the lesser input's gradient minus `h/2 (a' - b')` times the
/// side's sign; smooth across a = b, where it is the mean of the two.
#[inline(always)]
pub(super) fn smooth_min_d<R: Real>(a: TexelDual<R>, b: TexelDual<R>, k: R) -> TexelDual<R> {
    let value = smooth_min(a[0], b[0], k);
    let h = (k - (a[0] - b[0]).abs()).max(R::zero()) / k;
    let (lesser, side) = if a[0] <= b[0] {
        (a, -R::one())
    } else {
        (b, R::one())
    };
    let half = R::of(0.5);
    with_gradient(value, |c| lesser[c] + half * h * side * (a[c] - b[c]))
}

/// A smooth minimum's or maximum's bounds: the larger input's, widened by `k / 4`.
pub(super) fn smooth_bounds(inputs: &[Bounds], k: f64) -> Bounds {
    let v = largest(inputs);
    Bounds {
        range: None,
        m: v.m + k / 4.0,
        e: v.e,
    }
}

impl<R: Real> CombinerFn<R> for SmoothMin<R> {
    #[inline(always)]
    fn fold(self, a: R, b: R) -> R {
        smooth_min(a, b, self.k)
    }

    #[inline(always)]
    fn fold_d(self, a: TexelDual<R>, b: TexelDual<R>) -> TexelDual<R> {
        smooth_min_d(a, b, self.k)
    }
}

impl CombinerType for SmoothMin {
    type Lanes = SmoothMin<f32>;
    const ROW: NodeType = combiner(
        "smooth-min",
        A_B,
        &[positive("k", 0.1, LIMIT, "width of the blend")],
        "Quilez's polynomial smooth minimum of a and b",
    );
    const WGSL: Option<&'static str> = Some(include_str!(
        "../../../shaders/graph/combiners/smooth_min.wgsl"
    ));

    fn read(node: &NodeReader) -> Result<(Self, Vec<usize>)> {
        let k = node.number("k")?;
        let inputs = vec![node.input("a")?, node.input("b")?];
        Ok((SmoothMin { k }, inputs))
    }

    fn to_f32(self) -> SmoothMin<f32> {
        SmoothMin { k: self.k as f32 }
    }

    fn bounds(self, inputs: &[Bounds]) -> Bounds {
        smooth_bounds(inputs, self.k)
    }

    fn error(self, inputs: impl Inputs) -> f64 {
        chosen_error(inputs, self.k, true, |a, b| self.fold(a, b))
    }

    fn wgsl(self, code: &mut dyn CodeSink, v: &[String], d: &str) -> String {
        let p = code.push([self.k, 0.0, 0.0, 0.0]);
        format!("smooth_min{d}({}, {}, {p}.x)", v[0], v[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smooth_min_lies_within_k_over_4_below_min_and_equals_it_far_apart() {
        for (a, b, k) in [(0.3f64, 0.31, 0.1), (-1.0, 2.0, 0.5), (0.0, 0.0, 1.0)] {
            let s = smooth_min(a, b, k);
            assert!(s <= a.min(b) && s >= a.min(b) - k / 4.0);
            assert_eq!(s, smooth_min(b, a, k));
        }
        assert_eq!(smooth_min(-1.0, 2.0, 0.5), -1.0);
    }
}
