//! Cosine and exponential as plain f32 arithmetic, so that the impulse kernels' lane loops
//! vectorize (a call to the C library's `cosf` or `expf` keeps a loop scalar). Accurate to a
//! few units in the last place over the kernels' ranges; tests check them against f64.

use std::f32::consts::{FRAC_PI_2, LN_2};

use crate::tables::{LN_2_HI, LN_2_LO};

/// `cos(2 pi t)` for any t of magnitude below 2^23. t is reduced to its offset from the
/// nearest integer (exactly), u = |t| in [0, 1/2], and `cos(2 pi u) = -sin(pi/2 y)` with
/// `y = 4u - 1` in [-1, 1]: the Taylor series of sin through y^13 (truncation below 1e-9).
#[inline(always)]
pub fn cos_2pi(t: f32) -> f32 {
    let u = (t - t.round()).abs();
    let y = 4.0 * u - 1.0;
    let z = FRAC_PI_2 * y;
    let z2 = z * z;
    // sin z = z (1 - z^2/3! (1 - z^2/(4 5) (1 - z^2/(6 7) (... ))))
    let mut s = 1.0 - z2 / (12.0 * 13.0);
    s = 1.0 - z2 / (10.0 * 11.0) * s;
    s = 1.0 - z2 / (8.0 * 9.0) * s;
    s = 1.0 - z2 / (6.0 * 7.0) * s;
    s = 1.0 - z2 / (4.0 * 5.0) * s;
    s = 1.0 - z2 / (2.0 * 3.0) * s;
    -(z * s)
}

/// `exp(x)` for x <= 0 (below -87 it is 0): `2^k exp(r)` with k the nearest integer to
/// x / ln 2 and r = x - k ln 2 in [-0.35, 0.35], exp(r) by its Taylor series through r^7.
#[inline(always)]
pub fn exp_nonpositive(x: f32) -> f32 {
    let underflow = x < -87.0;
    let x = x.max(-87.0);
    let k = (x * (1.0 / LN_2)).round();
    // ln 2 split in two so that k ln 2 subtracts exactly (Cody and Waite).
    let r = (x - k * LN_2_HI) - k * LN_2_LO;
    let mut e = 1.0 + r / 7.0;
    e = 1.0 + r / 6.0 * e;
    e = 1.0 + r / 5.0 * e;
    e = 1.0 + r / 4.0 * e;
    e = 1.0 + r / 3.0 * e;
    e = 1.0 + r / 2.0 * e;
    e = 1.0 + r * e;
    let v = e * f32::from_bits(((k as i32 + 127) as u32) << 23);
    if underflow { 0.0 } else { v }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cos_2pi_is_within_2e_7_of_f64_cosine() {
        let mut worst = 0.0f64;
        for n in -400_000..=400_000 {
            let t = n as f32 * 1.37e-5; // up to about 5.5 turns, both signs
            let want = (2.0 * std::f64::consts::PI * f64::from(t)).cos();
            worst = worst.max((f64::from(cos_2pi(t)) - want).abs());
        }
        assert!(worst < 2e-7, "{worst:e}");
    }

    #[test]
    fn exp_nonpositive_is_within_3e_7_relative_of_f64_exp() {
        let mut worst = 0.0f64;
        for n in 0..=800_000 {
            let x = -(n as f32) * 1e-4; // 0 to -80
            let want = f64::from(x).exp();
            worst = worst.max((f64::from(exp_nonpositive(x)) - want).abs() / want);
        }
        assert!(worst < 3e-7, "{worst:e}");
        assert_eq!(exp_nonpositive(-200.0), 0.0);
    }
}
