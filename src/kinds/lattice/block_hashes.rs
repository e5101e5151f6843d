//! A block's corner hashes in registers, from the lanes' points (`Points`: wrapped corner
//! cells, any lattice, tiled or not), for the kinds written against [`Wide`]: the hash
//! lattices' by vector hashing ([`corner_hashes_between`]); the permutation table's lane by
//! lane, each cell's corners once where the block's lanes share one or two cells (as
//! `corners::corner_block` gathers them).

use super::corners::{corner_cells, frame};
use super::lane_hash::LaneLattice as Lattice;
use super::lane_hash::{corner_hashes2, corner_hashes2_untiled, corner_hashes3};
use super::lane_hash::{corner_hashes3_untiled, lattice_hash};
use super::lanes::{LANES, Points};
use super::wide::Wide;
use super::wide::frame::AxisPoint;
use super::wide::hash::{WideLattice, corner_hashes_between};

/// The first `D` axes of a block as registers: cells, fractions and weights.
#[inline(always)]
pub fn block_axes<W: Wide, const D: usize>(s: W, p: &Points) -> [AxisPoint<W>; 4] {
    let zero = AxisPoint {
        cell: s.splat_u(0),
        frac: s.splat(0.0),
        weight: s.splat(0.0),
    };
    let mut axes = [zero; 4];
    for a in 0..D {
        axes[a] = AxisPoint {
            cell: s.load_u(&p.axis[a].lo),
            frac: s.load(&p.axis[a].frac),
            weight: s.load(&p.axis[a].weight),
        };
    }
    axes
}

/// Every lane's hash of each of its cell's 2^D corners, corner-major, x fastest.
#[inline(always)]
pub fn block_hashes<W: Wide, const D: usize>(s: W, lat: &Lattice, p: &Points) -> [W::U; 16] {
    if lat.hashed {
        let mut ends = [[s.splat_u(0); 2]; D];
        for a in 0..D {
            ends[a] = [s.load_u(&p.axis[a].lo), s.load_u(&p.axis[a].hi)];
        }
        let wide = WideLattice {
            hash_seed: lat.hash_seed,
            prime: lat.prime,
        };
        return corner_hashes_between(s, wide, ends);
    }
    let mut h = [[0u32; LANES]; 16];
    if !(lat.share_corners && shared_cells::<D>(lat, p, &mut h)) {
        let untiled = lat.period == [0; 4];
        for l in 0..LANES {
            let c = frame::<D>(p, l);
            let corners = if untiled {
                cell_corners_untiled(lat, c.lo)
            } else {
                cell_corners(lat, c.lo, c.hi)
            };
            for n in 0..1 << D {
                h[n][l] = corners[n];
            }
        }
    }
    let mut out = [s.splat_u(0); 16];
    for n in 0..1 << D {
        out[n] = s.load_u(&h[n]);
    }
    out
}

/// Where every lane of the block lies in its first or its last lane's cell, fills `h` from
/// those two cells' corners and says so; else leaves it.
#[inline(always)]
fn shared_cells<const D: usize>(lat: &Lattice, p: &Points, h: &mut [[u32; LANES]; 16]) -> bool {
    let (first, last) = (frame::<D>(p, 0), frame::<D>(p, LANES - 1));
    // Lanes outside the first lane's cell, and lanes in neither end lane's cell (no early
    // exit, so that the loop vectorizes).
    let mut upper = [false; LANES];
    let mut stray = [false; LANES];
    for l in 0..LANES {
        let (mut is_first, mut is_last) = (true, true);
        for a in 0..D {
            let (lo, hi) = (p.axis[a].lo[l], p.axis[a].hi[l]);
            is_first &= lo == first.lo[a] && hi == first.hi[a];
            is_last &= lo == last.lo[a] && hi == last.hi[a];
        }
        upper[l] = !is_first;
        stray[l] = !is_first && !is_last;
    }
    if stray.contains(&true) {
        return false;
    }
    let (a, b) = (
        cell_corners(lat, first.lo, first.hi),
        cell_corners(lat, last.lo, last.hi),
    );
    for n in 0..1 << D {
        for l in 0..LANES {
            h[n][l] = if upper[l] { b[n] } else { a[n] };
        }
    }
    true
}

/// The permutation table's hashes of one cell's corners (lower cells `lo`, upper `hi`).
#[inline(always)]
fn cell_corners<const D: usize>(lat: &Lattice, lo: [u32; D], hi: [u32; D]) -> [u32; 16] {
    let mut h = [0u32; 16];
    let at = |a: usize| [lo[a.min(D - 1)], hi[a.min(D - 1)]];
    match D {
        2 => h[..4].copy_from_slice(&corner_hashes2(
            lat,
            [at(0)[0], at(1)[0]],
            [at(0)[1], at(1)[1]],
        )),
        3 => h[..8].copy_from_slice(&corner_hashes3(
            lat,
            [at(0)[0], at(1)[0], at(2)[0]],
            [at(0)[1], at(1)[1], at(2)[1]],
        )),
        _ => {
            for n in 0..1 << D {
                h[n] = lattice_hash(lat, corner_cells(&lo, &hi, n), D);
            }
        }
    }
    h
}

/// [`cell_corners`] of an untiled cell (hi = lo + 1), where the table's windows serve pairs.
#[inline(always)]
fn cell_corners_untiled<const D: usize>(lat: &Lattice, lo: [u32; D]) -> [u32; 16] {
    let mut h = [0u32; 16];
    let at = |a: usize| lo[a.min(D - 1)];
    match D {
        2 => h[..4].copy_from_slice(&corner_hashes2_untiled(lat, [at(0), at(1)])),
        3 => h[..8].copy_from_slice(&corner_hashes3_untiled(lat, [at(0), at(1), at(2)])),
        _ => {
            let hi = lo.map(|c| c.wrapping_add(1));
            return cell_corners(lat, lo, hi);
        }
    }
    h
}
