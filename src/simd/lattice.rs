//! Perlin, gradient and value noise of one lane, in f32: mirrors perlin.wgsl, gradient.wgsl
//! and value.wgsl function by function, in f32 and u32 as the WGSL computes.

use super::hash::{LaneLattice as Lattice, corner_hashes2, corner_hashes3};
use super::hash::{lattice_gradient, lattice_hash, lattice_value};
use super::lanes::{Points, cell_offset, lattice_cell, lerp};
use crate::tables::{PERLIN2_GRADIENTS, PERLIN4_GRADIENTS};

/// The tables' gradients rounded to f32, as the GPU's constants are.
const PERLIN2_F32: [[f32; 2]; 16] = to_f32(PERLIN2_GRADIENTS);
const PERLIN4_F32: [[f32; 4]; 32] = to_f32(PERLIN4_GRADIENTS);

const fn to_f32<const N: usize, const M: usize>(t: [[f64; N]; M]) -> [[f32; N]; M] {
    let mut out = [[0.0; N]; M];
    let mut m = 0;
    while m < M {
        let mut n = 0;
        while n < N {
            out[m][n] = t[m][n] as f32;
            n += 1;
        }
        m += 1;
    }
    out
}

const PERLIN1_SCALE: f32 = crate::cpu::perlin::PERLIN1_SCALE as f32;
const PERLIN2_SCALE: f32 = crate::cpu::perlin::PERLIN2_SCALE as f32;

/// One lane's view of a block: fractions, weights and corner cells per axis.
#[derive(Clone, Copy)]
struct Frame<const D: usize> {
    f: [f32; D],
    w: [f32; D],
    lo: [u32; D],
    hi: [u32; D],
}

#[inline(always)]
fn frame<const D: usize>(p: &Points, l: usize) -> Frame<D> {
    Frame {
        f: std::array::from_fn(|a| p.axis[a].frac[l]),
        w: std::array::from_fn(|a| p.axis[a].weight[l]),
        lo: std::array::from_fn(|a| p.axis[a].lo[l]),
        hi: std::array::from_fn(|a| p.axis[a].hi[l]),
    }
}

/// `(1 + (h & 7)) / 8`, negated where `h & 8` is set.
#[inline(always)]
pub fn grad1(hash: u32, x: f32) -> f32 {
    let h = hash & 15;
    let g = (1 + (h & 7)) as f32 * 0.125;
    if h & 8 == 0 { g * x } else { -g * x }
}

/// The unit vector at angle `2 pi ((h & 15) + 0.5) / 16` dotted with (x, y).
#[inline(always)]
pub fn grad2(hash: u32, x: f32, y: f32) -> f32 {
    let g = PERLIN2_F32[(hash & 15) as usize];
    g[0] * x + g[1] * y
}

/// Ken Perlin's `grad`: `+-u +-v` by the bits of `h & 15`.
#[inline(always)]
pub fn grad3(hash: u32, x: f32, y: f32, z: f32) -> f32 {
    let h = hash & 15;
    let u = if h < 8 { x } else { y };
    let v = if h < 4 {
        y
    } else if h == 12 || h == 14 {
        x
    } else {
        z
    };
    (if h & 1 == 0 { u } else { -u }) + (if h & 2 == 0 { v } else { -v })
}

/// The 4D gradient of `h & 31` dotted with d.
#[inline(always)]
pub fn grad4(hash: u32, d: [f32; 4]) -> f32 {
    let g = PERLIN4_F32[(hash & 31) as usize];
    (0..4).fold(0.0, |sum, a| sum + g[a] * d[a])
}

/// 1D Perlin noise.
#[inline(always)]
pub fn perlin1(lat: &Lattice, p: &Points, l: usize) -> f32 {
    let c = frame::<1>(p, l);
    let x = c.f[0];
    PERLIN1_SCALE
        * lerp(
            c.w[0],
            grad1(lattice_hash(lat, [c.lo[0], 0, 0, 0], 1), x),
            grad1(lattice_hash(lat, [c.hi[0], 0, 0, 0], 1), x - 1.0),
        )
}

/// 2D Perlin noise.
#[inline(always)]
pub fn perlin2(lat: &Lattice, p: &Points, l: usize) -> f32 {
    let Frame {
        f: [x, y],
        w,
        lo,
        hi,
    } = frame::<2>(p, l);
    let h = corner_hashes2(lat, lo, hi);
    PERLIN2_SCALE
        * lerp(
            w[1],
            lerp(w[0], grad2(h[0], x, y), grad2(h[1], x - 1.0, y)),
            lerp(w[0], grad2(h[2], x, y - 1.0), grad2(h[3], x - 1.0, y - 1.0)),
        )
}

/// 3D Perlin noise: Ken Perlin's reference.
#[inline(always)]
pub fn perlin3(lat: &Lattice, p: &Points, l: usize) -> f32 {
    let Frame {
        f: [x, y, z],
        w,
        lo,
        hi,
    } = frame::<3>(p, l);
    let h = corner_hashes3(lat, lo, hi);
    let (x1, y1, z1) = (x - 1.0, y - 1.0, z - 1.0);
    lerp(
        w[2],
        lerp(
            w[1],
            lerp(w[0], grad3(h[0], x, y, z), grad3(h[1], x1, y, z)),
            lerp(w[0], grad3(h[2], x, y1, z), grad3(h[3], x1, y1, z)),
        ),
        lerp(
            w[1],
            lerp(w[0], grad3(h[4], x, y, z1), grad3(h[5], x1, y, z1)),
            lerp(w[0], grad3(h[6], x, y1, z1), grad3(h[7], x1, y1, z1)),
        ),
    )
}

/// The cell of corner n: bit a of n picks the upper corner along axis a.
#[inline(always)]
fn corner_cells<const D: usize>(c: &Frame<D>, n: usize) -> [u32; 4] {
    std::array::from_fn(|a| match a < D {
        true if (n >> a) & 1 == 1 => c.hi[a],
        true => c.lo[a],
        false => 0,
    })
}

/// Reduces `2^D` corner values by separable interpolation, axis x first.
#[inline(always)]
fn interp_corners<const D: usize>(v: &mut [f32; 16], w: &[f32; D]) -> f32 {
    let mut n = 1usize << D;
    for weight in w {
        n /= 2;
        for m in 0..n {
            v[m] = lerp(*weight, v[2 * m], v[2 * m + 1]);
        }
    }
    v[0]
}

/// 4D Perlin noise.
#[inline(always)]
pub fn perlin4(lat: &Lattice, p: &Points, l: usize) -> f32 {
    let c = frame::<4>(p, l);
    let mut v = [0.0; 16];
    for (n, slot) in v.iter_mut().enumerate() {
        let d = std::array::from_fn(|a| c.f[a] - ((n >> a) & 1) as f32);
        *slot = grad4(lattice_hash(lat, corner_cells(&c, n), 4), d);
    }
    interp_corners(&mut v, &c.w)
}

/// Classic gradient noise in D dimensions: `G[hash] . d` at each corner, interpolated.
#[inline(always)]
pub fn gradient<const D: usize>(lat: &Lattice, p: &Points, l: usize) -> f32 {
    let c = frame::<D>(p, l);
    let mut v = [0.0; 16];
    for (n, slot) in v.iter_mut().enumerate().take(1 << D) {
        let g = lattice_gradient(lat, lattice_hash(lat, corner_cells(&c, n), D));
        let mut dot = 0.0;
        for a in 0..D {
            dot += g[a] * (c.f[a] - ((n >> a) & 1) as f32);
        }
        *slot = dot;
    }
    interp_corners(&mut v, &c.w)
}

/// Value noise in D dimensions; 2D and 3D through the shared corner hash chains.
#[inline(always)]
pub fn value<const D: usize>(lat: &Lattice, p: &Points, l: usize) -> f32 {
    let c = frame::<D>(p, l);
    let mut v = [0.0; 16];
    match D {
        2 => {
            let h = corner_hashes2(lat, [c.lo[0], c.lo[1]], [c.hi[0], c.hi[1]]);
            for n in 0..4 {
                v[n] = lattice_value(lat, h[n]);
            }
        }
        3 => {
            let lo = [c.lo[0], c.lo[1], c.lo[2]];
            let h = corner_hashes3(lat, lo, [c.hi[0], c.hi[1], c.hi[2]]);
            for n in 0..8 {
                v[n] = lattice_value(lat, h[n]);
            }
        }
        _ => {
            for (n, slot) in v.iter_mut().enumerate().take(1 << D) {
                *slot = lattice_value(lat, lattice_hash(lat, corner_cells(&c, n), D));
            }
        }
    }
    interp_corners(&mut v, &c.w)
}

/// Catmull-Rom through four values at t in [0, 1) between v0 and v1.
#[inline(always)]
pub fn catmull_rom(t: f32, vm1: f32, v0: f32, v1: f32, v2: f32) -> f32 {
    let t2 = t * t;
    let t3 = t2 * t;
    0.5 * ((-t3 + 2.0 * t2 - t) * vm1
        + (3.0 * t3 - 5.0 * t2 + 2.0) * v0
        + (-3.0 * t3 + 4.0 * t2 + t) * v1
        + (t3 - t2) * v2)
}

/// Catmull-Rom value noise: 4 lattice values per axis (`4^D` in all), reduced axis x first.
/// Called lane by lane, never inlined: inlined into the AVX-512 lane loop, the compiler gave some
/// lanes of a 2D block wrong values with rustc 1.95 (the SIMD tests caught it; AVX2 was right).
#[inline(never)]
pub fn value_catmull_rom<const D: usize>(lat: &Lattice, p: &Points, l: usize) -> f32 {
    let mut v = [0.0f32; 256];
    for n in 0..(1usize << (2 * D)) {
        let mut cells = [0u32; 4];
        for a in 0..D {
            let step = ((n >> (2 * a)) & 3) as i32 - 1;
            cells[a] = lattice_cell(cell_offset(p.axis[a].cell[l], step), lat.period[a]);
        }
        v[n] = lattice_value(lat, lattice_hash(lat, cells, D));
    }
    let mut count = 1usize << (2 * D);
    for a in 0..D {
        count /= 4;
        let t = p.axis[a].frac[l];
        for m in 0..count {
            v[m] = catmull_rom(t, v[4 * m], v[4 * m + 1], v[4 * m + 2], v[4 * m + 3]);
        }
    }
    v[0]
}
