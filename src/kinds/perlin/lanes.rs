//! Ken Perlin's improved noise, 1D-4D, in f32: one kernel per dimension written once over
//! [`Wide`] (16 lanes on AVX-512, AVX2 or any CPU), mirroring perlin.wgsl function by function.
//! Each corner's gradient is picked by a permute of a table indexed by the hash's low bits
//! (`gradients.rs`, built from the gradient functions). The corner hashes come from one of two
//! places: a row's cells stepped in registers (`lattice::wide`, hash lattices, untiled,
//! quintic) or the lanes' points (`Points`: every lattice, tiling and interpolation).

use super::gradients::{GRAD1, GRAD2, GRAD3, GRAD4};
use crate::kinds::lattice::block_hashes::{block_axes, block_hashes};
use crate::kinds::lattice::kernel::{InstructionSet, Kernel, NoiseRow, row_of};
use crate::kinds::lattice::lane_dual::{CornerDual, CornerKind, NoiseRowD, row_d_of};
use crate::kinds::lattice::lane_hash::LaneLattice as Lattice;
use crate::kinds::lattice::lanes::{LANES, Points};
use crate::kinds::lattice::wide::frame::{AxisPoint, weights};
use crate::kinds::lattice::wide::{Wide, interp_corners, lerp, unrolled};
use crate::kinds::{Interp, KindState, LatticeKind};

const PERLIN1_SCALE: f32 = crate::kinds::perlin::twin::PERLIN1_SCALE as f32;
const PERLIN2_SCALE: f32 = crate::kinds::perlin::twin::PERLIN2_SCALE as f32;

/// Each lane's offset from its lower and its upper corner along one axis.
#[inline(always)]
fn offsets<W: Wide>(s: W, p: &AxisPoint<W>) -> [W::F; 2] {
    [p.frac, s.sub(p.frac, s.splat(1.0))]
}

/// 1D Perlin noise (perlin1): each corner's `grad1`, blended, scaled.
#[inline(always)]
pub fn perlin1<W: Wide>(s: W, h: &[W::U; 16], p: &[AxisPoint<W>; 4]) -> W::F {
    let x = offsets(s, &p[0]);
    let table = s.load(&GRAD1);
    let g0 = s.mul(s.permute16(h[0], table), x[0]);
    let g1 = s.mul(s.permute16(h[1], table), x[1]);
    s.mul(s.splat(PERLIN1_SCALE), lerp(s, p[0].weight, g0, g1))
}

/// 2D Perlin noise (perlin2): the corners' `g . d` (mul, mul, add), blended, scaled.
#[inline(always)]
pub fn perlin2<W: Wide>(s: W, h: &[W::U; 16], p: &[AxisPoint<W>; 4]) -> W::F {
    let (x, y) = (offsets(s, &p[0]), offsets(s, &p[1]));
    let table = [s.load(&GRAD2[0]), s.load(&GRAD2[1])];
    let mut dot = [s.splat(0.0); 4];
    unrolled!(n in [0, 1, 2, 3] {
        let gx = s.permute16(h[n], table[0]);
        let gy = s.permute16(h[n], table[1]);
        dot[n] = s.add(s.mul(gx, x[n & 1]), s.mul(gy, y[n >> 1]));
    });
    let wx = p[0].weight;
    let v = lerp(
        s,
        p[1].weight,
        lerp(s, wx, dot[0], dot[1]),
        lerp(s, wx, dot[2], dot[3]),
    );
    s.mul(s.splat(PERLIN2_SCALE), v)
}

/// 3D Perlin noise (perlin3), Ken Perlin's reference: each corner's `grad3` as
/// `gx dx + gy dy + gz dz` with components 0 or +-1 (exact products, so one rounding, as his
/// `u + v`), then the lerps.
#[inline(always)]
pub fn perlin3<W: Wide>(s: W, h: &[W::U; 16], p: &[AxisPoint<W>; 4]) -> W::F {
    let d = [offsets(s, &p[0]), offsets(s, &p[1]), offsets(s, &p[2])];
    let table = [s.load(&GRAD3[0]), s.load(&GRAD3[1]), s.load(&GRAD3[2])];
    let mut dot = [s.splat(0.0); 8];
    unrolled!(n in [0, 1, 2, 3, 4, 5, 6, 7] {
        let g = [
            s.permute16(h[n], table[0]),
            s.permute16(h[n], table[1]),
            s.permute16(h[n], table[2]),
        ];
        let (dx, dy, dz) = (d[0][n & 1], d[1][(n >> 1) & 1], d[2][n >> 2]);
        dot[n] = s.mul_exact_add(g[0], dx, s.mul_exact_add(g[1], dy, s.mul(g[2], dz)));
    });
    let w = [p[0].weight, p[1].weight, p[2].weight];
    let y0 = lerp(
        s,
        w[1],
        lerp(s, w[0], dot[0], dot[1]),
        lerp(s, w[0], dot[2], dot[3]),
    );
    let y1 = lerp(
        s,
        w[1],
        lerp(s, w[0], dot[4], dot[5]),
        lerp(s, w[0], dot[6], dot[7]),
    );
    lerp(s, w[2], y0, y1)
}

/// 4D Perlin noise (perlin4): each corner's 4D gradient (`h & 31`) dotted with its offset,
/// summed from zero axis by axis, then blended x first (`interp_corners`).
#[inline(always)]
pub fn perlin4<W: Wide>(s: W, h: &[W::U; 16], p: &[AxisPoint<W>; 4]) -> W::F {
    let d = [
        offsets(s, &p[0]),
        offsets(s, &p[1]),
        offsets(s, &p[2]),
        offsets(s, &p[3]),
    ];
    let mut v = [s.splat(0.0); 16];
    unrolled!(n in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
        let mut sum = s.splat(0.0);
        unrolled!(a in [0, 1, 2, 3] {
            let g = s.lookup32(h[n], &GRAD4[a]);
            sum = s.add(sum, s.mul(g, d[a][(n >> a) & 1]));
        });
        v[n] = sum;
    });
    interp_corners::<W, 4>(s, v, weights(p))
}

/// Perlin noise in `D` dimensions from its corner hashes.
#[inline(always)]
pub fn perlin<W: Wide, const D: usize>(s: W, h: &[W::U; 16], p: &[AxisPoint<W>; 4]) -> W::F {
    match D {
        1 => perlin1(s, h, p),
        2 => perlin2(s, h, p),
        3 => perlin3(s, h, p),
        _ => perlin4(s, h, p),
    }
}

/// Perlin noise in `D` dimensions over a block of the lanes' points, on lattice `L` (a
/// `LatticeKind` code).
pub struct PerlinBlock<const D: usize, const L: u32>;

impl<const D: usize, const L: u32> Kernel for PerlinBlock<D, L> {
    const DIMS: usize = D;
    const LATTICE: u32 = L;
    #[inline(always)]
    fn block<W: Wide>(s: W, lat: &Lattice, _: &KindState, p: &Points, out: &mut [f32; LANES]) {
        let h = block_hashes::<W, D, false>(s, lat, p);
        s.store(out, perlin::<W, D>(s, &h, &block_axes::<W, D>(s, p)));
    }
}

type Perlin1Block<const L: u32> = PerlinBlock<1, L>;
type Perlin2Block<const L: u32> = PerlinBlock<2, L>;
type Perlin3Block<const L: u32> = PerlinBlock<3, L>;
type Perlin4Block<const L: u32> = PerlinBlock<4, L>;

/// The row function of Perlin noise in `dims` dimensions.
pub fn row(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
    match dims {
        1 => row_of!(Perlin1Block, lattice, isa),
        2 => row_of!(Perlin2Block, lattice, isa),
        3 => row_of!(Perlin3Block, lattice, isa),
        _ => row_of!(Perlin4Block, lattice, isa),
    }
}

/// Perlin noise as wide rows: its cells stepped in registers and hashed there.
#[cfg(target_arch = "x86_64")]
mod rows {
    use super::*;
    use crate::kinds::lattice::wide::hash::point_corner_hashes;
    use crate::kinds::lattice::wide::row::{WideKernel, pick};

    /// Perlin noise in `D` dimensions as a wide row.
    pub struct PerlinRow<const D: usize>;

    impl<const D: usize> WideKernel for PerlinRow<D> {
        const DIMS: usize = D;
        #[inline(always)]
        fn block<W: Wide, const PRIME: bool>(
            s: W,
            seed: u32,
            _: &KindState,
            p: &[AxisPoint<W>; 4],
        ) -> W::F {
            let h = point_corner_hashes::<W, D, PRIME>(s, seed, p);
            perlin::<W, D>(s, &h, p)
        }
        fn lanes(lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
            row(D as u32, Interp::Quintic, lattice, isa)
        }
    }

    /// Perlin noise's wide row, where the instruction set and lattice have one.
    pub fn wide_row(
        dims: u32,
        _: Interp,
        lattice: LatticeKind,
        isa: InstructionSet,
    ) -> Option<NoiseRow> {
        match dims {
            1 => pick::<PerlinRow<1>>(lattice, isa),
            2 => pick::<PerlinRow<2>>(lattice, isa),
            3 => pick::<PerlinRow<3>>(lattice, isa),
            _ => pick::<PerlinRow<4>>(lattice, isa),
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::kinds::lattice::wide::row::check::wide_rows_equal_lanes;

        #[test]
        fn perlin_wide_rows_equal_the_lanes_rows() {
            let kind: KindState = bytemuck::Zeroable::zeroed();
            wide_rows_equal_lanes::<PerlinRow<1>>(&kind);
            wide_rows_equal_lanes::<PerlinRow<2>>(&kind);
            wide_rows_equal_lanes::<PerlinRow<3>>(&kind);
            wide_rows_equal_lanes::<PerlinRow<4>>(&kind);
        }
    }
}
#[cfg(target_arch = "x86_64")]
pub use rows::wide_row;

/// The gradient vector of each lane's corner hash `h` in `D` dimensions
/// (perlin_gradient_vector): the permute tables, each grad function at the unit vectors.
#[inline(always)]
pub fn perlin_gradient_vector<W: Wide, const D: usize>(s: W, h: W::U) -> [W::F; 4] {
    let mut g = [s.splat(0.0); 4];
    match D {
        1 => g[0] = s.permute16(h, s.load(&GRAD1)),
        2 => {
            g[0] = s.permute16(h, s.load(&GRAD2[0]));
            g[1] = s.permute16(h, s.load(&GRAD2[1]));
        }
        3 => {
            g[0] = s.permute16(h, s.load(&GRAD3[0]));
            g[1] = s.permute16(h, s.load(&GRAD3[1]));
            g[2] = s.permute16(h, s.load(&GRAD3[2]));
        }
        _ => {
            unrolled!(a in [0, 1, 2, 3] {
                g[a] = s.lookup32(h, &GRAD4[a]);
            });
        }
    }
    g
}

/// Perlin noise's corners: `perlin_gradient_vector` of the hash.
pub struct PerlinCorner;

impl CornerKind for PerlinCorner {
    const GRADIENT: bool = true;
    #[inline(always)]
    fn corner<W: Wide, const D: usize>(s: W, _: &Lattice, h: W::U) -> [W::F; 4] {
        perlin_gradient_vector::<W, D>(s, h)
    }
    #[inline(always)]
    fn scale(dims: usize) -> f32 {
        match dims {
            1 => PERLIN1_SCALE,
            2 => PERLIN2_SCALE,
            _ => 1.0,
        }
    }
}

type Perlin1Dual<const L: u32> = CornerDual<PerlinCorner, 1, L>;
type Perlin2Dual<const L: u32> = CornerDual<PerlinCorner, 2, L>;
type Perlin3Dual<const L: u32> = CornerDual<PerlinCorner, 3, L>;
type Perlin4Dual<const L: u32> = CornerDual<PerlinCorner, 4, L>;

/// The dual row function of Perlin noise in `dims` dimensions.
pub fn row_d(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRowD {
    match dims {
        1 => row_d_of!(Perlin1Dual, lattice, isa),
        2 => row_d_of!(Perlin2Dual, lattice, isa),
        3 => row_d_of!(Perlin3Dual, lattice, isa),
        _ => row_d_of!(Perlin4Dual, lattice, isa),
    }
}

#[cfg(test)]
mod tests {
    use super::super::gradients::{grad1, grad2_vector, grad3};
    use super::*;
    use crate::kinds::lattice::kernel::check::{
        CORNER_INTERPS, every_isa_gives_the_portable_bits, no_params,
    };
    use crate::tables::PERLIN2_GRADIENTS;

    #[test]
    fn grad2_from_bits_is_the_tables_gradient() {
        for h in 0..64u32 {
            let g = PERLIN2_GRADIENTS[(h & 15) as usize];
            assert_eq!(grad2_vector(h), [g[0] as f32, g[1] as f32], "hash {h}");
        }
    }

    /// The permute tables are the gradient functions: `grad1`, `grad2_vector` and `grad3` at
    /// every hash 0..64 and offsets with both signs, against the tables' products and sums.
    #[test]
    fn the_permute_tables_are_the_gradient_functions() {
        for h in 0..64u32 {
            let i = (h & 15) as usize;
            for x in [0.25f32, -0.75, 0.5] {
                assert_eq!(grad1(h, x), GRAD1[i] * x, "grad1 of hash {h}");
                let (y, z) = (x * 0.5 - 0.125, 1.0 - x);
                let dot = GRAD3[0][i] * x + GRAD3[1][i] * y + GRAD3[2][i] * z;
                assert_eq!(grad3(h, x, y, z), dot, "grad3 of hash {h}");
            }
            assert_eq!(grad2_vector(h), [GRAD2[0][i], GRAD2[1][i]]);
        }
    }

    /// Every instruction set gives the portable kernel's bits on every lattice and
    /// interpolation (`kernel::check`).
    #[test]
    fn every_instruction_set_gives_the_portable_kernels_bits() {
        every_isa_gives_the_portable_bits(
            "Perlin",
            &CORNER_INTERPS,
            &super::super::PERLIN,
            &no_params(),
        );
    }
}
