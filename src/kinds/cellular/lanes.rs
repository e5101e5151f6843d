//! Cellular noise, 2D and 3D, in f32: one kernel written once over [`Wide`] (16 lanes on
//! AVX-512, AVX2 or any CPU), mirroring cellular.wgsl. The search visits the same cells in
//! the same order as the WGSL and the twin; each lane's two nearest distances are updated
//! under its mask where it cannot rule the cell out, and a cell (or a whole row of cells) is
//! skipped where no lane can use it. Where the cells come from is a [`Cells`] (cells.rs).

use super::cells::{Cells, HashedCells, LaneCells};
use crate::kinds::cellular::twin::search_offset;
use crate::kinds::lattice::kernel::{InstructionSet, Kernel, NoiseRow, row_of};
use crate::kinds::lattice::lane_hash::LaneLattice as Lattice;
use crate::kinds::lattice::lanes::{LANES, Points};
use crate::kinds::lattice::wide::{Wide, unrolled};
use crate::kinds::{CellReturn, Distance, Interp, KindState, LatticeKind};

const EUCLIDEAN: u32 = Distance::Euclidean as u32;
const MANHATTAN: u32 = Distance::Manhattan as u32;
const CHEBYSHEV: u32 = Distance::Chebyshev as u32;

/// `cell_gap`, for every lane's fraction `f`: how far it is from cell offset o's nearest side
/// (0 inside it). The impulse kinds skip cells by it too.
#[inline(always)]
pub(crate) fn gap<W: Wide>(s: W, f: W::F, o: i32) -> W::F {
    match o {
        0 => s.splat(0.0),
        o if o > 0 => s.sub(s.splat(o as f32), f),
        o => s.sub(f, s.splat((o + 1) as f32)),
    }
}

/// One axis's term of the metric (`cell_metric`): `x^2` for the Euclidean metrics, else
/// `|x|`.
#[inline(always)]
fn term<W: Wide>(s: W, metric: u32, x: W::F) -> W::F {
    if metric == MANHATTAN || metric == CHEBYSHEV {
        s.abs(x)
    } else {
        s.mul(x, x)
    }
}

/// Two axes' terms combined: summed, or the larger for Chebyshev.
#[inline(always)]
fn combine<W: Wide>(s: W, metric: u32, a: W::F, b: W::F) -> W::F {
    if metric == CHEBYSHEV {
        s.max(a, b)
    } else {
        s.add(a, b)
    }
}

/// `cell_metric` of the first `D` axes' terms, x first (a third term of zero in 2D changes
/// nothing: the terms are never negative).
#[inline(always)]
fn metric_of<W: Wide, const D: usize>(s: W, metric: u32, t: [W::F; 3]) -> W::F {
    let xy = combine(s, metric, t[0], t[1]);
    if D == 3 {
        combine(s, metric, xy, t[2])
    } else {
        xy
    }
}

/// The two smallest internal distances per lane and the nearest cell's hash.
struct Nearest<W: Wide> {
    m1: W::F,
    m2: W::F,
    hash: W::U,
}

/// One block's search: its fractions, the parameters and the nearest so far. With `UNIT`,
/// the jitter is 1 and a feature point is its unit float itself: `0.5 + 1 (u - 0.5)` is `u`
/// bit for bit (u is a multiple of 2^-24 in [0, 1), so `u - 0.5` is exact), three operations
/// an axis of every visited cell saved.
struct Search<'c, W: Wide, C: Cells<W>, const D: usize, const M: u32, const UNIT: bool> {
    cells: &'c C,
    frac: [W::F; 3],
    bound: W::F,
    jitter: W::F,
    f2: bool,
    best: Nearest<W>,
}

impl<W: Wide, C: Cells<W>, const D: usize, const M: u32, const UNIT: bool>
    Search<'_, W, C, D, M, UNIT>
{
    /// Axis `a`'s term of the metric from each lane to the window's cells at index `k`
    /// (`cell_gap` on the axis), computed where it is used. A table of them made once a block
    /// held 10 more values of a 2D window in registers, which AVX2 (two registers a value, 16
    /// registers) spilled to the stack: without it AVX2's hash-lattice rows ran 25-35% faster,
    /// and AVX-512's (32 registers) within the run-to-run spread.
    #[inline(always)]
    fn gap_term(&self, s: W, a: usize, k: usize) -> W::F {
        term(s, M, gap(s, self.frac[a], search_offset(k as i64) as i32))
    }

    /// What a cell must come within to matter: the bound, or the F2 (or F1) found so far.
    #[inline(always)]
    fn to_beat(&self, s: W) -> W::F {
        let found = if self.f2 { self.best.m2 } else { self.best.m1 };
        s.min(self.bound, found)
    }

    /// `visit_cell` for the cell at window indices `k`. The centre and its axis neighbours
    /// are computed under their masks without a branch: some lane needs them in most
    /// blocks, and a branch on them was mostly a mispredicted one.
    #[inline(always)]
    fn visit(&mut self, s: W, k: [usize; 3]) {
        let reach = metric_of::<W, D>(
            s,
            M,
            [
                self.gap_term(s, 0, k[0]),
                self.gap_term(s, 1, k[1]),
                self.gap_term(s, 2, k[2]),
            ],
        );
        let open = s.lt(reach, self.to_beat(s));
        // Where two registers hold the lanes (AVX2), a cell no lane can use costs twice as
        // much, and skipping it won.
        let near = W::ONE_REGISTER
            && k.iter().all(|&k| k < 3)
            && k.iter().filter(|&&k| k > 0).count() <= 1;
        if !near && !s.any(open) {
            return;
        }
        let o = k.map(|k| search_offset(k as i64) as i32);
        let h = self.cells.hash(s, o);
        let mut t = [s.splat(0.0); 3];
        for a in 0..D {
            let u = self.cells.unit(s, h, a);
            let point = if UNIT {
                u
            } else {
                s.add(s.splat(0.5), s.mul(self.jitter, s.sub(u, s.splat(0.5))))
            };
            let d = s.sub(s.add(s.splat(o[a] as f32), point), self.frac[a]);
            t[a] = term(s, M, d);
        }
        let m = metric_of::<W, D>(s, M, t);
        let best = &mut self.best;
        let first = s.and_m(open, s.lt(m, best.m1));
        // F1 and cell values never read the second distance: five operations a cell saved
        // (a branch every lane of every block takes the same way).
        if self.f2 {
            let second = s.and_m(s.and_not_m(open, first), s.lt(m, best.m2));
            best.m2 = s.select(first, best.m1, s.select(second, m, best.m2));
        }
        best.hash = s.select_u(first, h, best.hash);
        best.m1 = s.select(first, m, best.m1);
    }

    /// Whether any lane may use a cell of the row at y and z indices `ky`, `kz` (a cell's
    /// reach is never below its row's: the terms are never negative and rounding is
    /// monotonic).
    #[inline(always)]
    fn row_open(&self, s: W, ky: usize, kz: usize) -> bool {
        let reach = if D == 3 {
            combine(s, M, self.gap_term(s, 1, ky), self.gap_term(s, 2, kz))
        } else {
            self.gap_term(s, 1, ky)
        };
        s.any(s.lt(reach, self.to_beat(s)))
    }
}

/// `cellular_search`: the cells of the window `search_offset(0..=2R)` on each axis (z outer,
/// x inner), skipping the rows no lane can use, for metric `M` (the Euclidean metrics share
/// their squared lengths). With `UNROLL` (2D), the window is written out, as the wide rows'
/// 2D kernel was before this one; unrolled in every case, the library's release build went
/// from 4 to over 16 minutes (2 cores), so the other cases keep their loops.
#[inline(always)]
fn cellular_search<
    W: Wide,
    C: Cells<W>,
    const D: usize,
    const M: u32,
    const R: usize,
    const UNROLL: bool,
    const UNIT: bool,
>(
    s: W,
    cells: &C,
    kind: &KindState,
    frac: [W::F; 3],
) -> Nearest<W> {
    let mut search = Search::<W, C, D, M, UNIT> {
        cells,
        frac,
        bound: s.splat(kind.cellular.cell_bound),
        jitter: s.splat(kind.cellular.jitter),
        f2: needs_f2(kind.cellular.cell_return),
        best: Nearest {
            m1: s.splat(f32::MAX),
            m2: s.splat(f32::MAX),
            hash: s.splat_u(0),
        },
    };
    if UNROLL {
        // 2D, the window's rows and cells written out: each cell's offsets, gaps and whether
        // it is a near one are constants.
        unrolled!(ky in [0, 1, 2, 3, 4, 5, 6] {
            if ky <= 2 * R && (ky == 0 || search.row_open(s, ky, 0)) {
                unrolled!(kx in [0, 1, 2, 3, 4, 5, 6] {
                    if kx <= 2 * R {
                        search.visit(s, [kx, ky, 0]);
                    }
                });
            }
        });
        return search.best;
    }
    let rz = if D == 3 { 2 * R } else { 0 };
    for kz in 0..=rz {
        for ky in 0..=2 * R {
            if (ky > 0 || kz > 0) && !search.row_open(s, ky, kz) {
                continue;
            }
            for kx in 0..=2 * R {
                search.visit(s, [kx, ky, kz]);
            }
        }
    }
    search.best
}

/// [`cellular_search`] for the kind's metric and window: `cell_search` is 2, or 3 for the
/// Manhattan metric in 3D (`cellular_bound`); the window unrolled where `UNROLL` (a wide
/// row's hot case: 2D, Euclidean).
#[inline(always)]
fn search_window<W: Wide, C: Cells<W>, const D: usize, const UNROLL: bool>(
    s: W,
    cells: &C,
    kind: &KindState,
    frac: [W::F; 3],
) -> Nearest<W> {
    match kind.cellular.distance {
        MANHATTAN if D == 3 && kind.cellular.cell_search == 3 => {
            cellular_search::<W, C, D, MANHATTAN, 3, false, false>(s, cells, kind, frac)
        }
        MANHATTAN => cellular_search::<W, C, D, MANHATTAN, 2, false, false>(s, cells, kind, frac),
        CHEBYSHEV => cellular_search::<W, C, D, CHEBYSHEV, 2, false, false>(s, cells, kind, frac),
        // The default (jitter 1) is the hot case's hot case.
        _ if UNROLL && D == 2 && kind.cellular.jitter == 1.0 => {
            cellular_search::<W, C, D, EUCLIDEAN, 2, true, true>(s, cells, kind, frac)
        }
        _ if UNROLL && D == 2 => {
            cellular_search::<W, C, D, EUCLIDEAN, 2, true, false>(s, cells, kind, frac)
        }
        _ => cellular_search::<W, C, D, EUCLIDEAN, 2, false, false>(s, cells, kind, frac),
    }
}

/// Whether the return reads F2 (`needs_f2`).
#[inline(always)]
fn needs_f2(cell_return: u32) -> bool {
    cell_return != CellReturn::F1 as u32 && cell_return != CellReturn::CellValue as u32
}

/// Cellular noise in `D` (2 or 3) dimensions (cellular): the search, then the return.
#[inline(always)]
pub fn cellular<W: Wide, C: Cells<W>, const D: usize, const UNROLL: bool>(
    s: W,
    cells: &C,
    kind: &KindState,
    frac: [W::F; 3],
) -> W::F {
    let near = search_window::<W, C, D, UNROLL>(s, cells, kind, frac);
    let c = &kind.cellular;
    if c.cell_return == CellReturn::CellValue as u32 {
        return cells.value(s, near.hash);
    }
    let scale = s.splat(c.distance_scale);
    let (d1, d2) = if c.distance == EUCLIDEAN {
        (s.sqrt(near.m1), s.sqrt(near.m2))
    } else {
        (near.m1, near.m2)
    };
    let (d1, d2) = (s.mul(d1, scale), s.mul(d2, scale));
    let q = match c.cell_return {
        r if r == CellReturn::F2 as u32 => d2,
        r if r == CellReturn::F2MinusF1 as u32 => s.sub(d2, d1),
        r if r == CellReturn::F1TimesF2 as u32 => s.mul(d1, d2),
        _ => d1,
    };
    s.sub(s.mul(q, s.splat(c.return_scale)), s.splat(1.0))
}

/// Cellular noise in `D` dimensions over a block of the lanes' points, on lattice `L` (a
/// `LatticeKind` code): vector hashes on an untiled hash lattice, else lane by lane.
pub struct CellularBlock<const D: usize, const L: u32>;

impl<const D: usize, const L: u32> Kernel for CellularBlock<D, L> {
    const DIMS: usize = D;
    const LATTICE: u32 = L;
    #[inline(always)]
    fn block<W: Wide>(s: W, lat: &Lattice, kind: &KindState, p: &Points, out: &mut [f32; LANES]) {
        let mut frac = [s.splat(0.0); 3];
        let mut cell = [s.splat_u(0); 3];
        for a in 0..D {
            frac[a] = s.load(&p.axis[a].frac);
            cell[a] = s.load_u(&p.axis[a].cell);
        }
        let tiled = lat.period[..D].iter().any(|&q| q > 0);
        let v = if lat.hashed && !tiled {
            if lat.prime {
                let cells = HashedCells::<W, D, true>::new(s, lat.hash_seed, cell);
                cellular::<W, _, D, false>(s, &cells, kind, frac)
            } else {
                let cells = HashedCells::<W, D, false>::new(s, lat.hash_seed, cell);
                cellular::<W, _, D, false>(s, &cells, kind, frac)
            }
        } else if tiled {
            cellular::<W, _, D, false>(s, &LaneCells::<D, true> { lat, p }, kind, frac)
        } else {
            cellular::<W, _, D, false>(s, &LaneCells::<D, false> { lat, p }, kind, frac)
        };
        s.store(out, v);
    }
}

type Cellular2Block<const L: u32> = CellularBlock<2, L>;
type Cellular3Block<const L: u32> = CellularBlock<3, L>;

/// The row function of cellular noise in `dims` dimensions.
pub fn row(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
    match dims {
        2 => row_of!(Cellular2Block, lattice, isa),
        _ => row_of!(Cellular3Block, lattice, isa),
    }
}

/// Cellular noise as wide rows: a row's cells stepped in registers and hashed there.
#[cfg(target_arch = "x86_64")]
mod rows {
    use super::*;
    use crate::kinds::lattice::wide::frame::AxisPoint;
    use crate::kinds::lattice::wide::row::{WideKernel, pick};

    /// Cellular noise in `D` dimensions as a wide row.
    pub struct CellularRow<const D: usize>;

    impl<const D: usize> WideKernel for CellularRow<D> {
        const DIMS: usize = D;
        const WEIGHTS: bool = false;
        #[inline(always)]
        fn block<W: Wide, const PRIME: bool>(
            s: W,
            seed: u32,
            kind: &KindState,
            p: &[AxisPoint<W>; 4],
        ) -> W::F {
            let cells = HashedCells::<W, D, PRIME>::new(s, seed, [p[0].cell, p[1].cell, p[2].cell]);
            cellular::<W, _, D, true>(s, &cells, kind, [p[0].frac, p[1].frac, p[2].frac])
        }
        fn lanes(lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
            row(D as u32, Interp::Quintic, lattice, isa)
        }
    }

    /// Cellular noise's wide row, where the instruction set and lattice have one.
    pub fn wide_row(
        dims: u32,
        _: Interp,
        lattice: LatticeKind,
        isa: InstructionSet,
    ) -> Option<NoiseRow> {
        match dims {
            2 => pick::<CellularRow<2>>(lattice, isa),
            _ => pick::<CellularRow<3>>(lattice, isa),
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::kinds::lattice::wide::row::check::wide_rows_equal_lanes;
        use crate::kinds::own_fields::CellularFields;
        use crate::kinds::{Kind, KindFields, KindParams};

        /// Every return and metric at jitters 1 and 0.4, 2D and 3D.
        #[test]
        fn cellular_wide_rows_equal_the_lanes_rows() {
            for &distance in Distance::ALL {
                for &cell_return in CellReturn::ALL {
                    for jitter in [1.0, 0.4] {
                        let mut fields = KindFields::defaults(Kind::Cellular);
                        fields.cellular = CellularFields {
                            distance,
                            cell_return,
                            jitter,
                        };
                        for dims in [2, 3] {
                            let params = KindParams::new(Kind::Cellular, dims, &fields);
                            let kind = KindState::new(&params);
                            match dims {
                                2 => wide_rows_equal_lanes::<CellularRow<2>>(&kind),
                                _ => wide_rows_equal_lanes::<CellularRow<3>>(&kind),
                            }
                        }
                    }
                }
            }
        }
    }
}
#[cfg(target_arch = "x86_64")]
pub use rows::wide_row;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::lattice::kernel::check::every_isa_gives_the_portable_bits;
    use crate::kinds::own_fields::CellularFields;
    use crate::kinds::{Kind, KindFields, KindParams};

    /// Every instruction set gives the portable kernel's bits on every lattice (`kernel::check`),
    /// each metric (with F2 - F1, which reads both distances) and the cell-value and F1
    /// returns at a low jitter.
    #[test]
    fn every_instruction_set_gives_the_portable_kernels_bits() {
        let mut cases: Vec<_> = Distance::ALL
            .iter()
            .map(|&d| (d, CellReturn::F2MinusF1, 1.0))
            .collect();
        cases.push((Distance::Euclidean, CellReturn::CellValue, 0.4));
        cases.push((Distance::Manhattan, CellReturn::F1, 0.4));
        for (distance, cell_return, jitter) in cases {
            let mut fields = KindFields::defaults(Kind::Cellular);
            fields.cellular = CellularFields {
                distance,
                cell_return,
                jitter,
            };
            // The parameters of 3D cellular noise; 2D's differ only in the bound, which the
            // 2D rows then search past (the bits must agree all the same).
            let kind = KindState::new(&KindParams::new(Kind::Cellular, 3, &fields));
            every_isa_gives_the_portable_bits(
                "cellular",
                &[Interp::Linear],
                &super::super::CELLULAR,
                &kind,
            );
        }
    }
}
