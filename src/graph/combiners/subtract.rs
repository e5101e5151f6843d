//! `subtract`: `a - b`.

use std::marker::PhantomData;

use super::add::{sum_bounds, sum_error};
use super::{CodeSink, CombinerFn, CombinerType, Inputs};
use crate::error::Result;
use crate::graph::dual::{TexelDual, with_gradient};
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{A_B, NodeType, combiner};
use crate::graph::step_bounds::Bounds;
use crate::kinds::lattice::real::Real;

/// `a - b`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Subtract<R = f64>(PhantomData<R>);

impl<R: Real> CombinerFn<R> for Subtract<R> {
    #[inline(always)]
    fn fold(self, a: R, b: R) -> R {
        a - b
    }

    #[inline(always)]
    fn fold_d(self, a: TexelDual<R>, b: TexelDual<R>) -> TexelDual<R> {
        with_gradient(self.fold(a[0], b[0]), |c| a[c] - b[c])
    }
}

impl CombinerType for Subtract {
    type Lanes = Subtract<f32>;
    const ROW: NodeType = combiner("subtract", A_B, &[], "a - b");

    fn read(node: &NodeReader) -> Result<(Self, Vec<usize>)> {
        let inputs = vec![node.input("a")?, node.input("b")?];
        Ok((Subtract(PhantomData), inputs))
    }

    fn to_f32(self) -> Subtract<f32> {
        Subtract(PhantomData)
    }

    /// As a sum's: the error of `a - b` is at most the sum of theirs.
    fn bounds(self, inputs: &[Bounds]) -> Bounds {
        sum_bounds(inputs)
    }

    fn error(self, inputs: impl Inputs) -> f64 {
        sum_error(inputs)
    }

    fn wgsl(self, _: &mut dyn CodeSink, v: &[String], _: &str) -> String {
        format!("{} - {}", v[0], v[1])
    }
}
