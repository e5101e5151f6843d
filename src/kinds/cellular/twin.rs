//! Cellular noise (Worley 1996), 2D and 3D; mirrors `cellular.wgsl`. One feature
//! point per cell, jittered from the seed's tables (CONVENTIONS §9); the search covers every
//! cell that can hold the nearest or second-nearest point for any jitter, so F1 and F2 are
//! exact.

use crate::kinds::lattice::hash::{hash_unit, lattice_bits};
use crate::kinds::lattice::twin::lattice_value;
use crate::kinds::lattice::twin::{
    Lattice, LatticePoint, cell_point, lattice_cell, lattice_hash, perm_at,
};
use crate::kinds::{CellReturn, Distance};

/// The metric's internal value of an offset (squared for the Euclidean metrics, so that
/// comparisons need no square root).
#[inline(always)]
pub fn cell_metric(d: [f64; 3], distance: Distance) -> f64 {
    match distance {
        Distance::Euclidean | Distance::EuclideanSquared => d[0] * d[0] + d[1] * d[1] + d[2] * d[2],
        Distance::Manhattan => d[0].abs() + d[1].abs() + d[2].abs(),
        Distance::Chebyshev => d[0].abs().max(d[1].abs()).max(d[2].abs()),
    }
}

/// The distance an internal metric value stands for.
#[inline(always)]
pub fn cell_distance(m: f64, distance: Distance) -> f64 {
    match distance {
        Distance::Euclidean => m.sqrt(),
        _ => m,
    }
}

/// Per axis, how far the fraction `f` is from cell offset `o`'s nearest side (0 inside it).
#[inline(always)]
pub fn cell_gap(f: f64, o: i64) -> f64 {
    if o > 0 {
        o as f64 - f
    } else if o < 0 {
        f - (o + 1) as f64
    } else {
        0.0
    }
}

/// The feature point of a cell relative to the cell's corner: `0.5 + jitter (u - 0.5)` per
/// axis, `u = (V[P[h + a]] + 1) / 2` (table) or the unit float of `hash_bits(h, a)` (hash;
/// `prime_bits` on the prime lattice).
#[inline(always)]
pub fn feature_point(lat: &Lattice, h: usize, a: usize) -> f64 {
    let u = if lat.hashed() {
        hash_unit(lattice_bits(lat.prime(), h as u32, a as u32))
    } else {
        (lat.values[perm_at(lat.perm, h + a)] + 1.0) * 0.5
    };
    0.5 + lat.params.cellular.jitter * (u - 0.5)
}

/// The two smallest distances (internal metric values) and the nearest cell's hash.
#[derive(Clone, Copy, Debug)]
pub struct Nearest {
    /// F1 and F2 as internal metric values.
    pub m: [f64; 2],
    /// The hash of F1's cell.
    pub hash: usize,
}

/// The search's k-th offset along an axis, centre outwards: 0, -1, 1, -2, 2, ...
#[inline(always)]
pub const fn search_offset(k: i64) -> i64 {
    if k % 2 == 1 { -(k + 1) / 2 } else { k / 2 }
}

/// Searches the cells around the point (offsets -search..=search on each axis, centre outwards)
/// for the two nearest feature points. A cell is skipped when no point in it can change the
/// result: its gap to the point reaches the bound for any jitter, or the F2 found so far (F1
/// where the return needs only F1's distance or cell; so the result is the same as visiting
/// every cell; visiting near cells first makes the skips come early).
pub fn cellular_search(lat: &Lattice, pt: &LatticePoint, dims: usize) -> Nearest {
    let params = &lat.params.cellular;
    let c = cell_point(pt, dims);
    let r = params.cell_search;
    let mut best = Nearest {
        m: [f64::INFINITY, f64::INFINITY],
        hash: 0,
    };
    let rz = if dims == 3 { r } else { 0 };
    // The distance a cell must beat to change the result: F2, or F1 alone.
    let needed = usize::from(needs_f2(params.cell_return));
    for kz in 0..=2 * rz {
        for ky in 0..=2 * r {
            for kx in 0..=2 * r {
                let o = [kx, ky, kz].map(search_offset);
                let gap = [0, 1, 2].map(|a| {
                    if a < dims {
                        cell_gap(c.frac[a], o[a])
                    } else {
                        0.0
                    }
                });
                if cell_metric(gap, params.distance) >= params.cell_bound.min(best.m[needed]) {
                    continue;
                }
                let mut cells = [0u32; 4];
                for a in 0..dims {
                    cells[a] = lattice_cell(c.base[a] + o[a], lat.period[a]);
                }
                let h = lattice_hash(lat, cells, dims);
                let mut d = [0.0f64; 3];
                for a in 0..dims {
                    d[a] = o[a] as f64 + feature_point(lat, h, a) - c.frac[a];
                }
                let m = cell_metric(d, params.distance);
                if m < best.m[0] {
                    best = Nearest {
                        m: [m, best.m[0]],
                        hash: h,
                    };
                } else if m < best.m[1] {
                    best.m[1] = m;
                }
            }
        }
    }
    best
}

/// Whether the return reads F2 (else the search only has to find F1 and its cell).
#[inline(always)]
pub fn needs_f2(cell_return: CellReturn) -> bool {
    !matches!(cell_return, CellReturn::F1 | CellReturn::CellValue)
}

/// Cellular noise in `dims` (2 or 3) dimensions, scaled to about [-1, 1] (CONVENTIONS §9).
pub fn cellular(lat: &Lattice, pt: &LatticePoint, dims: usize) -> f64 {
    let params = &lat.params.cellular;
    let near = cellular_search(lat, pt, dims);
    let d1 = cell_distance(near.m[0], params.distance) * params.distance_scale;
    let d2 = cell_distance(near.m[1], params.distance) * params.distance_scale;
    let q = match params.cell_return {
        CellReturn::F1 => d1,
        CellReturn::F2 => d2,
        CellReturn::F2MinusF1 => d2 - d1,
        CellReturn::F1TimesF2 => d1 * d2,
        CellReturn::CellValue => return lattice_value(lat, near.hash),
    };
    q * params.return_scale - 1.0
}
