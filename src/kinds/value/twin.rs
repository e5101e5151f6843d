//! Value noise: interpolated lattice values, 1D-4D; mirrors `shaders/value.wgsl`.

use crate::kinds::lattice::dual::{Dual, interp_corners_d};
use crate::kinds::lattice::twin::{CellFrame, Lattice, LatticePoint, cell_frame, interp_corners};
use crate::kinds::lattice::twin::{axis_frame, corner_hashes2, corner_hashes3, lerp};
use crate::kinds::lattice::twin::{lattice_cell, lattice_hash, lattice_value};

/// Value noise in `dims` dimensions: corner value `V[hash]` (or the hash's own value),
/// interpolated with the weights.
pub fn value(lat: &Lattice, pt: &LatticePoint, dims: usize) -> f64 {
    match dims {
        2 => return value2(lat, pt),
        3 => return value3(lat, pt),
        _ => {}
    }
    let CellFrame { cells, weight, .. } = cell_frame(lat, pt, dims);
    let mut v = [0.0; 16];
    for (n, slot) in v.iter_mut().enumerate().take(1 << dims) {
        let mut corner = [0u32; 4];
        for a in 0..dims {
            corner[a] = cells[a][(n >> a) & 1];
        }
        *slot = lattice_value(lat, lattice_hash(lat, corner, dims));
    }
    interp_corners(&mut v, &weight, dims)
}

/// 2D value noise from the shared corner hash chains (the generic path's values exactly).
pub fn value2(lat: &Lattice, pt: &LatticePoint) -> f64 {
    let (ax, ay) = (axis_frame(lat, pt, 0), axis_frame(lat, pt, 1));
    let h = corner_hashes2(lat, [ax.c0, ay.c0], [ax.c1, ay.c1]);
    let v = h.map(|h| lattice_value(lat, h));
    lerp(ay.w, lerp(ax.w, v[0], v[1]), lerp(ax.w, v[2], v[3]))
}

/// 3D value noise from the shared corner hash chains.
pub fn value3(lat: &Lattice, pt: &LatticePoint) -> f64 {
    let (ax, ay, az) = (
        axis_frame(lat, pt, 0),
        axis_frame(lat, pt, 1),
        axis_frame(lat, pt, 2),
    );
    let h = corner_hashes3(lat, [ax.c0, ay.c0, az.c0], [ax.c1, ay.c1, az.c1]);
    let v = h.map(|h| lattice_value(lat, h));
    let (x0, x1) = (lerp(ax.w, v[0], v[1]), lerp(ax.w, v[2], v[3]));
    let (x2, x3) = (lerp(ax.w, v[4], v[5]), lerp(ax.w, v[6], v[7]));
    lerp(az.w, lerp(ay.w, x0, x1), lerp(ay.w, x2, x3))
}

pub use crate::kinds::lattice::real::{catmull_rom, catmull_rom_derivative};

/// Value noise with Catmull-Rom interpolation: 4 lattice values per axis (4^dims in all),
/// reduced axis x first.
pub fn value_catmull_rom(lat: &Lattice, pt: &LatticePoint, dims: usize) -> f64 {
    let (base, frac) = (pt.cell, pt.frac);
    let mut v = [0.0; 256];
    for (n, slot) in v.iter_mut().enumerate().take(1 << (2 * dims)) {
        let mut corner = [0u32; 4];
        for a in 0..dims {
            let step = ((n >> (2 * a)) & 3) as i64 - 1;
            corner[a] = lattice_cell(base[a] + step, lat.period[a]);
        }
        *slot = lattice_value(lat, lattice_hash(lat, corner, dims));
    }
    let mut count = 1usize << (2 * dims);
    for t in frac.iter().take(dims) {
        count /= 4;
        for m in 0..count {
            v[m] = catmull_rom(*t, v[4 * m], v[4 * m + 1], v[4 * m + 2], v[4 * m + 3]);
        }
    }
    v[0]
}

/// Value noise with its gradient (corner values are constants).
pub fn value_d(lat: &Lattice, pt: &LatticePoint, dims: usize) -> Dual {
    let frame = cell_frame(lat, pt, dims);
    let cells = frame.cells;
    let mut v = [0.0; 16];
    let mut g = [[0.0; 4]; 16];
    for (n, slot) in v.iter_mut().enumerate().take(1 << dims) {
        let corner = [0, 1, 2, 3].map(|a| if a < dims { cells[a][(n >> a) & 1] } else { 0 });
        *slot = lattice_value(lat, lattice_hash(lat, corner, dims));
    }
    interp_corners_d(&mut v, &mut g, &frame, lat.interp, dims)
}

/// Value noise under Catmull-Rom with its gradient: the same separable reduction, four values
/// (and gradients) per axis.
pub fn value_catmull_rom_d(lat: &Lattice, pt: &LatticePoint, dims: usize) -> Dual {
    let (base, frac) = (pt.cell, pt.frac);
    let mut v = vec![0.0; 1 << (2 * dims)];
    let mut g = vec![[0.0; 4]; 1 << (2 * dims)];
    for (n, slot) in v.iter_mut().enumerate() {
        let mut corner = [0u32; 4];
        for a in 0..dims {
            let step = ((n >> (2 * a)) & 3) as i64 - 1;
            corner[a] = lattice_cell(base[a] + step, lat.period[a]);
        }
        *slot = lattice_value(lat, lattice_hash(lat, corner, dims));
    }
    let mut count = 1usize << (2 * dims);
    for a in 0..dims {
        let t = frac[a];
        count /= 4;
        for m in 0..count {
            let q = [v[4 * m], v[4 * m + 1], v[4 * m + 2], v[4 * m + 3]];
            let gq = [g[4 * m], g[4 * m + 1], g[4 * m + 2], g[4 * m + 3]];
            v[m] = catmull_rom(t, q[0], q[1], q[2], q[3]);
            g[m] = [0, 1, 2, 3].map(|c| catmull_rom(t, gq[0][c], gq[1][c], gq[2][c], gq[3][c]));
            g[m][a] += catmull_rom_derivative(t, q[0], q[1], q[2], q[3]);
        }
    }
    (v[0], g[0])
}

/// Value noise under any interpolation (Catmull-Rom apart).
#[inline(always)]
pub fn value_any(lat: &Lattice, pt: &LatticePoint, dims: usize) -> f64 {
    if lat.interp == crate::kinds::Interp::CatmullRom {
        value_catmull_rom(lat, pt, dims)
    } else {
        value(lat, pt, dims)
    }
}
