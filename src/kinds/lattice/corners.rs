//! The lattice kinds' shared shape: a lane's cell frame, corners gathered then blended, and the
//! block loop that gathers each cell's corners once where lanes share cells.

use super::lane_hash::LaneLattice as Lattice;
use super::lanes::{LANES, Points, lerp};

/// One lane's view of a block: fractions, weights and corner cells per axis.
#[derive(Clone, Copy)]
pub struct Frame<const D: usize> {
    /// Fraction per axis.
    pub f: [f32; D],
    /// Interpolation weight per axis.
    pub w: [f32; D],
    /// Lower corner cell per axis (wrapped).
    pub lo: [u32; D],
    /// Upper corner cell per axis (wrapped).
    pub hi: [u32; D],
}

/// Lane l's frame on the first D axes.
#[inline(always)]
pub fn frame<const D: usize>(p: &Points, l: usize) -> Frame<D> {
    Frame {
        f: std::array::from_fn(|a| p.axis[a].frac[l]),
        w: std::array::from_fn(|a| p.axis[a].weight[l]),
        lo: std::array::from_fn(|a| p.axis[a].lo[l]),
        hi: std::array::from_fn(|a| p.axis[a].hi[l]),
    }
}

/// A kind whose lane value comes from its cell's 2^D corners: `corners` gathers what each
/// corner contributes (hashes, gradients or values), `blend` the f32 arithmetic (the WGSL's
/// function, split in two). Along a row every lane has the same y, z and w cells, and lanes
/// 32 texels apart share x cells at the default frequency, so a block usually spans one or
/// two cells: then `corner_block` gathers each cell's corners once instead of once per lane.
pub trait Corners<const D: usize> {
    /// What one corner contributes.
    type Corner: Copy + Default;
    /// The corners of the cell (lo, hi), in corner order (x fastest); `2^D` of the 8 used.
    fn corners(lat: &Lattice, lo: [u32; D], hi: [u32; D]) -> [Self::Corner; 8];
    /// [`Corners::corners`] of an untiled cell (hi = lo + 1), where the table's windows
    /// serve pairs of corners.
    #[inline(always)]
    fn corners_untiled(lat: &Lattice, lo: [u32; D]) -> [Self::Corner; 8] {
        let mut hi = lo;
        for c in &mut hi {
            *c = c.wrapping_add(1);
        }
        Self::corners(lat, lo, hi)
    }
    /// The noise at fraction `f` with weights `w` from the corners.
    fn blend(c: &[Self::Corner; 8], f: [f32; D], w: [f32; D]) -> f32;
}

/// A kind of [`Corners`] over every lane of a block.
#[inline(always)]
pub fn corner_block<K: Corners<D>, const D: usize>(
    lat: &Lattice,
    p: &Points,
    out: &mut [f32; LANES],
) {
    // Kept in one function: a helper returning Option<[bool; LANES]> measured 12% slower on
    // AVX2 with the table lattice (Perlin 3D 297 -> 262 Msamples/s); with `share_corners`
    // false (a constant per kernel) the compiler drops the test below anyway.
    let first = frame::<D>(p, 0);
    let last = frame::<D>(p, LANES - 1);
    // Lanes in the first lane's cell, and lanes in neither end lane's cell.
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
    let shared = lat.share_corners && !stray.contains(&true);
    let untiled = lat.period == [0; 4];
    if shared {
        let (a, b) = if untiled {
            (
                K::corners_untiled(lat, first.lo),
                K::corners_untiled(lat, last.lo),
            )
        } else {
            (
                K::corners(lat, first.lo, first.hi),
                K::corners(lat, last.lo, last.hi),
            )
        };
        for l in 0..LANES {
            let c = frame::<D>(p, l);
            let corners = std::array::from_fn(|n| if upper[l] { b[n] } else { a[n] });
            out[l] = K::blend(&corners, c.f, c.w);
        }
    } else if untiled {
        for l in 0..LANES {
            let c = frame::<D>(p, l);
            out[l] = K::blend(&K::corners_untiled(lat, c.lo), c.f, c.w);
        }
    } else {
        for l in 0..LANES {
            let c = frame::<D>(p, l);
            out[l] = K::blend(&K::corners(lat, c.lo, c.hi), c.f, c.w);
        }
    }
}

/// The cell of corner n: bit a of n picks the upper corner along axis a.
#[inline(always)]
pub fn corner_cells<const D: usize>(lo: &[u32; D], hi: &[u32; D], n: usize) -> [u32; 4] {
    std::array::from_fn(|a| match a < D {
        true if (n >> a) & 1 == 1 => hi[a],
        true => lo[a],
        false => 0,
    })
}

/// Reduces `2^D` corner values by separable interpolation, axis x first.
#[inline(always)]
pub fn interp_corners<const D: usize>(v: &mut [f32; 16], w: &[f32; D]) -> f32 {
    let mut n = 1usize << D;
    for weight in w {
        n /= 2;
        for m in 0..n {
            v[m] = lerp(*weight, v[2 * m], v[2 * m + 1]);
        }
    }
    v[0]
}
