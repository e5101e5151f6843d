//! Value noise, 1D-4D and Catmull-Rom, in f32: the corner kinds one kernel per dimension
//! written once over [`Wide`] (16 lanes on AVX-512, AVX2 or any CPU), Catmull-Rom's lattice
//! values read lane by lane and reduced in registers; mirrors value.wgsl function by function.
//! The corner hashes come from a row's cells stepped in registers (`lattice::wide`: hash
//! lattices, untiled, quintic) or from the lanes' points (every lattice, tiling and
//! interpolation).

use crate::kinds::lattice::block_hashes::{block_axes, block_hashes};
use crate::kinds::lattice::kernel::{InstructionSet, Kernel, NoiseRow, row_of};
use crate::kinds::lattice::lane_dual::{
    CornerDual, CornerKind, DualBlock, KernelD, NoiseRowD, row_d_of,
};
use crate::kinds::lattice::lane_hash::LaneLattice as Lattice;
use crate::kinds::lattice::lane_hash::{lattice_hash, lattice_value};
use crate::kinds::lattice::lanes::LANES;
use crate::kinds::lattice::lanes::{Points, cell_offset, lattice_cell};
use crate::kinds::lattice::wide::frame::{AxisPoint, weights};
use crate::kinds::lattice::wide::hash::hash_value;
use crate::kinds::lattice::wide::{
    Wide, catmull_rom, catmull_rom_derivative, interp_corners, unrolled,
};
use crate::kinds::{Interp, KindState, LatticeKind};

/// Value noise in `D` dimensions (value1..value4 in value.wgsl) from its corners' lattice
/// values, interpolated x first (`interp_corners`).
#[inline(always)]
pub fn value<W: Wide, const D: usize>(s: W, v: [W::F; 16], p: &[AxisPoint<W>; 4]) -> W::F {
    interp_corners::<W, D>(s, v, weights(p))
}

/// Value noise in `D` dimensions over a block of the lanes' points, on lattice `L` (a
/// `LatticeKind` code).
pub struct ValueBlock<const D: usize, const L: u32>;

impl<const D: usize, const L: u32> Kernel for ValueBlock<D, L> {
    const DIMS: usize = D;
    const LATTICE: u32 = L;
    #[inline(always)]
    fn block<W: Wide>(s: W, lat: &Lattice, _: &KindState, p: &Points, out: &mut [f32; LANES]) {
        let h = ValueCorner::hashes::<W, D>(s, lat, p);
        let mut v = [s.splat(0.0); 16];
        unrolled!(n in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
            if n < 1 << D {
                v[n] = corner_value(s, lat, h[n]);
            }
        });
        s.store(out, value::<W, D>(s, v, &block_axes::<W, D>(s, p)));
    }
}

/// A corner's lattice value from [`ValueCorner::hashes`]: from a hash lattice's hash bits, or
/// the permutation table's value bits.
#[inline(always)]
fn corner_value<W: Wide>(s: W, lat: &Lattice, h: W::U) -> W::F {
    if lat.hashed {
        hash_value(s, h)
    } else {
        s.bits_f(h)
    }
}

type Value1Block<const L: u32> = ValueBlock<1, L>;
type Value2Block<const L: u32> = ValueBlock<2, L>;
type Value3Block<const L: u32> = ValueBlock<3, L>;
type Value4Block<const L: u32> = ValueBlock<4, L>;

/// Value noise as wide rows: its cells stepped in registers and hashed there.
#[cfg(target_arch = "x86_64")]
mod rows {
    use super::*;
    use crate::kinds::lattice::wide::hash::point_corner_hashes;
    use crate::kinds::lattice::wide::row::{WideKernel, pick};

    /// The lattice values of the 2^D corners on a hash lattice: from each corner hash's bits.
    #[inline(always)]
    fn hashed_values<W: Wide, const D: usize>(s: W, h: &[W::U; 16]) -> [W::F; 16] {
        let mut v = [s.splat(0.0); 16];
        unrolled!(n in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
            if n < 1 << D {
                v[n] = hash_value(s, h[n]);
            }
        });
        v
    }

    /// Value noise in `D` dimensions as a wide row.
    pub struct ValueRow<const D: usize>;

    impl<const D: usize> WideKernel for ValueRow<D> {
        const DIMS: usize = D;
        #[inline(always)]
        fn block<W: Wide, const PRIME: bool>(
            s: W,
            seed: u32,
            _: &KindState,
            p: &[AxisPoint<W>; 4],
        ) -> W::F {
            let h = point_corner_hashes::<W, D, PRIME>(s, seed, p);
            value::<W, D>(s, hashed_values::<W, D>(s, &h), p)
        }
        fn lanes(lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
            row(D as u32, Interp::Quintic, lattice, isa)
        }
    }

    /// Value noise's wide row (not Catmull-Rom), where the instruction set and lattice have
    /// one.
    pub fn wide_row(
        dims: u32,
        interp: Interp,
        lattice: LatticeKind,
        isa: InstructionSet,
    ) -> Option<NoiseRow> {
        match (dims, interp) {
            (_, Interp::CatmullRom) => None,
            (1, _) => pick::<ValueRow<1>>(lattice, isa),
            (2, _) => pick::<ValueRow<2>>(lattice, isa),
            (3, _) => pick::<ValueRow<3>>(lattice, isa),
            _ => pick::<ValueRow<4>>(lattice, isa),
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::kinds::lattice::wide::row::check::wide_rows_equal_lanes;

        #[test]
        fn value_wide_rows_equal_the_lanes_rows() {
            let kind: KindState = bytemuck::Zeroable::zeroed();
            wide_rows_equal_lanes::<ValueRow<1>>(&kind);
            wide_rows_equal_lanes::<ValueRow<2>>(&kind);
            wide_rows_equal_lanes::<ValueRow<3>>(&kind);
            wide_rows_equal_lanes::<ValueRow<4>>(&kind);
        }
    }
}
#[cfg(target_arch = "x86_64")]
pub use rows::wide_row;

/// Every lane's `N = 4^D` lattice values for Catmull-Rom, value-major: cells -1..=2 around
/// the lane's cell per axis, x fastest. Read lane by lane and never inlined: inlined into the
/// AVX-512 lane loop, the per-lane Catmull-Rom gave some lanes of a 2D block wrong values with
/// rustc 1.95 (the SIMD tests caught it). `N` sizes the array (a zeroed 4^4-value array per
/// block cost 3D on the prime lattice a quarter of its speed).
#[inline(never)]
fn block_catmull_rom_values<const D: usize, const N: usize>(
    lat: &Lattice,
    p: &Points,
) -> [[f32; LANES]; N] {
    let mut out = [[0.0f32; LANES]; N];
    for (n, values) in out.iter_mut().enumerate() {
        for (l, value) in values.iter_mut().enumerate() {
            let mut cells = [0u32; 4];
            for a in 0..D {
                let step = ((n >> (2 * a)) & 3) as i32 - 1;
                cells[a] = lattice_cell(cell_offset(p.axis[a].cell[l], step), lat.period[a]);
            }
            *value = lattice_value(lat, lattice_hash(lat, cells, D));
        }
    }
    out
}

/// One step of the Catmull-Rom reduction along axis `a` at fraction `t`: four values (and,
/// with `DUAL`, their gradients) to one, as `value_catmull_rom_d` in value.wgsl: the four
/// gradients interpolated component by component, plus the derivative along `a`.
#[inline(always)]
fn catmull_rom_step<W: Wide, const D: usize, const DUAL: bool>(
    s: W,
    (t, a): (W::F, usize),
    q: [W::F; 4],
    g: &[[W::F; 4]],
) -> (W::F, [W::F; 4]) {
    let mut gm = [s.splat(0.0); 4];
    if DUAL {
        for c in 0..D {
            gm[c] = catmull_rom(s, t, [g[0][c], g[1][c], g[2][c], g[3][c]]);
        }
        gm[a] = s.add(gm[a], catmull_rom_derivative(s, t, q));
    }
    (catmull_rom(s, t, q), gm)
}

/// Catmull-Rom value noise of a block (`value_catmull_rom`) with, where `DUAL`, its lattice
/// gradient: 4 lattice values per axis (`4^D` in all), reduced axis x first.
#[inline(always)]
fn value_catmull_rom<W: Wide, const D: usize, const DUAL: bool>(
    s: W,
    lat: &Lattice,
    p: &Points,
) -> (W::F, [W::F; 4]) {
    match D {
        1 => reduce_catmull_rom::<W, D, DUAL>(s, p, &block_catmull_rom_values::<D, 4>(lat, p)),
        2 => reduce_catmull_rom::<W, D, DUAL>(s, p, &block_catmull_rom_values::<D, 16>(lat, p)),
        3 => reduce_catmull_rom::<W, D, DUAL>(s, p, &block_catmull_rom_values::<D, 64>(lat, p)),
        _ => reduce_catmull_rom::<W, D, DUAL>(s, p, &block_catmull_rom_values::<D, 256>(lat, p)),
    }
}

/// [`value_catmull_rom`]'s reduction of the lanes' `4^D` values, axis x first.
#[inline(always)]
fn reduce_catmull_rom<W: Wide, const D: usize, const DUAL: bool>(
    s: W,
    p: &Points,
    values: &[[f32; LANES]],
) -> (W::F, [W::F; 4]) {
    let zero = s.splat(0.0);
    let no_gradients = [[zero; 4]; 4];
    // Axis x reads the values from memory; the others reduce v and g in place.
    let mut v = [zero; 64];
    let mut g = [[zero; 4]; 64];
    let mut count = 1usize << (2 * (D - 1));
    let t = s.load(&p.axis[0].frac);
    for m in 0..count {
        let q = std::array::from_fn(|k| s.load(&values[4 * m + k]));
        (v[m], g[m]) = catmull_rom_step::<W, D, DUAL>(s, (t, 0), q, &no_gradients);
    }
    for a in 1..D {
        let t = s.load(&p.axis[a].frac);
        count /= 4;
        for m in 0..count {
            let q = [v[4 * m], v[4 * m + 1], v[4 * m + 2], v[4 * m + 3]];
            (v[m], g[m]) = catmull_rom_step::<W, D, DUAL>(s, (t, a), q, &g[4 * m..4 * m + 4]);
        }
    }
    (v[0], g[0])
}

/// Catmull-Rom value noise in `D` dimensions over a block, on lattice `L`.
pub struct CatmullRomBlock<const D: usize, const L: u32>;

impl<const D: usize, const L: u32> Kernel for CatmullRomBlock<D, L> {
    const DIMS: usize = D;
    const LATTICE: u32 = L;
    #[inline(always)]
    fn block<W: Wide>(s: W, lat: &Lattice, _: &KindState, p: &Points, out: &mut [f32; LANES]) {
        s.store(out, value_catmull_rom::<W, D, false>(s, lat, p).0);
    }
}

/// Catmull-Rom value noise in `D` dimensions with its lattice gradient, on lattice `L`.
pub struct CatmullRomDual<const D: usize, const L: u32>;

impl<const D: usize, const L: u32> KernelD for CatmullRomDual<D, L> {
    const DIMS: usize = D;
    const LATTICE: u32 = L;
    #[inline(always)]
    fn block<W: Wide>(
        s: W,
        lat: &Lattice,
        _: &KindState,
        _: Interp,
        p: &Points,
        out: &mut DualBlock,
    ) {
        let (v, g) = value_catmull_rom::<W, D, true>(s, lat, p);
        s.store(&mut out[0], v);
        for a in 0..4 {
            s.store(&mut out[1 + a], g[a]);
        }
    }
}

type CatmullRom1Block<const L: u32> = CatmullRomBlock<1, L>;
type CatmullRom2Block<const L: u32> = CatmullRomBlock<2, L>;
type CatmullRom3Block<const L: u32> = CatmullRomBlock<3, L>;
type CatmullRom4Block<const L: u32> = CatmullRomBlock<4, L>;
type CatmullRom1Dual<const L: u32> = CatmullRomDual<1, L>;
type CatmullRom2Dual<const L: u32> = CatmullRomDual<2, L>;
type CatmullRom3Dual<const L: u32> = CatmullRomDual<3, L>;
type CatmullRom4Dual<const L: u32> = CatmullRomDual<4, L>;

/// The row function of value noise in `dims` dimensions (Catmull-Rom apart).
pub fn row(dims: u32, interp: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
    match (dims, interp == Interp::CatmullRom) {
        (1, true) => row_of!(CatmullRom1Block, lattice, isa),
        (2, true) => row_of!(CatmullRom2Block, lattice, isa),
        (3, true) => row_of!(CatmullRom3Block, lattice, isa),
        (_, true) => row_of!(CatmullRom4Block, lattice, isa),
        (1, false) => row_of!(Value1Block, lattice, isa),
        (2, false) => row_of!(Value2Block, lattice, isa),
        (3, false) => row_of!(Value3Block, lattice, isa),
        (_, false) => row_of!(Value4Block, lattice, isa),
    }
}

/// Value noise's corners: the lattice value of the hash, with no gradient.
pub struct ValueCorner;

impl CornerKind for ValueCorner {
    const GRADIENT: bool = false;
    /// The corner hashes, or on the permutation table the corners' lattice value bits.
    #[inline(always)]
    fn hashes<W: Wide, const D: usize>(s: W, lat: &Lattice, p: &Points) -> [W::U; 16] {
        block_hashes::<W, D, true>(s, lat, p)
    }
    #[inline(always)]
    fn corner<W: Wide, const D: usize>(s: W, lat: &Lattice, h: W::U) -> [W::F; 4] {
        let zero = s.splat(0.0);
        [corner_value(s, lat, h), zero, zero, zero]
    }
}

type Value1Dual<const L: u32> = CornerDual<ValueCorner, 1, L>;
type Value2Dual<const L: u32> = CornerDual<ValueCorner, 2, L>;
type Value3Dual<const L: u32> = CornerDual<ValueCorner, 3, L>;
type Value4Dual<const L: u32> = CornerDual<ValueCorner, 4, L>;

/// The dual row function of value noise in `dims` dimensions (Catmull-Rom apart).
pub fn row_d(dims: u32, interp: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRowD {
    match (dims, interp == Interp::CatmullRom) {
        (1, true) => row_d_of!(CatmullRom1Dual, lattice, isa),
        (2, true) => row_d_of!(CatmullRom2Dual, lattice, isa),
        (3, true) => row_d_of!(CatmullRom3Dual, lattice, isa),
        (_, true) => row_d_of!(CatmullRom4Dual, lattice, isa),
        (1, false) => row_d_of!(Value1Dual, lattice, isa),
        (2, false) => row_d_of!(Value2Dual, lattice, isa),
        (3, false) => row_d_of!(Value3Dual, lattice, isa),
        (_, false) => row_d_of!(Value4Dual, lattice, isa),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::lattice::kernel::check::{
        CORNER_INTERPS, every_isa_gives_the_portable_bits, no_params,
    };

    /// Every instruction set gives the portable kernel's bits on every lattice and
    /// interpolation, Catmull-Rom included (`kernel::check`).
    #[test]
    fn every_instruction_set_gives_the_portable_kernels_bits() {
        let mut interps = CORNER_INTERPS.to_vec();
        interps.push(Interp::CatmullRom);
        every_isa_gives_the_portable_bits("value", &interps, &super::super::VALUE, &no_params());
    }
}
