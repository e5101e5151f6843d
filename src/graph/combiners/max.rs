//! `max`: the greatest input.

use std::marker::PhantomData;

use super::{CodeSink, CombinerFn, CombinerType, Inputs, chosen_error, largest};
use crate::error::Result;
use crate::graph::dual::TexelDual;
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{INPUTS, NodeType, combiner};
use crate::graph::step_bounds::Bounds;
use crate::kinds::lattice::real::Real;

/// The greater input.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Max<R = f64>(PhantomData<R>);

impl<R: Real> CombinerFn<R> for Max<R> {
    #[inline(always)]
    fn fold(self, a: R, b: R) -> R {
        a.max(b)
    }

    /// The greater input with its gradient (the first on a tie).
    #[inline(always)]
    fn fold_d(self, a: TexelDual<R>, b: TexelDual<R>) -> TexelDual<R> {
        if a[0] >= b[0] { a } else { b }
    }
}

impl CombinerType for Max {
    type Lanes = Max<f32>;
    const ROW: NodeType = combiner("max", INPUTS, &[], "the greatest input");
    const WGSL: Option<&'static str> =
        Some(include_str!("../../../shaders/graph/combiners/max.wgsl"));

    fn read(node: &NodeReader) -> Result<(Self, Vec<usize>)> {
        Ok((Max(PhantomData), node.input_list("inputs")?))
    }

    fn to_f32(self) -> Max<f32> {
        Max(PhantomData)
    }

    fn bounds(self, inputs: &[Bounds]) -> Bounds {
        largest(inputs)
    }

    fn error(self, inputs: impl Inputs) -> f64 {
        chosen_error(inputs, 0.0, false, |a, b| self.fold(a, b))
    }

    fn wgsl(self, code: &mut dyn CodeSink, v: &[String], d: &str) -> String {
        code.fold_calls(&format!("max{d}"), v)
    }
}
