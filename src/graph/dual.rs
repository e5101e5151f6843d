//! A value with its gradient along the world's texel axes (CONVENTIONS §13, "Derivatives"):
//! the form every node's function with gradients takes and gives, in both precisions.

use crate::kinds::lattice::real::Real;

/// A value and its partial derivatives along the texel axes x, y, z: f64 on the twin, f32 in
/// the SIMD lanes (the same functions in both precisions, as `ops`).
pub type TexelDual<R = f64> = [R; 4];

/// A constant: no gradient.
pub fn constant_d<R: Real>(v: R) -> TexelDual<R> {
    [v, R::zero(), R::zero(), R::zero()]
}

/// `f(v)` given its value and its slope `f'(v)`: the gradient times the slope.
#[inline(always)]
pub fn chain<R: Real>(v: TexelDual<R>, value: R, slope: R) -> TexelDual<R> {
    [value, slope * v[1], slope * v[2], slope * v[3]]
}

/// `[value, f(1), f(2), f(3)]`: a value and its gradient component by component.
#[inline(always)]
pub fn with_gradient<R: Real>(value: R, f: impl Fn(usize) -> R) -> TexelDual<R> {
    [value, f(1), f(2), f(3)]
}
