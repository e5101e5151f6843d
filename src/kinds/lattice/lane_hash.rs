//! The lattice's integer side in u32 lanes, as common.wgsl and simplex.wgsl write it: table
//! hashes through the doubled permutation, the hash lattice's xxHash32 steps and cell hash (the
//! twin's `cpu::hash`, shared), and the corner chains. The twin's copies (`cpu::common`) return
//! `usize` for indexing; these return u32 so that 16 of them fill one AVX-512 register. A test
//! checks both against each other on random cells.

use super::hash::{hash_eat, hash_finish, hash_start, hashed_cell, prime_corners2, prime_corners3};
use crate::tables::{PERM_LEN, TABLE_SIZE};

/// One octave's lattice as the lanes read it (`Lattice` in common.wgsl).
#[derive(Clone, Copy, Debug)]
pub struct LaneLattice<'a> {
    /// The permutation, doubled.
    pub perm: &'a [u32; PERM_LEN],
    /// The permutation as windows (`tables::perm_windows`): word i holds `P[i..i + 4]`.
    pub windows: &'a [u32; PERM_LEN],
    /// Unit gradients (classic gradient noise), f32.
    pub gradients: &'a [[f32; 4]; TABLE_SIZE],
    /// Lattice values (value noise) as the GPU receives them, f32.
    pub values: &'a [f32; TABLE_SIZE],
    /// The tiling period per axis, 0 where the axis does not wrap.
    pub period: [i32; 4],
    /// The impulse kinds' salt of this octave's seed.
    pub salt: u32,
    /// The hash lattice's seed for this octave.
    pub hash_seed: u32,
    /// An integer-hash lattice (or the permutation table); a constant in each compiled kernel.
    pub hashed: bool,
    /// The prime lattice's hash (where `hashed`; else xxHash32's); a constant likewise.
    pub prime: bool,
    /// Whether a block whose lanes share one or two cells computes their corners once per
    /// cell (`block_hashes::shared_cells`): it pays where corners cost gathers (the table lattice)
    /// or lanes are 8 wide, not for the hash lattice's 16-lane AVX-512 kernels, whose vector
    /// hashes beat the shared path's scalar ones (measured: Perlin 2D fBm6 437 -> 528
    /// Msamples/s). A constant in each compiled kernel.
    pub share_corners: bool,
}

/// `P[i]`, i < PERM_LEN (the mask only drops bounds checks).
#[inline(always)]
pub fn perm_at(lat: &LaneLattice, i: u32) -> u32 {
    lat.perm[(i as usize) & (PERM_LEN - 1)]
}

/// `(P[i], P[i + 1])` from one window word.
#[inline(always)]
pub fn perm_pair(lat: &LaneLattice, i: u32) -> [u32; 2] {
    let w = lat.windows[(i as usize) & (PERM_LEN - 1)];
    [w & 255, (w >> 8) & 255]
}

/// The table lattice's hash `P[P[P[P[X] + Y] + Z] + W]` on the cells' low 8 bits.
#[inline(always)]
pub fn table_hash(lat: &LaneLattice, cells: [u32; 4], dims: usize) -> u32 {
    let c = [
        cells[0] & 255,
        cells[1] & 255,
        cells[2] & 255,
        cells[3] & 255,
    ];
    let mut h = perm_at(lat, perm_at(lat, c[0]) + if dims > 1 { c[1] } else { 0 });
    h = perm_at(lat, h + if dims > 2 { c[2] } else { 0 });
    if dims > 3 {
        h = perm_at(lat, h + c[3]);
    }
    h
}

/// The hash of corner `cells`: the permutation table's (0..256) or the hash lattice's.
#[inline(always)]
pub fn lattice_hash(lat: &LaneLattice, cells: [u32; 4], dims: usize) -> u32 {
    if lat.hashed {
        hashed_cell(lat.prime, lat.hash_seed, cells, dims)
    } else {
        table_hash(lat, cells, dims)
    }
}

/// The hashes of a 2D cell's corners in corner order, x fastest, sharing each chain's prefix.
#[inline(always)]
pub fn corner_hashes2(lat: &LaneLattice, lo: [u32; 2], hi: [u32; 2]) -> [u32; 4] {
    let (x, y) = ([lo[0], hi[0]], [lo[1], hi[1]]);
    if lat.hashed && lat.prime {
        return prime_corners2(lat.hash_seed, lo, hi);
    }
    if lat.hashed {
        let a = hash_start(lat.hash_seed, 2);
        let ax = [hash_eat(a, x[0]), hash_eat(a, x[1])];
        return std::array::from_fn(|n| hash_finish(hash_eat(ax[n & 1], y[n >> 1])));
    }
    let px = [perm_at(lat, x[0] & 255), perm_at(lat, x[1] & 255)];
    std::array::from_fn(|n| perm_at(lat, perm_at(lat, px[n & 1] + (y[n >> 1] & 255))))
}

/// [`corner_hashes2`] of an untiled cell (hi = lo + 1): a window word serves both rows of a
/// pair, 7 table reads instead of 10 (the WGSL's `NOISE_TILED == 0` branch).
#[inline(always)]
pub fn corner_hashes2_untiled(lat: &LaneLattice, lo: [u32; 2]) -> [u32; 4] {
    if lat.hashed {
        return corner_hashes2(lat, lo, [lo[0].wrapping_add(1), lo[1].wrapping_add(1)]);
    }
    let (lx, ly) = (lo[0] & 255, lo[1] & 255);
    let px = perm_pair(lat, lx);
    let y0 = perm_pair(lat, px[0] + ly);
    let y1 = perm_pair(lat, px[1] + ly);
    [
        perm_at(lat, y0[0]),
        perm_at(lat, y1[0]),
        perm_at(lat, y0[1]),
        perm_at(lat, y1[1]),
    ]
}

/// [`corner_hashes3`] of an untiled cell: 7 window reads instead of 14 table reads.
#[inline(always)]
pub fn corner_hashes3_untiled(lat: &LaneLattice, lo: [u32; 3]) -> [u32; 8] {
    if lat.hashed {
        let up = [
            lo[0].wrapping_add(1),
            lo[1].wrapping_add(1),
            lo[2].wrapping_add(1),
        ];
        return corner_hashes3(lat, lo, up);
    }
    let l = [lo[0] & 255, lo[1] & 255, lo[2] & 255];
    let px = perm_pair(lat, l[0]);
    let y0 = perm_pair(lat, px[0] + l[1]);
    let y1 = perm_pair(lat, px[1] + l[1]);
    let c = [
        perm_pair(lat, y0[0] + l[2]),
        perm_pair(lat, y1[0] + l[2]),
        perm_pair(lat, y0[1] + l[2]),
        perm_pair(lat, y1[1] + l[2]),
    ];
    [
        c[0][0], c[1][0], c[2][0], c[3][0], c[0][1], c[1][1], c[2][1], c[3][1],
    ]
}

/// The hashes of a 3D cell's corners in corner order, x fastest, sharing each chain's prefixes.
#[inline(always)]
pub fn corner_hashes3(lat: &LaneLattice, lo: [u32; 3], hi: [u32; 3]) -> [u32; 8] {
    let axis = |a: usize| [lo[a], hi[a]];
    let (x, y, z) = (axis(0), axis(1), axis(2));
    if lat.hashed && lat.prime {
        return prime_corners3(lat.hash_seed, lo, hi);
    }
    if lat.hashed {
        let a = hash_start(lat.hash_seed, 3);
        let ax = [hash_eat(a, x[0]), hash_eat(a, x[1])];
        let axy: [u32; 4] = std::array::from_fn(|n| hash_eat(ax[n & 1], y[n >> 1]));
        return std::array::from_fn(|n| hash_finish(hash_eat(axy[n & 3], z[n >> 2])));
    }
    let px = [perm_at(lat, x[0] & 255), perm_at(lat, x[1] & 255)];
    let pxy: [u32; 4] = std::array::from_fn(|n| perm_at(lat, px[n & 1] + (y[n >> 1] & 255)));
    std::array::from_fn(|n| perm_at(lat, pxy[n & 3] + (z[n >> 2] & 255)))
}

/// The hash of simplex corner `cells + step`: its own permutation chain, the last coordinate
/// innermost, on the table lattice; the cell hash on the hash lattice.
#[inline(always)]
pub fn simplex_hash(lat: &LaneLattice, cells: [u32; 4], step: [u32; 4], dims: usize) -> u32 {
    if lat.hashed {
        let corner = std::array::from_fn(|a| cells[a].wrapping_add(step[a]));
        return hashed_cell(lat.prime, lat.hash_seed, corner, dims);
    }
    let mut h = 0;
    for a in (0..dims).rev() {
        h = perm_at(lat, (cells[a] & 255) + step[a] + h);
    }
    h
}

/// The value noise value of a hash: `V[h]`, or from the hash's bits (`hash_value`, exact).
#[inline(always)]
pub fn lattice_value(lat: &LaneLattice, h: u32) -> f32 {
    if lat.hashed {
        (h >> 8) as f32 * (1.0 / 8_388_608.0) - 1.0
    } else {
        lat.values[(h & 255) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::lattice::twin::{self as common, Lattice};
    use crate::kinds::lattice::wide::{self, Arith, portable::Portable};
    use crate::kinds::{Interp, Kind, KindFields, KindParams, LatticeKind};
    use crate::tables::OctaveTables;

    /// Random cells (an LCG), negative and far ones included.
    fn cells(n: u32) -> [u32; 4] {
        std::array::from_fn(|a| {
            (n ^ (a as u32).wrapping_mul(0x9E37_79B9)).wrapping_mul(2_654_435_761) >> (a * 7)
        })
    }

    #[test]
    fn lane_hashes_equal_the_twins_on_both_lattices() {
        for mode in [LatticeKind::Table, LatticeKind::Hash, LatticeKind::Prime] {
            let tables = OctaveTables::new(11, 3);
            let params = KindParams::new(Kind::Value, 3, &KindFields::defaults(Kind::Value));
            let twin = Lattice {
                perm: &tables.perm,
                gradients: &tables.gradients,
                values: &tables.values,
                period: [0; 4],
                interp: Interp::Quintic,
                params: &params,
                salt: tables.impulse_salt,
                mode,
                hash_seed: tables.hash_seed,
            };
            let values = tables.values.map(|v| v as f32);
            let windows = crate::tables::perm_windows(&tables.perm);
            let lanes = LaneLattice {
                perm: &tables.perm,
                windows: &windows,
                gradients: &tables.gradients,
                values: &values,
                period: [0; 4],
                salt: 0,
                hash_seed: tables.hash_seed,
                hashed: mode != LatticeKind::Table,
                prime: mode == LatticeKind::Prime,
                share_corners: true,
            };
            for n in 0..2000 {
                let c = cells(n);
                for dims in 1..=4 {
                    let want = common::lattice_hash(&twin, c, dims) as u32;
                    assert_eq!(lattice_hash(&lanes, c, dims), want, "{mode:?} {c:?} {dims}");
                }
                let (lo, hi) = ([c[0], c[1], c[2]], [c[3], c[0] ^ 5, c[1].wrapping_add(1)]);
                let twin3 = common::corner_hashes3(&twin, lo, hi).map(|h| h as u32);
                assert_eq!(corner_hashes3(&lanes, lo, hi), twin3);
                let twin2 = common::corner_hashes2(&twin, [lo[0], lo[1]], [hi[0], hi[1]]);
                let lanes2 = corner_hashes2(&lanes, [lo[0], lo[1]], [hi[0], hi[1]]);
                assert_eq!(lanes2, twin2.map(|h| h as u32));
                // Untiled cells: hi = lo + 1 (wrapping), read through the windows.
                let up = lo.map(|c| c.wrapping_add(1));
                let twin3 = common::corner_hashes3(&twin, lo, up).map(|h| h as u32);
                assert_eq!(corner_hashes3_untiled(&lanes, lo), twin3);
                let twin2 = common::corner_hashes2(&twin, [lo[0], lo[1]], [up[0], up[1]]);
                let lanes2 = corner_hashes2_untiled(&lanes, [lo[0], lo[1]]);
                assert_eq!(lanes2, twin2.map(|h| h as u32));
                let h = lattice_hash(&lanes, c, 3);
                assert_eq!(
                    lattice_value(&lanes, h),
                    common::lattice_value(&twin, h as usize) as f32
                );
                // The f32 unit float is the twin's f64 one exactly.
                let unit = wide::hash::hash_unit(Portable, Portable.splat_u(h))[0];
                assert_eq!(f64::from(unit), super::super::hash::hash_unit(h));
                let step = [n & 1, (n >> 1) & 1, (n >> 2) & 1, (n >> 3) & 1];
                let twin_s = crate::kinds::simplex::twin::simplex_hash(
                    &twin,
                    c,
                    step.map(|s| s as usize),
                    4,
                );
                assert_eq!(simplex_hash(&lanes, c, step, 4), twin_s as u32);
            }
        }
    }
}
