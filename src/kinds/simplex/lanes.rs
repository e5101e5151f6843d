//! Simplex noise of one lane, in f32 and u32: mirrors simplex.wgsl function by function, the
//! corner order decided on the f32 fractions (the twin's 24-bit keys, exactly).

use crate::kinds::Interp;
use crate::kinds::LatticeKind;
use crate::kinds::lattice::kernel::{InstructionSet, NoiseRow, kernels, row_of};
use crate::kinds::lattice::lane_dual::{LaneDual, NoiseRowD, dual_kernels, put_lane, row_d_of};
use crate::kinds::lattice::lane_hash::{LaneLattice as Lattice, simplex_hash};
use crate::kinds::lattice::lanes::LANES;
use crate::kinds::lattice::lanes::Points;
use crate::tables::{G2, G4};

const SIMPLEX_G2: f32 = G2 as f32;
const SIMPLEX_G4: f32 = G4 as f32;

/// One corner's contribution: `t^4 (g . d)` with `t = r2 - |d|^2`, zero when `t < 0`.
#[inline(always)]
pub fn simplex_corner(r2: f32, d: [f32; 4], g: [f32; 4]) -> f32 {
    let t = r2 - d[0] * d[0] - d[1] * d[1] - d[2] * d[2] - d[3] * d[3];
    let t2 = t * t;
    let v = t2 * t2 * (g[0] * d[0] + g[1] * d[1] + g[2] * d[2] + g[3] * d[3]);
    // A select rather than an early return, so the lane loop vectorizes.
    if t < 0.0 { 0.0 } else { v }
}

/// `SIMPLEX_GRAD3[h % 12]` as simplex.wgsl computes it: signs from bits 0 and 1, the zero
/// component from `g / 4` (selects, not a table gather: a test checks it against the table).
#[inline(always)]
pub const fn simplex_grad3(h: u32) -> [f32; 4] {
    let g = h % 12;
    let a = if g & 1 == 0 { 1.0 } else { -1.0 };
    let b = if g & 2 == 0 { 1.0 } else { -1.0 };
    match g >> 2 {
        0 => [a, b, 0.0, 0.0],
        1 => [a, 0.0, b, 0.0],
        _ => [0.0, a, b, 0.0],
    }
}

/// `SIMPLEX_GRAD4[h % 32]` as simplex.wgsl computes it: the zero at index `g / 8`, the others
/// -1 where bits 2, 1, 0 are set.
#[inline(always)]
pub fn simplex_grad4(h: u32) -> [f32; 4] {
    let g = h % 32;
    let s2 = if (g >> 2) & 1 == 0 { 1.0 } else { -1.0 };
    let s1 = if (g >> 1) & 1 == 0 { 1.0 } else { -1.0 };
    let s0 = if g & 1 == 0 { 1.0 } else { -1.0 };
    match g >> 3 {
        0 => [0.0, s2, s1, s0],
        1 => [s2, 0.0, s1, s0],
        2 => [s2, s1, 0.0, s0],
        _ => [s2, s1, s0, 0.0],
    }
}

/// The hashes of the 2D simplex's corners `cells + (0, 0)`, `s1`, `(1, 1)`.
#[inline(always)]
pub fn simplex_hashes2(lat: &Lattice, cells: [u32; 4], s1: [u32; 2]) -> [u32; 3] {
    [
        simplex_hash(lat, cells, [0, 0, 0, 0], 2),
        simplex_hash(lat, cells, [s1[0], s1[1], 0, 0], 2),
        simplex_hash(lat, cells, [1, 1, 0, 0], 2),
    ]
}

/// The hashes of the 3D simplex's corners `cells + (0, 0, 0)`, `s1`, `s2`, `(1, 1, 1)`.
#[inline(always)]
pub fn simplex_hashes3(lat: &Lattice, cells: [u32; 4], s1: [u32; 3], s2: [u32; 3]) -> [u32; 4] {
    [
        simplex_hash(lat, cells, [0, 0, 0, 0], 3),
        simplex_hash(lat, cells, [s1[0], s1[1], s1[2], 0], 3),
        simplex_hash(lat, cells, [s2[0], s2[1], s2[2], 0], 3),
        simplex_hash(lat, cells, [1, 1, 1, 0], 3),
    ]
}

/// Each coordinate's rank (0 smallest, 3 largest) from the comparisons of the pairs (x,y),
/// (x,z), (y,z), (x,w), (y,w), (z,w); `greater[n]` says the first of pair n is larger.
#[inline(always)]
pub fn simplex4_ranks(greater: [bool; 6]) -> [u32; 4] {
    const PAIRS: [(usize, usize); 6] = [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)];
    let mut rank = [0u32; 4];
    for (n, (a, b)) in PAIRS.iter().enumerate() {
        rank[*a] += u32::from(greater[n]);
        rank[*b] += u32::from(!greater[n]);
    }
    rank
}

/// One lane's simplex cell (modulo 2^32) and skewed fractions.
#[inline(always)]
fn lane_point(p: &Points, l: usize) -> ([u32; 4], [f32; 4]) {
    (
        std::array::from_fn(|a| p.axis[a].cell[l]),
        std::array::from_fn(|a| p.axis[a].frac[l]),
    )
}

/// The N corners of the simplex holding a lane's point (SimplexCorners): each corner's
/// offset d and gradient g, the kernel's radius squared and the scale.
pub struct SimplexCorners<const N: usize> {
    d: [[f32; 4]; N],
    g: [[f32; 4]; N],
    r2: f32,
    scale: f32,
}

/// The corners' contributions summed in order, times the scale.
#[inline(always)]
fn simplex_sum<const N: usize>(c: SimplexCorners<N>) -> f32 {
    let mut sum = 0.0;
    for m in 0..N {
        sum += simplex_corner(c.r2, c.d[m], c.g[m]);
    }
    c.scale * sum
}

/// The sum with its gradient along the unskewed axes: each corner adds
/// `t^4 g - 8 t^3 (g . d) d`, `t = r2 - |d|^2` (nothing where `t < 0`).
#[inline(always)]
pub fn simplex_d<const N: usize>(c: SimplexCorners<N>) -> LaneDual {
    let mut value = 0.0;
    let mut grad = [0.0f32; 4];
    for m in 0..N {
        let (d, g) = (c.d[m], c.g[m]);
        let t = c.r2 - (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]);
        let gd = g[0] * d[0] + g[1] * d[1] + g[2] * d[2] + g[3] * d[3];
        let t2 = t * t;
        let inside = t >= 0.0;
        value += if inside { t2 * t2 * gd } else { 0.0 };
        for a in 0..4 {
            let slope = t2 * t2 * g[a] - 8.0 * t2 * t * gd * d[a];
            grad[a] += if inside { slope } else { 0.0 };
        }
    }
    (c.scale * value, grad.map(|x| c.scale * x))
}

/// 2D simplex noise.
#[inline(always)]
pub fn simplex2(lat: &Lattice, p: &Points, l: usize) -> f32 {
    simplex_sum(simplex2_corners(lat, p, l))
}

/// The 2D simplex's corners.
#[inline(always)]
pub fn simplex2_corners(lat: &Lattice, p: &Points, l: usize) -> SimplexCorners<3> {
    let (cells, f) = lane_point(p, l);
    let (u, v) = (f[0], f[1]);
    let t = (u + v) * SIMPLEX_G2;
    let (x0, y0) = (u - t, v - t);
    let (i1, j1) = if u > v { (1, 0) } else { (0, 1) };
    let d = [
        [x0, y0, 0.0, 0.0],
        [
            x0 - i1 as f32 + SIMPLEX_G2,
            y0 - j1 as f32 + SIMPLEX_G2,
            0.0,
            0.0,
        ],
        [
            x0 - 1.0 + 2.0 * SIMPLEX_G2,
            y0 - 1.0 + 2.0 * SIMPLEX_G2,
            0.0,
            0.0,
        ],
    ];
    let h = simplex_hashes2(lat, cells, [i1, j1]);
    let g = [
        simplex_grad3(h[0]),
        simplex_grad3(h[1]),
        simplex_grad3(h[2]),
    ];
    SimplexCorners {
        d,
        g,
        r2: 0.5,
        scale: 70.0,
    }
}

/// The second and third corners of the 3D simplex, as boolean algebra (no branches).
// Written as simplex.wgsl writes it, term for term, rather than minimized.
#[allow(clippy::nonminimal_bool)]
#[inline(always)]
pub fn simplex3_order(xy: bool, yz: bool, xz: bool) -> ([u32; 3], [u32; 3]) {
    let c1 = [
        xy && (yz || xz),
        !xy && yz,
        (xy && !yz && !xz) || (!xy && !yz),
    ];
    let c2 = [
        xy || (yz && xz),
        (xy && yz) || !xy,
        (xy && !yz) || (!xy && (!yz || !xz)),
    ];
    (
        [u32::from(c1[0]), u32::from(c1[1]), u32::from(c1[2])],
        [u32::from(c2[0]), u32::from(c2[1]), u32::from(c2[2])],
    )
}

/// 3D simplex noise.
#[inline(always)]
pub fn simplex3(lat: &Lattice, p: &Points, l: usize) -> f32 {
    simplex_sum(simplex3_corners(lat, p, l))
}

/// The 3D simplex's corners.
#[inline(always)]
pub fn simplex3_corners(lat: &Lattice, p: &Points, l: usize) -> SimplexCorners<4> {
    let (cells, f) = lane_point(p, l);
    let t = (f[0] + f[1] + f[2]) / 6.0;
    let d0 = [f[0] - t, f[1] - t, f[2] - t];
    let (c1, c2) = simplex3_order(f[0] >= f[1], f[1] >= f[2], f[0] >= f[2]);
    let h = simplex_hashes3(lat, cells, c1, c2);
    let steps = [[0, 0, 0], c1, c2, [1, 1, 1]];
    let d: [[f32; 4]; 4] = std::array::from_fn(|m| {
        let offset = m as f32 * (1.0 / 6.0);
        let step = steps[m];
        [
            d0[0] - step[0] as f32 + offset,
            d0[1] - step[1] as f32 + offset,
            d0[2] - step[2] as f32 + offset,
            0.0,
        ]
    });
    let g = [
        simplex_grad3(h[0]),
        simplex_grad3(h[1]),
        simplex_grad3(h[2]),
        simplex_grad3(h[3]),
    ];
    SimplexCorners {
        d,
        g,
        r2: 0.6,
        scale: 32.0,
    }
}

/// 4D simplex noise.
#[inline(always)]
pub fn simplex4(lat: &Lattice, p: &Points, l: usize) -> f32 {
    simplex_sum(simplex4_corners(lat, p, l))
}

/// The 4D simplex's corners.
#[inline(always)]
pub fn simplex4_corners(lat: &Lattice, p: &Points, l: usize) -> SimplexCorners<5> {
    let (cells, f) = lane_point(p, l);
    let t = (f[0] + f[1] + f[2] + f[3]) * SIMPLEX_G4;
    let d0 = [f[0] - t, f[1] - t, f[2] - t, f[3] - t];
    let gt = |a: usize, b: usize| f[a] > f[b];
    let rank = simplex4_ranks([gt(0, 1), gt(0, 2), gt(1, 2), gt(0, 3), gt(1, 3), gt(2, 3)]);
    let mut d = [[0.0; 4]; 5];
    let mut g = [[0.0; 4]; 5];
    for m in 0..5u32 {
        // Corner m steps along the axes whose rank is >= 4 - m (corner 4 along all).
        let mut step = [0u32; 4];
        for a in 0..4 {
            step[a] = u32::from(m > 0 && rank[a] + m >= 4);
        }
        d[m as usize] = std::array::from_fn(|a| d0[a] - step[a] as f32 + m as f32 * SIMPLEX_G4);
        g[m as usize] = simplex_grad4(simplex_hash(lat, cells, step, 4));
    }
    SimplexCorners {
        d,
        g,
        r2: 0.6,
        scale: 27.0,
    }
}

kernels! {
    Simplex2Block, 2, |lat, _k, p, out| for l in 0..LANES { out[l] = simplex2(lat, p, l); };
    Simplex3Block, 3, |lat, _k, p, out| for l in 0..LANES { out[l] = simplex3(lat, p, l); };
    Simplex4Block, 4, |lat, _k, p, out| for l in 0..LANES { out[l] = simplex4(lat, p, l); };
}

dual_kernels! {
    Simplex2Dual, 2, |lat, _k, _i, p, out| for l in 0..LANES { put_lane(out, l, simplex_d(simplex2_corners(lat, p, l))) };
    Simplex3Dual, 3, |lat, _k, _i, p, out| for l in 0..LANES { put_lane(out, l, simplex_d(simplex3_corners(lat, p, l))) };
    Simplex4Dual, 4, |lat, _k, _i, p, out| for l in 0..LANES { put_lane(out, l, simplex_d(simplex4_corners(lat, p, l))) };
}

/// The dual row function of simplex noise in `dims` dimensions.
pub fn row_d(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRowD {
    match dims {
        2 => row_d_of!(Simplex2Dual, lattice, isa),
        3 => row_d_of!(Simplex3Dual, lattice, isa),
        _ => row_d_of!(Simplex4Dual, lattice, isa),
    }
}

/// The row function of simplex noise in `dims` dimensions.
pub fn row(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
    match dims {
        2 => row_of!(Simplex2Block, lattice, isa),
        3 => row_of!(Simplex3Block, lattice, isa),
        _ => row_of!(Simplex4Block, lattice, isa),
    }
}

#[cfg(test)]
mod tests {
    use super::{simplex_grad3, simplex_grad4};
    use crate::tables::{SIMPLEX_GRAD3, SIMPLEX_GRAD4};

    /// The bit arithmetic gives the tables' entries (CONVENTIONS §8) for every residue.
    #[test]
    fn gradients_from_bits_are_the_tables() {
        for h in 0..64u32 {
            let g = SIMPLEX_GRAD3[(h % 12) as usize];
            let want = [g[0] as f32, g[1] as f32, g[2] as f32, 0.0];
            assert_eq!(simplex_grad3(h), want, "grad3 of hash {h}");
            let want = SIMPLEX_GRAD4[(h % 32) as usize].map(|v| v as f32);
            assert_eq!(simplex_grad4(h), want, "grad4 of hash {h}");
        }
    }
}
