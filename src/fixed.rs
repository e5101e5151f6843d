//! Exact fixed-point arithmetic on the host (CONVENTIONS §1): lattice coordinates as Q64.64
//! numbers in an `i128` (64 integer bits, 64 fraction bits), built from f64 inputs by exact
//! products rounded once. Both backends receive points split from these numbers, so precision
//! no longer depends on the distance from the origin.

/// Fraction bits of a [`Fixed`] coordinate.
pub const FRACTION_BITS: u32 = 64;
/// Fraction bits of a per-texel step: steps are multiples of 2^-32 cells, so that the GPU adds
/// `texel * step` exactly with one 32x32-bit product per axis.
pub const STEP_FRACTION_BITS: u32 = 32;
/// Largest |lattice coordinate| in cells: 62 bits, so that sums of a few never overflow i64.
pub const MAX_CELL: f64 = 4_611_686_018_427_387_904.0; // 2^62

/// A lattice coordinate in Q64.64: the value is `self.0 / 2^64`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fixed(pub i128);

/// `x = m * 2^e` exactly, with `m` a signed 54-bit integer (f64 values are dyadic rationals).
fn decompose(x: f64) -> (i128, i32) {
    if x == 0.0 {
        return (0, 0);
    }
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let fraction = (bits & ((1u64 << 52) - 1)) as i128;
    let (m, e) = if exponent == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1i128 << 52), exponent - 1075)
    };
    (if x < 0.0 { -m } else { m }, e)
}

/// `m * 2^e` rounded half up to an integer, or `None` beyond 2^126 in magnitude.
fn shift_round(m: i128, e: i32) -> Option<i128> {
    if m == 0 {
        return Some(0);
    }
    if e >= 0 {
        let room = m.unsigned_abs().leading_zeros() as i32 - 2;
        return (e <= room).then(|| m << e);
    }
    let s = -e;
    if s >= 126 {
        // |m| < 2^108 here, so m * 2^e lies strictly between -1/2 and 1/2.
        return Some(0);
    }
    Some((m + (1i128 << (s - 1))) >> s)
}

impl Fixed {
    /// Zero.
    pub const ZERO: Fixed = Fixed(0);

    /// `a * b` computed exactly and rounded half up to a multiple of `2^-bits` (bits <= 64);
    /// `None` if |a * b| reaches 2^62 cells or either is not finite.
    pub fn product(a: f64, b: f64, bits: u32) -> Option<Fixed> {
        if !a.is_finite() || !b.is_finite() {
            return None;
        }
        let (ma, ea) = decompose(a);
        let (mb, eb) = decompose(b);
        let rounded = shift_round(ma * mb, ea + eb + bits as i32)?;
        // Widening to 64 fraction bits must not overflow: |rounded| < 2^(62 + bits) cells.
        if rounded.unsigned_abs() >= 1u128 << (62 + bits) {
            return None;
        }
        Fixed(rounded << (FRACTION_BITS - bits)).checked()
    }

    /// An f64 value rounded half up to a multiple of 2^-64.
    pub fn from_f64(x: f64) -> Option<Fixed> {
        Self::product(x, 1.0, FRACTION_BITS)
    }

    /// `self * f`, f an f64 constant: with `self = h 2^64 + l` (h signed, l in [0, 2^64)) and
    /// `f = m 2^e`, the value `round(h m 2^(64+e)) + round(l m 2^e)`, each part rounded half up
    /// to a multiple of 2^-64 (exact for the first part whenever `e >= -64`).
    pub fn mul_f64(self, f: f64) -> Option<Fixed> {
        if !f.is_finite() {
            return None;
        }
        let (m, e) = decompose(f);
        let high = (self.0 >> 64) * m;
        let low = (self.0 & ((1i128 << 64) - 1)) * m;
        let sum = shift_round(high, e + 64)?.checked_add(shift_round(low, e)?)?;
        Fixed(sum).checked()
    }

    /// `self + other`, or `None` past 2^62 cells.
    pub fn checked_add(self, other: Fixed) -> Option<Fixed> {
        Fixed(self.0.checked_add(other.0)?).checked()
    }

    /// `self * n` for a whole number of texels, or `None` past 2^62 cells.
    pub fn times(self, n: i64) -> Option<Fixed> {
        Fixed(self.0.checked_mul(i128::from(n))?).checked()
    }

    /// `self * 2^k` (a level-of-detail step), or `None` past 2^62 cells.
    pub fn shifted(self, k: u32) -> Option<Fixed> {
        self.times(1i64.checked_shl(k).filter(|f| *f > 0)?)
    }

    /// Rounded half up to a multiple of 2^-32 (a step's precision).
    pub fn round_to_step(self) -> Fixed {
        let half = 1i128 << (FRACTION_BITS - STEP_FRACTION_BITS - 1);
        Fixed(((self.0 + half) >> 32) << 32)
    }

    /// The lattice cell: `floor(self)`.
    pub fn cell(self) -> i64 {
        (self.0 >> 64) as i64
    }

    /// The fraction's 64 bits: `self - floor(self)` times 2^64.
    pub fn fraction_bits(self) -> u64 {
        self.0 as u64
    }

    /// The value rounded to f64 (for messages and approximate reach checks).
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / 18_446_744_073_709_551_616.0
    }

    /// `self` if its magnitude is below 2^62 cells.
    pub(crate) fn checked(self) -> Option<Fixed> {
        (self.0.unsigned_abs() < (1u128 << 126)).then_some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_are_exact_then_rounded_once() {
        // 0.1 * 3 in exact arithmetic is not 0.30000000000000004 (the f64 product).
        let exact = Fixed::product(0.1, 3.0, 64).unwrap();
        let f64_product = Fixed::from_f64(0.1 * 3.0).unwrap();
        assert_ne!(exact, f64_product);
        assert!((exact.to_f64() - 0.3).abs() < 1e-16);
        // 1e12 + 0.25 texels at 1/32 cells per texel: exactly 31250000000 + 1/128.
        let p = Fixed::product(1e12 + 0.25, 1.0 / 32.0, 64).unwrap();
        assert_eq!(p.cell(), 31_250_000_000);
        assert_eq!(p.fraction_bits(), 1u64 << 57);
        // Negative values floor: -0.5 is cell -1, fraction 0.5.
        let n = Fixed::from_f64(-0.5).unwrap();
        assert_eq!((n.cell(), n.fraction_bits()), (-1, 1u64 << 63));
    }

    #[test]
    fn steps_round_half_up_to_2_pow_minus_32() {
        let s = Fixed::product(0.0371, 1.0, STEP_FRACTION_BITS).unwrap();
        assert_eq!(s.0 & 0xffff_ffff, 0);
        assert!((s.to_f64() - 0.0371).abs() <= 2f64.powi(-33));
        assert_eq!(s, Fixed::from_f64(0.0371).unwrap().round_to_step());
    }

    #[test]
    fn reach_beyond_2_pow_62_is_refused() {
        assert!(Fixed::product(2f64.powi(61), 1.0, 64).is_some());
        assert!(Fixed::product(2f64.powi(62), 1.0, 64).is_none());
        // Steps too: widening 2^-32 units must not wrap around.
        assert!(Fixed::product(2f64.powi(61), 1.0, 32).is_some());
        assert!(Fixed::product(2f64.powi(90), 1.0, 32).is_none());
        assert!(Fixed::product(f64::NAN, 1.0, 64).is_none());
    }

    #[test]
    fn multiplying_by_a_constant_matches_exact_rational_arithmetic() {
        // (2^40 + 3/4) * 0.5 = 2^39 + 3/8 exactly.
        let x = Fixed::from_f64(2f64.powi(40) + 0.75).unwrap();
        let y = x.mul_f64(0.5).unwrap();
        assert_eq!(y, Fixed::from_f64(2f64.powi(39) + 0.375).unwrap());
        // -3 * (1/3 as f64) differs from -1 by 3 * (1/3 - f64(1/3)) = 2^-54 (to within 2^-64).
        let z = Fixed::from_f64(-3.0).unwrap().mul_f64(1.0 / 3.0).unwrap();
        assert!((z.0 + (1i128 << 64) - (1i128 << 10)).abs() <= 1);
    }
}
