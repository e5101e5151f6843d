//! Value noise, 1D-4D and Catmull-Rom, in f32 lanes: mirrors value.wgsl function by function.

use crate::kinds::Interp;
use crate::kinds::LatticeKind;
use crate::kinds::lattice::corners::corner_block;
use crate::kinds::lattice::corners::{Corners, corner_cells, frame, interp_corners, pad};
use crate::kinds::lattice::kernel::{InstructionSet, NoiseRow, kernels, row_of};
use crate::kinds::lattice::lane_dual::{
    CornerKind, DualBlock, LaneDual, NoiseRowD, corner_kinds_d, dual_kernels, put_lane, row_d_of,
};
use crate::kinds::lattice::lane_hash::LaneLattice as Lattice;
use crate::kinds::lattice::lane_hash::{corner_hashes2, corner_hashes2_untiled, corner_hashes3};
use crate::kinds::lattice::lane_hash::{corner_hashes3_untiled, lattice_hash, lattice_value};
use crate::kinds::lattice::lanes::LANES;
use crate::kinds::lattice::lanes::{Points, cell_offset, lattice_cell};

/// Value noise in D (1..=3) dimensions (value.wgsl): the corners' lattice values, 2D and 3D
/// through the shared corner hash chains, interpolated.
pub struct Value;

impl<const D: usize> Corners<D> for Value {
    type Corner = f32;
    #[inline(always)]
    fn corners(lat: &Lattice, lo: [u32; D], hi: [u32; D]) -> [f32; 8] {
        let h: [u32; 8] = match D {
            2 => pad(corner_hashes2(lat, [lo[0], lo[1]], [hi[0], hi[1]])),
            3 => corner_hashes3(lat, [lo[0], lo[1], lo[2]], [hi[0], hi[1], hi[2]]),
            _ => std::array::from_fn(|n| {
                lattice_hash(lat, corner_cells(&lo, &hi, n & ((1 << D) - 1)), D)
            }),
        };
        values_of(lat, &h)
    }
    #[inline(always)]
    fn corners_untiled(lat: &Lattice, lo: [u32; D]) -> [f32; 8] {
        let h: [u32; 8] = match D {
            2 => pad(corner_hashes2_untiled(lat, [lo[0], lo[1]])),
            3 => corner_hashes3_untiled(lat, [lo[0], lo[1], lo[2]]),
            _ => {
                let mut hi = lo;
                for c in &mut hi {
                    *c = c.wrapping_add(1);
                }
                return Self::corners(lat, lo, hi);
            }
        };
        values_of(lat, &h)
    }
    #[inline(always)]
    fn blend(values: &[f32; 8], _f: [f32; D], w: [f32; D]) -> f32 {
        let mut v = [0.0; 16];
        v[..8].copy_from_slice(values);
        interp_corners(&mut v, &w)
    }
}

/// The lattice values of eight corner hashes.
#[inline(always)]
fn values_of(lat: &Lattice, h: &[u32; 8]) -> [f32; 8] {
    let mut v = [0.0; 8];
    for n in 0..8 {
        v[n] = lattice_value(lat, h[n]);
    }
    v
}

/// 4D value noise, lane by lane.
#[inline(always)]
pub fn value4(lat: &Lattice, p: &Points, l: usize) -> f32 {
    let c = frame::<4>(p, l);
    let mut v = [0.0; 16];
    for (n, slot) in v.iter_mut().enumerate() {
        *slot = lattice_value(lat, lattice_hash(lat, corner_cells(&c.lo, &c.hi, n), 4));
    }
    interp_corners(&mut v, &c.w)
}

pub use crate::kinds::lattice::real::{catmull_rom, catmull_rom_derivative};

/// Lane l's `4^D` lattice values for Catmull-Rom: cells -1..=2 around its cell per axis, x
/// fastest.
#[inline(always)]
fn catmull_rom_values<const D: usize>(lat: &Lattice, p: &Points, l: usize) -> [f32; 256] {
    let mut v = [0.0f32; 256];
    for n in 0..(1usize << (2 * D)) {
        let mut cells = [0u32; 4];
        for a in 0..D {
            let step = ((n >> (2 * a)) & 3) as i32 - 1;
            cells[a] = lattice_cell(cell_offset(p.axis[a].cell[l], step), lat.period[a]);
        }
        v[n] = lattice_value(lat, lattice_hash(lat, cells, D));
    }
    v
}

/// Catmull-Rom value noise: 4 lattice values per axis (`4^D` in all), reduced axis x first.
/// Called lane by lane, never inlined: inlined into the AVX-512 lane loop, the compiler gave some
/// lanes of a 2D block wrong values with rustc 1.95 (the SIMD tests caught it; AVX2 was right).
#[inline(never)]
pub fn value_catmull_rom<const D: usize>(lat: &Lattice, p: &Points, l: usize) -> f32 {
    let mut v = catmull_rom_values::<D>(lat, p, l);
    let mut count = 1usize << (2 * D);
    for a in 0..D {
        count /= 4;
        let t = p.axis[a].frac[l];
        for m in 0..count {
            v[m] = catmull_rom(t, v[4 * m], v[4 * m + 1], v[4 * m + 2], v[4 * m + 3]);
        }
    }
    v[0]
}

kernels! {
    Value1Block, 1, |lat, _k, p, out| corner_block::<Value, 1>(lat, p, out);
    Value2Block, 2, |lat, _k, p, out| corner_block::<Value, 2>(lat, p, out);
    Value3Block, 3, |lat, _k, p, out| corner_block::<Value, 3>(lat, p, out);
    Value4Block, 4, |lat, _k, p, out| for l in 0..LANES { out[l] = value4(lat, p, l); };
    CatmullRom1Block, 1, |lat, _k, p, out| for l in 0..LANES { out[l] = value_catmull_rom::<1>(lat, p, l); };
    CatmullRom2Block, 2, |lat, _k, p, out| for l in 0..LANES { out[l] = value_catmull_rom::<2>(lat, p, l); };
    CatmullRom3Block, 3, |lat, _k, p, out| for l in 0..LANES { out[l] = value_catmull_rom::<3>(lat, p, l); };
    CatmullRom4Block, 4, |lat, _k, p, out| for l in 0..LANES { out[l] = value_catmull_rom::<4>(lat, p, l); };
}

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
    #[inline(always)]
    fn corner<const D: usize>(lat: &Lattice, h: u32) -> [f32; 4] {
        [lattice_value(lat, h), 0.0, 0.0, 0.0]
    }
}

/// Value noise in D dimensions with its lattice gradient over a block (value_d).
#[inline(always)]
pub fn value_d<const D: usize>(lat: &Lattice, p: &Points, interp: Interp, out: &mut DualBlock) {
    corner_kinds_d::<ValueCorner, D>(lat, p, interp, 1.0, out);
}

/// `catmull_rom` on the four corner gradients, component by component (catmull_rom4).
#[inline(always)]
fn catmull_rom4(t: f32, g: &[[f32; 4]]) -> [f32; 4] {
    std::array::from_fn(|c| catmull_rom(t, g[0][c], g[1][c], g[2][c], g[3][c]))
}

/// Catmull-Rom value noise with its lattice gradient (value_catmull_rom_d), never inlined as
/// [`value_catmull_rom`].
#[inline(never)]
pub fn value_catmull_rom_d<const D: usize>(lat: &Lattice, p: &Points, l: usize) -> LaneDual {
    let mut v = catmull_rom_values::<D>(lat, p, l);
    let mut g = [[0.0f32; 4]; 256];
    let mut count = 1usize << (2 * D);
    for a in 0..D {
        let t = p.axis[a].frac[l];
        count /= 4;
        for m in 0..count {
            let q = [v[4 * m], v[4 * m + 1], v[4 * m + 2], v[4 * m + 3]];
            let mut gm = catmull_rom4(t, &g[4 * m..4 * m + 4]);
            gm[a] += catmull_rom_derivative(t, q[0], q[1], q[2], q[3]);
            v[m] = catmull_rom(t, q[0], q[1], q[2], q[3]);
            g[m] = gm;
        }
    }
    (v[0], g[0])
}

dual_kernels! {
    Value1Dual, 1, |lat, _k, interp, p, out| value_d::<1>(lat, p, interp, out);
    Value2Dual, 2, |lat, _k, interp, p, out| value_d::<2>(lat, p, interp, out);
    Value3Dual, 3, |lat, _k, interp, p, out| value_d::<3>(lat, p, interp, out);
    Value4Dual, 4, |lat, _k, interp, p, out| value_d::<4>(lat, p, interp, out);
    CatmullRom1Dual, 1, |lat, _k, _i, p, out| for l in 0..LANES { put_lane(out, l, value_catmull_rom_d::<1>(lat, p, l)) };
    CatmullRom2Dual, 2, |lat, _k, _i, p, out| for l in 0..LANES { put_lane(out, l, value_catmull_rom_d::<2>(lat, p, l)) };
    CatmullRom3Dual, 3, |lat, _k, _i, p, out| for l in 0..LANES { put_lane(out, l, value_catmull_rom_d::<3>(lat, p, l)) };
    CatmullRom4Dual, 4, |lat, _k, _i, p, out| for l in 0..LANES { put_lane(out, l, value_catmull_rom_d::<4>(lat, p, l)) };
}

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
