//! Classic gradient noise, 1D-3D, in f32 lanes: mirrors gradient.wgsl.

use super::corners::{Corners, corner_cells, interp_corners};
use super::hash::LaneLattice as Lattice;
use super::hash::{lattice_gradient, lattice_hash};

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
