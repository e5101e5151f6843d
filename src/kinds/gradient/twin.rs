//! Classic gradient noise (1985 style) with seed-drawn unit gradients, 1D-3D;
//! mirrors `shaders/gradient.wgsl`.

use crate::kinds::lattice::dual::{Dual, gradient_corners_d};
use crate::kinds::lattice::twin::{CellFrame, Lattice, LatticePoint, cell_frame, interp_corners};
use crate::kinds::lattice::twin::{lattice_gradient, lattice_hash};

/// Gradient noise in `dims` (1..=3) dimensions: corner value `G[hash] . d`, d from the corner
/// to the point, interpolated with the lattice's weights.
pub fn gradient(lat: &Lattice, pt: &LatticePoint, dims: usize) -> f64 {
    let CellFrame {
        cells,
        frac,
        weight,
    } = cell_frame(lat, pt, dims);
    let mut v = [0.0; 16];
    for (n, slot) in v.iter_mut().enumerate().take(1 << dims) {
        let mut corner = [0u32; 4];
        let mut dot = 0.0;
        let h = {
            for a in 0..dims {
                corner[a] = cells[a][(n >> a) & 1];
            }
            lattice_hash(lat, corner, dims)
        };
        let g = lattice_gradient(lat, h);
        for a in 0..dims {
            dot += f64::from(g[a]) * (frac[a] - ((n >> a) & 1) as f64);
        }
        *slot = dot;
    }
    interp_corners(&mut v, &weight, dims)
}

/// Classic gradient noise with its gradient: corners `G[h] . (f - b)` (CONVENTIONS §12).
pub fn gradient_d(lat: &Lattice, pt: &LatticePoint, dims: usize) -> Dual {
    gradient_corners_d(
        lat,
        pt,
        dims,
        |h| lattice_gradient(lat, h).map(f64::from),
        1.0,
    )
}
