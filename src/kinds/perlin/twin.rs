//! Ken Perlin's improved noise (2002); mirrors `perlin.wgsl`. 3D is his reference;
//! 1D and 2D keep its hash, fade and corners with gradients of their own (CONVENTIONS §3), so
//! they have no axis-aligned bars or flat runs.

use crate::fixed::Fixed;
use crate::kinds::lattice::dual::{Dual, gradient_corners_d};
use crate::kinds::lattice::twin::{
    AxisFrame, CellFrame, Lattice, LatticePoint, axis_frame, cell_frame,
};
use crate::kinds::lattice::twin::{corner_hashes2, corner_hashes3};
use crate::kinds::lattice::twin::{interp_corners, lerp};
use crate::kinds::lattice::twin::{lattice_hash, lattice_point, octave_row};
use crate::tables::{PERLIN2_GRADIENTS, PERLIN3_GRADIENTS, PERLIN4_GRADIENTS};

/// 1D gradient from `h & 15`: `(1 + (h & 7)) / 8`, negated where `h & 8` is set.
#[inline(always)]
pub fn grad1(hash: usize, x: f64) -> f64 {
    let h = hash & 15;
    let g = (1 + (h & 7)) as f64 * 0.125;
    if h & 8 == 0 { g * x } else { -g * x }
}

/// 2D gradient from `h & 15`: the unit vector at angle `2 pi ((h & 15) + 0.5) / 16`. A table
/// lookup here (fastest on a CPU); the WGSL computes the same vector from bits.
#[inline(always)]
pub fn grad2(hash: usize, x: f64, y: f64) -> f64 {
    let g = PERLIN2_GRADIENTS[hash & 15];
    g[0] * x + g[1] * y
}

/// 1D Perlin noise is scaled by 2 so that it fills about [-1, 1].
pub const PERLIN1_SCALE: f64 = 2.0;
/// 2D Perlin noise is scaled by sqrt(2) so that it fills about [-1, 1].
pub const PERLIN2_SCALE: f64 = std::f64::consts::SQRT_2;

/// Ken Perlin's `grad`: one of 12 cube-edge directions (16 with repeats) from `h & 15`, dotted
/// with (x, y, z). Each row has two +-1 and one 0, so the dot is `+-u +-v` exactly, as in his code.
#[inline(always)]
pub fn grad3(hash: usize, x: f64, y: f64, z: f64) -> f64 {
    let g = PERLIN3_GRADIENTS[hash & 15];
    g[0] * x + g[1] * y + g[2] * z
}

/// 4D gradient from `h & 31` (CONVENTIONS §3, [`PERLIN4_GRADIENTS`]) dotted with `d`: three
/// +-1 and one 0, so the dot is the signed sum of three components in axis order.
#[inline(always)]
pub fn grad4(hash: usize, d: [f64; 4]) -> f64 {
    let g = PERLIN4_GRADIENTS[hash & 31];
    g[0] * d[0] + g[1] * d[1] + g[2] * d[2] + g[3] * d[3]
}

/// Corner hashes of a 1D cell: `[x0, x1]`.
#[inline(always)]
pub fn perlin1_hashes(lat: &Lattice, ax: &AxisFrame) -> [usize; 2] {
    [
        lattice_hash(lat, [ax.c0, 0, 0, 0], 1),
        lattice_hash(lat, [ax.c1, 0, 0, 0], 1),
    ]
}

/// 1D Perlin noise from its corner hashes.
#[inline(always)]
pub fn perlin1_blend(h: &[usize; 2], ax: &AxisFrame) -> f64 {
    let x = ax.f;
    PERLIN1_SCALE * lerp(ax.w, grad1(h[0], x), grad1(h[1], x - 1.0))
}

/// 1D Perlin noise at a lattice point's x.
pub fn perlin1(lat: &Lattice, pt: &LatticePoint) -> f64 {
    let ax = axis_frame(lat, pt, 0);
    perlin1_blend(&perlin1_hashes(lat, &ax), &ax)
}

/// Corner hashes of a 2D cell, x fastest: `[x0y0, x1y0, x0y1, x1y1]`.
#[inline(always)]
pub fn perlin2_hashes(lat: &Lattice, ax: &AxisFrame, ay: &AxisFrame) -> [usize; 4] {
    corner_hashes2(lat, [ax.c0, ay.c0], [ax.c1, ay.c1])
}

/// 2D Perlin noise from its corner hashes.
#[inline(always)]
pub fn perlin2_blend(h: &[usize; 4], ax: &AxisFrame, ay: &AxisFrame) -> f64 {
    let (x, y) = (ax.f, ay.f);
    PERLIN2_SCALE
        * lerp(
            ay.w,
            lerp(ax.w, grad2(h[0], x, y), grad2(h[1], x - 1.0, y)),
            lerp(ax.w, grad2(h[2], x, y - 1.0), grad2(h[3], x - 1.0, y - 1.0)),
        )
}

/// 2D Perlin noise at a lattice point's xy.
pub fn perlin2(lat: &Lattice, pt: &LatticePoint) -> f64 {
    let ax = axis_frame(lat, pt, 0);
    let ay = axis_frame(lat, pt, 1);
    perlin2_blend(&perlin2_hashes(lat, &ax, &ay), &ax, &ay)
}

/// Corner hashes of a 3D cell, x fastest, then y, then z.
#[inline(always)]
pub fn perlin3_hashes(lat: &Lattice, ax: &AxisFrame, ay: &AxisFrame, az: &AxisFrame) -> [usize; 8] {
    corner_hashes3(lat, [ax.c0, ay.c0, az.c0], [ax.c1, ay.c1, az.c1])
}

/// 3D Perlin noise (Ken Perlin's `noise`) from its corner hashes.
#[inline(always)]
pub fn perlin3_blend(h: &[usize; 8], ax: &AxisFrame, ay: &AxisFrame, az: &AxisFrame) -> f64 {
    let (x, y, z) = (ax.f, ay.f, az.f);
    lerp(
        az.w,
        lerp(
            ay.w,
            lerp(ax.w, grad3(h[0], x, y, z), grad3(h[1], x - 1.0, y, z)),
            lerp(
                ax.w,
                grad3(h[2], x, y - 1.0, z),
                grad3(h[3], x - 1.0, y - 1.0, z),
            ),
        ),
        lerp(
            ay.w,
            lerp(
                ax.w,
                grad3(h[4], x, y, z - 1.0),
                grad3(h[5], x - 1.0, y, z - 1.0),
            ),
            lerp(
                ax.w,
                grad3(h[6], x, y - 1.0, z - 1.0),
                grad3(h[7], x - 1.0, y - 1.0, z - 1.0),
            ),
        ),
    )
}

/// 3D Perlin noise at a lattice point's xyz: Ken Perlin's reference.
pub fn perlin3(lat: &Lattice, pt: &LatticePoint) -> f64 {
    let ax = axis_frame(lat, pt, 0);
    let ay = axis_frame(lat, pt, 1);
    let az = axis_frame(lat, pt, 2);
    perlin3_blend(&perlin3_hashes(lat, &ax, &ay, &az), &ax, &ay, &az)
}

/// 4D Perlin noise at a lattice point.
pub fn perlin4(lat: &Lattice, pt: &LatticePoint) -> f64 {
    let CellFrame {
        cells,
        frac,
        weight,
    } = cell_frame(lat, pt, 4);
    let mut v = [0.0; 16];
    for (n, slot) in v.iter_mut().enumerate() {
        let b = [n & 1, (n >> 1) & 1, (n >> 2) & 1, (n >> 3) & 1];
        let corner = [0, 1, 2, 3].map(|a| cells[a][b[a]]);
        let h = lattice_hash(lat, corner, 4);
        let d = [
            frac[0] - b[0] as f64,
            frac[1] - b[1] as f64,
            frac[2] - b[2] as f64,
            frac[3] - b[3] as f64,
        ];
        *slot = grad4(h, d);
    }
    interp_corners(&mut v, &weight, 4)
}

/// Perlin's gradient vector for a corner hash (the vectors `perlin1`..`perlin4` dot).
#[inline(always)]
pub fn perlin_gradient_vector(h: usize, dims: usize) -> [f64; 4] {
    match dims {
        1 => [grad1(h, 1.0), 0.0, 0.0, 0.0],
        2 => {
            let g = PERLIN2_GRADIENTS[h & 15];
            [g[0], g[1], 0.0, 0.0]
        }
        3 => {
            let g = PERLIN3_GRADIENTS[h & 15];
            [g[0], g[1], g[2], 0.0]
        }
        _ => PERLIN4_GRADIENTS[h & 31],
    }
}

/// Perlin noise with its gradient along the lattice axes (CONVENTIONS §12).
pub fn perlin_d(lat: &Lattice, pt: &LatticePoint, dims: usize) -> Dual {
    let scale = match dims {
        1 => PERLIN1_SCALE,
        2 => PERLIN2_SCALE,
        _ => 1.0,
    };
    gradient_corners_d(lat, pt, dims, |h| perlin_gradient_vector(h, dims), scale)
}

/// Perlin noise in `dims` dimensions.
#[inline(always)]
pub fn perlin(lat: &Lattice, pt: &LatticePoint, dims: usize) -> f64 {
    match dims {
        1 => perlin1(lat, pt),
        2 => perlin2(lat, pt),
        3 => perlin3(lat, pt),
        _ => perlin4(lat, pt),
    }
}

/// Perlin noise over a row (`octave_row`), bit for bit the per-texel values: in 1D-3D the y
/// and z frames once per row, and the corner hashes reused while consecutive texels share a
/// cell (32 texels at the default frequency).
pub fn perlin_row(
    lat: &Lattice,
    dims: usize,
    start: [Fixed; 4],
    step: [Fixed; 4],
    out: &mut [f64],
) {
    let first = lattice_point(&start);
    let mut l = start;
    let mut next = || {
        let pt = lattice_point(&l);
        for (v, s) in l.iter_mut().zip(&step) {
            v.0 = v.0.wrapping_add(s.0);
        }
        pt
    };
    match dims {
        1 => {
            let mut cached = (i64::MIN, [0usize; 2]);
            for o in out.iter_mut() {
                let ax = axis_frame(lat, &next(), 0);
                if ax.cell != cached.0 {
                    cached = (ax.cell, perlin1_hashes(lat, &ax));
                }
                *o = perlin1_blend(&cached.1, &ax);
            }
        }
        2 => {
            let ay = axis_frame(lat, &first, 1);
            let mut cached = (i64::MIN, [0usize; 4]);
            for o in out.iter_mut() {
                let ax = axis_frame(lat, &next(), 0);
                if ax.cell != cached.0 {
                    cached = (ax.cell, perlin2_hashes(lat, &ax, &ay));
                }
                *o = perlin2_blend(&cached.1, &ax, &ay);
            }
        }
        3 => {
            let (ay, az) = (axis_frame(lat, &first, 1), axis_frame(lat, &first, 2));
            let mut cached = (i64::MIN, [0usize; 8]);
            for o in out.iter_mut() {
                let ax = axis_frame(lat, &next(), 0);
                if ax.cell != cached.0 {
                    cached = (ax.cell, perlin3_hashes(lat, &ax, &ay, &az));
                }
                *o = perlin3_blend(&cached.1, &ax, &ay, &az);
            }
        }
        _ => octave_row(lat, dims, start, step, out, perlin),
    }
}
