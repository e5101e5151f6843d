//! [`Wide`] on any CPU: 16 lanes as arrays, each operation a loop over them that the compiler
//! vectorizes for whatever the target guarantees (SSE2 on x86-64, NEON on aarch64). The
//! kernels written against [`Wide`] run here on the baseline instruction set, with the same
//! operations in the same order as on AVX-512 and AVX2, so every set gives the same bits.

use super::{Arith, Wide};

/// The portable token: any CPU has it.
#[derive(Clone, Copy, Default)]
pub struct Portable;

const N: usize = 16;

/// `[f(a[0]), ..., f(a[15])]` as a loop of constant length.
#[inline(always)]
fn each<T: Copy + Default, R: Copy + Default>(a: [T; N], f: impl Fn(T) -> R) -> [R; N] {
    let mut out = [R::default(); N];
    for l in 0..N {
        out[l] = f(a[l]);
    }
    out
}

/// `[f(a[0], b[0]), ...]` as a loop of constant length.
#[inline(always)]
fn each2<T: Copy + Default, S: Copy + Default, R: Copy + Default>(
    a: [T; N],
    b: [S; N],
    f: impl Fn(T, S) -> R,
) -> [R; N] {
    let mut out = [R::default(); N];
    for l in 0..N {
        out[l] = f(a[l], b[l]);
    }
    out
}

/// `t` where `m`, else `f`, lane by lane.
#[inline(always)]
fn pick<T: Copy + Default>(m: [bool; N], t: [T; N], f: [T; N]) -> [T; N] {
    let mut out = [T::default(); N];
    for l in 0..N {
        out[l] = if m[l] { t[l] } else { f[l] };
    }
    out
}

impl Arith for Portable {
    type F = [f32; N];
    type U = [u32; N];
    type M = [bool; N];

    #[inline(always)]
    fn splat(self, x: f32) -> [f32; N] {
        [x; N]
    }
    #[inline(always)]
    fn splat_u(self, x: u32) -> [u32; N] {
        [x; N]
    }
    #[inline(always)]
    fn add(self, a: [f32; N], b: [f32; N]) -> [f32; N] {
        each2(a, b, |a, b| a + b)
    }
    #[inline(always)]
    fn sub(self, a: [f32; N], b: [f32; N]) -> [f32; N] {
        each2(a, b, |a, b| a - b)
    }
    #[inline(always)]
    fn mul(self, a: [f32; N], b: [f32; N]) -> [f32; N] {
        each2(a, b, |a, b| a * b)
    }
    #[inline(always)]
    fn div(self, a: [f32; N], b: [f32; N]) -> [f32; N] {
        each2(a, b, |a, b| a / b)
    }
    #[inline(always)]
    fn min(self, a: [f32; N], b: [f32; N]) -> [f32; N] {
        // The vector `min`'s rule: `b` unless `a < b` (so `b` where `a` is NaN).
        each2(a, b, |a, b| if a < b { a } else { b })
    }
    #[inline(always)]
    fn max(self, a: [f32; N], b: [f32; N]) -> [f32; N] {
        each2(a, b, |a, b| if a > b { a } else { b })
    }
    #[inline(always)]
    fn abs(self, a: [f32; N]) -> [f32; N] {
        each(a, f32::abs)
    }
    #[inline(always)]
    fn floor(self, a: [f32; N]) -> [f32; N] {
        each(a, f32::floor)
    }
    #[inline(always)]
    fn round(self, a: [f32; N]) -> [f32; N] {
        each(a, f32::round_ties_even)
    }
    #[inline(always)]
    fn sqrt(self, a: [f32; N]) -> [f32; N] {
        each(a, f32::sqrt)
    }
    #[inline(always)]
    fn trunc_i(self, a: [f32; N]) -> [u32; N] {
        // The vector conversion's rule: i32::MIN for NaN and out of range.
        each(a, |x| {
            if x > -2_147_483_904.0 && x < 2_147_483_648.0 {
                x as i32 as u32
            } else {
                i32::MIN as u32
            }
        })
    }
    #[inline(always)]
    fn lt(self, a: [f32; N], b: [f32; N]) -> [bool; N] {
        each2(a, b, |a, b| a < b)
    }
    #[inline(always)]
    fn select(self, m: [bool; N], t: [f32; N], f: [f32; N]) -> [f32; N] {
        pick(m, t, f)
    }
    #[inline(always)]
    fn add_u(self, a: [u32; N], b: [u32; N]) -> [u32; N] {
        each2(a, b, u32::wrapping_add)
    }
    #[inline(always)]
    fn rotl_u<const S: u32>(self, a: [u32; N]) -> [u32; N] {
        each(a, |a| a.rotate_left(S))
    }
    #[inline(always)]
    fn bits_f(self, a: [u32; N]) -> [f32; N] {
        each(a, f32::from_bits)
    }
}

impl Wide for Portable {
    #[inline(always)]
    fn load(self, a: &[f32; 16]) -> [f32; N] {
        *a
    }
    #[inline(always)]
    fn load_u(self, a: &[u32; 16]) -> [u32; N] {
        *a
    }
    #[inline(always)]
    fn store(self, a: &mut [f32; 16], v: [f32; N]) {
        *a = v;
    }
    #[inline(always)]
    fn store_u(self, a: &mut [u32; 16], v: [u32; N]) {
        *a = v;
    }
    #[inline(always)]
    fn mul_exact_add(self, a: [f32; N], b: [f32; N], c: [f32; N]) -> [f32; N] {
        // The product is exact, so the add's one rounding is the fused one's.
        self.add(self.mul(a, b), c)
    }
    #[inline(always)]
    fn is_nan(self, a: [f32; N]) -> [bool; N] {
        each(a, f32::is_nan)
    }
    #[inline(always)]
    fn sub_u(self, a: [u32; N], b: [u32; N]) -> [u32; N] {
        each2(a, b, u32::wrapping_sub)
    }
    #[inline(always)]
    fn mul_u(self, a: [u32; N], b: [u32; N]) -> [u32; N] {
        each2(a, b, u32::wrapping_mul)
    }
    #[inline(always)]
    fn mod12_u(self, h: [u32; N]) -> [u32; N] {
        each(h, |h| h % 12)
    }
    #[inline(always)]
    fn select_u(self, m: [bool; N], t: [u32; N], f: [u32; N]) -> [u32; N] {
        pick(m, t, f)
    }
    #[inline(always)]
    fn xor_u(self, a: [u32; N], b: [u32; N]) -> [u32; N] {
        each2(a, b, |a, b| a ^ b)
    }
    #[inline(always)]
    fn and_u(self, a: [u32; N], b: [u32; N]) -> [u32; N] {
        each2(a, b, |a, b| a & b)
    }
    #[inline(always)]
    fn shr_u<const S: u32>(self, a: [u32; N]) -> [u32; N] {
        each(a, |a| a >> S)
    }
    #[inline(always)]
    fn lt_u(self, a: [u32; N], b: [u32; N]) -> [bool; N] {
        each2(a, b, |a, b| a < b)
    }
    #[inline(always)]
    fn eq_u(self, a: [u32; N], b: [u32; N]) -> [bool; N] {
        each2(a, b, |a, b| a == b)
    }
    #[inline(always)]
    fn and_m(self, a: [bool; N], b: [bool; N]) -> [bool; N] {
        each2(a, b, |a, b| a & b)
    }
    #[inline(always)]
    fn or_m(self, a: [bool; N], b: [bool; N]) -> [bool; N] {
        each2(a, b, |a, b| a | b)
    }
    #[inline(always)]
    fn and_not_m(self, a: [bool; N], b: [bool; N]) -> [bool; N] {
        each2(a, b, |a, b| a & !b)
    }
    #[inline(always)]
    fn any(self, m: [bool; N]) -> bool {
        m.contains(&true)
    }
    #[inline(always)]
    fn inc_where(self, m: [bool; N], a: [u32; N]) -> [u32; N] {
        each2(m, a, |m, a| a.wrapping_add(u32::from(m)))
    }
    #[inline(always)]
    fn to_f(self, a: [u32; N]) -> [f32; N] {
        // The vector conversion reads each lane as an i32.
        each(a, |a| a as i32 as f32)
    }
    #[inline(always)]
    fn permute16(self, idx: [u32; N], table: [f32; N]) -> [f32; N] {
        each(idx, |i| table[(i & 15) as usize])
    }
    #[inline(always)]
    fn lookup32(self, idx: [u32; N], table: &[f32; 32]) -> [f32; N] {
        each(idx, |i| table[(i & 31) as usize])
    }
    #[inline(always)]
    fn gather_column(self, idx: [u32; N], table: &[[f32; 4]; 256], col: usize) -> [f32; N] {
        each(idx, |i| table[(i & 255) as usize][col & 3])
    }
}
