//! [`Wide`] on AVX-512: one register per 16 lanes, masks in mask registers.

use std::arch::x86_64::*;

use super::{Arith, MOD12_BYTE_WEIGHTS, MOD12_RECIPROCAL, Wide};

/// The AVX-512 token: made only where the CPU has AVX-512 F, BW, DQ and VL.
#[derive(Clone, Copy)]
pub struct Avx512(());

impl Avx512 {
    /// # Safety
    /// The CPU must have AVX-512 F, BW, DQ and VL, and the caller must be compiled for them.
    #[inline(always)]
    pub unsafe fn new() -> Self {
        Avx512(())
    }
}

/// An `unsafe` block of AVX-512 intrinsics, the one form this file writes them in, so that one
/// note says why each is sound.
macro_rules! intrinsics {
    ($($body:tt)*) => {
        // SAFETY: the intrinsics need AVX-512 F, BW, DQ and VL, and run only inlined into a
        // method of an `Avx512` token, which exists only on a CPU that has them
        // (`Avx512::new`'s contract), in functions compiled for them; a load or store touches
        // exactly the 16 lanes of the array it is given.
        unsafe { $($body)* }
    };
}

/// `a + 1` where `m` as one masked subtraction of -1: LLVM rewrites the intrinsic's select as
/// a mask-to-vector move and a subtraction, two operations where one does (the cursors of the
/// wide rows step each moving axis with two of these a block).
#[target_feature(enable = "avx512f")]
#[inline]
fn masked_increment(m: __mmask16, mut a: __m512i, minus_one: __m512i) -> __m512i {
    // SAFETY: one register-only instruction of AVX-512 F, which this function is compiled for.
    unsafe {
        std::arch::asm!(
            "vpsubd {a}{{{m}}}, {a}, {minus_one}",
            a = inout(zmm_reg) a,
            m = in(kreg) m,
            minus_one = in(zmm_reg) minus_one,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    a
}

impl Arith for Avx512 {
    type F = __m512;
    type U = __m512i;
    type M = __mmask16;

    #[inline(always)]
    fn splat(self, x: f32) -> __m512 {
        intrinsics! { _mm512_set1_ps(x) }
    }
    #[inline(always)]
    fn splat_u(self, x: u32) -> __m512i {
        intrinsics! { _mm512_set1_epi32(x as i32) }
    }
    #[inline(always)]
    fn add(self, a: __m512, b: __m512) -> __m512 {
        intrinsics! { _mm512_add_ps(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m512, b: __m512) -> __m512 {
        intrinsics! { _mm512_sub_ps(a, b) }
    }
    #[inline(always)]
    fn mul(self, a: __m512, b: __m512) -> __m512 {
        intrinsics! { _mm512_mul_ps(a, b) }
    }
    #[inline(always)]
    fn div(self, a: __m512, b: __m512) -> __m512 {
        intrinsics! { _mm512_div_ps(a, b) }
    }
    #[inline(always)]
    fn min(self, a: __m512, b: __m512) -> __m512 {
        intrinsics! { _mm512_min_ps(a, b) }
    }
    #[inline(always)]
    fn max(self, a: __m512, b: __m512) -> __m512 {
        intrinsics! { _mm512_max_ps(a, b) }
    }
    #[inline(always)]
    fn abs(self, a: __m512) -> __m512 {
        intrinsics! { _mm512_abs_ps(a) }
    }
    #[inline(always)]
    fn floor(self, a: __m512) -> __m512 {
        intrinsics! { _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(a) }
    }
    #[inline(always)]
    fn round(self, a: __m512) -> __m512 {
        intrinsics! { _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(a) }
    }
    #[inline(always)]
    fn sqrt(self, a: __m512) -> __m512 {
        intrinsics! { _mm512_sqrt_ps(a) }
    }
    #[inline(always)]
    fn trunc_i(self, a: __m512) -> __m512i {
        intrinsics! { _mm512_cvttps_epi32(a) }
    }
    #[inline(always)]
    fn lt(self, a: __m512, b: __m512) -> __mmask16 {
        intrinsics! { _mm512_cmp_ps_mask::<_CMP_LT_OQ>(a, b) }
    }
    #[inline(always)]
    fn select(self, m: __mmask16, t: __m512, f: __m512) -> __m512 {
        intrinsics! { _mm512_mask_blend_ps(m, f, t) }
    }
    #[inline(always)]
    fn add_u(self, a: __m512i, b: __m512i) -> __m512i {
        intrinsics! { _mm512_add_epi32(a, b) }
    }
    #[inline(always)]
    fn rotl_u<const N: u32>(self, a: __m512i) -> __m512i {
        intrinsics! { _mm512_rolv_epi32(a, _mm512_set1_epi32(N as i32)) }
    }
    #[inline(always)]
    fn bits_f(self, a: __m512i) -> __m512 {
        intrinsics! { _mm512_castsi512_ps(a) }
    }
}

impl Wide for Avx512 {
    const ONE_REGISTER: bool = true;
    #[inline(always)]
    fn load(self, a: &[f32; 16]) -> __m512 {
        intrinsics! { _mm512_loadu_ps(a.as_ptr()) }
    }
    #[inline(always)]
    fn load_u(self, a: &[u32; 16]) -> __m512i {
        intrinsics! { _mm512_loadu_si512(a.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(self, a: &mut [f32; 16], v: __m512) {
        intrinsics! { _mm512_storeu_ps(a.as_mut_ptr(), v) }
    }
    #[inline(always)]
    fn store_u(self, a: &mut [u32; 16], v: __m512i) {
        intrinsics! { _mm512_storeu_si512(a.as_mut_ptr().cast(), v) }
    }
    #[inline(always)]
    fn mul_exact_add(self, a: __m512, b: __m512, c: __m512) -> __m512 {
        intrinsics! { _mm512_fmadd_ps(a, b, c) }
    }
    #[inline(always)]
    fn is_nan(self, a: __m512) -> __mmask16 {
        intrinsics! { _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(a, a) }
    }
    #[inline(always)]
    fn sub_u(self, a: __m512i, b: __m512i) -> __m512i {
        intrinsics! { _mm512_sub_epi32(a, b) }
    }
    #[inline(always)]
    fn mul_u(self, a: __m512i, b: __m512i) -> __m512i {
        intrinsics! { _mm512_mullo_epi32(a, b) }
    }
    #[inline(always)]
    fn mod12_u(self, h: __m512i) -> __m512i {
        // See `mod12_bytes`: x86 has no 32-bit high multiply, and two 64-bit ones, their
        // shifts and a blend cost more than five byte and word operations.
        intrinsics! {
            let y = _mm512_madd_epi16(
                _mm512_maddubs_epi16(h, _mm512_set1_epi32(MOD12_BYTE_WEIGHTS)),
                _mm512_set1_epi32(0x0001_0001),
            );
            let fraction = _mm512_mullo_epi16(y, _mm512_set1_epi32(MOD12_RECIPROCAL));
            _mm512_mulhi_epu16(fraction, _mm512_set1_epi32(12))
        }
    }
    #[inline(always)]
    fn select_u(self, m: __mmask16, t: __m512i, f: __m512i) -> __m512i {
        intrinsics! { _mm512_mask_blend_epi32(m, f, t) }
    }
    #[inline(always)]
    fn xor_u(self, a: __m512i, b: __m512i) -> __m512i {
        intrinsics! { _mm512_xor_si512(a, b) }
    }
    #[inline(always)]
    fn and_u(self, a: __m512i, b: __m512i) -> __m512i {
        intrinsics! { _mm512_and_si512(a, b) }
    }
    #[inline(always)]
    fn shr_u<const N: u32>(self, a: __m512i) -> __m512i {
        intrinsics! { _mm512_srli_epi32::<N>(a) }
    }
    #[inline(always)]
    fn lt_u(self, a: __m512i, b: __m512i) -> __mmask16 {
        intrinsics! { _mm512_cmplt_epu32_mask(a, b) }
    }
    #[inline(always)]
    fn eq_u(self, a: __m512i, b: __m512i) -> __mmask16 {
        intrinsics! { _mm512_cmpeq_epi32_mask(a, b) }
    }
    #[inline(always)]
    fn and_m(self, a: __mmask16, b: __mmask16) -> __mmask16 {
        a & b
    }
    #[inline(always)]
    fn or_m(self, a: __mmask16, b: __mmask16) -> __mmask16 {
        a | b
    }
    #[inline(always)]
    fn and_not_m(self, a: __mmask16, b: __mmask16) -> __mmask16 {
        a & !b
    }
    #[inline(always)]
    fn any(self, m: __mmask16) -> bool {
        m != 0
    }
    #[inline(always)]
    fn inc_where(self, m: __mmask16, a: __m512i) -> __m512i {
        intrinsics! { masked_increment(m, a, _mm512_set1_epi32(-1)) }
    }
    #[inline(always)]
    fn to_f(self, a: __m512i) -> __m512 {
        intrinsics! { _mm512_cvtepi32_ps(a) }
    }
    #[inline(always)]
    fn permute16(self, idx: __m512i, table: __m512) -> __m512 {
        intrinsics! { _mm512_permutexvar_ps(idx, table) }
    }
    #[inline(always)]
    fn lookup32(self, idx: __m512i, table: &[f32; 32]) -> __m512 {
        // Two 16-entry registers; the permute reads the index's low 5 bits.
        intrinsics! {
            let (lo, hi) = (_mm512_loadu_ps(table.as_ptr()), _mm512_loadu_ps(table[16..].as_ptr()));
            _mm512_permutex2var_ps(lo, idx, hi)
        }
    }
    #[inline(always)]
    fn gather_column(self, idx: __m512i, table: &[[f32; 4]; 256], col: usize) -> __m512 {
        // Rows masked to 0..256 and the column to 0..4: every read is inside the table.
        intrinsics! {
            let row = _mm512_slli_epi32::<2>(_mm512_and_si512(idx, _mm512_set1_epi32(255)));
            _mm512_i32gather_ps::<4>(row, table.as_ptr().cast::<f32>().add(col & 3))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::lattice::wide::tests::words;

    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
    fn mod12(h: &[u32; 16]) -> [u32; 16] {
        // SAFETY: called only where the CPU has the features above (the test checks).
        let s = unsafe { Avx512::new() };
        let mut out = [0; 16];
        s.store_u(&mut out, s.mod12_u(s.load_u(h)));
        out
    }

    /// `mod12_u` is `%` on every lane (on a CPU that has this instruction set).
    #[test]
    fn mod12_is_the_remainder() {
        if !(is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512dq")
            && is_x86_feature_detected!("avx512vl"))
        {
            return;
        }
        for block in words().chunks_exact(16) {
            let h: [u32; 16] = block.try_into().expect("16 words");
            // SAFETY: the CPU has the instruction set (checked above).
            assert_eq!(unsafe { mod12(&h) }, h.map(|h| h % 12));
        }
    }
}
