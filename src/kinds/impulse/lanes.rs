//! Sparse convolution and Gabor noise over a block of lanes, in f32: mirrors impulse.wgsl.
//! Lanes that share a lattice cell share its neighbours' impulses, so each neighbour cell's
//! impulses are drawn once per run of such lanes (the twin's generator and Poisson count, so
//! exactly the WGSL's impulses) and then applied to every lane of the run. Each lane adds the
//! same terms in the same order as the WGSL and skips the cells the WGSL skips.

use crate::kinds::LatticeKind;
use std::f32::consts::PI;

use crate::kinds::Interp;
use crate::kinds::KindState;
use crate::kinds::MAX_IMPULSES;
use crate::kinds::cellular::lanes::cell_gap;
use crate::kinds::impulse::twin::{impulse_count, pcg_next, unit_from_bits};
use crate::kinds::lattice::kernel::{InstructionSet, NoiseRow, kernels, row_of};
use crate::kinds::lattice::lane_hash::{LaneLattice as Lattice, lattice_hash};
use crate::kinds::lattice::lanes::{LANES, Points, cell_offset, lattice_cell};
use crate::kinds::lattice::math::{cos_2pi, exp_nonpositive};

/// One impulse: its position in its cell, its weight and (Gabor) its direction.
#[derive(Clone, Copy, Debug, Default)]
struct Impulse {
    at: [f32; 3],
    weight: f32,
    direction: [f32; 2],
}

/// A cell's impulses in the generator's order.
struct CellImpulses {
    count: usize,
    impulse: [Impulse; MAX_IMPULSES],
}

/// The impulse kernels' shared inputs.
#[derive(Clone, Copy)]
enum ImpulseKernel {
    Sparse,
    Gabor,
}

/// The top 24 bits of the generator's next output as a unit f32 (exact).
#[inline(always)]
fn next_unit(state: &mut u32) -> f32 {
    unit_from_bits(pcg_next(state)) as f32
}

/// The generator state of cell `base + o`: with the table, the hashes of the cell and of its
/// diagonal neighbour, `h1 | h2 << 8`; with the hash lattice, the cell's 32-bit hash; XOR the
/// seed's salt (cells wrapped when tiling).
#[inline(always)]
pub fn impulse_cell_state<const D: usize>(lat: &Lattice, base: [u32; 3], o: [i32; 3]) -> u32 {
    let mut cells = [0u32; 4];
    let mut next = [0u32; 4];
    for a in 0..D {
        cells[a] = lattice_cell(cell_offset(base[a], o[a]), lat.period[a]);
        next[a] = lattice_cell(cell_offset(base[a], o[a] + 1), lat.period[a]);
    }
    let h1 = lattice_hash(lat, cells, D);
    if lat.hashed {
        return h1 ^ lat.salt;
    }
    (h1 | (lattice_hash(lat, next, D) << 8)) ^ lat.salt
}

/// Draws the impulses of cell `base + o` in the WGSL's order.
fn cell_impulses<const D: usize>(
    lat: &Lattice,
    kind: &KindState,
    base: [u32; 3],
    o: [i32; 3],
    gabor: bool,
) -> CellImpulses {
    let mut state = impulse_cell_state::<D>(lat, base, o);
    let thresholds: &[u32; MAX_IMPULSES] = bytemuck::cast_ref(&kind.impulse.poisson);
    let count = impulse_count(&mut state, thresholds);
    let mut cell = CellImpulses {
        count,
        impulse: [Impulse::default(); MAX_IMPULSES],
    };
    for imp in cell.impulse.iter_mut().take(count) {
        for a in 0..D {
            imp.at[a] = next_unit(&mut state);
        }
        imp.weight = 2.0 * next_unit(&mut state) - 1.0;
        imp.direction = kind.impulse.gabor_direction;
        if gabor && kind.impulse.gabor_isotropic == 1 {
            let angle = 2.0 * PI * next_unit(&mut state);
            imp.direction = [angle.cos(), angle.sin()];
        }
    }
    cell
}

/// The sparse-convolution kernel `0.5 + 0.5 cos(pi r)` for r < 1.
#[inline(always)]
pub fn sparse_kernel(r2: f32) -> f32 {
    let k = 0.5 + 0.5 * cos_2pi(0.5 * r2.sqrt());
    if r2 < 1.0 { k } else { 0.0 }
}

/// The Gabor kernel, zero beyond the truncation radius.
#[inline(always)]
pub fn gabor_kernel(d: [f32; 2], w: [f32; 2], kind: &KindState) -> f32 {
    let r2 = d[0] * d[0] + d[1] * d[1];
    let radius = kind.impulse.gabor_radius;
    let bandwidth = kind.impulse.gabor_bandwidth;
    let envelope = exp_nonpositive(-PI * bandwidth * bandwidth * r2);
    // cos(2 pi F0 (w . d)), in turns.
    let k = envelope * cos_2pi(kind.impulse.gabor_frequency * (w[0] * d[0] + w[1] * d[1]));
    if r2 >= radius * radius { 0.0 } else { k }
}

/// The squared distance from lane l's point to the nearest side of cell offset o.
#[inline(always)]
fn cell_gap2<const D: usize>(p: &Points, l: usize, o: [i32; 3]) -> f32 {
    let mut gap2 = 0.0;
    for a in 0..D {
        let g = cell_gap(p.axis[a].frac[l], o[a]);
        gap2 += g * g;
    }
    gap2
}

/// Lane l's cell on the first D axes.
#[inline(always)]
fn lane_cell<const D: usize>(p: &Points, l: usize) -> [u32; 3] {
    std::array::from_fn(|a| if a < D { p.axis[a].cell[l] } else { 0 })
}

/// Adds the impulses of cell offset `o` to the lanes `run` (which share a cell) that the WGSL
/// would not skip.
#[inline(always)]
fn add_cell<const D: usize>(
    (lat, kind, kernel): (&Lattice, &KindState, ImpulseKernel),
    p: &Points,
    run: std::ops::Range<usize>,
    o: [i32; 3],
    sum: &mut [f32; LANES],
) {
    let radius2 = match kernel {
        ImpulseKernel::Sparse => 1.0,
        ImpulseKernel::Gabor => kind.impulse.gabor_radius * kind.impulse.gabor_radius,
    };
    let mut open = [false; LANES];
    for l in run.clone() {
        open[l] = cell_gap2::<D>(p, l, o) < radius2;
    }
    if !open.contains(&true) {
        return;
    }
    let gabor = matches!(kernel, ImpulseKernel::Gabor);
    let cell = cell_impulses::<D>(lat, kind, lane_cell::<D>(p, run.start), o, gabor);
    for imp in &cell.impulse[..cell.count] {
        for l in 0..LANES {
            let rel: [f32; 3] = std::array::from_fn(|a| p.axis[a].frac[l] - o[a] as f32);
            let term = match kernel {
                ImpulseKernel::Sparse => {
                    let mut r2 = 0.0;
                    for a in 0..D {
                        let d = rel[a] - imp.at[a];
                        r2 += d * d;
                    }
                    imp.weight * sparse_kernel(r2)
                }
                ImpulseKernel::Gabor => {
                    let d = [rel[0] - imp.at[0], rel[1] - imp.at[1]];
                    imp.weight * gabor_kernel(d, imp.direction, kind)
                }
            };
            sum[l] += if open[l] { term } else { 0.0 };
        }
    }
}

/// Impulse noise of every lane of a block: each cell offset within `reach` in the WGSL's
/// order, each run of lanes sharing a cell at once.
#[inline(always)]
fn impulse_noise<const D: usize>(
    inputs: (&Lattice, &KindState, ImpulseKernel),
    reach: i32,
    p: &Points,
    out: &mut [f32; LANES],
) {
    let rz = if D == 3 { reach } else { 0 };
    let mut sum = [0.0f32; LANES];
    for oz in -rz..=rz {
        for oy in -reach..=reach {
            for ox in -reach..=reach {
                let mut start = 0;
                while start < LANES {
                    let cell = lane_cell::<D>(p, start);
                    let mut end = start + 1;
                    while end < LANES && lane_cell::<D>(p, end) == cell {
                        end += 1;
                    }
                    add_cell::<D>(inputs, p, start..end, [ox, oy, oz], &mut sum);
                    start = end;
                }
            }
        }
    }
    for l in 0..LANES {
        out[l] = sum[l] * inputs.1.impulse.impulse_scale;
    }
}

/// Sparse convolution noise in D (2 or 3) dimensions for every lane of a block.
#[inline(always)]
pub fn sparse_convolution<const D: usize>(
    lat: &Lattice,
    kind: &KindState,
    p: &Points,
    out: &mut [f32; LANES],
) {
    impulse_noise::<D>((lat, kind, ImpulseKernel::Sparse), 1, p, out);
}

/// 2D Gabor noise for every lane of a block.
#[inline(always)]
pub fn gabor(lat: &Lattice, kind: &KindState, p: &Points, out: &mut [f32; LANES]) {
    impulse_noise::<2>(
        (lat, kind, ImpulseKernel::Gabor),
        kind.impulse.gabor_reach,
        p,
        out,
    );
}

kernels! {
    Sparse2Block, 2, |lat, k, p, out| sparse_convolution::<2>(lat, k, p, out);
    Sparse3Block, 3, |lat, k, p, out| sparse_convolution::<3>(lat, k, p, out);
    GaborBlock, 2, |lat, k, p, out| gabor(lat, k, p, out);
}

/// The row function of sparse convolution noise in `dims` dimensions.
pub fn sparse_convolution_row(
    dims: u32,
    _: Interp,
    lattice: LatticeKind,
    isa: InstructionSet,
) -> NoiseRow {
    match dims {
        2 => row_of!(Sparse2Block, lattice, isa),
        _ => row_of!(Sparse3Block, lattice, isa),
    }
}

/// The row function of Gabor noise (2D).
pub fn gabor_row(_: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
    row_of!(GaborBlock, lattice, isa)
}
