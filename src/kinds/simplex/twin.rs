//! Simplex noise (Gustavson 2005, "Simplex noise demystified"), 2D-4D, with the seed's
//! permutation; mirrors `simplex.wgsl`. Seed 0 reproduces his published code value
//! for value. The point arrives already skewed and split (CONVENTIONS §1, §8): cell (i, j, ...)
//! and skewed fractions (u, v, ...) in [0, 1), exact at any distance from the origin. His
//! unskewed offsets follow as `x0 = u - G (u + v + ...)`, and his comparisons `x0 > y0` become
//! `u > v`, decided on the fractions' top 24 bits (the GPU's f32 fractions exactly), so the
//! CPU and the GPU always pick the same simplex.

use crate::kinds::lattice::dual::Dual;
use crate::kinds::lattice::twin::{Lattice, LatticePoint, lattice_cell, lattice_hash, perm_at};
use crate::tables::{G2, G4, SIMPLEX_GRAD3, SIMPLEX_GRAD4};

/// One corner's contribution: `t^4 (g . d)` with `t = r2 - |d|^2`, zero when `t < 0`.
#[inline(always)]
pub fn simplex_corner(r2: f64, d: [f64; 4], g: [f64; 4]) -> f64 {
    // Clamped rather than branched on: the sign is data-dependent and mispredicts; a clamped
    // corner adds 0 * (g . d), a zero, to the sum that starts at +0.
    let mut t = (r2 - d[0] * d[0] - d[1] * d[1] - d[2] * d[2] - d[3] * d[3]).max(0.0);
    t *= t;
    t * t * (g[0] * d[0] + g[1] * d[1] + g[2] * d[2] + g[3] * d[3])
}

/// `SIMPLEX_GRAD3[h % 12]` (a table lookup here; the WGSL computes it from bits).
#[inline(always)]
pub fn simplex_grad3(h: usize) -> [f64; 4] {
    let g = SIMPLEX_GRAD3[h % 12];
    [g[0], g[1], g[2], 0.0]
}

/// `SIMPLEX_GRAD4[h % 32]` (a table lookup here; the WGSL computes it from bits).
#[inline(always)]
pub fn simplex_grad4(h: usize) -> [f64; 4] {
    SIMPLEX_GRAD4[h % 32]
}

/// The hash of simplex corner `cells + step` (CONVENTIONS §8): its own permutation chain, the
/// last coordinate innermost, on the table lattice; the cell hash on the hash lattice.
#[inline(always)]
pub fn simplex_hash(lat: &Lattice, cells: [u32; 4], step: [usize; 4], dims: usize) -> usize {
    if lat.hashed() {
        let corner = [0, 1, 2, 3].map(|a| cells[a].wrapping_add(step[a] as u32));
        return lattice_hash(lat, corner, dims);
    }
    let mut h = 0;
    for a in (0..dims).rev() {
        h = perm_at(lat.perm, (cells[a] & 255) as usize + step[a] + h);
    }
    h
}

/// The hashes of the 2D simplex's corners `cells + (0, 0)`, `s1`, `(1, 1)` (the WGSL reads
/// their innermost table links from one window word).
#[inline(always)]
pub fn simplex_hashes2(lat: &Lattice, cells: [u32; 4], s1: [usize; 2]) -> [usize; 3] {
    [[0, 0], s1, [1, 1]].map(|s| simplex_hash(lat, cells, [s[0], s[1], 0, 0], 2))
}

/// The hashes of the 3D simplex's corners `cells + (0, 0, 0)`, `s1`, `s2`, `(1, 1, 1)`.
#[inline(always)]
pub fn simplex_hashes3(
    lat: &Lattice,
    cells: [u32; 4],
    s1: [usize; 3],
    s2: [usize; 3],
) -> [usize; 4] {
    [[0, 0, 0], s1, s2, [1, 1, 1]].map(|s| simplex_hash(lat, cells, [s[0], s[1], s[2], 0], 3))
}

/// A point's simplex cell, modulo 2^32 (simplex does not tile).
#[inline(always)]
fn simplex_cells(pt: &LatticePoint) -> [u32; 4] {
    pt.cell.map(|c| lattice_cell(c, 0))
}

/// The corners of the simplex holding a point: offset d from each corner (unskewed) and its
/// gradient g, the kernel's r^2 and the final scale (mirrors `SimplexCorners` in simplex.wgsl).
#[derive(Clone, Copy, Debug)]
pub struct SimplexCorners {
    /// Corners in use: dims + 1.
    pub count: usize,
    /// Offsets from each corner to the point.
    pub d: [[f64; 4]; 5],
    /// Each corner's gradient.
    pub g: [[f64; 4]; 5],
    /// `r2` of `t = r2 - |d|^2`.
    pub r2: f64,
    /// 70 (2D), 32 (3D), 27 (4D).
    pub scale: f64,
}

impl SimplexCorners {
    /// The noise: `scale` times the corners' contributions summed in order.
    #[inline(always)]
    pub fn sum(&self) -> f64 {
        let mut sum = 0.0;
        for m in 0..self.count {
            sum += simplex_corner(self.r2, self.d[m], self.g[m]);
        }
        self.scale * sum
    }
}

/// The corners of the 2D simplex holding a skewed lattice point.
#[inline(always)]
pub fn simplex2_corners(lat: &Lattice, pt: &LatticePoint) -> SimplexCorners {
    let (u, v) = (pt.frac[0], pt.frac[1]);
    let t = (u + v) * G2;
    let x0 = u - t;
    let y0 = v - t;
    // x0 > y0, decided on the keys (see the module's note).
    let (i1, j1) = if pt.key[0] > pt.key[1] {
        (1, 0)
    } else {
        (0, 1)
    };
    let cells = simplex_cells(pt);
    let mut c = SimplexCorners {
        count: 3,
        d: [[0.0; 4]; 5],
        g: [[0.0; 4]; 5],
        r2: 0.5,
        scale: 70.0,
    };
    c.d[0] = [x0, y0, 0.0, 0.0];
    c.d[1] = [x0 - i1 as f64 + G2, y0 - j1 as f64 + G2, 0.0, 0.0];
    c.d[2] = [x0 - 1.0 + 2.0 * G2, y0 - 1.0 + 2.0 * G2, 0.0, 0.0];
    let h = simplex_hashes2(lat, cells, [i1, j1]);
    for (g, &hash) in c.g.iter_mut().zip(&h) {
        *g = simplex_grad3(hash);
    }
    c
}

/// 2D simplex noise at a skewed lattice point.
#[inline]
pub fn simplex2(lat: &Lattice, pt: &LatticePoint) -> f64 {
    simplex2_corners(lat, pt).sum()
}

/// The second and third corners of the 3D simplex holding the point (CONVENTIONS §8).
#[inline(always)]
pub fn simplex3_order(xy: bool, yz: bool, xz: bool) -> ([usize; 3], [usize; 3]) {
    if xy {
        if yz {
            ([1, 0, 0], [1, 1, 0])
        } else if xz {
            ([1, 0, 0], [1, 0, 1])
        } else {
            ([0, 0, 1], [1, 0, 1])
        }
    } else if !yz {
        ([0, 0, 1], [0, 1, 1])
    } else if !xz {
        ([0, 1, 0], [0, 1, 1])
    } else {
        ([0, 1, 0], [1, 1, 0])
    }
}

/// The corners of the 3D simplex holding a skewed lattice point.
#[inline(always)]
pub fn simplex3_corners(lat: &Lattice, pt: &LatticePoint) -> SimplexCorners {
    let f = pt.frac;
    let t = (f[0] + f[1] + f[2]) / 6.0;
    let d0 = [f[0] - t, f[1] - t, f[2] - t, 0.0];
    // x0 >= y0, y0 >= z0, x0 >= z0, decided on the keys.
    let k = pt.key;
    let (c1, c2) = simplex3_order(k[0] >= k[1], k[1] >= k[2], k[0] >= k[2]);
    let cells = simplex_cells(pt);
    let mut c = SimplexCorners {
        count: 4,
        d: [[0.0; 4]; 5],
        g: [[0.0; 4]; 5],
        r2: 0.6,
        scale: 32.0,
    };
    let h = simplex_hashes3(lat, cells, c1, c2);
    for (m, step) in [[0, 0, 0], c1, c2, [1, 1, 1]].into_iter().enumerate() {
        let offset = m as f64 * (1.0 / 6.0);
        c.d[m] = [0, 1, 2, 3].map(|a| {
            if a < 3 {
                d0[a] - step[a] as f64 + offset
            } else {
                0.0
            }
        });
        c.g[m] = simplex_grad3(h[m]);
    }
    c
}

/// 3D simplex noise at a skewed lattice point.
#[inline]
pub fn simplex3(lat: &Lattice, pt: &LatticePoint) -> f64 {
    simplex3_corners(lat, pt).sum()
}

/// The rank of each coordinate of `d0` (0 = smallest, 3 = largest), from the six pairwise
/// comparisons in the order (x,y), (x,z), (y,z), (x,w), (y,w), (z,w); `greater[n]` says the
/// first of pair n is larger.
#[inline(always)]
pub fn simplex4_ranks(greater: [bool; 6]) -> [usize; 4] {
    const PAIRS: [(usize, usize); 6] = [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)];
    let mut rank = [0usize; 4];
    for (n, (a, b)) in PAIRS.iter().enumerate() {
        if greater[n] {
            rank[*a] += 1;
        } else {
            rank[*b] += 1;
        }
    }
    rank
}

/// The corners of the 4D simplex holding a skewed lattice point.
#[inline(always)]
pub fn simplex4_corners(lat: &Lattice, pt: &LatticePoint) -> SimplexCorners {
    let f = pt.frac;
    let t = (f[0] + f[1] + f[2] + f[3]) * G4;
    let d0 = f.map(|v| v - t);
    let gt = |a: usize, b: usize| pt.key[a] > pt.key[b];
    let rank = simplex4_ranks([gt(0, 1), gt(0, 2), gt(1, 2), gt(0, 3), gt(1, 3), gt(2, 3)]);
    let cells = simplex_cells(pt);
    let mut c = SimplexCorners {
        count: 5,
        d: [[0.0; 4]; 5],
        g: [[0.0; 4]; 5],
        r2: 0.6,
        scale: 27.0,
    };
    for m in 0..5usize {
        // Corner m steps along the axes whose rank is >= 4 - m (corner 4 along all).
        let step = rank.map(|r| usize::from(m > 0 && r + m >= 4));
        c.d[m] = [0, 1, 2, 3].map(|a| d0[a] - step[a] as f64 + m as f64 * G4);
        c.g[m] = simplex_grad4(simplex_hash(lat, cells, step, 4));
    }
    c
}

/// 4D simplex noise at a skewed lattice point.
#[inline]
pub fn simplex4(lat: &Lattice, pt: &LatticePoint) -> f64 {
    simplex4_corners(lat, pt).sum()
}

/// Simplex noise with its gradient along the unskewed axes: each corner adds
/// `t^4 g - 8 t^3 (g . d) d`, `t = r2 - |d|^2` (zero where t < 0).
pub fn simplex_d(c: &SimplexCorners) -> Dual {
    let (mut value, mut grad) = (0.0, [0.0; 4]);
    for m in 0..c.count {
        let (d, g) = (c.d[m], c.g[m]);
        let t = c.r2 - d.iter().map(|x| x * x).sum::<f64>();
        if t < 0.0 {
            continue;
        }
        let dot = g[0] * d[0] + g[1] * d[1] + g[2] * d[2] + g[3] * d[3];
        let (t2, t4) = (t * t, t * t * t * t);
        value += t4 * dot;
        for a in 0..4 {
            grad[a] += t4 * g[a] - 8.0 * t2 * t * dot * d[a];
        }
    }
    (c.scale * value, grad.map(|x| c.scale * x))
}

/// Simplex noise in `dims` dimensions.
#[inline(always)]
pub fn simplex(lat: &Lattice, pt: &LatticePoint, dims: usize) -> f64 {
    match dims {
        2 => simplex2(lat, pt),
        3 => simplex3(lat, pt),
        _ => simplex4(lat, pt),
    }
}
