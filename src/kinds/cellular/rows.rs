//! 2D cellular noise as a wide row (`lattice::wide`) for the Euclidean metrics: `cellular`,
//! `cellular_search` and `visit_cell` of lanes.rs in registers, the same cells in the same
//! order, a cell skipped where no lane can use it, each lane's nearest two updated under its
//! mask. The prime lattice's products step with the offset (`(c + o) P = c P + o P`, exact
//! modulo 2^32). A test checks it against the lanes' kernel.

use super::lanes::Cellular2Block;
use super::twin::search_offset;
use crate::kinds::lattice::kernel::{InstructionSet, NoiseRow, row_of};
use crate::kinds::lattice::wide::Wide;
use crate::kinds::lattice::wide::frame::AxisPoint;
use crate::kinds::lattice::wide::hash::cell_hash as hash_cells;
use crate::kinds::lattice::wide::hash::{
    WideLattice, hash_eat, hash_finish, hash_unit, hash_value, prime_finish,
};
use crate::kinds::lattice::wide::row::{WideKernel, pick};
use crate::kinds::{CellReturn, Distance, Interp, KindState, LatticeKind};
use crate::tables::{LATTICE_PRIMES, PRIME_5};

/// `hash_unit` of `lattice_bits(h, a)`: 24 more bits of the cell's hash, as a unit float.
#[inline(always)]
fn feature_unit<W: Wide, const PRIME: bool>(s: W, h: W::U, a: u32) -> W::F {
    let bits = if PRIME {
        prime_finish(s, s.xor_u(h, s.splat_u(LATTICE_PRIMES[a as usize])))
    } else {
        let start = s.add_u(h, s.splat_u(PRIME_5.wrapping_add(4)));
        hash_finish(s, hash_eat(s, start, s.splat_u(a)))
    };
    hash_unit(s, bits)
}

/// The hash of each lane's cell moved by `(ox, oy)`, from the cells at offset 0 as `search`
/// keeps them: their products on the prime lattice (stepped by the offset's products, then
/// the seed), the cells themselves for xxHash32.
#[inline(always)]
fn cell_hash<W: Wide, const PRIME: bool>(
    s: W,
    seed: u32,
    (x0, ox): (W::U, i32),
    (y0, oy): (W::U, i32),
) -> W::U {
    if PRIME {
        let x = s.add_u(x0, s.splat_u((ox as u32).wrapping_mul(LATTICE_PRIMES[0])));
        let y = s.add_u(y0, s.splat_u((oy as u32).wrapping_mul(LATTICE_PRIMES[1])));
        prime_finish(s, s.xor_u(s.xor_u(s.splat_u(seed), x), y))
    } else {
        let x = s.add_u(x0, s.splat_u(ox as u32));
        let y = s.add_u(y0, s.splat_u(oy as u32));
        let lat = WideLattice {
            hash_seed: seed,
            prime: false,
        };
        let zero = s.splat_u(0);
        hash_cells::<W, 2>(s, lat, [x, y, zero, zero])
    }
}

/// `feature_point`: `0.5 + jitter (u - 0.5)` on axis `a` of the cell whose hash is `h`.
#[inline(always)]
fn feature_point<W: Wide, const PRIME: bool>(s: W, h: W::U, a: u32, jitter: W::F) -> W::F {
    let u = feature_unit::<W, PRIME>(s, h, a);
    s.add(s.splat(0.5), s.mul(jitter, s.sub(u, s.splat(0.5))))
}

/// `cell_gap`: how far each lane's fraction is from offset `o`'s nearest side.
#[inline(always)]
fn gap<W: Wide>(s: W, f: W::F, o: i32) -> W::F {
    match o {
        0 => s.splat(0.0),
        o if o > 0 => s.sub(s.splat(o as f32), f),
        o => s.sub(f, s.splat((o + 1) as f32)),
    }
}

/// The squared length `x^2 + y^2` (the lanes' third term is a zero).
#[inline(always)]
fn length2<W: Wide>(s: W, x: W::F, y: W::F) -> W::F {
    s.add(s.mul(x, x), s.mul(y, y))
}

/// The two smallest squared distances per lane and the nearest cell's hash.
struct Nearest<W: Wide> {
    m1: W::F,
    m2: W::F,
    hash: W::U,
}

/// Each lane's squared gap to the cells at offsets `search_offset(0..5)` along one axis.
#[inline(always)]
fn squared_gaps<W: Wide>(s: W, f: W::F) -> [W::F; 5] {
    let mut g2 = [s.splat(0.0); 5];
    for (k, slot) in g2.iter_mut().enumerate() {
        let g = gap(s, f, search_offset(k as i64) as i32);
        *slot = s.mul(g, g);
    }
    g2
}

/// One block's search: its points, gaps and cells at offset 0, and the nearest so far.
struct Search<W: Wide> {
    fx: W::F,
    fy: W::F,
    gx2: [W::F; 5],
    gy2: [W::F; 5],
    /// The cells' products (prime lattice) or the cells (xxHash32) at offset 0.
    x0: W::U,
    y0: W::U,
    bound: W::F,
    jitter: W::F,
    seed: u32,
    f2: bool,
    best: Nearest<W>,
}

impl<W: Wide> Search<W> {
    /// What a cell must come within to matter: the bound, or the F2 (or F1) found so far.
    #[inline(always)]
    fn to_beat(&self, s: W) -> W::F {
        let found = if self.f2 { self.best.m2 } else { self.best.m1 };
        s.min(self.bound, found)
    }

    /// Whether any lane may use a cell of row `ky` (a cell's reach is never below its row's).
    #[inline(always)]
    fn row_open(&self, s: W, ky: usize) -> bool {
        s.any(s.lt(self.gy2[ky], self.to_beat(s)))
    }

    /// `visit_cell` for the cell at `search_offset(KX), search_offset(KY)`. The centre and its
    /// four neighbours are computed under their masks without a branch: some lane needs them
    /// in most blocks, and a branch on them was mostly a mispredicted one.
    #[inline(always)]
    fn visit<const PRIME: bool, const KX: usize, const KY: usize>(&mut self, s: W) {
        let (ox, oy) = (
            search_offset(KX as i64) as i32,
            search_offset(KY as i64) as i32,
        );
        let open = s.lt(s.add(self.gx2[KX], self.gy2[KY]), self.to_beat(s));
        let near = (KX < 3 && KY == 0) || (KX == 0 && KY < 3);
        if !near && !s.any(open) {
            return;
        }
        let h = cell_hash::<W, PRIME>(s, self.seed, (self.x0, ox), (self.y0, oy));
        let point_x = feature_point::<W, PRIME>(s, h, 0, self.jitter);
        let point_y = feature_point::<W, PRIME>(s, h, 1, self.jitter);
        let dx = s.sub(s.add(s.splat(ox as f32), point_x), self.fx);
        let dy = s.sub(s.add(s.splat(oy as f32), point_y), self.fy);
        let m = length2(s, dx, dy);
        let best = &mut self.best;
        let first = s.and_m(open, s.lt(m, best.m1));
        let second = s.and_m(s.and_not_m(open, first), s.lt(m, best.m2));
        best.m2 = s.select(first, best.m1, s.select(second, m, best.m2));
        best.hash = s.select_u(first, h, best.hash);
        best.m1 = s.select(first, m, best.m1);
    }
}

/// The five cells of row `$ky` in order, if any lane may use one (written out, so each
/// cell's offsets and gaps are constants).
macro_rules! search_row {
    ($search:ident, $s:ident, $prime:ident, $ky:literal) => {
        if $ky == 0 || $search.row_open($s, $ky) {
            $search.visit::<$prime, 0, $ky>($s);
            $search.visit::<$prime, 1, $ky>($s);
            $search.visit::<$prime, 2, $ky>($s);
            $search.visit::<$prime, 3, $ky>($s);
            $search.visit::<$prime, 4, $ky>($s);
        }
    };
}

/// `cellular_search` in 2D on the Euclidean metrics over the 5 x 5 window (`cell_search` 2),
/// in its order (rows y = 0, -1, 1, -2, 2; x the same within a row). Each cell's reach is its
/// squared gaps' sum, as `visit_cell` computes it, from gaps worked out once per block; a row
/// whose y gap alone reaches what every lane must beat is skipped whole.
#[inline(always)]
fn search<W: Wide, const PRIME: bool>(
    s: W,
    seed: u32,
    kind: &KindState,
    p: &[AxisPoint<W>; 4],
) -> Nearest<W> {
    let (x0, y0) = if PRIME {
        (
            s.mul_u(p[0].cell, s.splat_u(LATTICE_PRIMES[0])),
            s.mul_u(p[1].cell, s.splat_u(LATTICE_PRIMES[1])),
        )
    } else {
        (p[0].cell, p[1].cell)
    };
    let mut search = Search {
        fx: p[0].frac,
        fy: p[1].frac,
        gx2: squared_gaps(s, p[0].frac),
        gy2: squared_gaps(s, p[1].frac),
        x0,
        y0,
        bound: s.splat(kind.cellular.cell_bound),
        jitter: s.splat(kind.cellular.jitter),
        seed,
        f2: kind.cellular.cell_return != CellReturn::F1 as u32
            && kind.cellular.cell_return != CellReturn::CellValue as u32,
        best: Nearest {
            m1: s.splat(f32::MAX),
            m2: s.splat(f32::MAX),
            hash: s.splat_u(0),
        },
    };
    search_row!(search, s, PRIME, 0);
    search_row!(search, s, PRIME, 1);
    search_row!(search, s, PRIME, 2);
    search_row!(search, s, PRIME, 3);
    search_row!(search, s, PRIME, 4);
    search.best
}

/// 2D cellular noise on the Euclidean metrics.
pub struct Cellular2;

impl WideKernel for Cellular2 {
    const DIMS: usize = 2;
    const WEIGHTS: bool = false;
    fn takes(kind: &KindState) -> bool {
        let euclidean = kind.cellular.distance == Distance::Euclidean as u32
            || kind.cellular.distance == Distance::EuclideanSquared as u32;
        euclidean && kind.cellular.cell_search == 2
    }
    #[inline(always)]
    fn block<W: Wide, const PRIME: bool>(
        s: W,
        seed: u32,
        kind: &KindState,
        p: &[AxisPoint<W>; 4],
    ) -> W::F {
        let near = search::<W, PRIME>(s, seed, kind, p);
        if kind.cellular.cell_return == CellReturn::CellValue as u32 {
            return hash_value(s, near.hash);
        }
        let distance = |m: W::F| {
            let d = if kind.cellular.distance == Distance::Euclidean as u32 {
                s.sqrt(m)
            } else {
                m
            };
            s.mul(d, s.splat(kind.cellular.distance_scale))
        };
        let (d1, d2) = (distance(near.m1), distance(near.m2));
        let q = match kind.cellular.cell_return {
            r if r == CellReturn::F2 as u32 => d2,
            r if r == CellReturn::F2MinusF1 as u32 => s.sub(d2, d1),
            r if r == CellReturn::F1TimesF2 as u32 => s.mul(d1, d2),
            _ => d1,
        };
        s.sub(s.mul(q, s.splat(kind.cellular.return_scale)), s.splat(1.0))
    }
    fn lanes(lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
        row_of!(Cellular2Block, lattice, isa)
    }
}

/// Cellular noise's wide row in 2D (Euclidean metrics), where the instruction set and
/// lattice have one.
pub fn wide_row(
    dims: u32,
    _: Interp,
    lattice: LatticeKind,
    isa: InstructionSet,
) -> Option<NoiseRow> {
    if dims == 2 {
        pick::<Cellular2>(lattice, isa)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::lattice::wide::row::check::wide_rows_equal_lanes;
    use crate::kinds::own_fields::CellularFields;
    use crate::kinds::{Kind, KindFields, KindParams};

    /// Every return and both Euclidean metrics, at jitters 1 and 0.4.
    #[test]
    fn cellular_wide_rows_equal_the_lanes_rows() {
        let returns = [
            CellReturn::F1,
            CellReturn::F2,
            CellReturn::F2MinusF1,
            CellReturn::F1TimesF2,
            CellReturn::CellValue,
        ];
        for distance in [Distance::Euclidean, Distance::EuclideanSquared] {
            for cell_return in returns {
                for jitter in [1.0, 0.4] {
                    let mut fields = KindFields::defaults(Kind::Cellular);
                    fields.cellular = CellularFields {
                        distance,
                        cell_return,
                        jitter,
                    };
                    let kind = KindState::new(&KindParams::new(Kind::Cellular, 2, &fields));
                    wide_rows_equal_lanes::<Cellular2>(&kind);
                }
            }
        }
    }
}
