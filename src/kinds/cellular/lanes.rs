//! Cellular noise over a block of lanes, in f32: mirrors cellular.wgsl. The search visits the
//! same cells in the same order as the WGSL and the twin, with the cell loop outside and the
//! lanes inside (so the lane loop vectorizes); a lane skips a cell exactly where the WGSL does
//! (through a mask), and the block skips it where every lane would.

use crate::kinds::Interp;
use crate::kinds::KindState;
use crate::kinds::LatticeKind;
use crate::kinds::cellular::twin::search_offset;
use crate::kinds::lattice::hash::lattice_bits;
use crate::kinds::lattice::kernel::{InstructionSet, NoiseRow, kernels, row_of};
use crate::kinds::lattice::lane_hash::{
    LaneLattice as Lattice, hash_unit, lattice_hash, lattice_value, perm_at,
};
use crate::kinds::lattice::lanes::{LANES, Points, cell_offset, lattice_cell};
use crate::kinds::{CellReturn, Distance};

/// Whether the return reads F2 (`needs_f2` of the twin, on the GPU's code).
#[inline(always)]
fn needs_f2(cell_return: u32) -> bool {
    cell_return != CellReturn::F1 as u32 && cell_return != CellReturn::CellValue as u32
}

const EUCLIDEAN: u32 = Distance::Euclidean as u32;
const MANHATTAN: u32 = Distance::Manhattan as u32;
const CHEBYSHEV: u32 = Distance::Chebyshev as u32;

/// The metric's internal value of an offset (squared for the Euclidean metrics).
#[inline(always)]
pub fn cell_metric(d: [f32; 3], distance: u32) -> f32 {
    match distance {
        MANHATTAN => d[0].abs() + d[1].abs() + d[2].abs(),
        CHEBYSHEV => d[0].abs().max(d[1].abs()).max(d[2].abs()),
        _ => d[0] * d[0] + d[1] * d[1] + d[2] * d[2],
    }
}

/// The distance of an internal metric value.
#[inline(always)]
pub fn cell_distance(m: f32, distance: u32) -> f32 {
    if distance == EUCLIDEAN { m.sqrt() } else { m }
}

/// How far the fraction f is from cell offset o's nearest side (0 inside it).
#[inline(always)]
pub fn cell_gap(f: f32, o: i32) -> f32 {
    if o > 0 {
        o as f32 - f
    } else if o < 0 {
        f - (o + 1) as f32
    } else {
        0.0
    }
}

/// The feature point relative to its cell's corner: `0.5 + jitter (u - 0.5)`.
#[inline(always)]
pub fn feature_point(lat: &Lattice, kind: &KindState, h: u32, a: u32) -> f32 {
    let u = if lat.hashed {
        hash_unit(lattice_bits(lat.prime, h, a))
    } else {
        (lat.values[perm_at(lat, h + a) as usize & 255] + 1.0) * 0.5
    };
    0.5 + kind.cellular.jitter * (u - 0.5)
}

/// The two smallest internal distances per lane and the nearest cell's hash.
struct Nearest {
    m1: [f32; LANES],
    m2: [f32; LANES],
    hash: [u32; LANES],
}

/// Searches the cells around each lane's point centre outwards (`cellular_search`), compiled
/// apart for each metric and for tiled and untiled lattices: a metric chosen per lane, or the
/// tiling's f64 wrap computed for every lane and thrown away when untiled, kept the lane loop
/// from vectorizing (cellular F1 2D: see the note in the commit that made this split).
#[inline(always)]
fn cellular_search<const D: usize>(lat: &Lattice, kind: &KindState, p: &Points) -> Nearest {
    let tiled = lat.period[..D].iter().any(|&q| q > 0);
    // The Euclidean metrics (plain and squared) search on the same squared lengths.
    match (kind.cellular.distance, tiled) {
        (MANHATTAN, false) => search::<D, MANHATTAN, false>(lat, kind, p),
        (MANHATTAN, true) => search::<D, MANHATTAN, true>(lat, kind, p),
        (CHEBYSHEV, false) => search::<D, CHEBYSHEV, false>(lat, kind, p),
        (CHEBYSHEV, true) => search::<D, CHEBYSHEV, true>(lat, kind, p),
        (_, false) => search::<D, EUCLIDEAN, false>(lat, kind, p),
        (_, true) => search::<D, EUCLIDEAN, true>(lat, kind, p),
    }
}

/// [`cellular_search`] for one metric `M` and tiling.
#[inline(always)]
fn search<const D: usize, const M: u32, const TILED: bool>(
    lat: &Lattice,
    kind: &KindState,
    p: &Points,
) -> Nearest {
    let mut best = Nearest {
        m1: [f32::MAX; LANES],
        m2: [f32::MAX; LANES],
        hash: [0; LANES],
    };
    let r = kind.cellular.cell_search as i64;
    let rz = if D == 3 { r } else { 0 };
    for kz in 0..=2 * rz {
        for ky in 0..=2 * r {
            for kx in 0..=2 * r {
                let o = [kx, ky, kz].map(|k| search_offset(k) as i32);
                visit_cell::<D, M, TILED>(lat, kind, p, o, &mut best);
            }
        }
    }
    best
}

/// Offers cell offset `o` to every lane that cannot rule it out.
#[inline(always)]
fn visit_cell<const D: usize, const M: u32, const TILED: bool>(
    lat: &Lattice,
    kind: &KindState,
    p: &Points,
    o: [i32; 3],
    best: &mut Nearest,
) {
    let f2 = needs_f2(kind.cellular.cell_return);
    let mut open = [false; LANES];
    for l in 0..LANES {
        let gap: [f32; 3] = std::array::from_fn(|a| match a < D {
            true => cell_gap(p.axis[a].frac[l], o[a]),
            false => 0.0,
        });
        let needed = if f2 { best.m2[l] } else { best.m1[l] };
        open[l] = cell_metric(gap, M) < kind.cellular.cell_bound.min(needed);
    }
    if !open.contains(&true) {
        return;
    }
    for l in 0..LANES {
        let mut cells = [0u32; 4];
        for a in 0..D {
            let cell = cell_offset(p.axis[a].cell[l], o[a]);
            cells[a] = if TILED {
                lattice_cell(cell, lat.period[a])
            } else {
                cell
            };
        }
        let h = lattice_hash(lat, cells, D);
        let d: [f32; 3] = std::array::from_fn(|a| match a < D {
            true => o[a] as f32 + feature_point(lat, kind, h, a as u32) - p.axis[a].frac[l],
            false => 0.0,
        });
        let m = cell_metric(d, M);
        let first = open[l] && m < best.m1[l];
        let second = open[l] && !first && m < best.m2[l];
        best.m2[l] = if first {
            best.m1[l]
        } else if second {
            m
        } else {
            best.m2[l]
        };
        best.hash[l] = if first { h } else { best.hash[l] };
        best.m1[l] = if first { m } else { best.m1[l] };
    }
}

/// Cellular noise in D (2 or 3) dimensions for every lane of a block.
#[inline(always)]
pub fn cellular<const D: usize>(
    lat: &Lattice,
    kind: &KindState,
    p: &Points,
    out: &mut [f32; LANES],
) {
    let near = cellular_search::<D>(lat, kind, p);
    for l in 0..LANES {
        let d1 = cell_distance(near.m1[l], kind.cellular.distance) * kind.cellular.distance_scale;
        let d2 = cell_distance(near.m2[l], kind.cellular.distance) * kind.cellular.distance_scale;
        let q = match kind.cellular.cell_return {
            r if r == CellReturn::F2 as u32 => d2,
            r if r == CellReturn::F2MinusF1 as u32 => d2 - d1,
            r if r == CellReturn::F1TimesF2 as u32 => d1 * d2,
            _ => d1,
        };
        out[l] = if kind.cellular.cell_return == CellReturn::CellValue as u32 {
            lattice_value(lat, near.hash[l])
        } else {
            q * kind.cellular.return_scale - 1.0
        };
    }
}

kernels! {
    Cellular2Block, 2, |lat, k, p, out| cellular::<2>(lat, k, p, out);
    Cellular3Block, 3, |lat, k, p, out| cellular::<3>(lat, k, p, out);
}

/// The row function of cellular noise in `dims` dimensions.
pub fn row(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
    match dims {
        2 => row_of!(Cellular2Block, lattice, isa),
        _ => row_of!(Cellular3Block, lattice, isa),
    }
}
