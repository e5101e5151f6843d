//! `add`: the sum of the inputs.

use std::marker::PhantomData;

use super::{CodeSink, CombinerFn, CombinerType, Inputs, size};
use crate::error::Result;
use crate::graph::dual::{TexelDual, with_gradient};
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{INPUTS, NodeType, combiner};
use crate::graph::step_bounds::{Bounds, ROUNDING};
use crate::kinds::lattice::real::Real;

/// The sum of the inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Add<R = f64>(PhantomData<R>);

impl<R: Real> CombinerFn<R> for Add<R> {
    #[inline(always)]
    fn fold(self, a: R, b: R) -> R {
        a + b
    }

    #[inline(always)]
    fn fold_d(self, a: TexelDual<R>, b: TexelDual<R>) -> TexelDual<R> {
        with_gradient(self.fold(a[0], b[0]), |c| a[c] + b[c])
    }
}

/// A sum's or difference's bounds: sizes and errors add, and n inputs make n - 1 f32
/// additions, each rounding its running sum (the step's own rounding counts one of them).
pub(super) fn sum_bounds(inputs: &[Bounds]) -> Bounds {
    let v = inputs.iter().fold(Bounds::default(), |s, v| Bounds {
        range: None,
        m: s.m + v.m,
        e: s.e + v.e,
    });
    let more = inputs.len().saturating_sub(2) as f64 * ROUNDING;
    Bounds {
        e: v.e + more * v.m,
        ..v
    }
}

/// A sum's or difference's running error: the inputs' errors, and a rounding per addition.
pub(super) fn sum_error(inputs: impl Inputs) -> f64 {
    let mut rest = inputs.clone();
    let first = rest.next().map_or(0.0, |(_, e)| e);
    let errors = first + rest.map(|(_, e)| e).sum::<f64>();
    let additions = inputs.clone().count().saturating_sub(2) as f64;
    errors + additions * ROUNDING * size(inputs)
}

impl CombinerType for Add {
    type Lanes = Add<f32>;
    const ROW: NodeType = combiner("add", INPUTS, &[], "the sum of the inputs");

    fn read(node: &NodeReader) -> Result<(Self, Vec<usize>)> {
        Ok((Add(PhantomData), node.input_list("inputs")?))
    }

    fn to_f32(self) -> Add<f32> {
        Add(PhantomData)
    }

    fn bounds(self, inputs: &[Bounds]) -> Bounds {
        sum_bounds(inputs)
    }

    fn error(self, inputs: impl Inputs) -> f64 {
        sum_error(inputs)
    }

    /// `+` with or without gradients (a `vec4` sum is the sum with its gradient).
    fn wgsl(self, _: &mut dyn CodeSink, v: &[String], _: &str) -> String {
        (v[1..].iter()).fold(v[0].clone(), |a, b| format!("{a} + {b}"))
    }
}
