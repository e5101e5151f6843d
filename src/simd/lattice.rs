//! Perlin, gradient and value noise of one lane, in f32: mirrors perlin.wgsl, gradient.wgsl
//! and value.wgsl function by function, in f32 and u32 as the WGSL computes.

use super::hash::{LaneLattice as Lattice, corner_hashes2, corner_hashes3};
use super::hash::{corner_hashes2_untiled, corner_hashes3_untiled};
use super::hash::{lattice_gradient, lattice_hash, lattice_value};
use super::lanes::{LANES, Points, cell_offset, lattice_cell, lerp};
use crate::tables::{C1, C3, PERLIN2_GRADIENTS, PERLIN4_GRADIENTS, S1, S3};

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

/// The unit vector at angle `2 pi ((h & 15) + 0.5) / 16`, from the hash's bits as perlin.wgsl
/// computes it: entry `h & 3` of the first quadrant turned `(h >> 2) & 3` quarter turns
/// (selects, not a table read; a test checks it against the table).
#[inline(always)]
pub fn grad2_vector(hash: u32) -> [f32; 2] {
    let (c1, s1, c3, s3) = (C1 as f32, S1 as f32, C3 as f32, S3 as f32);
    let j = hash & 3;
    let u = if j < 2 {
        if j == 0 { c1 } else { c3 }
    } else if j == 2 {
        s3
    } else {
        s1
    };
    let v = if j < 2 {
        if j == 0 { s1 } else { s3 }
    } else if j == 2 {
        c3
    } else {
        c1
    };
    let q = (hash >> 2) & 3;
    let g = if q & 1 == 1 { [-v, u] } else { [u, v] };
    if q >= 2 { [-g[0], -g[1]] } else { g }
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

/// A kind whose lane value comes from its cell's 2^D corners: `corners` gathers what each
/// corner contributes (hashes, gradients or values), `blend` the f32 arithmetic (the WGSL's
/// function, split in two). Along a row every lane has the same y, z and w cells, and lanes
/// 32 texels apart share x cells at the default frequency, so a block usually spans one or
/// two cells: then `corner_block` gathers each cell's corners once instead of once per lane.
pub trait Corners<const D: usize> {
    /// What one corner contributes.
    type Corner: Copy + Default;
    /// The corners of the cell (lo, hi), in corner order (x fastest); `2^D` of the 8 used.
    fn corners(lat: &Lattice, lo: [u32; D], hi: [u32; D]) -> [Self::Corner; 8];
    /// [`Corners::corners`] of an untiled cell (hi = lo + 1), where the table's windows
    /// serve pairs of corners.
    #[inline(always)]
    fn corners_untiled(lat: &Lattice, lo: [u32; D]) -> [Self::Corner; 8] {
        let mut hi = lo;
        for c in &mut hi {
            *c = c.wrapping_add(1);
        }
        Self::corners(lat, lo, hi)
    }
    /// The noise at fraction `f` with weights `w` from the corners.
    fn blend(c: &[Self::Corner; 8], f: [f32; D], w: [f32; D]) -> f32;
}

/// A kind of [`Corners`] over every lane of a block.
#[inline(always)]
pub fn corner_block<K: Corners<D>, const D: usize>(
    lat: &Lattice,
    p: &Points,
    out: &mut [f32; LANES],
) {
    let first = frame::<D>(p, 0);
    let last = frame::<D>(p, LANES - 1);
    // Lanes in the first lane's cell, and lanes in neither end lane's cell.
    let mut upper = [false; LANES];
    let mut stray = [false; LANES];
    for l in 0..LANES {
        let (mut is_first, mut is_last) = (true, true);
        for a in 0..D {
            let (lo, hi) = (p.axis[a].lo[l], p.axis[a].hi[l]);
            is_first &= lo == first.lo[a] && hi == first.hi[a];
            is_last &= lo == last.lo[a] && hi == last.hi[a];
        }
        upper[l] = !is_first;
        stray[l] = !is_first && !is_last;
    }
    let shared = !stray.contains(&true);
    let untiled = lat.period == [0; 4];
    if shared {
        let (a, b) = if untiled {
            (
                K::corners_untiled(lat, first.lo),
                K::corners_untiled(lat, last.lo),
            )
        } else {
            (
                K::corners(lat, first.lo, first.hi),
                K::corners(lat, last.lo, last.hi),
            )
        };
        for l in 0..LANES {
            let c = frame::<D>(p, l);
            let corners = std::array::from_fn(|n| if upper[l] { b[n] } else { a[n] });
            out[l] = K::blend(&corners, c.f, c.w);
        }
    } else if untiled {
        for l in 0..LANES {
            let c = frame::<D>(p, l);
            out[l] = K::blend(&K::corners_untiled(lat, c.lo), c.f, c.w);
        }
    } else {
        for l in 0..LANES {
            let c = frame::<D>(p, l);
            out[l] = K::blend(&K::corners(lat, c.lo, c.hi), c.f, c.w);
        }
    }
}

/// Pads 2^D corners to the 8 of [`Corners::corners`].
#[inline(always)]
fn pad<T: Copy + Default, const M: usize>(v: [T; M]) -> [T; 8] {
    std::array::from_fn(|n| if n < M { v[n] } else { T::default() })
}

/// 1D Perlin noise (perlin1 in perlin.wgsl): corner hashes, then graded and blended.
pub struct Perlin1;

impl Corners<1> for Perlin1 {
    type Corner = u32;
    #[inline(always)]
    fn corners(lat: &Lattice, lo: [u32; 1], hi: [u32; 1]) -> [u32; 8] {
        pad([
            lattice_hash(lat, [lo[0], 0, 0, 0], 1),
            lattice_hash(lat, [hi[0], 0, 0, 0], 1),
        ])
    }
    #[inline(always)]
    fn blend(h: &[u32; 8], [x]: [f32; 1], [w]: [f32; 1]) -> f32 {
        PERLIN1_SCALE * lerp(w, grad1(h[0], x), grad1(h[1], x - 1.0))
    }
}

/// 2D Perlin noise (perlin2): the corners' gradients (`grad2`'s vectors), then blended.
pub struct Perlin2;

impl Corners<2> for Perlin2 {
    type Corner = [f32; 2];
    #[inline(always)]
    fn corners(lat: &Lattice, lo: [u32; 2], hi: [u32; 2]) -> [[f32; 2]; 8] {
        let h = corner_hashes2(lat, lo, hi);
        pad([
            grad2_vector(h[0]),
            grad2_vector(h[1]),
            grad2_vector(h[2]),
            grad2_vector(h[3]),
        ])
    }
    #[inline(always)]
    fn corners_untiled(lat: &Lattice, lo: [u32; 2]) -> [[f32; 2]; 8] {
        let h = corner_hashes2_untiled(lat, lo);
        pad([
            grad2_vector(h[0]),
            grad2_vector(h[1]),
            grad2_vector(h[2]),
            grad2_vector(h[3]),
        ])
    }
    #[inline(always)]
    fn blend(g: &[[f32; 2]; 8], [x, y]: [f32; 2], w: [f32; 2]) -> f32 {
        let dot = |g: [f32; 2], x: f32, y: f32| g[0] * x + g[1] * y;
        PERLIN2_SCALE
            * lerp(
                w[1],
                lerp(w[0], dot(g[0], x, y), dot(g[1], x - 1.0, y)),
                lerp(w[0], dot(g[2], x, y - 1.0), dot(g[3], x - 1.0, y - 1.0)),
            )
    }
}

/// 3D Perlin noise (perlin3): Ken Perlin's reference, corner hashes then `grad3` and blend.
pub struct Perlin3;

impl Corners<3> for Perlin3 {
    type Corner = u32;
    #[inline(always)]
    fn corners(lat: &Lattice, lo: [u32; 3], hi: [u32; 3]) -> [u32; 8] {
        corner_hashes3(lat, lo, hi)
    }
    #[inline(always)]
    fn corners_untiled(lat: &Lattice, lo: [u32; 3]) -> [u32; 8] {
        corner_hashes3_untiled(lat, lo)
    }
    #[inline(always)]
    fn blend(h: &[u32; 8], [x, y, z]: [f32; 3], w: [f32; 3]) -> f32 {
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
}

/// The cell of corner n: bit a of n picks the upper corner along axis a.
#[inline(always)]
fn corner_cells<const D: usize>(lo: &[u32; D], hi: &[u32; D], n: usize) -> [u32; 4] {
    std::array::from_fn(|a| match a < D {
        true if (n >> a) & 1 == 1 => hi[a],
        true => lo[a],
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

/// 4D Perlin noise (perlin4), lane by lane.
#[inline(always)]
pub fn perlin4(lat: &Lattice, p: &Points, l: usize) -> f32 {
    let c = frame::<4>(p, l);
    let mut v = [0.0; 16];
    for (n, slot) in v.iter_mut().enumerate() {
        let d = std::array::from_fn(|a| c.f[a] - ((n >> a) & 1) as f32);
        *slot = grad4(lattice_hash(lat, corner_cells(&c.lo, &c.hi, n), 4), d);
    }
    interp_corners(&mut v, &c.w)
}

/// Classic gradient noise in D (1..=3) dimensions (gradient.wgsl): `G[hash] . d` at each
/// corner, interpolated.
pub struct Gradient;

impl<const D: usize> Corners<D> for Gradient {
    type Corner = [f32; 4];
    #[inline(always)]
    fn corners(lat: &Lattice, lo: [u32; D], hi: [u32; D]) -> [[f32; 4]; 8] {
        std::array::from_fn(|n| {
            lattice_gradient(
                lat,
                lattice_hash(lat, corner_cells(&lo, &hi, n & ((1 << D) - 1)), D),
            )
        })
    }
    #[inline(always)]
    fn blend(g: &[[f32; 4]; 8], f: [f32; D], w: [f32; D]) -> f32 {
        let mut v = [0.0; 16];
        for n in 0..(1 << D) {
            let mut dot = 0.0;
            for a in 0..D {
                dot += g[n][a] * (f[a] - ((n >> a) & 1) as f32);
            }
            v[n] = dot;
        }
        interp_corners(&mut v, &w)
    }
}

/// Value noise in D (1..=3) dimensions (value.wgsl): the corners' lattice values, 2D and 3D
/// through the shared corner hash chains, interpolated.
pub struct Value;

impl<const D: usize> Corners<D> for Value {
    type Corner = f32;
    #[inline(always)]
    fn corners(lat: &Lattice, lo: [u32; D], hi: [u32; D]) -> [f32; 8] {
        let h: [u32; 8] = match D {
            2 => pad(corner_hashes2(lat, [lo[0], lo[1]], [hi[0], hi[1]])),
            3 => corner_hashes3(lat, [lo[0], lo[1], lo[2]], [hi[0], hi[1], hi[2]]),
            _ => std::array::from_fn(|n| {
                lattice_hash(lat, corner_cells(&lo, &hi, n & ((1 << D) - 1)), D)
            }),
        };
        values_of(lat, &h)
    }
    #[inline(always)]
    fn corners_untiled(lat: &Lattice, lo: [u32; D]) -> [f32; 8] {
        let h: [u32; 8] = match D {
            2 => pad(corner_hashes2_untiled(lat, [lo[0], lo[1]])),
            3 => corner_hashes3_untiled(lat, [lo[0], lo[1], lo[2]]),
            _ => {
                let mut hi = lo;
                for c in &mut hi {
                    *c = c.wrapping_add(1);
                }
                return Self::corners(lat, lo, hi);
            }
        };
        values_of(lat, &h)
    }
    #[inline(always)]
    fn blend(values: &[f32; 8], _f: [f32; D], w: [f32; D]) -> f32 {
        let mut v = [0.0; 16];
        v[..8].copy_from_slice(values);
        interp_corners(&mut v, &w)
    }
}

/// The lattice values of eight corner hashes.
#[inline(always)]
fn values_of(lat: &Lattice, h: &[u32; 8]) -> [f32; 8] {
    let mut v = [0.0; 8];
    for n in 0..8 {
        v[n] = lattice_value(lat, h[n]);
    }
    v
}

/// 4D value noise, lane by lane.
#[inline(always)]
pub fn value4(lat: &Lattice, p: &Points, l: usize) -> f32 {
    let c = frame::<4>(p, l);
    let mut v = [0.0; 16];
    for (n, slot) in v.iter_mut().enumerate() {
        *slot = lattice_value(lat, lattice_hash(lat, corner_cells(&c.lo, &c.hi, n), 4));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grad2_from_bits_is_the_tables_gradient() {
        for h in 0..64u32 {
            assert_eq!(grad2_vector(h), PERLIN2_F32[(h & 15) as usize], "hash {h}");
        }
    }
}
