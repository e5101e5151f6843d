//! Sparse convolution (Lewis 1989) and Gabor noise (Lagae, Lefebvre, Drettakis, Dutre 2009):
//! random impulses per lattice cell, convolved with a kernel; mirrors
//! `impulse.wgsl`. Each cell's impulses come from a small integer generator seeded
//! by the cell's lattice hash, and their count from an integer Poisson table, so the CPU and the
//! GPU place exactly the same impulses (CONVENTIONS §10-§11).

use std::f64::consts::PI;

use crate::kinds::MAX_IMPULSES;
use crate::kinds::cellular::twin::cell_gap;
use crate::kinds::lattice::twin::{
    CellPoint, Lattice, LatticePoint, cell_point, lattice_cell, lattice_hash,
};

/// PCG-RXS-M-XS 32 (O'Neill 2014; the `pcg_hash` of Jarzynski and Olano 2020): advances the
/// state and returns 32 random bits.
#[inline(always)]
pub fn pcg_next(state: &mut u32) -> u32 {
    *state = state.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    let s = *state;
    let word = ((s >> ((s >> 28) + 4)) ^ s).wrapping_mul(277_803_737);
    (word >> 22) ^ word
}

/// A unit float from 32 random bits: the top 24 bits times 2^-24 (exact in f32 and f64).
#[inline(always)]
pub fn unit_from_bits(bits: u32) -> f64 {
    f64::from(bits >> 8) * (1.0 / 16_777_216.0)
}

/// A cell's impulse count: the first k with `u < T_k` for the Poisson thresholds T.
#[inline(always)]
pub fn impulse_count(state: &mut u32, thresholds: &[u32; MAX_IMPULSES]) -> usize {
    let u = pcg_next(state);
    thresholds
        .iter()
        .position(|&t| u < t)
        .unwrap_or(MAX_IMPULSES)
}

/// The cell offsets within `reach` cells whose nearest point is closer than `radius` to the
/// point with fraction `frac`, with each such cell's generator state (its lattice hash).
fn cells_in_reach(
    lat: &Lattice,
    pt: &LatticePoint,
    dims: usize,
    reach: i64,
    radius: f64,
    mut visit: impl FnMut([f64; 3], u32),
) {
    let c = cell_point(pt, dims);
    let z_range = if dims == 3 { -reach..=reach } else { 0..=0 };
    for oz in z_range {
        for oy in -reach..=reach {
            for ox in -reach..=reach {
                let o = [ox, oy, oz];
                if cell_gap2(&c, o, dims) >= radius * radius {
                    continue;
                }
                let state = impulse_cell_state(lat, &c, o, dims);
                // The point relative to this cell's corner.
                let rel = [0, 1, 2].map(|a| {
                    if a < dims {
                        c.frac[a] - o[a] as f64
                    } else {
                        0.0
                    }
                });
                visit(rel, state);
            }
        }
    }
}

/// A cell's generator state (CONVENTIONS §10): with the table, the 8-bit hashes of the cell and
/// of its diagonal neighbour (+1 on every axis), `h1 | h2 << 8`; with the hash lattice, the
/// cell's 32-bit hash; XOR the seed's salt.
#[inline(always)]
pub fn impulse_cell_state(lat: &Lattice, c: &CellPoint, o: [i64; 3], dims: usize) -> u32 {
    let mut cells = [0u32; 4];
    let mut next = [0u32; 4];
    for a in 0..dims {
        cells[a] = lattice_cell(c.base[a] + o[a], lat.period[a]);
        next[a] = lattice_cell(c.base[a] + o[a] + 1, lat.period[a]);
    }
    let h1 = lattice_hash(lat, cells, dims) as u32;
    if lat.hashed() {
        return h1 ^ lat.salt;
    }
    let h2 = lattice_hash(lat, next, dims) as u32;
    (h1 | (h2 << 8)) ^ lat.salt
}

/// The squared distance from the point to the nearest side of cell offset `o`.
#[inline(always)]
pub fn cell_gap2(c: &CellPoint, o: [i64; 3], dims: usize) -> f64 {
    let mut gap2 = 0.0;
    for a in 0..dims {
        let g = cell_gap(c.frac[a], o[a]);
        gap2 += g * g;
    }
    gap2
}

/// The sparse-convolution kernel `0.5 + 0.5 cos(pi r)` for r < 1.
#[inline(always)]
pub fn sparse_kernel(r2: f64) -> f64 {
    if r2 < 1.0 {
        0.5 + 0.5 * (PI * r2.sqrt()).cos()
    } else {
        0.0
    }
}

/// Sparse convolution noise in `dims` (2 or 3) dimensions: impulses at uniform positions in
/// their cells with weights uniform in [-1, 1], under `sparse_kernel`, times `1 / (3 sigma)`.
pub fn sparse_convolution(lat: &Lattice, pt: &LatticePoint, dims: usize) -> f64 {
    let params = &lat.params.impulse;
    let mut sum = 0.0;
    cells_in_reach(lat, pt, dims, 1, 1.0, |rel, mut state| {
        let count = impulse_count(&mut state, &params.poisson);
        for _ in 0..count {
            let mut r2 = 0.0;
            for a in 0..dims {
                let d = rel[a] - unit_from_bits(pcg_next(&mut state));
                r2 += d * d;
            }
            let weight = 2.0 * unit_from_bits(pcg_next(&mut state)) - 1.0;
            sum += weight * sparse_kernel(r2);
        }
    });
    sum * params.impulse_scale
}

/// The Gabor kernel `exp(-pi a^2 |d|^2) cos(2 pi F0 (w . d))`, zero beyond the truncation
/// radius (where the envelope falls below 5%).
#[inline(always)]
pub fn gabor_kernel(d: [f64; 2], w: [f64; 2], frequency: f64, bandwidth: f64, radius: f64) -> f64 {
    let r2 = d[0] * d[0] + d[1] * d[1];
    if r2 >= radius * radius {
        return 0.0;
    }
    let envelope = (-PI * bandwidth * bandwidth * r2).exp();
    envelope * (2.0 * PI * frequency * (w[0] * d[0] + w[1] * d[1])).cos()
}

/// 2D Gabor noise: impulses as in sparse convolution under the Gabor kernel, with a fixed
/// direction or (isotropic) a random one per impulse, times `1 / (3 sigma)`.
pub fn gabor(lat: &Lattice, pt: &LatticePoint) -> f64 {
    let params = &lat.params.impulse;
    let (frequency, bandwidth, radius) = (
        params.gabor_frequency,
        params.gabor_bandwidth,
        params.gabor_radius,
    );
    let mut sum = 0.0;
    cells_in_reach(lat, pt, 2, params.gabor_reach, radius, |rel, mut state| {
        let count = impulse_count(&mut state, &params.poisson);
        for _ in 0..count {
            let dx = rel[0] - unit_from_bits(pcg_next(&mut state));
            let dy = rel[1] - unit_from_bits(pcg_next(&mut state));
            let weight = 2.0 * unit_from_bits(pcg_next(&mut state)) - 1.0;
            let w = if params.gabor_isotropic {
                let angle = 2.0 * PI * unit_from_bits(pcg_next(&mut state));
                [angle.cos(), angle.sin()]
            } else {
                params.gabor_direction
            };
            sum += weight * gabor_kernel([dx, dy], w, frequency, bandwidth, radius);
        }
    });
    sum * params.impulse_scale
}
