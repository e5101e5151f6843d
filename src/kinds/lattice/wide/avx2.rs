//! [`Wide`] on AVX2: two registers of 8 lanes per 16, masks as all-ones lanes.

use std::arch::x86_64::*;

use super::{Arith, MOD12_BYTE_WEIGHTS, MOD12_RECIPROCAL, Wide};

/// The AVX2 token: made only where the CPU has AVX2 and FMA.
#[derive(Clone, Copy)]
pub struct Avx2(());

impl Avx2 {
    /// # Safety
    /// The CPU must have AVX2 and FMA, and the caller must be compiled for them.
    #[inline(always)]
    pub unsafe fn new() -> Self {
        Avx2(())
    }
}

type F = [__m256; 2];
type U = [__m256i; 2];

/// Both halves through one intrinsic: `two!(f, a, b)` is `[f(a[0], b[0]), f(a[1], b[1])]`
/// (explicit: a closure through `array::map` was not inlined into the kernels).
/// An `unsafe` block of AVX2 intrinsics, the one form this file writes them in, so that one
/// note says why each is sound.
macro_rules! intrinsics {
    ($($body:tt)*) => {
        // SAFETY: the intrinsics need AVX2 and FMA (SSE2 for `count`), and run only inlined
        // into a method of an `Avx2` token, which exists only on a CPU that has them
        // (`Avx2::new`'s contract), in functions compiled for them; a load or store touches
        // exactly the 16 lanes of the array it is given (`a[8..]` the upper 8).
        unsafe { $($body)* }
    };
}

macro_rules! two {
    ($f:ident, $a:expr) => {
        [$f($a[0]), $f($a[1])]
    };
    ($f:ident, $a:expr, $b:expr) => {
        [$f($a[0], $b[0]), $f($a[1], $b[1])]
    };
}

/// A shift count for the variable-count shifts (the immediate forms take an `i32`).
#[inline(always)]
fn count(n: u32) -> __m128i {
    intrinsics! { _mm_cvtsi32_si128(n as i32) }
}

/// Lanes where `a < b` as all ones.
#[inline(always)]
unsafe fn lt8(a: __m256, b: __m256) -> __m256i {
    intrinsics! { _mm256_castps_si256(_mm256_cmp_ps::<_CMP_LT_OQ>(a, b)) }
}

/// Lanes that are NaN, as all ones.
#[inline(always)]
unsafe fn nan8(a: __m256) -> __m256i {
    intrinsics! { _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(a, a)) }
}

/// `h % 12` per lane, as `mod12_bytes` says.
#[inline(always)]
unsafe fn mod12_8(h: __m256i) -> __m256i {
    intrinsics! {
        let y = _mm256_madd_epi16(
            _mm256_maddubs_epi16(h, _mm256_set1_epi32(MOD12_BYTE_WEIGHTS)),
            _mm256_set1_epi32(0x0001_0001),
        );
        let fraction = _mm256_mullo_epi16(y, _mm256_set1_epi32(MOD12_RECIPROCAL));
        _mm256_mulhi_epu16(fraction, _mm256_set1_epi32(12))
    }
}

/// Lanes where `a < b` as unsigned: signed order with the sign bits flipped.
#[inline(always)]
unsafe fn lt_u8(a: __m256i, b: __m256i) -> __m256i {
    intrinsics! {
        let flip = _mm256_set1_epi32(i32::MIN);
        _mm256_cmpgt_epi32(_mm256_xor_si256(b, flip), _mm256_xor_si256(a, flip))
    }
}

/// `table[i & 15]` for 8 lanes of a 16-entry table in two halves.
#[inline(always)]
unsafe fn permute8x2(i: __m256i, table: [__m256; 2]) -> __m256 {
    intrinsics! {
        let low = _mm256_permutevar8x32_ps(table[0], i);
        let high = _mm256_permutevar8x32_ps(table[1], i);
        _mm256_blendv_ps(low, high, _mm256_castsi256_ps(_mm256_slli_epi32::<28>(i)))
    }
}

impl Arith for Avx2 {
    type F = F;
    type U = U;
    type M = U;

    #[inline(always)]
    fn splat(self, x: f32) -> F {
        let v = intrinsics! { _mm256_set1_ps(x) };
        [v, v]
    }
    #[inline(always)]
    fn splat_u(self, x: u32) -> U {
        let v = intrinsics! { _mm256_set1_epi32(x as i32) };
        [v, v]
    }
    #[inline(always)]
    fn add(self, a: F, b: F) -> F {
        intrinsics! { two!(_mm256_add_ps, a, b) }
    }
    #[inline(always)]
    fn sub(self, a: F, b: F) -> F {
        intrinsics! { two!(_mm256_sub_ps, a, b) }
    }
    #[inline(always)]
    fn mul(self, a: F, b: F) -> F {
        intrinsics! { two!(_mm256_mul_ps, a, b) }
    }
    #[inline(always)]
    fn div(self, a: F, b: F) -> F {
        intrinsics! { two!(_mm256_div_ps, a, b) }
    }
    #[inline(always)]
    fn min(self, a: F, b: F) -> F {
        intrinsics! { two!(_mm256_min_ps, a, b) }
    }
    #[inline(always)]
    fn max(self, a: F, b: F) -> F {
        intrinsics! { two!(_mm256_max_ps, a, b) }
    }
    #[inline(always)]
    fn abs(self, a: F) -> F {
        intrinsics! {
            let sign = _mm256_set1_ps(-0.0);
            [_mm256_andnot_ps(sign, a[0]), _mm256_andnot_ps(sign, a[1])]
        }
    }
    #[inline(always)]
    fn floor(self, a: F) -> F {
        intrinsics! { two!(_mm256_floor_ps, a) }
    }
    #[inline(always)]
    fn round(self, a: F) -> F {
        const NEAREST: i32 = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
        intrinsics! { [_mm256_round_ps::<NEAREST>(a[0]), _mm256_round_ps::<NEAREST>(a[1])] }
    }
    #[inline(always)]
    fn sqrt(self, a: F) -> F {
        intrinsics! { two!(_mm256_sqrt_ps, a) }
    }
    #[inline(always)]
    fn trunc_i(self, a: F) -> U {
        intrinsics! { two!(_mm256_cvttps_epi32, a) }
    }
    #[inline(always)]
    fn lt(self, a: F, b: F) -> U {
        intrinsics! { two!(lt8, a, b) }
    }
    #[inline(always)]
    fn select(self, m: U, t: F, f: F) -> F {
        intrinsics! {
            [
                _mm256_blendv_ps(f[0], t[0], _mm256_castsi256_ps(m[0])),
                _mm256_blendv_ps(f[1], t[1], _mm256_castsi256_ps(m[1])),
            ]
        }
    }
    #[inline(always)]
    fn add_u(self, a: U, b: U) -> U {
        intrinsics! { two!(_mm256_add_epi32, a, b) }
    }
    #[inline(always)]
    fn rotl_u<const N: u32>(self, a: U) -> U {
        intrinsics! {
            let (left, right) = (count(N), count(32 - N));
            [
                _mm256_or_si256(_mm256_sll_epi32(a[0], left), _mm256_srl_epi32(a[0], right)),
                _mm256_or_si256(_mm256_sll_epi32(a[1], left), _mm256_srl_epi32(a[1], right)),
            ]
        }
    }
    #[inline(always)]
    fn bits_f(self, a: U) -> F {
        intrinsics! { [_mm256_castsi256_ps(a[0]), _mm256_castsi256_ps(a[1])] }
    }
}

impl Wide for Avx2 {
    #[inline(always)]
    fn load(self, a: &[f32; 16]) -> F {
        intrinsics! {
            [
                _mm256_loadu_ps(a.as_ptr()),
                _mm256_loadu_ps(a[8..].as_ptr()),
            ]
        }
    }
    #[inline(always)]
    fn load_u(self, a: &[u32; 16]) -> U {
        intrinsics! {
            [
                _mm256_loadu_si256(a.as_ptr().cast()),
                _mm256_loadu_si256(a[8..].as_ptr().cast()),
            ]
        }
    }
    #[inline(always)]
    fn store(self, a: &mut [f32; 16], v: F) {
        intrinsics! {
            _mm256_storeu_ps(a.as_mut_ptr(), v[0]);
            _mm256_storeu_ps(a[8..].as_mut_ptr(), v[1]);
        }
    }
    #[inline(always)]
    fn store_u(self, a: &mut [u32; 16], v: U) {
        intrinsics! {
            _mm256_storeu_si256(a.as_mut_ptr().cast(), v[0]);
            _mm256_storeu_si256(a[8..].as_mut_ptr().cast(), v[1]);
        }
    }
    #[inline(always)]
    fn mul_exact_add(self, a: F, b: F, c: F) -> F {
        intrinsics! {
            [
                _mm256_fmadd_ps(a[0], b[0], c[0]),
                _mm256_fmadd_ps(a[1], b[1], c[1]),
            ]
        }
    }
    #[inline(always)]
    fn is_nan(self, a: F) -> U {
        intrinsics! { two!(nan8, a) }
    }
    #[inline(always)]
    fn sub_u(self, a: U, b: U) -> U {
        intrinsics! { two!(_mm256_sub_epi32, a, b) }
    }
    #[inline(always)]
    fn mul_u(self, a: U, b: U) -> U {
        intrinsics! { two!(_mm256_mullo_epi32, a, b) }
    }
    #[inline(always)]
    fn mod12_u(self, h: U) -> U {
        intrinsics! { two!(mod12_8, h) }
    }
    #[inline(always)]
    fn select_u(self, m: U, t: U, f: U) -> U {
        intrinsics! {
            [
                _mm256_blendv_epi8(f[0], t[0], m[0]),
                _mm256_blendv_epi8(f[1], t[1], m[1]),
            ]
        }
    }
    #[inline(always)]
    fn xor_u(self, a: U, b: U) -> U {
        intrinsics! { two!(_mm256_xor_si256, a, b) }
    }
    #[inline(always)]
    fn and_u(self, a: U, b: U) -> U {
        intrinsics! { two!(_mm256_and_si256, a, b) }
    }
    #[inline(always)]
    fn shr_u<const N: u32>(self, a: U) -> U {
        intrinsics! {
            [
                _mm256_srl_epi32(a[0], count(N)),
                _mm256_srl_epi32(a[1], count(N)),
            ]
        }
    }
    #[inline(always)]
    fn lt_u(self, a: U, b: U) -> U {
        intrinsics! { two!(lt_u8, a, b) }
    }
    #[inline(always)]
    fn eq_u(self, a: U, b: U) -> U {
        intrinsics! { two!(_mm256_cmpeq_epi32, a, b) }
    }
    #[inline(always)]
    fn and_m(self, a: U, b: U) -> U {
        self.and_u(a, b)
    }
    #[inline(always)]
    fn or_m(self, a: U, b: U) -> U {
        intrinsics! { two!(_mm256_or_si256, a, b) }
    }
    #[inline(always)]
    fn and_not_m(self, a: U, b: U) -> U {
        intrinsics! {
            [
                _mm256_andnot_si256(b[0], a[0]),
                _mm256_andnot_si256(b[1], a[1]),
            ]
        }
    }
    #[inline(always)]
    fn any(self, m: U) -> bool {
        intrinsics! { _mm256_movemask_epi8(_mm256_or_si256(m[0], m[1])) != 0 }
    }
    #[inline(always)]
    fn inc_where(self, m: U, a: U) -> U {
        // A mask lane is all ones: -1.
        self.sub_u(a, m)
    }
    #[inline(always)]
    fn to_f(self, a: U) -> F {
        intrinsics! { two!(_mm256_cvtepi32_ps, a) }
    }
    #[inline(always)]
    fn permute16(self, idx: U, table: F) -> F {
        // Two 8-entry permutes (they read the index's low 3 bits), blended on bit 3.
        intrinsics! { [permute8x2(idx[0], table), permute8x2(idx[1], table)] }
    }
    #[inline(always)]
    fn lookup32(self, idx: U, table: &[f32; 32]) -> F {
        // Gathers: each index masked to 0..32 reads within the table.
        intrinsics! {
            let mask = _mm256_set1_epi32(31);
            [
                _mm256_i32gather_ps::<4>(table.as_ptr(), _mm256_and_si256(idx[0], mask)),
                _mm256_i32gather_ps::<4>(table.as_ptr(), _mm256_and_si256(idx[1], mask)),
            ]
        }
    }
    #[inline(always)]
    fn gather_column(self, idx: U, table: &[[f32; 4]; 256], col: usize) -> F {
        // Rows masked to 0..256 and the column to 0..4: every read is inside the table.
        intrinsics! {
            let mask = _mm256_set1_epi32(255);
            let base = table.as_ptr().cast::<f32>().add(col & 3);
            [
                _mm256_i32gather_ps::<4>(base, _mm256_slli_epi32::<2>(_mm256_and_si256(idx[0], mask))),
                _mm256_i32gather_ps::<4>(base, _mm256_slli_epi32::<2>(_mm256_and_si256(idx[1], mask))),
            ]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::lattice::wide::tests::words;

    #[target_feature(enable = "avx2,fma")]
    fn mod12(h: &[u32; 16]) -> [u32; 16] {
        // SAFETY: called only where the CPU has the features above (the test checks).
        let s = unsafe { Avx2::new() };
        let mut out = [0; 16];
        s.store_u(&mut out, s.mod12_u(s.load_u(h)));
        out
    }

    /// `mod12_u` is `%` on every lane (on a CPU that has this instruction set).
    #[test]
    fn mod12_is_the_remainder() {
        if !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")) {
            return;
        }
        for block in words().chunks_exact(16) {
            let h: [u32; 16] = block.try_into().expect("16 words");
            // SAFETY: the CPU has the instruction set (checked above).
            assert_eq!(unsafe { mod12(&h) }, h.map(|h| h % 12));
        }
    }
}
