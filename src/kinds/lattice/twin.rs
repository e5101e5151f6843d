//! The twin's shared lattice helpers (f64); mirrors `shaders/noise/common.wgsl` function by
//! function.

use super::hash::{hash_eat, hash_finish, hash_start, hash_value, hashed_cell};
use super::hash::{prime_corners2, prime_corners3};
use crate::fixed::Fixed;
use crate::kinds::{Interp, KindParams, LatticeKind};
use crate::tables::{PERM_LEN, TABLE_SIZE};

/// A point on an octave's lattice, split into its cell and its fraction (CONVENTIONS §1); what
/// every kind receives (WGSL: `LatticePoint`). For simplex the axes are the skewed ones.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LatticePoint {
    /// The cell, `floor` of the coordinate, per axis.
    pub cell: [i64; 4],
    /// The fraction in [0, 1): the top 53 of its 64 bits.
    pub frac: [f64; 4],
    /// The fraction's top 24 bits: exactly the GPU's f32 fraction times 2^24, so comparisons
    /// that pick a branch (simplex's corner order) decide alike on both backends.
    pub key: [u32; 4],
}

/// Splits an exact lattice coordinate into cell, f64 fraction (truncated to 53 bits, so it
/// stays below 1) and the 24-bit decision key.
#[inline(always)]
pub fn lattice_point(l: &[Fixed; 4]) -> LatticePoint {
    let mut pt = LatticePoint {
        cell: [0; 4],
        frac: [0.0; 4],
        key: [0; 4],
    };
    for a in 0..4 {
        let bits = l[a].fraction_bits();
        pt.cell[a] = l[a].cell();
        pt.frac[a] = (bits >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0);
        pt.key[a] = (bits >> 40) as u32;
    }
    pt
}

/// One octave's view of the lattice: its tables, tiling periods and interpolation (WGSL:
/// `Lattice`, whose table slot stands for the tables and whose interpolation is an override).
#[derive(Clone, Copy, Debug)]
pub struct Lattice<'a> {
    /// The permutation, doubled.
    pub perm: &'a [u32; PERM_LEN],
    /// Unit gradients (classic gradient noise).
    pub gradients: &'a [[f32; 4]; TABLE_SIZE],
    /// Lattice values (value noise).
    pub values: &'a [f64; TABLE_SIZE],
    /// Period in cells per axis; 0 = the axis does not wrap.
    pub period: [i64; 4],
    /// Interpolation between corners.
    pub interp: Interp,
    /// The spec's kind parameters (WGSL: `noise_state.kind`).
    pub params: &'a KindParams,
    /// The impulse kinds' salt of this octave's seed.
    pub salt: u32,
    /// The permutation table or the hash lattice (WGSL: the `NOISE_LATTICE` override).
    pub mode: LatticeKind,
    /// The hash lattice's seed for this octave.
    pub hash_seed: u32,
}

impl Lattice<'_> {
    /// Whether cells are hashed (xxHash32 or primes) rather than looked up in the permutation.
    #[inline(always)]
    pub fn hashed(&self) -> bool {
        self.mode != LatticeKind::Table
    }

    /// Whether cells are hashed with the prime lattice's hash.
    #[inline(always)]
    pub fn prime(&self) -> bool {
        self.mode == LatticeKind::Prime
    }
}

/// Interpolation weight for a fraction `t` in [0, 1) (CONVENTIONS §3).
/// Catmull-Rom is not a weight: see `value_catmull_rom`.
#[inline(always)]
pub fn interp_weight(t: f64, interp: Interp) -> f64 {
    match interp {
        Interp::Nearest => {
            if t >= 0.5 {
                1.0
            } else {
                0.0
            }
        }
        Interp::Linear => t,
        Interp::Cosine => (1.0 - (std::f64::consts::PI * t).cos()) * 0.5,
        Interp::Cubic => t * t * (3.0 - 2.0 * t),
        Interp::Quintic | Interp::CatmullRom => t * t * t * (t * (t * 6.0 - 15.0) + 10.0),
    }
}

pub use super::real::lerp;

/// Wraps a cell coordinate by the tiling period (Euclidean); the result modulo 2^32 (the
/// table lattice reads its low 8 bits, the hash lattice all 32).
#[inline(always)]
pub fn lattice_cell(cell: i64, period: i64) -> u32 {
    let wrapped = if period > 0 {
        cell.rem_euclid(period)
    } else {
        cell
    };
    wrapped as u32
}

// The `& (PERM_LEN - 1)` below never changes a value (entries are < 256, so sums are < 512);
// it lets the compiler drop the bounds checks in the hottest lines of the CPU backend.
/// `P[i]`.
#[inline(always)]
pub fn perm_at(perm: &[u32; PERM_LEN], i: usize) -> usize {
    perm[i & (PERM_LEN - 1)] as usize
}

/// The table lattice's hash: `P[P[P[P[X] + Y] + Z] + W]` on the cells' low 8 bits, with the
/// unused axes 0 (so 1D and 2D are the 3D hash with zero coordinates, as Ken's reference).
#[inline(always)]
pub fn table_hash(perm: &[u32; PERM_LEN], cells: [u32; 4], dims: usize) -> usize {
    let c = cells.map(|v| (v & 255) as usize);
    let h = perm_at(perm, perm_at(perm, c[0]) + if dims > 1 { c[1] } else { 0 });
    let h = perm_at(perm, h + if dims > 2 { c[2] } else { 0 });
    if dims > 3 { perm_at(perm, h + c[3]) } else { h }
}

/// The hash of corner `cells` in `dims` dimensions: the permutation table's (in 0..256) or the
/// hash lattice's (32 bits); unused axes ignored.
#[inline(always)]
pub fn lattice_hash(lat: &Lattice, cells: [u32; 4], dims: usize) -> usize {
    if lat.hashed() {
        hashed_cell(lat.prime(), lat.hash_seed, cells, dims) as usize
    } else {
        table_hash(lat.perm, cells, dims)
    }
}

/// The hashes of a 2D cell's corners (lower cells `lo`, upper `hi`) in corner order, x fastest,
/// each chain's shared prefix computed once as Ken's reference shares `P[X] + Y`: the table
/// lattice's 3D hash with z = 0, or the hash lattice's.
#[inline(always)]
pub fn corner_hashes2(lat: &Lattice, lo: [u32; 2], hi: [u32; 2]) -> [usize; 4] {
    let (x, y) = ([lo[0], hi[0]], [lo[1], hi[1]]);
    if lat.prime() {
        return prime_corners2(lat.hash_seed, lo, hi).map(|h| h as usize);
    }
    if lat.hashed() {
        let a = hash_start(lat.hash_seed, 2);
        let ax = x.map(|c| hash_eat(a, c));
        return std::array::from_fn(|n| hash_finish(hash_eat(ax[n & 1], y[n >> 1])) as usize);
    }
    let p = lat.perm;
    let px = x.map(|c| perm_at(p, (c & 255) as usize));
    std::array::from_fn(|n| perm_at(p, perm_at(p, px[n & 1] + (y[n >> 1] & 255) as usize)))
}

/// The hashes of a 3D cell's corners in corner order, x fastest, sharing each chain's prefixes
/// (14 table reads instead of 24, as Ken's reference).
#[inline(always)]
pub fn corner_hashes3(lat: &Lattice, lo: [u32; 3], hi: [u32; 3]) -> [usize; 8] {
    let axis = |a: usize| [lo[a], hi[a]];
    let (x, y, z) = (axis(0), axis(1), axis(2));
    if lat.prime() {
        return prime_corners3(lat.hash_seed, lo, hi).map(|h| h as usize);
    }
    if lat.hashed() {
        let a = hash_start(lat.hash_seed, 3);
        let ax = x.map(|c| hash_eat(a, c));
        let axy: [u32; 4] = std::array::from_fn(|n| hash_eat(ax[n & 1], y[n >> 1]));
        return std::array::from_fn(|n| hash_finish(hash_eat(axy[n & 3], z[n >> 2])) as usize);
    }
    let p = lat.perm;
    let px = x.map(|c| perm_at(p, (c & 255) as usize));
    let pxy: [usize; 4] =
        std::array::from_fn(|n| perm_at(p, px[n & 1] + (y[n >> 1] & 255) as usize));
    std::array::from_fn(|n| perm_at(p, pxy[n & 3] + (z[n >> 2] & 255) as usize))
}

/// The value noise value of a lattice hash: `V[h]`, or from the hash's bits.
#[inline(always)]
pub fn lattice_value(lat: &Lattice, h: usize) -> f64 {
    if lat.hashed() {
        hash_value(h as u32)
    } else {
        lat.values[h & (TABLE_SIZE - 1)]
    }
}

/// The classic gradient of a lattice hash: `G[h & 255]` (both lattices).
#[inline(always)]
pub fn lattice_gradient(lat: &Lattice, h: usize) -> [f32; 4] {
    lat.gradients[h & (TABLE_SIZE - 1)]
}

/// One axis of a point's lattice cell (mirrors `AxisFrame` in common.wgsl).
#[derive(Clone, Copy, Debug)]
pub struct AxisFrame {
    /// Lower and upper corner cells, wrapped, modulo 2^32.
    pub c0: u32,
    /// The upper corner's cell.
    pub c1: u32,
    /// Fraction in [0, 1) and its interpolation weight.
    pub f: f64,
    /// The interpolation weight of `f`.
    pub w: f64,
    /// The unwrapped lower cell, which identifies the cell for hash reuse along a row.
    pub cell: i64,
}

/// Axis `a` of a lattice point: corner cells (wrapped), fraction and weight.
#[inline(always)]
pub fn axis_frame(lat: &Lattice, pt: &LatticePoint, a: usize) -> AxisFrame {
    let c = pt.cell[a];
    let f = pt.frac[a];
    AxisFrame {
        c0: lattice_cell(c, lat.period[a]),
        c1: lattice_cell(c + 1, lat.period[a]),
        f,
        w: interp_weight(f, lat.interp),
        cell: c,
    }
}

/// Cells, fractions and weights of a point's lattice cell in `dims` dimensions.
#[derive(Clone, Copy, Debug)]
pub struct CellFrame {
    /// `[axis][0]` is the lower corner's cell, `[axis][1]` the upper's (wrapped).
    pub cells: [[u32; 2]; 4],
    /// Fraction in [0, 1) per axis.
    pub frac: [f64; 4],
    /// Interpolation weight per axis.
    pub weight: [f64; 4],
}

/// The corner cells, fractions and weights of a lattice point (CONVENTIONS §5 for the wrap).
#[inline(always)]
pub fn cell_frame(lat: &Lattice, pt: &LatticePoint, dims: usize) -> CellFrame {
    let mut frame = CellFrame {
        cells: [[0; 2]; 4],
        frac: [0.0; 4],
        weight: [0.0; 4],
    };
    for a in 0..dims {
        let ax = axis_frame(lat, pt, a);
        frame.cells[a] = [ax.c0, ax.c1];
        frame.frac[a] = ax.f;
        frame.weight[a] = ax.w;
    }
    frame
}

/// Reduces 2^dims corner values by separable interpolation, axis x first (CONVENTIONS §3).
/// Corner n's bit a says whether it is the upper corner along axis a.
#[inline(always)]
pub fn interp_corners(v: &mut [f64; 16], weight: &[f64; 4], dims: usize) -> f64 {
    let mut n = 1usize << dims;
    for w in weight.iter().take(dims) {
        n /= 2;
        for m in 0..n {
            v[m] = lerp(*w, v[2 * m], v[2 * m + 1]);
        }
    }
    v[0]
}

/// A point's unwrapped lattice cell and its fraction per axis (mirrors `CellPoint` in
/// common.wgsl); the cellular and impulse searches visit neighbour cells by offset from `base`.
#[derive(Clone, Copy, Debug)]
pub struct CellPoint {
    /// The lower cell on each axis, unwrapped.
    pub base: [i64; 3],
    /// The point's fraction in [0, 1) within that cell.
    pub frac: [f64; 3],
}

/// The cell and fraction of a lattice point on its first `dims` axes (unused axes are 0).
#[inline(always)]
pub fn cell_point(pt: &LatticePoint, dims: usize) -> CellPoint {
    let mut c = CellPoint {
        base: [0; 3],
        frac: [0.0; 3],
    };
    for a in 0..dims {
        c.base[a] = pt.cell[a];
        c.frac[a] = pt.frac[a];
    }
    c
}

/// One octave of a kind over a row of texels: `out[i]` is `noise` at the lattice point of
/// `start + i step`, each coordinate stepped exactly (the kind's row function, monomorphized so
/// `noise` inlines into the loop).
#[inline(always)]
pub fn octave_row(
    lat: &Lattice,
    dims: usize,
    start: [Fixed; 4],
    step: [Fixed; 4],
    out: &mut [f64],
    noise: impl Fn(&Lattice, &LatticePoint, usize) -> f64,
) {
    let mut l = start;
    for o in out {
        *o = noise(lat, &lattice_point(&l), dims);
        for (v, s) in l.iter_mut().zip(&step) {
            v.0 = v.0.wrapping_add(s.0);
        }
    }
}
