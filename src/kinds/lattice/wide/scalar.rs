//! [`Arith`] on one f32: the scalar code (the f32 `Real` of the graph lanes) runs the functions
//! written once over [`Arith`] with the same operations, lane for lane, as the kernels.

use super::Arith;

/// The scalar token: one lane, any CPU.
#[derive(Clone, Copy, Default)]
pub struct Scalar;

impl Arith for Scalar {
    type F = f32;
    type U = u32;
    type M = bool;

    #[inline(always)]
    fn splat(self, x: f32) -> f32 {
        x
    }
    #[inline(always)]
    fn splat_u(self, x: u32) -> u32 {
        x
    }
    #[inline(always)]
    fn add(self, a: f32, b: f32) -> f32 {
        a + b
    }
    #[inline(always)]
    fn sub(self, a: f32, b: f32) -> f32 {
        a - b
    }
    #[inline(always)]
    fn mul(self, a: f32, b: f32) -> f32 {
        a * b
    }
    #[inline(always)]
    fn div(self, a: f32, b: f32) -> f32 {
        a / b
    }
    #[inline(always)]
    fn min(self, a: f32, b: f32) -> f32 {
        // The vector `min`'s rule, as the portable lanes: `b` unless `a < b`.
        if a < b { a } else { b }
    }
    #[inline(always)]
    fn max(self, a: f32, b: f32) -> f32 {
        if a > b { a } else { b }
    }
    #[inline(always)]
    fn floor(self, a: f32) -> f32 {
        a.floor()
    }
    #[inline(always)]
    fn round(self, a: f32) -> f32 {
        a.round_ties_even()
    }
    #[inline(always)]
    fn abs(self, a: f32) -> f32 {
        a.abs()
    }
    #[inline(always)]
    fn sqrt(self, a: f32) -> f32 {
        a.sqrt()
    }
    #[inline(always)]
    fn trunc_i(self, a: f32) -> u32 {
        // The vector conversion's rule: i32::MIN for NaN and out of range.
        if a > -2_147_483_904.0 && a < 2_147_483_648.0 {
            a as i32 as u32
        } else {
            i32::MIN as u32
        }
    }
    #[inline(always)]
    fn lt(self, a: f32, b: f32) -> bool {
        a < b
    }
    #[inline(always)]
    fn select(self, m: bool, t: f32, f: f32) -> f32 {
        if m { t } else { f }
    }
    #[inline(always)]
    fn add_u(self, a: u32, b: u32) -> u32 {
        a.wrapping_add(b)
    }
    #[inline(always)]
    fn rotl_u<const S: u32>(self, a: u32) -> u32 {
        a.rotate_left(S)
    }
    #[inline(always)]
    fn bits_f(self, a: u32) -> f32 {
        f32::from_bits(a)
    }
}
