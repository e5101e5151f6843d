//! Classic gradient noise, 1D-3D, in f32: one kernel written once over [`Wide`] (16 lanes on
//! AVX-512, AVX2 or any CPU), mirroring gradient.wgsl. Each corner's gradient is a gather from
//! the seed's 256 unit gradients (`lattice_gradient`), indexed by the corner hash.

use crate::kinds::lattice::block_hashes::{block_axes, block_hashes};
use crate::kinds::lattice::kernel::{InstructionSet, Kernel, NoiseRow, row_of};
use crate::kinds::lattice::lane_dual::{
    CornerDual, CornerKind, NoiseRowD, corner_offset, row_d_of,
};
use crate::kinds::lattice::lane_hash::LaneLattice as Lattice;
use crate::kinds::lattice::lanes::{LANES, Points};
use crate::kinds::lattice::wide::frame::{AxisPoint, weights};
use crate::kinds::lattice::wide::{Wide, interp_corners, unrolled};
use crate::kinds::{Interp, KindState, LatticeKind};

/// The seed's gradient of each lane's corner hash `h`, zero past component `D`
/// (lattice_gradient).
#[inline(always)]
pub fn lattice_gradient<W: Wide, const D: usize>(s: W, lat: &Lattice, h: W::U) -> [W::F; 4] {
    let mut g = [s.splat(0.0); 4];
    unrolled!(a in [0, 1, 2] {
        if a < D {
            g[a] = s.gather_column(h, lat.gradients, a);
        }
    });
    g
}

/// Classic gradient noise in `D` (1..=3) dimensions (gradient): each corner's `G[hash] . d`
/// summed from zero axis by axis, interpolated x first.
#[inline(always)]
pub fn gradient<W: Wide, const D: usize>(
    s: W,
    lat: &Lattice,
    h: &[W::U; 16],
    p: &[AxisPoint<W>; 4],
) -> W::F {
    let mut v = [s.splat(0.0); 16];
    unrolled!(n in [0, 1, 2, 3, 4, 5, 6, 7] {
        if n < 1 << D {
            let g = lattice_gradient::<W, D>(s, lat, h[n]);
            let mut dot = s.splat(0.0);
            unrolled!(a in [0, 1, 2] {
                if a < D {
                    dot = s.add(dot, s.mul(g[a], corner_offset(s, &p[a], n >> a)));
                }
            });
            v[n] = dot;
        }
    });
    interp_corners::<W, D>(s, v, weights(p))
}

/// Classic gradient noise in `D` dimensions over a block of the lanes' points, on lattice `L`
/// (a `LatticeKind` code).
pub struct GradientBlock<const D: usize, const L: u32>;

impl<const D: usize, const L: u32> Kernel for GradientBlock<D, L> {
    const DIMS: usize = D;
    const LATTICE: u32 = L;
    #[inline(always)]
    fn block<W: Wide>(s: W, lat: &Lattice, _: &KindState, p: &Points, out: &mut [f32; LANES]) {
        let h = block_hashes::<W, D, false>(s, lat, p);
        s.store(out, gradient::<W, D>(s, lat, &h, &block_axes::<W, D>(s, p)));
    }
}

type Gradient1Block<const L: u32> = GradientBlock<1, L>;
type Gradient2Block<const L: u32> = GradientBlock<2, L>;
type Gradient3Block<const L: u32> = GradientBlock<3, L>;

/// The row function of classic gradient noise in `dims` dimensions.
pub fn row(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
    match dims {
        1 => row_of!(Gradient1Block, lattice, isa),
        2 => row_of!(Gradient2Block, lattice, isa),
        _ => row_of!(Gradient3Block, lattice, isa),
    }
}

/// Classic gradient noise's corners: the seed's gradient of the hash.
pub struct GradientCorner;

impl CornerKind for GradientCorner {
    const GRADIENT: bool = true;
    #[inline(always)]
    fn corner<W: Wide, const D: usize>(s: W, lat: &Lattice, h: W::U) -> [W::F; 4] {
        lattice_gradient::<W, D>(s, lat, h)
    }
}

type Gradient1Dual<const L: u32> = CornerDual<GradientCorner, 1, L>;
type Gradient2Dual<const L: u32> = CornerDual<GradientCorner, 2, L>;
type Gradient3Dual<const L: u32> = CornerDual<GradientCorner, 3, L>;

/// The dual row function of classic gradient noise in `dims` dimensions.
pub fn row_d(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRowD {
    match dims {
        1 => row_d_of!(Gradient1Dual, lattice, isa),
        2 => row_d_of!(Gradient2Dual, lattice, isa),
        _ => row_d_of!(Gradient3Dual, lattice, isa),
    }
}

#[cfg(test)]
mod tests {
    use crate::kinds::lattice::kernel::check::{
        CORNER_INTERPS, every_isa_gives_the_portable_bits, no_params,
    };

    /// Every instruction set gives the portable kernel's bits on every lattice and
    /// interpolation (`kernel::check`).
    #[test]
    fn every_instruction_set_gives_the_portable_kernels_bits() {
        every_isa_gives_the_portable_bits(
            "gradient",
            &CORNER_INTERPS,
            &super::super::GRADIENT,
            &no_params(),
        );
    }
}
