//! Sparse convolution and Gabor noise over a block of lanes, in f32: one kernel written once
//! over [`Wide`] (16 lanes on AVX-512, AVX2 or any CPU), mirroring impulse.wgsl. Lanes that
//! share a lattice cell share its neighbours' impulses, so each neighbour cell's impulses are
//! drawn once per run of such lanes (the twin's generator and Poisson count, so exactly the
//! WGSL's impulses) and then applied to the run's lanes in registers. Each lane adds the same
//! terms in the same order as the WGSL and skips the cells the WGSL skips.

use crate::kinds::LatticeKind;
use std::f32::consts::PI;

use crate::kinds::Interp;
use crate::kinds::KindState;
use crate::kinds::MAX_IMPULSES;
use crate::kinds::cellular::lanes::gap;
use crate::kinds::impulse::twin::{impulse_count, pcg_next, unit_from_bits};
use crate::kinds::lattice::kernel::{InstructionSet, Kernel, NoiseRow, row_of};
use crate::kinds::lattice::lane_hash::{LaneLattice as Lattice, lattice_hash};
use crate::kinds::lattice::lanes::{LANES, Points, cell_offset, lattice_cell};
use crate::kinds::lattice::math::{cos_2pi, exp_nonpositive};
use crate::kinds::lattice::wide::Wide;

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

/// The sparse-convolution kernel `0.5 + 0.5 cos(pi r)` for r < 1, in every lane.
#[inline(always)]
fn sparse_kernel<W: Wide>(s: W, r2: W::F) -> W::F {
    let c = |x: f32| s.splat(x);
    let k = s.add(c(0.5), s.mul(c(0.5), cos_2pi(s, s.mul(c(0.5), s.sqrt(r2)))));
    s.select(s.lt(r2, c(1.0)), k, c(0.0))
}

/// The Gabor kernel at offsets `d` from an impulse of direction `w`, zero beyond the
/// truncation radius, in every lane.
#[inline(always)]
fn gabor_kernel<W: Wide>(s: W, d: [W::F; 2], w: [f32; 2], kind: &KindState) -> W::F {
    let c = |x: f32| s.splat(x);
    let r2 = s.add(s.mul(d[0], d[0]), s.mul(d[1], d[1]));
    let radius = kind.impulse.gabor_radius;
    let bandwidth = kind.impulse.gabor_bandwidth;
    let envelope = exp_nonpositive(s, s.mul(c(-PI * bandwidth * bandwidth), r2));
    // cos(2 pi F0 (w . d)), in turns.
    let along = s.add(s.mul(c(w[0]), d[0]), s.mul(c(w[1]), d[1]));
    let k = s.mul(
        envelope,
        cos_2pi(s, s.mul(c(kind.impulse.gabor_frequency), along)),
    );
    s.select(s.lt(r2, c(radius * radius)), k, c(0.0))
}

/// Lane l's cell on the first D axes.
#[inline(always)]
fn lane_cell<const D: usize>(p: &Points, l: usize) -> [u32; 3] {
    std::array::from_fn(|a| if a < D { p.axis[a].cell[l] } else { 0 })
}

/// Each lane's index, for the mask of a run of lanes.
const LANE_INDEX: [u32; LANES] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// The lanes' fractions in registers and their indices.
struct Block<W: Wide> {
    frac: [W::F; 3],
    index: W::U,
}

/// The term of one impulse at every lane: its weight times the kernel at the lane's offset
/// `rel` (from the impulse's cell) to the impulse.
#[inline(always)]
fn impulse_term<W: Wide, const D: usize>(
    s: W,
    (kind, kernel): (&KindState, ImpulseKernel),
    rel: &[W::F; 3],
    imp: &Impulse,
) -> W::F {
    let k = match kernel {
        ImpulseKernel::Sparse => {
            let mut r2 = s.splat(0.0);
            for a in 0..D {
                let d = s.sub(rel[a], s.splat(imp.at[a]));
                r2 = s.add(r2, s.mul(d, d));
            }
            sparse_kernel(s, r2)
        }
        ImpulseKernel::Gabor => {
            let d = [0, 1].map(|a| s.sub(rel[a], s.splat(imp.at[a])));
            gabor_kernel(s, d, imp.direction, kind)
        }
    };
    s.mul(s.splat(imp.weight), k)
}

/// Adds the impulses of cell offset `o` to the lanes `run` (which share a cell) that the WGSL
/// would not skip: those nearer the cell than the kernel's radius.
#[inline(always)]
fn add_cell<W: Wide, const D: usize>(
    s: W,
    (lat, kind, kernel): (&Lattice, &KindState, ImpulseKernel),
    (block, p): (&Block<W>, &Points),
    run: std::ops::Range<usize>,
    o: [i32; 3],
    sum: &mut W::F,
) {
    let radius2 = match kernel {
        ImpulseKernel::Sparse => 1.0,
        ImpulseKernel::Gabor => kind.impulse.gabor_radius * kind.impulse.gabor_radius,
    };
    let mut gap2 = s.splat(0.0);
    for a in 0..D {
        let g = gap(s, block.frac[a], o[a]);
        gap2 = s.add(gap2, s.mul(g, g));
    }
    // Lanes start..end: index - start below the run's length (unsigned, so below start wraps).
    let start = s.splat_u(run.start as u32);
    let in_run = s.lt_u(s.sub_u(block.index, start), s.splat_u(run.len() as u32));
    let open = s.and_m(in_run, s.lt(gap2, s.splat(radius2)));
    if !s.any(open) {
        return;
    }
    let gabor = matches!(kernel, ImpulseKernel::Gabor);
    let cell = cell_impulses::<D>(lat, kind, lane_cell::<D>(p, run.start), o, gabor);
    let rel: [W::F; 3] = std::array::from_fn(|a| s.sub(block.frac[a], s.splat(o[a] as f32)));
    for imp in &cell.impulse[..cell.count] {
        let term = impulse_term::<W, D>(s, (kind, kernel), &rel, imp);
        *sum = s.add(*sum, s.select(open, term, s.splat(0.0)));
    }
}

/// Impulse noise of every lane of a block: each cell offset within `reach` in the WGSL's
/// order, each run of lanes sharing a cell at once.
#[inline(always)]
fn impulse_noise<W: Wide, const D: usize>(
    s: W,
    inputs: (&Lattice, &KindState, ImpulseKernel),
    reach: i32,
    p: &Points,
) -> W::F {
    let block = Block::<W> {
        frac: std::array::from_fn(|a| s.load(&p.axis[a].frac)),
        index: s.load_u(&LANE_INDEX),
    };
    let rz = if D == 3 { reach } else { 0 };
    let mut sum = s.splat(0.0);
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
                    let o = [ox, oy, oz];
                    add_cell::<W, D>(s, inputs, (&block, p), start..end, o, &mut sum);
                    start = end;
                }
            }
        }
    }
    s.mul(sum, s.splat(inputs.1.impulse.impulse_scale))
}

/// Sparse convolution noise (`D` = 2 or 3) or, with `GABOR`, 2D Gabor noise over a block, on
/// lattice `L` (a `LatticeKind` code).
pub struct ImpulseBlock<const D: usize, const GABOR: bool, const L: u32>;

impl<const D: usize, const GABOR: bool, const L: u32> Kernel for ImpulseBlock<D, GABOR, L> {
    const DIMS: usize = D;
    const LATTICE: u32 = L;
    #[inline(always)]
    fn block<W: Wide>(s: W, lat: &Lattice, kind: &KindState, p: &Points, out: &mut [f32; LANES]) {
        let v = if GABOR {
            let inputs = (lat, kind, ImpulseKernel::Gabor);
            impulse_noise::<W, D>(s, inputs, kind.impulse.gabor_reach, p)
        } else {
            impulse_noise::<W, D>(s, (lat, kind, ImpulseKernel::Sparse), 1, p)
        };
        s.store(out, v);
    }
}

type Sparse2Block<const L: u32> = ImpulseBlock<2, false, L>;
type Sparse3Block<const L: u32> = ImpulseBlock<3, false, L>;
type GaborBlock<const L: u32> = ImpulseBlock<2, true, L>;

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

#[cfg(test)]
mod tests {
    use crate::kinds::lattice::kernel::check::every_isa_gives_the_portable_bits;
    use crate::kinds::{Interp, Kind, KindFields, KindParams, KindState};

    /// Every instruction set gives the portable kernel's bits on every lattice
    /// (`kernel::check`): sparse convolution in 2D and 3D, Gabor with its default orientation
    /// and isotropic (a random direction per impulse), at the smallest bandwidth (the widest
    /// reach, 2 cells).
    #[test]
    fn every_instruction_set_gives_the_portable_kernels_bits() {
        let fields = KindFields::defaults(Kind::SparseConvolution);
        let kind = KindState::new(&KindParams::new(Kind::SparseConvolution, 3, &fields));
        let info = &super::super::SPARSE_CONVOLUTION;
        every_isa_gives_the_portable_bits("sparse convolution", &[Interp::Linear], info, &kind);
        for orientation in [Some(30.0), None] {
            let mut fields = KindFields::defaults(Kind::Gabor);
            fields.impulse.gabor_orientation = orientation;
            fields.impulse.gabor_bandwidth = super::super::MIN_GABOR_BANDWIDTH;
            let kind = KindState::new(&KindParams::new(Kind::Gabor, 2, &fields));
            every_isa_gives_the_portable_bits(
                "Gabor",
                &[Interp::Linear],
                &super::super::GABOR,
                &kind,
            );
        }
    }
}
