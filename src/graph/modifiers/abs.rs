//! `abs`: `|v|`.

use std::marker::PhantomData;

use super::{ModifierFn, ModifierType, ParamSink};
use crate::error::Result;
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{Category, NodeType, of_source};
use crate::graph::step_bounds::Bounds;
use crate::kinds::lattice::real::Real;

/// `|v|`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Abs<R = f64>(PhantomData<R>);

impl<R: Real> ModifierFn<R> for Abs<R> {
    #[inline(always)]
    fn value(&self, v: R) -> R {
        v.abs()
    }

    /// `sign(v)` with sign(0) = +1, the side |v|'s gradient takes at 0 (CONVENTIONS §12).
    #[inline(always)]
    fn slope(&self, v: R) -> R {
        if v < R::zero() { -R::one() } else { R::one() }
    }
}

impl ModifierType for Abs {
    type Lanes = Abs<f32>;
    const ROW: NodeType = of_source("abs", Category::Modifier, &[], "|v|");
    const WGSL: Option<&'static str> =
        Some(include_str!("../../../shaders/graph/modifiers/abs.wgsl"));

    fn read(_: &NodeReader) -> Result<Self> {
        Ok(Abs(PhantomData))
    }

    fn to_f32(&self) -> Abs<f32> {
        Abs(PhantomData)
    }

    fn bounds(&self, input: Bounds) -> Bounds {
        let (lo, hi) = input.interval();
        let floor = if lo > 0.0 {
            lo
        } else if hi < 0.0 {
            -hi
        } else {
            0.0
        };
        Bounds::within(floor, input.m, input.e)
    }

    fn error(&self, _: f64, e: f64) -> f64 {
        e
    }

    fn wgsl(&self, _: &mut dyn ParamSink, v: &str, d: &str) -> String {
        format!("abs{d}({v})")
    }
}
