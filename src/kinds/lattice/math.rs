//! Cosine, exponential, logarithm and power as plain f32 arithmetic: the cosine and exponential
//! written once over [`Arith`], for the impulse kernels' registers and for one f32 (a call to
//! the C library's `cosf` or `expf` would keep a lane loop scalar, and differ by platform).
//! Accurate to a few units in the last place over the kernels' ranges; tests check them
//! against f64.

use std::f32::consts::{FRAC_1_SQRT_2, FRAC_PI_2, LN_2};

use super::wide::Arith;
use super::wide::scalar::Scalar;
use crate::tables::{LN_2_HI, LN_2_LO};

/// `cos(2 pi t)` for any t of magnitude below 2^23, in every lane of `s` (or one f32 with
/// [`Scalar`]). t is reduced to its offset from the nearest integer (exactly), u = |t| in
/// [0, 1/2], and `cos(2 pi u) = -sin(pi/2 y)` with `y = 4u - 1` in [-1, 1]: the Taylor series
/// of sin through y^13 (truncation below 1e-9). The nearest integer's ties go to even (WGSL's
/// `round`); either neighbour gives u = 1/2.
#[inline(always)]
pub fn cos_2pi<A: Arith>(s: A, t: A::F) -> A::F {
    let c = |x: f32| s.splat(x);
    let u = s.abs(s.sub(t, s.round(t)));
    let y = s.sub(s.mul(c(4.0), u), c(1.0));
    let z = s.mul(c(FRAC_PI_2), y);
    let z2 = s.mul(z, z);
    // sin z = z (1 - z^2/3! (1 - z^2/(4 5) (1 - z^2/(6 7) (... ))))
    let mut v = s.sub(c(1.0), s.div(z2, c(12.0 * 13.0)));
    for k in [10.0f32, 8.0, 6.0, 4.0, 2.0] {
        v = s.sub(c(1.0), s.mul(s.div(z2, c(k * (k + 1.0))), v));
    }
    // -(z v), the sign flipped exactly (zero's too).
    s.mul(s.mul(z, v), c(-1.0))
}

/// `exp(x)` for x <= 0 (below -87 it is 0), in every lane of `s` (or one f32 with [`Scalar`]):
/// `2^k exp(r)` with k the nearest integer to x / ln 2 (ties to even) and r = x - k ln 2 in
/// [-0.35, 0.35], exp(r) by its Taylor series through r^7.
#[inline(always)]
pub fn exp_nonpositive<A: Arith>(s: A, x: A::F) -> A::F {
    let c = |x: f32| s.splat(x);
    let underflow = s.lt(x, c(-87.0));
    let x = s.max(x, c(-87.0));
    let k = s.round(s.mul(x, c(1.0 / LN_2)));
    // ln 2 split in two so that k ln 2 subtracts exactly (Cody and Waite).
    let r = s.sub(s.sub(x, s.mul(k, c(LN_2_HI))), s.mul(k, c(LN_2_LO)));
    let mut e = s.add(c(1.0), s.div(r, c(7.0)));
    for n in [6.0f32, 5.0, 4.0, 3.0, 2.0] {
        e = s.add(c(1.0), s.mul(s.div(r, c(n)), e));
    }
    e = s.add(c(1.0), s.mul(r, e));
    // 2^k from its biased exponent k + 127, in [1, 127]: below 2^9, so rotating it left by 23
    // is the shift into the exponent field.
    let two_k = s.bits_f(s.rotl_u::<23>(s.add_u(s.trunc_i(k), s.splat_u(127))));
    s.select(underflow, c(0.0), s.mul(e, two_k))
}

/// `(m, k)` with `a = m 2^k`, m in [1/2, 1), for a > 0 (WGSL's `frexp`; subnormals scaled
/// first).
#[inline(always)]
fn frexp(a: f32) -> (f32, i32) {
    let (a, shift) = if a < f32::MIN_POSITIVE {
        (a * 16_777_216.0, -24)
    } else {
        (a, 0)
    };
    let bits = a.to_bits();
    let k = ((bits >> 23) & 0xff) as i32 - 126;
    (
        f32::from_bits((bits & 0x807f_ffff) | (126 << 23)),
        k + shift,
    )
}

/// `ln(a)` for a > 0: `a = m 2^k` with m in [sqrt(1/2), sqrt(2)), `ln m = 2 atanh(s)`,
/// `s = (m - 1) / (m + 1)` in [-0.172, 0.172], by its series through s^9 (truncation below
/// 1e-9), plus `k ln 2` with ln 2 split in two (Cody and Waite).
#[inline(always)]
pub fn ln_positive(a: f32) -> f32 {
    let (m, k) = frexp(a);
    let (m, k) = if m < FRAC_1_SQRT_2 {
        (2.0 * m, k - 1)
    } else {
        (m, k)
    };
    let s = (m - 1.0) / (m + 1.0);
    let z = s * s;
    let mut t = 1.0 / 9.0;
    t = 1.0 / 7.0 + z * t;
    t = 1.0 / 5.0 + z * t;
    t = 1.0 / 3.0 + z * t;
    t = 1.0 + z * t;
    let k = k as f32;
    k * LN_2_HI + (k * LN_2_LO + 2.0 * s * t)
}

/// `a^p` for a > 0 and any p: `exp(p ln a)` with [`ln_positive`] and [`exp_nonpositive`]
/// (its reciprocal for a positive exponent). Relative error within
/// `6e-7 + 2e-7 |p ln a|` of the exact power (CONVENTIONS §13, tested); 0 below e^-87.
#[inline(always)]
pub fn pow_of_positive(a: f32, p: f32) -> f32 {
    let x = p * ln_positive(a);
    if x <= 0.0 {
        exp_nonpositive(Scalar, x)
    } else {
        1.0 / exp_nonpositive(Scalar, -x)
    }
}

/// [`pow_of_positive`]'s stated relative error for `a^p`: `c[0] + c[1] |p ln a|`.
pub const POW_RELATIVE_ERROR: [f64; 2] = [6e-7, 2e-7];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cos_2pi_is_within_2e_7_of_f64_cosine() {
        let mut worst = 0.0f64;
        for n in -400_000..=400_000 {
            let t = n as f32 * 1.37e-5; // up to about 5.5 turns, both signs
            let want = (2.0 * std::f64::consts::PI * f64::from(t)).cos();
            worst = worst.max((f64::from(cos_2pi(Scalar, t)) - want).abs());
        }
        assert!(worst < 2e-7, "{worst:e}");
    }

    #[test]
    fn exp_nonpositive_is_within_3e_7_relative_of_f64_exp() {
        let mut worst = 0.0f64;
        for n in 0..=800_000 {
            let x = -(n as f32) * 1e-4; // 0 to -80
            let want = f64::from(x).exp();
            worst = worst.max((f64::from(exp_nonpositive(Scalar, x)) - want).abs() / want);
        }
        assert!(worst < 3e-7, "{worst:e}");
        assert_eq!(exp_nonpositive(Scalar, -200.0), 0.0);
    }

    #[test]
    fn ln_and_pow_are_within_their_stated_error_of_f64() {
        let mut worst_ln = 0.0f64;
        for n in 0..=200_000 {
            // a from 2^-30 to 2^30, and subnormals.
            let a = (2.0f64).powf(-30.0 + 60.0 * f64::from(n) / 200_000.0) as f32;
            let want = f64::from(a).ln();
            worst_ln = worst_ln.max((f64::from(ln_positive(a)) - want).abs());
        }
        assert!(worst_ln < 4e-6, "ln: {worst_ln:e}");
        // A subnormal.
        assert!((f64::from(ln_positive(1e-40)) - f64::from(1e-40f32).ln()).abs() < 1e-5);
        let mut worst = 0.0f64;
        for p in [0.1f32, 0.5, 1.0, 1.5, 2.0, 2.5, 4.0, 8.0, 64.0, -0.5] {
            for n in 1..=20_000 {
                let a = n as f32 * 1.3e-4; // (0, 2.6]
                let want = f64::from(a).powf(f64::from(p));
                // Powers above e^-87 (below it they are 0, as exp_nonpositive's) and below f32's
                // largest.
                if !(want >= (-87.0f64).exp() && want < 1e38) {
                    continue;
                }
                let got = f64::from(pow_of_positive(a, p));
                let [c0, c1] = POW_RELATIVE_ERROR;
                let stated = c0 + c1 * (f64::from(p) * f64::from(a).ln()).abs();
                let ratio = ((got - want) / want).abs() / stated;
                worst = worst.max(ratio);
            }
        }
        println!("pow: worst {worst:.2} of the stated error");
        assert!(worst <= 1.0, "pow: {worst} of the stated error");
        assert!(
            worst > 0.01,
            "the stated error is far above every error ({worst})"
        );
    }
}
