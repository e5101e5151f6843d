//! Ken Perlin's improved noise (2002); mirrors `shaders/perlin.wgsl`.
//! 1D and 2D are his 3D noise at y = z = 0 and z = 0, evaluated with 2 and 4 corners.

use super::common::{CellFrame, Lattice, cell_frame, interp_corners, lattice_hash4, lerp};
use super::common::{interp_weight, lattice_cell, lattice_hash1, lattice_hash2, lattice_hash3};

/// Ken Perlin's `grad`: one of 12 cube-edge directions (16 with repeats) from `h & 15`.
#[inline(always)]
pub fn grad3(hash: usize, x: f64, y: f64, z: f64) -> f64 {
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

/// 4D gradient from `h & 31` (REFERENCE §3): component `(h >> 3) & 3` is zero; the other three,
/// in order, are -1 where bits 0, 1, 2 of h are set and +1 otherwise.
#[inline(always)]
pub fn grad4(hash: usize, d: [f64; 4]) -> f64 {
    let h = hash & 31;
    let zero = (h >> 3) & 3;
    let mut sum = 0.0;
    let mut bit = 0;
    for (axis, &component) in d.iter().enumerate() {
        if axis != zero {
            sum += if (h >> bit) & 1 == 1 {
                -component
            } else {
                component
            };
            bit += 1;
        }
    }
    sum
}

#[inline(always)]
fn axis_frame(lat: &Lattice, x: f64, a: usize) -> (usize, usize, f64, f64) {
    let fl = x.floor();
    let c = fl as i64;
    let f = x - fl;
    (
        lattice_cell(c, lat.period[a]),
        lattice_cell(c + 1, lat.period[a]),
        f,
        interp_weight(f, lat.interp),
    )
}

pub fn perlin1(lat: &Lattice, p: [f64; 4]) -> f64 {
    let (x0, x1, x, u) = axis_frame(lat, p[0], 0);
    let perm = lat.perm;
    lerp(
        u,
        grad3(lattice_hash1(perm, x0), x, 0.0, 0.0),
        grad3(lattice_hash1(perm, x1), x - 1.0, 0.0, 0.0),
    )
}

pub fn perlin2(lat: &Lattice, p: [f64; 4]) -> f64 {
    let (x0, x1, x, u) = axis_frame(lat, p[0], 0);
    let (y0, y1, y, v) = axis_frame(lat, p[1], 1);
    let perm = lat.perm;
    lerp(
        v,
        lerp(
            u,
            grad3(lattice_hash2(perm, x0, y0), x, y, 0.0),
            grad3(lattice_hash2(perm, x1, y0), x - 1.0, y, 0.0),
        ),
        lerp(
            u,
            grad3(lattice_hash2(perm, x0, y1), x, y - 1.0, 0.0),
            grad3(lattice_hash2(perm, x1, y1), x - 1.0, y - 1.0, 0.0),
        ),
    )
}

pub fn perlin3(lat: &Lattice, p: [f64; 4]) -> f64 {
    let (x0, x1, x, u) = axis_frame(lat, p[0], 0);
    let (y0, y1, y, v) = axis_frame(lat, p[1], 1);
    let (z0, z1, z, w) = axis_frame(lat, p[2], 2);
    let perm = lat.perm;
    lerp(
        w,
        lerp(
            v,
            lerp(
                u,
                grad3(lattice_hash3(perm, x0, y0, z0), x, y, z),
                grad3(lattice_hash3(perm, x1, y0, z0), x - 1.0, y, z),
            ),
            lerp(
                u,
                grad3(lattice_hash3(perm, x0, y1, z0), x, y - 1.0, z),
                grad3(lattice_hash3(perm, x1, y1, z0), x - 1.0, y - 1.0, z),
            ),
        ),
        lerp(
            v,
            lerp(
                u,
                grad3(lattice_hash3(perm, x0, y0, z1), x, y, z - 1.0),
                grad3(lattice_hash3(perm, x1, y0, z1), x - 1.0, y, z - 1.0),
            ),
            lerp(
                u,
                grad3(lattice_hash3(perm, x0, y1, z1), x, y - 1.0, z - 1.0),
                grad3(lattice_hash3(perm, x1, y1, z1), x - 1.0, y - 1.0, z - 1.0),
            ),
        ),
    )
}

pub fn perlin4(lat: &Lattice, p: [f64; 4]) -> f64 {
    let CellFrame {
        cells,
        frac,
        weight,
    } = cell_frame(lat, p, 4);
    let mut v = [0.0; 16];
    for (n, slot) in v.iter_mut().enumerate() {
        let b = [n & 1, (n >> 1) & 1, (n >> 2) & 1, (n >> 3) & 1];
        let h = lattice_hash4(
            lat.perm,
            cells[0][b[0]],
            cells[1][b[1]],
            cells[2][b[2]],
            cells[3][b[3]],
        );
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
