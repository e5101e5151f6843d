//! `power`: `sign(v) |v|^exponent`.

use super::{ModifierFn, ModifierType, ParamSink};
use crate::error::Result;
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{Category, NodeType, of_source};
use crate::graph::step_bounds::Bounds;
use crate::kinds::lattice::math::POW_RELATIVE_ERROR;
use crate::kinds::lattice::real::Real;
use crate::kinds::param::positive;

/// `sign(v) |v|^exponent`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Power<R = f64> {
    /// The exponent, positive.
    pub exponent: R,
}

impl<R: Real> ModifierFn<R> for Power<R> {
    /// With WGSL's `sign` (0 at 0).
    #[inline(always)]
    fn value(&self, v: R) -> R {
        let sign = if v > R::zero() {
            R::one()
        } else if v < R::zero() {
            -R::one()
        } else {
            R::zero()
        };
        sign * v.pow_of_abs(self.exponent)
    }

    /// `exponent |v|^(exponent - 1)` off 0; at 0, 1 for exponent 1 and 0 otherwise (the
    /// derivative where it exists, 0 where it is unbounded, exponents below 1).
    #[inline(always)]
    fn slope(&self, v: R) -> R {
        let exponent = self.exponent;
        if v != R::zero() {
            exponent * v.pow_of_abs(exponent - R::one())
        } else if exponent == R::one() {
            R::one()
        } else {
            R::zero()
        }
    }
}

/// The f32 power's own error at magnitude `top`: relative `6e-7 + 2e-7 |p ln v|`, whose
/// absolute size over |v| <= top is at most max(1, top^p) (6e-7 + 2e-7 max(1, p ln top))
/// (u e^-u <= 1 below 1).
fn own_error(p: f64, top: f64) -> f64 {
    let [c0, c1] = POW_RELATIVE_ERROR;
    top.powf(p).max(1.0) * (c0 + c1 * (p * top.ln()).max(1.0))
}

impl ModifierType for Power {
    type Lanes = Power<f32>;
    const ROW: NodeType = of_source(
        "power",
        Category::Modifier,
        &[positive("exponent", 2.0, 64.0, "the power")],
        "sign(v) |v|^exponent",
    );
    const WGSL: Option<&'static str> =
        Some(include_str!("../../../shaders/graph/modifiers/power.wgsl"));

    fn read(node: &NodeReader) -> Result<Self> {
        Ok(Power {
            exponent: node.number("exponent")?,
        })
    }

    fn to_f32(&self) -> Power<f32> {
        Power {
            exponent: self.exponent as f32,
        }
    }

    /// The input's error carried by the slope (Hoelder below 1), plus the f32 power's own.
    fn bounds(&self, input: Bounds) -> Bounds {
        let p = self.exponent;
        let carried = if p >= 1.0 {
            p * input.m.powf(p - 1.0) * input.e
        } else {
            input.e.powf(p)
        };
        Bounds {
            range: None,
            m: input.m.powf(p),
            e: carried + own_error(p, input.m),
        }
    }

    fn error(&self, v: f64, e: f64) -> f64 {
        let p = self.exponent;
        let top = v.abs() + e;
        let carried = if p >= 1.0 {
            p * top.powf(p - 1.0) * e
        } else if v.abs() > e {
            (p * (v.abs() - e).powf(p - 1.0) * e).min(e.powf(p))
        } else {
            e.powf(p)
        };
        carried + own_error(p, top)
    }

    fn wgsl(&self, params: &mut dyn ParamSink, v: &str, d: &str) -> String {
        let p = params.push([self.exponent, 0.0, 0.0, 0.0]);
        format!("power{d}({v}, {p}.x)")
    }
}
