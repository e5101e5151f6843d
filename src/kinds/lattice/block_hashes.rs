//! A block's corner hashes in registers, from the lanes' points (`Points`: wrapped corner
//! cells, any lattice, tiled or not), for the kinds written against [`Wide`]: the hash
//! lattices' by vector hashing ([`corner_hashes_between`]); the permutation table's lane by
//! lane, each cell's corners once where the block's lanes share one or two cells (as
//! `corners::corner_block` gathers them). On the table, a kind that reads the lattice values
//! takes them here (`VALUES`), with the hashes: a shared cell's values cost two table reads,
//! where gathers of 16 lanes per corner cost AVX2's value noise a third.

use super::lane_hash::LaneLattice as Lattice;
use super::lane_hash::{corner_hashes2, corner_hashes2_untiled, corner_hashes3};
use super::lane_hash::{corner_hashes3_untiled, lattice_hash, lattice_value};
use super::lanes::{LANES, Points};
use super::wide::frame::AxisPoint;
use super::wide::hash::{WideLattice, corner_hashes_between};
use super::wide::{Wide, unrolled};

/// One lane's cell on the first D axes: its lower and upper corner cells (wrapped).
#[derive(Clone, Copy)]
struct Cell<const D: usize> {
    lo: [u32; D],
    hi: [u32; D],
}

/// Lane l's cell.
#[inline(always)]
fn lane_cell<const D: usize>(p: &Points, l: usize) -> Cell<D> {
    Cell {
        lo: std::array::from_fn(|a| p.axis[a].lo[l]),
        hi: std::array::from_fn(|a| p.axis[a].hi[l]),
    }
}

/// The cell of corner n: bit a of n picks the upper corner along axis a.
#[inline(always)]
fn corner_cells<const D: usize>(lo: &[u32; D], hi: &[u32; D], n: usize) -> [u32; 4] {
    std::array::from_fn(|a| match a < D {
        true if (n >> a) & 1 == 1 => hi[a],
        true => lo[a],
        false => 0,
    })
}

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

/// Every lane's hash of each of its cell's 2^D corners, corner-major, x fastest; on the
/// permutation table with `VALUES`, the bits of each corner's lattice value instead
/// (`lattice_value`, for [`Wide::bits_f`]).
#[inline(always)]
pub fn block_hashes<W: Wide, const D: usize, const VALUES: bool>(
    s: W,
    lat: &Lattice,
    p: &Points,
) -> [W::U; 16] {
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
    let untiled = lat.period == [0; 4];
    if lat.share_corners
        && let Some((upper, a, b)) = shared_cells::<D, VALUES>(lat, p)
    {
        // Each lane takes the first or the last lane's corners: selects in registers.
        let upper = s.eq_u(s.load_u(&upper), s.splat_u(1));
        let mut out = [s.splat_u(0); 16];
        unrolled!(n in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
            if n < 1 << D {
                out[n] = s.select_u(upper, s.splat_u(b[n]), s.splat_u(a[n]));
            }
        });
        return out;
    }
    let mut h = [[0u32; LANES]; 16];
    for l in 0..LANES {
        let corners = frame_corners::<D, VALUES>(lat, &lane_cell::<D>(p, l), untiled);
        for n in 0..1 << D {
            h[n][l] = corners[n];
        }
    }
    let mut out = [s.splat_u(0); 16];
    for n in 0..1 << D {
        out[n] = s.load_u(&h[n]);
    }
    out
}

/// Where every lane of the block lies in its first or its last lane's cell: which lanes lie
/// in the last lane's (1) and not the first's, and the two cells' corners.
#[inline(always)]
fn shared_cells<const D: usize, const VALUES: bool>(
    lat: &Lattice,
    p: &Points,
) -> Option<([u32; LANES], [u32; 16], [u32; 16])> {
    let (first, last) = (lane_cell::<D>(p, 0), lane_cell::<D>(p, LANES - 1));
    // Lanes outside the first lane's cell, and lanes in neither end lane's cell (no early
    // exit, so that the loop vectorizes).
    let mut upper = [0u32; LANES];
    let mut stray = [false; LANES];
    for l in 0..LANES {
        let (mut is_first, mut is_last) = (true, true);
        for a in 0..D {
            let (lo, hi) = (p.axis[a].lo[l], p.axis[a].hi[l]);
            is_first &= lo == first.lo[a] && hi == first.hi[a];
            is_last &= lo == last.lo[a] && hi == last.hi[a];
        }
        upper[l] = u32::from(!is_first);
        stray[l] = !is_first && !is_last;
    }
    if stray.contains(&true) {
        return None;
    }
    // The table's own reads, not the windows: with the windows here, AVX-512's Perlin 3D on
    // the table ran a quarter slower.
    Some((
        upper,
        cell_corners::<D, VALUES>(lat, first.lo, first.hi),
        cell_corners::<D, VALUES>(lat, last.lo, last.hi),
    ))
}

/// The corners of one lane's cell, through the table's windows where it is untiled.
#[inline(always)]
fn frame_corners<const D: usize, const VALUES: bool>(
    lat: &Lattice,
    c: &Cell<D>,
    untiled: bool,
) -> [u32; 16] {
    if untiled {
        cell_corners_untiled::<D, VALUES>(lat, c.lo)
    } else {
        cell_corners::<D, VALUES>(lat, c.lo, c.hi)
    }
}

/// The permutation table's hashes of one cell's corners (lower cells `lo`, upper `hi`), or
/// with `VALUES` their lattice values' bits.
#[inline(always)]
fn cell_corners<const D: usize, const VALUES: bool>(
    lat: &Lattice,
    lo: [u32; D],
    hi: [u32; D],
) -> [u32; 16] {
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
    table_values::<D, VALUES>(lat, h)
}

/// [`cell_corners`] of an untiled cell (hi = lo + 1), where the table's windows serve pairs.
#[inline(always)]
fn cell_corners_untiled<const D: usize, const VALUES: bool>(
    lat: &Lattice,
    lo: [u32; D],
) -> [u32; 16] {
    let mut h = [0u32; 16];
    let at = |a: usize| lo[a.min(D - 1)];
    match D {
        2 => h[..4].copy_from_slice(&corner_hashes2_untiled(lat, [at(0), at(1)])),
        3 => h[..8].copy_from_slice(&corner_hashes3_untiled(lat, [at(0), at(1), at(2)])),
        _ => {
            let hi = lo.map(|c| c.wrapping_add(1));
            return cell_corners::<D, VALUES>(lat, lo, hi);
        }
    }
    table_values::<D, VALUES>(lat, h)
}

/// The corners' lattice value bits in place of their hashes, with `VALUES`.
#[inline(always)]
fn table_values<const D: usize, const VALUES: bool>(lat: &Lattice, mut h: [u32; 16]) -> [u32; 16] {
    if VALUES {
        for n in 0..1 << D {
            h[n] = lattice_value(lat, h[n]).to_bits();
        }
    }
    h
}
