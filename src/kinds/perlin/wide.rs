//! Perlin 2D and 3D over a block of 16 lanes on AVX-512 with a hash lattice: the arithmetic of
//! `perlin2` and `perlin3` in lanes.rs, value for value, with each corner's gradient picked by
//! a permute of a 16-entry table (`vpermps` reads the index's low 4 bits, Perlin's `h & 15`)
//! instead of a chain of selects, as FastNoise2 picks its gradients. The tables are the lanes'
//! own gradient functions at the 16 hashes; a test in lanes.rs checks the results against the
//! lanes'.

use std::arch::x86_64::{
    __m512, __m512i, _mm512_add_ps, _mm512_fmadd_ps, _mm512_loadu_epi32, _mm512_loadu_ps,
    _mm512_mul_ps, _mm512_permutexvar_ps, _mm512_set1_ps, _mm512_storeu_ps, _mm512_sub_ps,
};

use super::gradients::{grad2_vector, grad3};
use crate::kinds::lattice::corners::frame;
use crate::kinds::lattice::lane_hash::LaneLattice as Lattice;
use crate::kinds::lattice::lane_hash::corner_hashes3_untiled;
use crate::kinds::lattice::lane_hash::{corner_hashes2, corner_hashes2_untiled, corner_hashes3};
use crate::kinds::lattice::lanes::{LANES, Points};

/// Component `c` of `grad2_vector` at every hash 0..16.
const fn grad2_table(c: usize) -> [f32; 16] {
    let mut t = [0.0; 16];
    let mut h = 0;
    while h < 16 {
        t[h] = grad2_vector(h as u32)[c];
        h += 1;
    }
    t
}

/// `grad3` at the unit vector of axis `a`, at every hash 0..16: Ken Perlin's gradient's
/// component along the axis (0 or +-1).
const fn grad3_table(a: usize) -> [f32; 16] {
    let mut t = [0.0; 16];
    let mut h = 0;
    while h < 16 {
        let e = [
            (a == 0) as u8 as f32,
            (a == 1) as u8 as f32,
            (a == 2) as u8 as f32,
        ];
        t[h] = grad3(h as u32, e[0], e[1], e[2]);
        h += 1;
    }
    t
}

pub(super) const PERLIN2_SCALE: f32 = super::twin::PERLIN2_SCALE as f32;

pub(super) const GRAD2: [[f32; 16]; 2] = [grad2_table(0), grad2_table(1)];
pub(super) const GRAD3: [[f32; 16]; 3] = [grad3_table(0), grad3_table(1), grad3_table(2)];

/// Every lane's hash of each of the 2^D corners, corner-major (`h[n][l]`).
#[inline(always)]
fn corner_hashes<const D: usize>(lat: &Lattice, p: &Points) -> [[u32; LANES]; 8] {
    let untiled = lat.period == [0; 4];
    let mut h = [[0u32; LANES]; 8];
    for l in 0..LANES {
        let c = frame::<D>(p, l);
        let (lo, hi) = (c.lo, c.hi);
        let corners: [u32; 8] = match (D, untiled) {
            (2, true) => pad4(corner_hashes2_untiled(lat, [lo[0], lo[1]])),
            (2, false) => pad4(corner_hashes2(lat, [lo[0], lo[1]], [hi[0], hi[1]])),
            (_, true) => corner_hashes3_untiled(lat, [lo[0], lo[1], lo[2 % D]]),
            (_, false) => corner_hashes3(lat, [lo[0], lo[1], lo[2 % D]], [hi[0], hi[1], hi[2 % D]]),
        };
        for n in 0..8 {
            h[n][l] = corners[n];
        }
    }
    h
}

#[inline(always)]
fn pad4(h: [u32; 4]) -> [u32; 8] {
    [h[0], h[1], h[2], h[3], 0, 0, 0, 0]
}

/// The 16 lanes of `a` in a register.
#[target_feature(enable = "avx512f")]
fn load(a: &[f32; LANES]) -> __m512 {
    // SAFETY: `a` holds the 16 floats read.
    unsafe { _mm512_loadu_ps(a.as_ptr()) }
}

/// The 16 hashes of `h` in a register.
#[target_feature(enable = "avx512f")]
fn load_hashes(h: &[u32; LANES]) -> __m512i {
    // SAFETY: `h` holds the 16 words read.
    unsafe { _mm512_loadu_epi32(h.as_ptr().cast()) }
}

/// A register's 16 lanes into `a`.
#[target_feature(enable = "avx512f")]
fn store(a: &mut [f32; LANES], v: __m512) {
    // SAFETY: `a` holds the 16 floats written.
    unsafe { _mm512_storeu_ps(a.as_mut_ptr(), v) }
}

/// `lerp` (lanes.rs) in every lane: `a + w (b - a)`, the same operations.
#[target_feature(enable = "avx512f")]
fn lerp_v(w: __m512, a: __m512, b: __m512) -> __m512 {
    _mm512_add_ps(a, _mm512_mul_ps(w, _mm512_sub_ps(b, a)))
}

/// Each lane's fraction along axis `a` and one less (the lower and the upper corner's offset).
#[target_feature(enable = "avx512f")]
fn offsets(p: &Points, a: usize) -> [__m512; 2] {
    let f = load(&p.axis[a].frac);
    [f, _mm512_sub_ps(f, _mm512_set1_ps(1.0))]
}

/// `perlin2` over a block: the corners' dot products `g . d` (mul, mul, add as `Perlin2`'s
/// blend), then its lerps.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
pub fn perlin2_wide(lat: &Lattice, p: &Points, out: &mut [f32; LANES]) {
    let h = corner_hashes::<2>(lat, p);
    let (x, y) = (offsets(p, 0), offsets(p, 1));
    let table = [load(&GRAD2[0]), load(&GRAD2[1])];
    let dot = |n: usize| {
        let index = load_hashes(&h[n]);
        let gx = _mm512_permutexvar_ps(index, table[0]);
        let gy = _mm512_permutexvar_ps(index, table[1]);
        _mm512_add_ps(_mm512_mul_ps(gx, x[n & 1]), _mm512_mul_ps(gy, y[n >> 1]))
    };
    let (wx, wy) = (load(&p.axis[0].weight), load(&p.axis[1].weight));
    let v = lerp_v(wy, lerp_v(wx, dot(0), dot(1)), lerp_v(wx, dot(2), dot(3)));
    store(out, _mm512_mul_ps(_mm512_set1_ps(PERLIN2_SCALE), v));
}

/// `perlin3` over a block: each corner's `grad3` as `gx dx + gy dy + gz dz` with components
/// 0 or +-1 (the products are exact, so one rounding, as Ken Perlin's `u + v`), then its
/// lerps.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
pub fn perlin3_wide(lat: &Lattice, p: &Points, out: &mut [f32; LANES]) {
    let h = corner_hashes::<3>(lat, p);
    let d = [offsets(p, 0), offsets(p, 1), offsets(p, 2)];
    let table = [load(&GRAD3[0]), load(&GRAD3[1]), load(&GRAD3[2])];
    let dot = |n: usize| {
        let index = load_hashes(&h[n]);
        let g = [
            _mm512_permutexvar_ps(index, table[0]),
            _mm512_permutexvar_ps(index, table[1]),
            _mm512_permutexvar_ps(index, table[2]),
        ];
        let (dx, dy, dz) = (d[0][n & 1], d[1][(n >> 1) & 1], d[2][n >> 2]);
        _mm512_fmadd_ps(g[0], dx, _mm512_fmadd_ps(g[1], dy, _mm512_mul_ps(g[2], dz)))
    };
    let w = [
        load(&p.axis[0].weight),
        load(&p.axis[1].weight),
        load(&p.axis[2].weight),
    ];
    let y0 = lerp_v(
        w[1],
        lerp_v(w[0], dot(0), dot(1)),
        lerp_v(w[0], dot(2), dot(3)),
    );
    let y1 = lerp_v(
        w[1],
        lerp_v(w[0], dot(4), dot(5)),
        lerp_v(w[0], dot(6), dot(7)),
    );
    store(out, lerp_v(w[2], y0, y1));
}
