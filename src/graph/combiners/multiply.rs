//! `multiply`: the product of the inputs.

use std::marker::PhantomData;

use super::{CodeSink, CombinerFn, CombinerType, Inputs};
use crate::error::Result;
use crate::graph::dual::{TexelDual, with_gradient};
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{INPUTS, NodeType, combiner};
use crate::graph::step_bounds::{Bounds, ROUNDING};
use crate::kinds::lattice::real::Real;

/// The product of the inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Multiply<R = f64>(PhantomData<R>);

impl<R: Real> CombinerFn<R> for Multiply<R> {
    #[inline(always)]
    fn fold(self, a: R, b: R) -> R {
        a * b
    }

    /// The product rule.
    #[inline(always)]
    fn fold_d(self, a: TexelDual<R>, b: TexelDual<R>) -> TexelDual<R> {
        with_gradient(self.fold(a[0], b[0]), |c| a[c] * b[0] + a[0] * b[c])
    }
}

impl CombinerType for Multiply {
    type Lanes = Multiply<f32>;
    const ROW: NodeType = combiner("multiply", INPUTS, &[], "the product of the inputs");
    const WGSL: Option<&'static str> = Some(include_str!(
        "../../../shaders/graph/combiners/multiply.wgsl"
    ));

    fn read(node: &NodeReader) -> Result<(Self, Vec<usize>)> {
        Ok((Multiply(PhantomData), node.input_list("inputs")?))
    }

    fn to_f32(self) -> Multiply<f32> {
        Multiply(PhantomData)
    }

    /// Each factor's error by the other's size; each product rounds once.
    fn bounds(self, inputs: &[Bounds]) -> Bounds {
        let first = inputs.first().copied().unwrap_or_default();
        (inputs.iter().skip(1)).fold(first, |s, v| Bounds {
            range: None,
            m: s.m * v.m,
            e: s.m * v.e + v.m * s.e + s.e * v.e + s.m * v.m * ROUNDING,
        })
    }

    fn error(self, mut inputs: impl Inputs) -> f64 {
        let first = inputs.next().unwrap_or_default();
        let (_, e) = inputs.fold(first, |(p, ep), (v, ev)| {
            let e = p.abs() * ev + v.abs() * ep + ep * ev;
            (p * v, e + (p * v).abs() * ROUNDING + e * ROUNDING)
        });
        e
    }

    fn wgsl(self, code: &mut dyn CodeSink, v: &[String], d: &str) -> String {
        if d.is_empty() {
            return (v[1..].iter()).fold(v[0].clone(), |a, b| format!("{a} * {b}"));
        }
        code.fold_calls(&format!("multiply{d}"), v)
    }
}
