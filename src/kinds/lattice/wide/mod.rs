//! Whole rows in registers: a noise's row computed block by block with every value of a block
//! in vector registers, where the lanes' kernels (`kernel.rs`) keep each step's 16 values in
//! arrays that live in memory. The arithmetic is the lanes' own, operation for operation, so a
//! wide row equals the lanes' row bit for bit (each kind's tests check it); the lanes stay the
//! path for what the wide rows do not take (tiled lattices, displaced points, other kinds).
//!
//! [`Wide`] is the vector of 16 lanes the kernels are written against, once: one AVX-512
//! register per value ([`avx512::Avx512`]) or two AVX2 ones ([`avx2::Avx2`]). A token of
//! either type exists only inside a function compiled for its instruction set, which is how a
//! kernel's methods inline into one loop of that set's instructions.

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
pub(crate) mod frame;
pub(crate) mod hash;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod row;
pub(crate) mod scalar;

/// The lane arithmetic the kernels and the scalar f32 code share: on a vector of lanes (every
/// [`Wide`]) or on one f32 ([`scalar::Scalar`]), so that a function written once over it (the
/// cosine and exponential of `math.rs`) serves both. Methods take the token by value.
pub trait Arith: Copy {
    type F: Copy;
    type U: Copy;
    type M: Copy;
    fn splat(self, x: f32) -> Self::F;
    fn splat_u(self, x: u32) -> Self::U;
    fn add(self, a: Self::F, b: Self::F) -> Self::F;
    fn sub(self, a: Self::F, b: Self::F) -> Self::F;
    fn mul(self, a: Self::F, b: Self::F) -> Self::F;
    fn div(self, a: Self::F, b: Self::F) -> Self::F;
    /// `a` unless it is NaN, then `b` (as `f32::min` where only `a` can be NaN).
    fn min(self, a: Self::F, b: Self::F) -> Self::F;
    /// `a` unless it is NaN, then `b` (as `f32::max` where only `a` can be NaN).
    fn max(self, a: Self::F, b: Self::F) -> Self::F;
    fn floor(self, a: Self::F) -> Self::F;
    /// Each lane rounded to the nearest integer, ties to even (WGSL's `round`).
    fn round(self, a: Self::F) -> Self::F;
    /// `|a|` (the sign bit cleared).
    fn abs(self, a: Self::F) -> Self::F;
    fn sqrt(self, a: Self::F) -> Self::F;
    /// Each lane truncated to an i32, as u32 bits; i32::MIN for NaN and out of range.
    fn trunc_i(self, a: Self::F) -> Self::U;
    /// Lanes where `a < b`.
    fn lt(self, a: Self::F, b: Self::F) -> Self::M;
    /// `t` where `m`, else `f`.
    fn select(self, m: Self::M, t: Self::F, f: Self::F) -> Self::F;
    fn add_u(self, a: Self::U, b: Self::U) -> Self::U;
    fn rotl_u<const N: u32>(self, a: Self::U) -> Self::U;
    /// Each lane's bits read as an f32 (`f32::from_bits`).
    fn bits_f(self, a: Self::U) -> Self::F;
}

/// 16 lanes of f32 (`F`), u32 (`U`) and comparison masks (`M`) on one instruction set:
/// [`Arith`] and the loads, stores, tables and lane tests of a block. Methods take the token by
/// value; each is one or two instructions.
pub trait Wide: Arith {
    /// Whether the 16 lanes fill one register (AVX-512), where vector hashes beat sharing a
    /// block's corners (`LaneLattice::share_corners`).
    const ONE_REGISTER: bool = false;
    fn load(self, a: &[f32; 16]) -> Self::F;
    fn load_u(self, a: &[u32; 16]) -> Self::U;
    fn store(self, a: &mut [f32; 16], v: Self::F);
    fn store_u(self, a: &mut [u32; 16], v: Self::U);
    /// `a * b + c` where every lane's product is exact (a factor 0, +-1 or a power of two):
    /// one rounding, so a fused multiply-add and a multiply then an add give the same bits
    /// (each set takes the faster; no libm call for a fused one where the CPU has none).
    fn mul_exact_add(self, a: Self::F, b: Self::F, c: Self::F) -> Self::F;
    /// Lanes that are NaN.
    fn is_nan(self, a: Self::F) -> Self::M;
    fn sub_u(self, a: Self::U, b: Self::U) -> Self::U;
    /// The low 32 bits of `a * b`.
    fn mul_u(self, a: Self::U, b: Self::U) -> Self::U;
    /// `h % 12` per lane (simplex's gradient choice, CONVENTIONS §3).
    fn mod12_u(self, h: Self::U) -> Self::U;
    /// `t` where `m`, else `f`.
    fn select_u(self, m: Self::M, t: Self::U, f: Self::U) -> Self::U;
    fn xor_u(self, a: Self::U, b: Self::U) -> Self::U;
    fn and_u(self, a: Self::U, b: Self::U) -> Self::U;
    fn shr_u<const N: u32>(self, a: Self::U) -> Self::U;
    /// Lanes where `a < b` as unsigned.
    fn lt_u(self, a: Self::U, b: Self::U) -> Self::M;
    /// Lanes where `a == b`.
    fn eq_u(self, a: Self::U, b: Self::U) -> Self::M;
    fn and_m(self, a: Self::M, b: Self::M) -> Self::M;
    fn or_m(self, a: Self::M, b: Self::M) -> Self::M;
    /// `a` and not `b`.
    fn and_not_m(self, a: Self::M, b: Self::M) -> Self::M;
    /// Whether any lane is set.
    fn any(self, m: Self::M) -> bool;
    /// `a + 1` where `m`, else `a`.
    fn inc_where(self, m: Self::M, a: Self::U) -> Self::U;
    /// Each lane's u32 as f32 (the lanes' `as f32`, exact below 2^24).
    fn to_f(self, a: Self::U) -> Self::F;
    /// `table[idx & 15]` per lane.
    fn permute16(self, idx: Self::U, table: Self::F) -> Self::F;
    /// `table[idx & 31]` per lane.
    fn lookup32(self, idx: Self::U, table: &[f32; 32]) -> Self::F;
    /// `table[idx & 255][col & 3]` per lane: a column of a 256-row table (the seed's
    /// gradients of classic gradient noise).
    fn gather_column(self, idx: Self::U, table: &[[f32; 4]; 256], col: usize) -> Self::F;
}

/// `$body` once per index in the list, with `$n` bound to it: a loop unrolled by hand, so that
/// arrays of vectors indexed by `$n` stay in registers (the compiler left some 8-corner loops
/// rolled, indexing their arrays on the stack; AVX2's Perlin 3D ran 25% slower so). An index
/// past a const bound is dropped at compile time by an `if` in the body.
macro_rules! unrolled {
    ($n:ident in [$($i:literal),*] $body:block) => {{
        $({
            let $n: usize = $i;
            $body
        })*
    }};
}
pub(crate) use unrolled;

/// `h % 12` on x86, which has no 32-bit high multiply (a quotient by reciprocal took two 64-bit
/// multiplies, their shifts and a blend): 2^8, 2^16 and 2^24 are each 4 modulo 12, so `h` and
/// `y = b0 + 4 (b1 + b2 + b3)`, over its bytes low first, leave the same residue. One
/// unsigned-by-signed byte multiply-add with these weights (1, 4, 4, 4 per lane) and one word
/// multiply-add by (1, 1) give `y <= 3315`. Its remainder is Lemire's "fastmod" in 16 bits:
/// the fraction `y / 12` as `(y * 5462) mod 2^16` (one word low multiply), times 12, high word
/// (one word high multiply), exact at every `y` below 3316 (a test checks each). That is one
/// operation fewer than a quotient, its product by 12 and a subtraction, and a shorter chain:
/// on Intel's AVX-512 cores every one of these multiplies queues on one port.
/// [`mod12_by_bytes`] is the same steps on one lane, checked against `%`.
#[cfg(target_arch = "x86_64")]
pub(crate) const MOD12_BYTE_WEIGHTS: i32 = 0x0404_0401;
/// See [`MOD12_BYTE_WEIGHTS`]: `ceil(2^16 / 12)`, in each lane's low word.
#[cfg(target_arch = "x86_64")]
pub(crate) const MOD12_RECIPROCAL: i32 = 5462;

/// The x86 kernels' `h % 12` on one lane, step by step (see [`MOD12_BYTE_WEIGHTS`]).
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) fn mod12_by_bytes(h: u32) -> u32 {
    let [b0, b1, b2, b3] = h.to_le_bytes().map(u32::from);
    byte_sum_mod12(b0 + 4 * b1 + 4 * b2 + 4 * b3)
}

/// The remainder step of [`mod12_by_bytes`] on a byte sum `y <= 3315`: the fraction, times 12.
#[cfg(all(test, target_arch = "x86_64"))]
fn byte_sum_mod12(y: u32) -> u32 {
    let fraction = (y * MOD12_RECIPROCAL as u32) & 0xFFFF;
    (fraction * 12) >> 16
}

/// `a + w (b - a)`: the lanes' `lerp`, the same three operations.
#[inline(always)]
pub fn lerp<W: Wide>(s: W, w: W::F, a: W::F, b: W::F) -> W::F {
    s.add(a, s.mul(w, s.sub(b, a)))
}

/// The quintic weight `t^3 (t (6 t - 15) + 10)`, as the lanes' `interp_weights` compute it.
#[inline(always)]
pub fn quintic<W: Wide>(s: W, t: W::F) -> W::F {
    let inner = s.add(
        s.mul(t, s.sub(s.mul(t, s.splat(6.0)), s.splat(15.0))),
        s.splat(10.0),
    );
    s.mul(s.mul(s.mul(t, t), t), inner)
}

/// Reduces `2^D` corner values (x fastest) by separable interpolation with each axis's
/// weight, axis x first (common.wgsl's `interp_corners`): value noise, Perlin 4D and classic
/// gradient noise.
#[inline(always)]
pub fn interp_corners<W: Wide, const D: usize>(s: W, mut v: [W::F; 16], w: [W::F; 4]) -> W::F {
    unrolled!(a in [0, 1, 2, 3] {
        if a < D {
            let n = (1 << D) >> (a + 1);
            unrolled!(m in [0, 1, 2, 3, 4, 5, 6, 7] {
                if m < n {
                    v[m] = lerp(s, w[a], v[2 * m], v[2 * m + 1]);
                }
            });
        }
    });
    v[0]
}

/// real.rs's `catmull_rom` in registers: the same operations in the same order.
#[inline(always)]
pub fn catmull_rom<W: Wide>(s: W, t: W::F, v: [W::F; 4]) -> W::F {
    let c = |x: f32| s.splat(x);
    let t2 = s.mul(t, t);
    let t3 = s.mul(t2, t);
    // -t3 + 2 t2 - t, with -a + b written b - a (the same rounding, signed zeros included).
    let wm1 = s.sub(s.sub(s.mul(c(2.0), t2), t3), t);
    let w0 = s.add(s.sub(s.mul(c(3.0), t3), s.mul(c(5.0), t2)), c(2.0));
    let w1 = s.add(s.add(s.mul(c(-3.0), t3), s.mul(c(4.0), t2)), t);
    let w2 = s.sub(t3, t2);
    let sum = s.add(s.mul(wm1, v[0]), s.mul(w0, v[1]));
    let sum = s.add(s.add(sum, s.mul(w1, v[2])), s.mul(w2, v[3]));
    s.mul(c(0.5), sum)
}

/// real.rs's `catmull_rom_derivative` (in t) in registers, operation for operation.
#[inline(always)]
pub fn catmull_rom_derivative<W: Wide>(s: W, t: W::F, v: [W::F; 4]) -> W::F {
    let c = |x: f32| s.splat(x);
    let tt = |k: f32| s.mul(s.mul(c(k), t), t);
    let wm1 = s.sub(s.add(tt(-3.0), s.mul(c(4.0), t)), c(1.0));
    let w0 = s.sub(tt(9.0), s.mul(c(10.0), t));
    let w1 = s.add(s.add(tt(-9.0), s.mul(c(8.0), t)), c(1.0));
    let w2 = s.sub(tt(3.0), s.mul(c(2.0), t));
    let sum = s.add(s.mul(wm1, v[0]), s.mul(w0, v[1]));
    let sum = s.add(s.add(sum, s.mul(w1, v[2])), s.mul(w2, v[3]));
    s.mul(c(0.5), sum)
}

#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) mod tests {
    use super::*;
    use crate::tables::SplitMix64;

    /// Words with every byte value in every position, the extremes, and random ones: what the
    /// x86 implementations' `mod12_u` is checked on.
    pub(crate) fn words() -> Vec<u32> {
        let mut rng = SplitMix64::new(12);
        let bytes = (0..4).flat_map(|at| (0..=255u32).map(move |b| b << (8 * at)));
        let random = (0..100_000).map(|_| rng.next_u64() as u32);
        bytes
            .chain([u32::MAX, u32::MAX - 11, 0xFFFF_FFF4])
            .chain(random)
            .collect()
    }

    /// The remainder step is exact at every value the byte sums reach, and the steps are `%`.
    #[test]
    fn mod12_by_bytes_is_the_remainder() {
        for y in 0..=3315u32 {
            assert_eq!(byte_sum_mod12(y), y % 12, "y = {y}");
        }
        for h in words() {
            assert_eq!(mod12_by_bytes(h), h % 12, "{h:#x}");
        }
    }
}
