//! `negate`: `-v`.

use std::marker::PhantomData;

use super::{ModifierFn, ModifierType, ParamSink};
use crate::error::Result;
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{Category, NodeType, of_source};
use crate::graph::step_bounds::Bounds;
use crate::kinds::lattice::real::Real;

/// `-v`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Negate<R = f64>(PhantomData<R>);

impl<R: Real> ModifierFn<R> for Negate<R> {
    #[inline(always)]
    fn value(&self, v: R) -> R {
        -v
    }

    #[inline(always)]
    fn slope(&self, _: R) -> R {
        -R::one()
    }
}

impl ModifierType for Negate {
    type Lanes = Negate<f32>;
    const ROW: NodeType = of_source("negate", Category::Modifier, &[], "-v");

    fn read(_: &NodeReader) -> Result<Self> {
        Ok(Negate(PhantomData))
    }

    fn to_f32(&self) -> Negate<f32> {
        Negate(PhantomData)
    }

    fn bounds(&self, input: Bounds) -> Bounds {
        let (lo, hi) = input.interval();
        Bounds::within(-hi, -lo, input.e)
    }

    fn error(&self, _: f64, e: f64) -> f64 {
        e
    }

    /// Negation needs no function, with or without gradients (a `vec4` negates whole).
    fn wgsl(&self, _: &mut dyn ParamSink, v: &str, _: &str) -> String {
        format!("-{v}")
    }
}
