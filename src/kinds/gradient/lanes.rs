//! Classic gradient noise, 1D-3D, in f32 lanes: mirrors gradient.wgsl.

use crate::kinds::Interp;
use crate::kinds::LatticeKind;
use crate::kinds::lattice::corners::corner_block;
use crate::kinds::lattice::corners::{Corners, corner_cells, interp_corners};
use crate::kinds::lattice::kernel::{InstructionSet, NoiseRow, kernels, row_of};
use crate::kinds::lattice::lane_dual::{
    CornerKind, DualBlock, NoiseRowD, corner_kinds_d, dual_kernels, row_d_of,
};
use crate::kinds::lattice::lane_hash::LaneLattice as Lattice;
use crate::kinds::lattice::lane_hash::{lattice_gradient, lattice_hash};
use crate::kinds::lattice::lanes::Points;

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

kernels! {
    Gradient1Block, 1, |lat, _k, p, out| corner_block::<Gradient, 1>(lat, p, out);
    Gradient2Block, 2, |lat, _k, p, out| corner_block::<Gradient, 2>(lat, p, out);
    Gradient3Block, 3, |lat, _k, p, out| corner_block::<Gradient, 3>(lat, p, out);
}

/// The row function of classic gradient noise in `dims` dimensions.
pub fn row(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
    match dims {
        1 => row_of!(Gradient1Block, lattice, isa),
        2 => row_of!(Gradient2Block, lattice, isa),
        _ => row_of!(Gradient3Block, lattice, isa),
    }
}

/// Classic gradient noise's corners: the lattice's gradient of the hash.
pub struct GradientCorner;

impl CornerKind for GradientCorner {
    const GRADIENT: bool = true;
    #[inline(always)]
    fn corner<const D: usize>(lat: &Lattice, h: u32) -> [f32; 4] {
        lattice_gradient(lat, h)
    }
}

/// Classic gradient noise in D dimensions with its lattice gradient over a block
/// (gradient_kinds_d).
#[inline(always)]
pub fn gradient_d<const D: usize>(lat: &Lattice, p: &Points, interp: Interp, out: &mut DualBlock) {
    corner_kinds_d::<GradientCorner, D>(lat, p, interp, 1.0, out);
}

dual_kernels! {
    Gradient1Dual, 1, |lat, _k, interp, p, out| gradient_d::<1>(lat, p, interp, out);
    Gradient2Dual, 2, |lat, _k, interp, p, out| gradient_d::<2>(lat, p, interp, out);
    Gradient3Dual, 3, |lat, _k, interp, p, out| gradient_d::<3>(lat, p, interp, out);
}

/// The dual row function of classic gradient noise in `dims` dimensions.
pub fn row_d(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRowD {
    match dims {
        1 => row_d_of!(Gradient1Dual, lattice, isa),
        2 => row_d_of!(Gradient2Dual, lattice, isa),
        _ => row_d_of!(Gradient3Dual, lattice, isa),
    }
}
