//! Ken Perlin's improved noise, 1D-4D, in f32 lanes: mirrors perlin.wgsl function by function.

pub use super::gradients::{grad2_vector, grad3};
use crate::kinds::Interp;
use crate::kinds::LatticeKind;
use crate::kinds::lattice::corners::corner_block;
use crate::kinds::lattice::corners::{Corners, corner_cells, frame, interp_corners, pad};
use crate::kinds::lattice::kernel::{InstructionSet, NoiseRow, kernels, row_of};
use crate::kinds::lattice::lane_dual::{
    CornerKind, DualBlock, NoiseRowD, corner_kinds_d, dual_kernels, row_d_of,
};
use crate::kinds::lattice::lane_hash::LaneLattice as Lattice;
use crate::kinds::lattice::lane_hash::{corner_hashes2, corner_hashes2_untiled, corner_hashes3};
use crate::kinds::lattice::lane_hash::{corner_hashes3_untiled, lattice_hash};
use crate::kinds::lattice::lanes::LANES;
use crate::kinds::lattice::lanes::{Points, lerp};
use crate::tables::PERLIN4_GRADIENTS;

/// The 4D gradients rounded to f32, as the GPU's are.
const PERLIN4_F32: [[f32; 4]; 32] = to_f32(PERLIN4_GRADIENTS);

const fn to_f32<const N: usize, const M: usize>(t: [[f64; N]; M]) -> [[f32; N]; M] {
    let mut out = [[0.0; N]; M];
    let mut m = 0;
    while m < M {
        let mut n = 0;
        while n < N {
            out[m][n] = t[m][n] as f32;
            n += 1;
        }
        m += 1;
    }
    out
}
const PERLIN1_SCALE: f32 = crate::kinds::perlin::twin::PERLIN1_SCALE as f32;
const PERLIN2_SCALE: f32 = crate::kinds::perlin::twin::PERLIN2_SCALE as f32;

/// `(1 + (h & 7)) / 8`, negated where `h & 8` is set.
#[inline(always)]
pub fn grad1(hash: u32, x: f32) -> f32 {
    let h = hash & 15;
    let g = (1 + (h & 7)) as f32 * 0.125;
    if h & 8 == 0 { g * x } else { -g * x }
}

/// The gradients of four corner hashes, padded to the 8 of [`Corners::corners`] (explicit
/// calls: a closure through `array::map` was not inlined and kept the lane loop scalar).
#[inline(always)]
fn grad2_vectors(h: [u32; 4]) -> [[f32; 2]; 8] {
    pad([
        grad2_vector(h[0]),
        grad2_vector(h[1]),
        grad2_vector(h[2]),
        grad2_vector(h[3]),
    ])
}

/// The 4D gradient of `h & 31` dotted with d.
#[inline(always)]
pub fn grad4(hash: u32, d: [f32; 4]) -> f32 {
    let g = PERLIN4_F32[(hash & 31) as usize];
    (0..4).fold(0.0, |sum, a| sum + g[a] * d[a])
}

/// 1D Perlin noise (perlin1 in perlin.wgsl): corner hashes, then graded and blended.
pub struct Perlin1;

impl Corners<1> for Perlin1 {
    type Corner = u32;
    #[inline(always)]
    fn corners(lat: &Lattice, lo: [u32; 1], hi: [u32; 1]) -> [u32; 8] {
        pad([
            lattice_hash(lat, [lo[0], 0, 0, 0], 1),
            lattice_hash(lat, [hi[0], 0, 0, 0], 1),
        ])
    }
    #[inline(always)]
    fn blend(h: &[u32; 8], [x]: [f32; 1], [w]: [f32; 1]) -> f32 {
        PERLIN1_SCALE * lerp(w, grad1(h[0], x), grad1(h[1], x - 1.0))
    }
}

/// 2D Perlin noise (perlin2): the corners' gradients (`grad2`'s vectors), then blended.
pub struct Perlin2;

impl Corners<2> for Perlin2 {
    type Corner = [f32; 2];
    #[inline(always)]
    fn corners(lat: &Lattice, lo: [u32; 2], hi: [u32; 2]) -> [[f32; 2]; 8] {
        grad2_vectors(corner_hashes2(lat, lo, hi))
    }
    #[inline(always)]
    fn corners_untiled(lat: &Lattice, lo: [u32; 2]) -> [[f32; 2]; 8] {
        grad2_vectors(corner_hashes2_untiled(lat, lo))
    }
    #[inline(always)]
    fn blend(g: &[[f32; 2]; 8], [x, y]: [f32; 2], w: [f32; 2]) -> f32 {
        let dot = |g: [f32; 2], x: f32, y: f32| g[0] * x + g[1] * y;
        PERLIN2_SCALE
            * lerp(
                w[1],
                lerp(w[0], dot(g[0], x, y), dot(g[1], x - 1.0, y)),
                lerp(w[0], dot(g[2], x, y - 1.0), dot(g[3], x - 1.0, y - 1.0)),
            )
    }
}

/// 3D Perlin noise (perlin3): Ken Perlin's reference, corner hashes then `grad3` and blend.
pub struct Perlin3;

impl Corners<3> for Perlin3 {
    type Corner = u32;
    #[inline(always)]
    fn corners(lat: &Lattice, lo: [u32; 3], hi: [u32; 3]) -> [u32; 8] {
        corner_hashes3(lat, lo, hi)
    }
    #[inline(always)]
    fn corners_untiled(lat: &Lattice, lo: [u32; 3]) -> [u32; 8] {
        corner_hashes3_untiled(lat, lo)
    }
    #[inline(always)]
    fn blend(h: &[u32; 8], [x, y, z]: [f32; 3], w: [f32; 3]) -> f32 {
        let (x1, y1, z1) = (x - 1.0, y - 1.0, z - 1.0);
        lerp(
            w[2],
            lerp(
                w[1],
                lerp(w[0], grad3(h[0], x, y, z), grad3(h[1], x1, y, z)),
                lerp(w[0], grad3(h[2], x, y1, z), grad3(h[3], x1, y1, z)),
            ),
            lerp(
                w[1],
                lerp(w[0], grad3(h[4], x, y, z1), grad3(h[5], x1, y, z1)),
                lerp(w[0], grad3(h[6], x, y1, z1), grad3(h[7], x1, y1, z1)),
            ),
        )
    }
}

/// 4D Perlin noise (perlin4), lane by lane.
#[inline(always)]
pub fn perlin4(lat: &Lattice, p: &Points, l: usize) -> f32 {
    let c = frame::<4>(p, l);
    let mut v = [0.0; 16];
    for (n, slot) in v.iter_mut().enumerate() {
        let d = std::array::from_fn(|a| c.f[a] - ((n >> a) & 1) as f32);
        *slot = grad4(lattice_hash(lat, corner_cells(&c.lo, &c.hi, n), 4), d);
    }
    interp_corners(&mut v, &c.w)
}

/// 2D Perlin noise over a block: on AVX-512 with a hash lattice by permutes ([`wide`]).
#[inline(always)]
fn perlin2_block(lat: &Lattice, p: &Points, out: &mut [f32; LANES]) {
    #[cfg(target_arch = "x86_64")]
    if lat.wide && lat.hashed {
        // SAFETY: `wide` is set only in the kernels compiled for AVX-512, which run only
        // where the CPU has it (`kernel::pick`).
        return unsafe { super::wide::perlin2_wide(lat, p, out) };
    }
    corner_block::<Perlin2, 2>(lat, p, out)
}

/// 3D Perlin noise over a block: on AVX-512 with a hash lattice by permutes ([`wide`]).
#[inline(always)]
fn perlin3_block(lat: &Lattice, p: &Points, out: &mut [f32; LANES]) {
    #[cfg(target_arch = "x86_64")]
    if lat.wide && lat.hashed {
        // SAFETY: as in `perlin2_block`.
        return unsafe { super::wide::perlin3_wide(lat, p, out) };
    }
    corner_block::<Perlin3, 3>(lat, p, out)
}

kernels! {
    Perlin1Block, 1, |lat, _k, p, out| corner_block::<Perlin1, 1>(lat, p, out);
    Perlin2Block, 2, |lat, _k, p, out| perlin2_block(lat, p, out);
    Perlin3Block, 3, |lat, _k, p, out| perlin3_block(lat, p, out);
    Perlin4Block, 4, |lat, _k, p, out| for l in 0..LANES { out[l] = perlin4(lat, p, l); };
}

/// The gradient vector of corner hash `hash` in `dims` dimensions (perlin_gradient_vector):
/// each grad function at the unit vectors.
#[inline(always)]
pub fn perlin_gradient_vector(hash: u32, dims: usize) -> [f32; 4] {
    match dims {
        1 => [grad1(hash, 1.0), 0.0, 0.0, 0.0],
        2 => {
            let g = grad2_vector(hash);
            [g[0], g[1], 0.0, 0.0]
        }
        3 => [
            grad3(hash, 1.0, 0.0, 0.0),
            grad3(hash, 0.0, 1.0, 0.0),
            grad3(hash, 0.0, 0.0, 1.0),
            0.0,
        ],
        _ => PERLIN4_F32[(hash & 31) as usize],
    }
}

/// Perlin noise's corners: `perlin_gradient_vector` of the hash.
pub struct PerlinCorner;

impl CornerKind for PerlinCorner {
    const GRADIENT: bool = true;
    #[inline(always)]
    fn corner<const D: usize>(_: &Lattice, h: u32) -> [f32; 4] {
        perlin_gradient_vector(h, D)
    }
}

/// Perlin noise in D dimensions with its lattice gradient over a block (gradient_kinds_d).
#[inline(always)]
pub fn perlin_d<const D: usize>(lat: &Lattice, p: &Points, interp: Interp, out: &mut DualBlock) {
    let scale = match D {
        1 => PERLIN1_SCALE,
        2 => PERLIN2_SCALE,
        _ => 1.0,
    };
    corner_kinds_d::<PerlinCorner, D>(lat, p, interp, scale, out);
}

dual_kernels! {
    Perlin1Dual, 1, |lat, _k, interp, p, out| perlin_d::<1>(lat, p, interp, out);
    Perlin2Dual, 2, |lat, _k, interp, p, out| perlin_d::<2>(lat, p, interp, out);
    Perlin3Dual, 3, |lat, _k, interp, p, out| perlin_d::<3>(lat, p, interp, out);
    Perlin4Dual, 4, |lat, _k, interp, p, out| perlin_d::<4>(lat, p, interp, out);
}

/// The dual row function of Perlin noise in `dims` dimensions.
pub fn row_d(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRowD {
    match dims {
        1 => row_d_of!(Perlin1Dual, lattice, isa),
        2 => row_d_of!(Perlin2Dual, lattice, isa),
        3 => row_d_of!(Perlin3Dual, lattice, isa),
        _ => row_d_of!(Perlin4Dual, lattice, isa),
    }
}

/// The row function of Perlin noise in `dims` dimensions.
pub fn row(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
    match dims {
        1 => row_of!(Perlin1Block, lattice, isa),
        2 => row_of!(Perlin2Block, lattice, isa),
        3 => row_of!(Perlin3Block, lattice, isa),
        _ => row_of!(Perlin4Block, lattice, isa),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::PERLIN2_GRADIENTS;

    #[test]
    fn grad2_from_bits_is_the_tables_gradient() {
        for h in 0..64u32 {
            let g = PERLIN2_GRADIENTS[(h & 15) as usize];
            assert_eq!(grad2_vector(h), [g[0] as f32, g[1] as f32], "hash {h}");
        }
    }
}

/// The AVX-512 permute kernels (`wide.rs`) against the lanes' own.
#[cfg(all(test, target_arch = "x86_64"))]
mod wide_tests {
    use super::*;
    use crate::kinds::lattice::lanes::{RowFrame, block_points};
    use crate::kinds::perlin::wide::{perlin2_wide, perlin3_wide};
    use crate::tables::{OctaveTables, perm_windows};

    /// The permute kernels equal the lanes' per-lane `perlin2` and `perlin3` (the selects),
    /// on both hash lattices, tiled and not, over blocks that span one cell or many: the same
    /// numbers (a zero's sign aside, which `==` ignores).
    #[test]
    fn the_permute_kernels_equal_the_lane_kernels() {
        if !InstructionSet::Avx512.available() {
            eprintln!("no AVX-512 on this CPU: the permute kernels never run here");
            return;
        }
        let tables = OctaveTables::new(5, 3);
        let windows = perm_windows(&tables.perm);
        let values = tables.values.map(|v| v as f32);
        for (prime, period, step) in [(false, 0, 0.03), (true, 0, 0.7), (true, 6, 0.11)] {
            let lat = Lattice {
                perm: &tables.perm,
                windows: &windows,
                gradients: &tables.gradients,
                values: &values,
                period: [period; 4],
                salt: 0,
                hash_seed: tables.hash_seed,
                hashed: true,
                prime,
                share_corners: false,
                wide: true,
            };
            // A row from (-3.3, 1.7, 2.2) cells, `step` cells per texel along x (Q32.64).
            let fixed = |c: f64| ((c * 2f64.powi(64)) as i128 as u128) & ((1 << 96) - 1);
            let start = [fixed(-3.3), fixed(1.7), fixed(2.2), 0];
            let row = RowFrame::new(start, [fixed(step), 0, 0, 0], 3);
            let mut p = Points::default();
            for b in 0..8 {
                block_points(
                    &row,
                    Interp::Quintic,
                    &lat.period,
                    3,
                    (b * LANES, true),
                    &mut p,
                );
                let (mut lanes, mut wide) = ([0.0; LANES], [0.0; LANES]);
                corner_block::<Perlin2, 2>(&lat, &p, &mut lanes);
                // SAFETY: AVX-512 is available (checked above).
                unsafe { perlin2_wide(&lat, &p, &mut wide) };
                assert_eq!(lanes, wide, "2D prime {prime} period {period} block {b}");
                corner_block::<Perlin3, 3>(&lat, &p, &mut lanes);
                // SAFETY: as above.
                unsafe { perlin3_wide(&lat, &p, &mut wide) };
                assert_eq!(lanes, wide, "3D prime {prime} period {period} block {b}");
            }
        }
    }
}
